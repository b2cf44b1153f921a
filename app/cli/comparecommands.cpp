// `compare`, `report` and `import`: side-by-side comparison, reports and the acceptance bundle.
#include "comparecommands.h"

#include "args.h"

#include "common/coretranslation.h"
#include "common/message.h"
#include "report/htmlreport.h"
#include "report/reportoutputs.h"
#include "report/vllmimport.h"
#include "reportrenderer.h"
#include "store/projectstore.h"

#include <QFileInfo>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

// Whether main() installed a catalogue for the locale: then verdicts, notes, row labels and the
// HTML report come out in that language.
bool translating()
{
    return coreTranslationLanguage() != "en"_L1;
}

QList<OptionSpec> comparisonSpecs()
{
    return {{u"project"_s, OptionSpec::Value, u"project file"_s, {}},
            {u"runs"_s,
             OptionSpec::Value,
             u"run ids, comma-separated (see `servebench-cli runs`)"_s,
             {}},
            {u"rank-by"_s,
             OptionSpec::Value,
             u"metric to rank by: ttft|tpot|itl|e2el[:mean|median|p<N>], output_throughput, "
             "request_throughput, goodput, cost_per_request ... (default ttft:p99)"_s,
             {}},
            {u"baseline"_s,
             OptionSpec::Value,
             u"run id the differences are against (default: the first)"_s,
             {}},
            {u"help"_s, OptionSpec::Flag, u"show this help"_s, {}}};
}

// Opens the project read-only and loads the report content for --runs.
bool loadContent(const Args &a, const QString &command, ProjectStore *store, ReportContent *content,
                 int *code)
{
    const QString path = a.value(u"project"_s);
    if (path.isEmpty()) {
        *code = fail(command, u"--project FILE is required"_s, 2);
        return false;
    }
    if (!QFileInfo::exists(path)) {
        *code = fail(command, u"--project %1: no such file"_s.arg(path));
        return false;
    }
    QList<qint64> ids;
    QString error;
    if (!parseRunIds(a.value(u"runs"_s), &ids, &error)) {
        *code = fail(command, u"--runs: "_s + error, 2);
        return false;
    }
    ComparisonOptions options;
    if (a.has(u"rank-by"_s) && !RankBy::parse(a.value(u"rank-by"_s), &options.rankBy, &error)) {
        *code = fail(command, error, 2);
        return false;
    }
    if (a.has(u"baseline"_s)) {
        const qint64 base = a.value(u"baseline"_s).toLongLong();
        options.baseline = int(ids.indexOf(base));
        if (options.baseline < 0) {
            *code = fail(command,
                         u"--baseline %1 is not among --runs"_s.arg(a.value(u"baseline"_s)), 2);
            return false;
        }
    }
    if (!store->open(path, ProjectStore::OpenMode::ReadOnly)) {
        *code = fail(command, u"--project %1: %2"_s.arg(path, store->lastError()));
        return false;
    }
    if (!loadReportContent(*store, ids, options, content, &error)) {
        *code = fail(command, error);
        return false;
    }
    return true;
}

} // namespace

int compareCommand(const QStringList &argv)
{
    Args a(comparisonSpecs());
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"compare"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout) << "usage: servebench-cli compare --project FILE --runs A,B[,C] "
                               "[--rank-by ttft:p99] [--baseline ID]\n\n"
                            << a.helpText();
        return 0;
    }
    ProjectStore store;
    ReportContent content;
    int code = 0;
    if (!loadContent(a, u"compare"_s, &store, &content, &code))
        return code;
    if (content.runs.size() < 2)
        return fail(u"compare"_s, u"--runs needs at least two runs"_s, 2);
    QTextStream(stdout) << content.comparison.formatText(translating());
    return 0;
}

