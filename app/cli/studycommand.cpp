// `servebench-cli study`: a selection study (docs/study.md) — run its cells through the one run
// pipeline (resuming when the study is already in the project), show their state, derive the
// decision, write the study report and its acceptance bundle. What is left here is wording and
// printing.
#include "studycommand.h"
#include "args.h"

#include "common/coretranslation.h"
#include "common/message.h"
#include "report/reportoutputs.h"
#include "reportrenderer.h"
#include "store/projectstore.h"
#include "study/studybundle.h"
#include "study/studydecision.h"
#include "study/studydefinition.h"
#include "study/studyexecutor.h"
#include "study/studyreport.h"
#include "study/studystore.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>
#include <QTimer>

#include <atomic>
#include <csignal>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

std::atomic<int> g_studyInterrupts{0};
extern "C" void onStudySignal(int)
{
    g_studyInterrupts.fetch_add(1);
}

bool translating()
{
    return coreTranslationLanguage() != "en"_L1;
}

QString cellName(const StoredStudyCell &c)
{
    return u"%1 · %2 · r%3"_s.arg(c.candidate, c.scenario).arg(c.repeat + 1);
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) < 0 || !f.commit()) {
        *error = u"cannot write %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    return true;
}

int studyRun(const QStringList &argv)
{
    Args a({{u"project"_s, OptionSpec::Value, u"project file (created when missing)"_s, {}},
            {u"help"_s, OptionSpec::Flag, u"show this help"_s, {}}});
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"study run"_s, error, 2);
    if (a.has(u"help"_s) || a.positional().size() != 1 || a.value(u"project"_s).isEmpty()) {
        (a.has(u"help"_s) ? QTextStream(stdout) : QTextStream(stderr))
            << "usage: servebench-cli study run STUDY.json --project FILE\n\n"
            << "Runs the study's cells one after another; run again to resume after an "
               "interruption.\n\n"
            << a.helpText();
        return a.has(u"help"_s) ? 0 : 2;
    }
    QList<StudyIssue> issues;
    const StudyDefinition def = StudyDefinition::fromFile(a.positional().constFirst(), &issues);
    if (!issues.isEmpty()) {
        QTextStream err(stderr);
        for (const StudyIssue &i : std::as_const(issues))
            err << "servebench-cli study run: error: " << a.positional().constFirst() << ": "
                << i.field << ": " << i.message.text(translating()) << "\n";
        return 2;
    }
    QTextStream out(stdout);
    StudyExecutor exec(a.value(u"project"_s), def);
    exec.setApiKey(qgetenv("OPENAI_API_KEY"));
    QString what;
    if (!exec.prepare(&what, &error))
        return fail(u"study run"_s, u"--project %1: %2"_s.arg(a.value(u"project"_s), error));
    const StoredStudyVersion &v = exec.version();
    out << "Study " << def.name << ", version " << v.version << " (" << what
        << ", definition sha256 " << v.sha256.left(12) << "…)\n";
    out << exec.plan().orderNote.text(translating()) << "\n";
    for (const StoredStudyCell &c : exec.resumedCells())
        out << "Cell " << c.position + 1 << " (" << cellName(c) << ") was interrupted: its run #"
            << c.runId << " stays recorded as interrupted; the cell runs again.\n";
    int done = 0;
    for (const StoredStudyCell &c : exec.cells())
        done += c.state != "pending"_L1 ? 1 : 0;
    if (done > 0)
        out << "Resuming: " << done << " of " << exec.cells().size() << " cells already ran.\n";
    out.flush();

    QObject::connect(&exec, &StudyExecutor::cellStarted, &exec,
                     [&](const StoredStudyCell &c, qint64 runId, int total) {
                         out << "cell " << c.position + 1 << "/" << total
                             << " started: " << cellName(c) << " (run #" << runId << ")\n";
                         out.flush();
                     });
    // A server scenario's cell is a rate search: each point is a run of its own.
    QObject::connect(&exec, &StudyExecutor::searchPointStarted, &exec,
                     [&](const StoredStudyCell &c, qint64 runId, const QString &label) {
                         out << "  cell " << c.position + 1 << " search point " << label
                             << " (run #" << runId << ")\n";
                         out.flush();
                     });
    QObject::connect(&exec, &StudyExecutor::cellFinished, &exec,
                     [&](const StoredStudyCell &c, const QString &state, const QString &reason) {
                         out << "cell " << c.position + 1 << " " << state << ": " << cellName(c);
                         if (!reason.isEmpty())
                             out << " — " << reason;
                         out << "\n";
                         out.flush();
                     });
    QObject::connect(&exec, &StudyExecutor::note, &exec, [&](const QString &n) {
        out << "note: " << n << "\n";
        out.flush();
    });
    bool ok = false;
    QString finalError;
    QEventLoop loop;
    QObject::connect(&exec, &StudyExecutor::finished, &loop, [&](bool good, const QString &e) {
        ok = good;
        finalError = e;
        loop.quit();
    });
    g_studyInterrupts = 0;
    std::signal(SIGINT, onStudySignal);
    std::signal(SIGTERM, onStudySignal);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (g_studyInterrupts.load() > 0) {
            g_studyInterrupts = 0;
            out << "Interrupted: stopping after cancelling the current cell (it runs again on "
                   "resume)...\n";
            out.flush();
            exec.stop();
        }
    });
    poll.start(100);
    exec.start();
    loop.exec();
    poll.stop();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (!finalError.isEmpty())
        return fail(u"study run"_s, finalError);
    if (!ok)
        return 130;
    int completed = 0, failed = 0;
    for (const StoredStudyCell &c : exec.cells()) {
        completed += c.state == "completed"_L1 ? 1 : 0;
        failed += c.state == "failed"_L1 ? 1 : 0;
    }
    out << "Study done: " << completed << " cells completed, " << failed
        << " failed. Decide with: servebench-cli study decide --project " << a.value(u"project"_s)
        << "\n";
    return 0;
}

// Opens the project and loads the decision for `study decide` and `study report`.
bool loadDecision(const Args &a, const QString &cmd, StudyDecision *d, int *code)
{
    const QString path = a.value(u"project"_s);
    if (path.isEmpty()) {
        *code = fail(cmd, u"--project FILE is required"_s, 2);
        return false;
    }
    if (!QFileInfo::exists(path)) {
        *code = fail(cmd, u"--project %1: no such file"_s.arg(path));
        return false;
    }
    ProjectStore store;
    // Read-write: the decision makes (or remakes) the candidates' test windows, so bills
    // imported after the study ran count.
    if (!store.open(path, ProjectStore::OpenMode::ReadWrite)) {
        *code = fail(cmd, u"--project %1: %2"_s.arg(path, store.lastError()));
        return false;
    }
    QString error;
    if (!buildStudyDecision(&store, a.value(u"study"_s), a.value(u"version"_s, u"0"_s).toInt(), d,
                            &error)) {
        *code = fail(cmd, error);
        return false;
    }
    return true;
}

QList<OptionSpec> decisionSpecs()
{
    return {
        {u"project"_s, OptionSpec::Value, u"project file"_s, {}},
        {u"study"_s, OptionSpec::Value, u"study name (default: the project's only study)"_s, {}},
        {u"version"_s, OptionSpec::Value, u"definition version (default: the latest)"_s, {}},
        {u"help"_s, OptionSpec::Flag, u"show this help"_s, {}}};
}

int studyDecide(const QStringList &argv)
{
    QList<OptionSpec> specs = decisionSpecs();
    specs.append({u"json"_s, OptionSpec::Value, u"write the decision JSON to this file"_s, {}});
    Args a(specs);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"study decide"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout) << "usage: servebench-cli study decide --project FILE [--study NAME] "
                               "[--json FILE]\n\n"
                            << a.helpText();
        return 0;
    }
    StudyDecision d;
    int code = 0;
    if (!loadDecision(a, u"study decide"_s, &d, &code))
        return code;
    if (a.has(u"json"_s)) {
        if (!writeFile(a.value(u"json"_s), QJsonDocument(d.toJson()).toJson(), &error))
            return fail(u"study decide"_s, error);
    }
    QTextStream(stdout) << d.formatText(translating());
    return 0;
}