int reportCommand(const QStringList &argv)
{
    QList<OptionSpec> specs = comparisonSpecs();
    specs.append({u"html"_s, OptionSpec::Value, u"write the self-contained HTML report"_s, {}});
    specs.append({u"pdf"_s, OptionSpec::Value, u"write the PDF report (same content)"_s, {}});
    specs.append({u"csv"_s,
                  OptionSpec::Value,
                  u"write the summary CSV; per-request rows go to <name>-requests.csv"_s,
                  {}});
    specs.append({u"json"_s, OptionSpec::Value, u"write the report JSON"_s, {}});
    specs.append({u"bundle"_s,
                  OptionSpec::Value,
                  u"write the acceptance bundle into this new folder"_s,
                  {}});
    Args a(specs);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"report"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout)
            << "usage: servebench-cli report --project FILE --runs A[,B...] [--html F] "
               "[--pdf F] [--csv F] [--json F] [--bundle DIR]\n\n"
            << a.helpText();
        return 0;
    }
    ProjectStore store;
    ReportContent content;
    int code = 0;
    if (!loadContent(a, u"report"_s, &store, &content, &code))
        return code;

    ReportOutputs outputs;
    outputs.html = a.value(u"html"_s);
    outputs.pdf = a.value(u"pdf"_s);
    outputs.csv = a.value(u"csv"_s);
    outputs.json = a.value(u"json"_s);
    outputs.bundle = a.value(u"bundle"_s);
    outputs.translated = translating();
    QTextStream out(stdout);
    QStringList written;
    const std::unique_ptr<ReportRenderer> renderer = cliReportRenderer();
    const bool ok =
        !outputs.any() || writeReportOutputs(content, outputs, renderer.get(), &written, &error);
    for (const QString &path : std::as_const(written)) {
        if (path == outputs.bundle)
            out << "wrote acceptance bundle " << path << " (check with: cd " << path
                << " && sha256sum -c MANIFEST.sha256)\n";
        else
            out << "wrote " << path << "\n";
    }
    if (!ok)
        return fail(u"report"_s, error);
    if (!a.has(u"html"_s) && !a.has(u"pdf"_s) && !a.has(u"json"_s) && !a.has(u"csv"_s) &&
        !a.has(u"bundle"_s))
        out << content.comparison.formatText(translating());
    else
        out << Message("cmp.text.heading", {content.comparison.comparability.verdictMessage()})
                   .text(translating())
            << "\n";
    return 0;
}

int importCommand(const QStringList &argv)
{
    Args a({{u"project"_s, OptionSpec::Value, u"project file (created when missing)"_s, {}},
            {u"vllm-json"_s, OptionSpec::Value, u"a `vllm bench serve --save-result` file"_s, {}},
            {u"entry"_s,
             OptionSpec::Value,
             u"which result of an --append-result file (0-based)"_s,
             {}},
            {u"name"_s, OptionSpec::Value, u"name of the imported run"_s, {}},
            {u"help"_s, OptionSpec::Flag, u"show this help"_s, {}}});
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"import"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout)
            << "usage: servebench-cli import --project FILE --vllm-json RESULT.json\n\n"
            << a.helpText();
        return 0;
    }
    if (a.value(u"project"_s).isEmpty() || a.value(u"vllm-json"_s).isEmpty())
        return fail(u"import"_s, u"--project FILE and --vllm-json FILE are required"_s, 2);
    VllmImport imp;
    if (!readVllmResultFile(a.value(u"vllm-json"_s), &imp, &error,
                            a.value(u"entry"_s, u"0"_s).toInt()))
        return fail(u"import"_s, error);
    const qint64 id = storeVllmImport(imp, a.value(u"project"_s), a.value(u"name"_s), &error);
    if (id == 0)
        return fail(u"import"_s, error);
    QTextStream out(stdout);
    out << "imported " << a.value(u"vllm-json"_s) << " (sha256 " << imp.sha256 << ") as run " << id
        << (imp.detailed ? " with per-request results" : " (summary only)") << "\n";
    if (imp.detailed) {
        const RunSummary recomputed =
            summarize(imp.records, SummaryOptions::forProfile(imp.plan.profile));
        const QStringList mismatches = compareWithVllmFile(recomputed, imp.file);
        if (mismatches.isEmpty())
            out << "recomputed summary matches the file's statistics\n";
        for (const QString &m : mismatches)
            out << "WARNING: not reproduced: " << m << "\n";
    }
    for (const QString &n : imp.notes)
        out << "note: " << n << "\n";
    return 0;
}

} // namespace sb::cli