int studyReport(const QStringList &argv)
{
    QList<OptionSpec> specs = decisionSpecs();
    specs.append({u"html"_s, OptionSpec::Value, u"write the study report as HTML"_s, {}});
    specs.append({u"pdf"_s, OptionSpec::Value, u"write the study report as PDF"_s, {}});
    specs.append({u"json"_s, OptionSpec::Value, u"write the decision JSON"_s, {}});
    Args a(specs);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"study report"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout) << "usage: servebench-cli study report --project FILE [--html F] "
                               "[--pdf F] [--json F]\n\n"
                            << a.helpText();
        return 0;
    }
    StudyDecision d;
    int code = 0;
    if (!loadDecision(a, u"study report"_s, &d, &code))
        return code;
    QTextStream out(stdout);
    const QString html = studyReportHtml(d, translating());
    if (a.has(u"html"_s)) {
        if (!writeFile(a.value(u"html"_s), html.toUtf8(), &error))
            return fail(u"study report"_s, error);
        out << "wrote " << a.value(u"html"_s) << "\n";
    }
    if (a.has(u"json"_s)) {
        if (!writeFile(a.value(u"json"_s), QJsonDocument(d.toJson()).toJson(), &error))
            return fail(u"study report"_s, error);
        out << "wrote " << a.value(u"json"_s) << "\n";
    }
    if (a.has(u"pdf"_s)) {
        const std::unique_ptr<ReportRenderer> renderer = cliReportRenderer();
        if (!renderer)
            return fail(u"study report"_s, u"this build draws no PDF (built without QtGui)"_s);
        const QByteArray pdf = renderer->pdf(html, d.name, &error);
        if (pdf.isEmpty())
            return fail(u"study report"_s, error);
        if (!writeFile(a.value(u"pdf"_s), pdf, &error))
            return fail(u"study report"_s, error);
        out << "wrote " << a.value(u"pdf"_s) << "\n";
    }
    if (!a.has(u"html"_s) && !a.has(u"pdf"_s) && !a.has(u"json"_s))
        out << d.formatText(translating());
    return 0;
}

int studyBundle(const QStringList &argv)
{
    QList<OptionSpec> specs = decisionSpecs();
    specs.append({u"out"_s, OptionSpec::Value, u"write the bundle into this new folder"_s, {}});
    specs.append({u"lang"_s,
                  OptionSpec::Value,
                  u"language of the report: en or zh_CN (default: the locale's)"_s,
                  {}});
    Args a(specs);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"study bundle"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout)
            << "usage: servebench-cli study bundle [STUDY] --project FILE --out DIR "
               "[--version N] [--lang en|zh_CN]\n\n"
               "Writes the study's acceptance bundle: definition, decision JSON, report,\n"
               "every cell and run, bills and windows, manifest.\n\n"
            << a.helpText();
        return 0;
    }
    if (a.positional().size() > 1)
        return fail(u"study bundle"_s, u"expected at most one study name"_s, 2);
    QString study = a.value(u"study"_s);
    if (!a.positional().isEmpty()) {
        if (!study.isEmpty() && study != a.positional().constFirst())
            return fail(u"study bundle"_s,
                        u"the study is named twice ('%1' and --study %2)"_s.arg(
                            a.positional().constFirst(), study),
                        2);
        study = a.positional().constFirst();
    }
    const QString dir = a.value(u"out"_s);
    if (dir.isEmpty())
        return fail(u"study bundle"_s, u"--out DIR is required"_s, 2);
    if (a.has(u"lang"_s)) {
        const QString lang = a.value(u"lang"_s);
        if (lang != "en"_L1 && !coreTranslationLanguages().contains(lang))
            return fail(u"study bundle"_s,
                        u"--lang expects en or %1, got '%2'"_s.arg(
                            coreTranslationLanguages().join(u", "_s), lang),
                        2);
        if (!installCoreTranslation(lang))
            return fail(u"study bundle"_s,
                        u"--lang %1: the translation cannot be loaded"_s.arg(lang));
    }
    const QString path = a.value(u"project"_s);
    if (path.isEmpty())
        return fail(u"study bundle"_s, u"--project FILE is required"_s, 2);
    if (!QFileInfo::exists(path))
        return fail(u"study bundle"_s, u"--project %1: no such file"_s.arg(path));
    ProjectStore store;
    // Read-write, as `study decide`: the decision in the bundle is the one it prints.
    if (!store.open(path, ProjectStore::OpenMode::ReadWrite))
        return fail(u"study bundle"_s, u"--project %1: %2"_s.arg(path, store.lastError()));
    const std::unique_ptr<ReportRenderer> renderer = cliReportRenderer();
    QStringList files;
    if (!writeStudyBundle(&store, study, a.value(u"version"_s, u"0"_s).toInt(), dir, translating(),
                          renderer.get(), &files, &error))
        return fail(u"study bundle"_s, u"acceptance bundle %1: %2"_s.arg(dir, error));
    QTextStream out(stdout);
    for (const QString &f : std::as_const(files))
        out << "  " << f << "\n";
    if (!renderer)
        out << "no study/report.pdf: this build draws no PDF (built without QtGui)\n";
    out << "wrote acceptance bundle " << dir << " (" << files.size() << " files; check with: cd "
        << dir << " && sha256sum -c MANIFEST.sha256)\n";
    return 0;
}

int studyStatus(const QStringList &argv)
{
    Args a(decisionSpecs());
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"study status"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout)
            << "usage: servebench-cli study status --project FILE [--study NAME]\n\n"
            << a.helpText();
        return 0;
    }
    const QString path = a.value(u"project"_s);
    if (path.isEmpty())
        return fail(u"study status"_s, u"--project FILE is required"_s, 2);
    ProjectStore store;
    if (!store.open(path, ProjectStore::OpenMode::ReadOnly))
        return fail(u"study status"_s, u"--project %1: %2"_s.arg(path, store.lastError()));
    StudyStore studies(&store);
    const QStringList names = studies.studyNames();
    QTextStream out(stdout);
    for (const QString &name : names) {
        if (a.has(u"study"_s) && a.value(u"study"_s) != name)
            continue;
        const qint64 sid = studies.studyId(name);
        const auto v = a.has(u"version"_s) ? studies.version(sid, a.value(u"version"_s).toInt())
                                           : studies.latestVersion(sid);
        if (!v)
            continue;
        const QList<StoredStudyCell> cells = studies.cells(v->id);
        int completed = 0;
        for (const StoredStudyCell &c : cells)
            completed += c.state == "completed"_L1 ? 1 : 0;
        out << "Study " << name << ", version " << v->version << ": " << completed << " of "
            << cells.size() << " cells completed\n";
        for (const StoredStudyCell &c : cells) {
            QStringList runs;
            for (qint64 id : studies.cellRuns(c.id))
                runs << u"#"_s + QString::number(id);
            out << QString::number(c.position + 1).rightJustified(4) << "  "
                << cellName(c).leftJustified(32) << " " << c.state.leftJustified(10) << " attempts "
                << c.attempts << (runs.isEmpty() ? QString() : u"  runs "_s + runs.join(u", "_s));
            if (!c.reason.isEmpty())
                out << "  — " << c.reason;
            out << "\n";
        }
    }
    if (names.isEmpty())
        out << "The project holds no study.\n";
    return 0;
}

} // namespace

int studyCommand(const QStringList &argv)
{
    QStringList args = argv;
    const QString sub = args.isEmpty() ? QString() : args.takeFirst();
    if (sub == "run"_L1)
        return studyRun(args);
    if (sub == "status"_L1)
        return studyStatus(args);
    if (sub == "decide"_L1)
        return studyDecide(args);
    if (sub == "report"_L1)
        return studyReport(args);
    if (sub == "bundle"_L1)
        return studyBundle(args);
    if (sub == "--help"_L1 || sub == "-h"_L1) {
        QTextStream(stdout) << "usage: servebench-cli study run|status|decide|report|bundle ...\n";
        return 0;
    }
    return fail(u"study"_s,
                sub.isEmpty()
                    ? u"expected a subcommand: run, status, decide, report or bundle"_s
                    : u"unknown subcommand '%1' (run, status, decide, report, bundle)"_s.arg(sub),
                2);
}

} // namespace sb::cli
