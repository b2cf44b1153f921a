// Cost from the command line: bill items in, test windows over runs, a breakdown out. Every
// figure comes from core/costproject; this file only parses flags and prints.
#include "costcommands.h"

#include "args.h"

#include "common/displaywidth.h"

#include "cost/costbreakdown.h"
#include "costproject/billfileimport.h"
#include "costproject/coststore.h"
#include "store/projectstore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

void note(const QString &command, const QString &message)
{
    QTextStream(stderr) << "servebench-cli " << command << ": note: " << message << "\n";
}

// Parses argv with `specs` plus --project and --help. Returns false with *code set when the
// command is done (help printed or a usage error).
bool parseArgs(Args *a, const QStringList &argv, const QString &command, const QString &usage,
               int *code)
{
    QString error;
    if (!a->parse(argv, &error)) {
        *code = fail(command, error, 2);
        return false;
    }
    if (a->has(u"help"_s)) {
        QTextStream(stdout) << "usage: " << usage << "\n\n" << a->helpText();
        *code = 0;
        return false;
    }
    return true;
}

QList<OptionSpec> withCommon(QList<OptionSpec> specs)
{
    specs.prepend({u"project"_s, OptionSpec::Value, u"project file"_s, {}});
    specs.append({u"help"_s, OptionSpec::Flag, u"show this help"_s, {}});
    return specs;
}

bool openProject(const Args &a, const QString &command, ProjectStore *store, bool write, int *code)
{
    const QString path = a.value(u"project"_s);
    if (path.isEmpty()) {
        *code = fail(command, u"--project FILE is required"_s, 2);
        return false;
    }
    // A mistyped name must not quietly become a new, empty project.
    if (!QFileInfo::exists(path)) {
        *code = fail(command, u"--project %1: no such file"_s.arg(path));
        return false;
    }
    if (!store->open(path, write ? ProjectStore::OpenMode::ReadWrite
                                 : ProjectStore::OpenMode::ReadOnly)) {
        *code = fail(command, u"--project %1: %2"_s.arg(path, store->lastError()));
        return false;
    }
    return true;
}

bool requireValue(const Args &a, const QString &command, const QString &flag, QString *value,
                  int *code)
{
    *value = a.value(flag);
    if (value->isEmpty()) {
        *code = fail(command, u"--%1 is required"_s.arg(flag), 2);
        return false;
    }
    return true;
}

// --- bills -----------------------------------------------------------------------------------

int billsImport(const QStringList &argv)
{
    const QString cmd = u"bills import"_s;
    Args a(withCommon({{u"csv"_s, OptionSpec::Value, u"bill CSV file (docs/cost.md)"_s, {}},
                       {u"sut"_s,
                        OptionSpec::Value,
                        u"SUT the items bill (default: shared by every SUT)"_s,
                        {}}}));
    int code = 0;
    if (!parseArgs(&a, argv, cmd,
                   u"servebench-cli bills import --project FILE --csv FILE [--sut NAME]"_s, &code))
        return code;
    QString csvPath;
    if (!requireValue(a, cmd, u"csv"_s, &csvPath, &code))
        return code;
    ProjectStore store;
    if (!openProject(a, cmd, &store, true, &code))
        return code;
    const QString sut = a.value(u"sut"_s);
    CostStore costs(&store);
    // The Cost tab imports through the same function: the same items, the same messages.
    const BillFileImport imported = importBillFile(costs, csvPath, sut);
    if (!imported.ok()) {
        for (const QString &e : imported.errors)
            fail(cmd, u"--csv "_s + e);
        return fail(cmd, u"--csv "_s + imported.failure);
    }
    if (!imported.note.isEmpty())
        note(cmd, u"--sut: "_s + imported.note);
    const QList<qint64> &ids = imported.rowIds;
    QTextStream(stdout) << "Imported " << ids.size() << " bill item(s) from " << csvPath
                        << (sut.isEmpty() ? u" (shared by every SUT)"_s
                                          : u" for SUT '%1'"_s.arg(sut))
                        << "\n";
    return 0;
}

int billsList(const QStringList &argv)
{
    const QString cmd = u"bills list"_s;
    Args a(withCommon({{u"sut"_s, OptionSpec::Value, u"only this SUT's and shared items"_s, {}},
                       {u"json"_s, OptionSpec::Flag, u"print JSON"_s, {}}}));
    int code = 0;
    if (!parseArgs(&a, argv, cmd,
                   u"servebench-cli bills list --project FILE [--sut NAME] [--json]"_s, &code))
        return code;
    ProjectStore store;
    if (!openProject(a, cmd, &store, false, &code))
        return code;
    CostStore costs(&store);
    QStringList problems;
    const QList<ProjectBillItem> items = a.has(u"sut"_s)
                                             ? costs.billItemsForSut(a.value(u"sut"_s), &problems)
                                             : costs.billItems(&problems);
    QTextStream out(stdout);
    if (a.has(u"json"_s)) {
        QJsonArray arr;
        for (const ProjectBillItem &p : items) {
            QJsonObject o = p.item.toJson();
            o[u"row"_s] = double(p.rowId);
            o[u"sut"_s] = p.sut;
            const auto total = p.item.total();
            o[u"item_total"_s] = total ? QJsonValue(total->toString()) : QJsonValue();
            arr.append(o);
        }
        out << QJsonDocument(arr).toJson(QJsonDocument::Indented);
    } else {
        // Columns by display width (common/displaywidth.h): an id or a SUT name in Chinese
        // takes two columns a character, and padding by characters pushed the rest of its row
        // to the right of the header's columns.
        // Per column: its width (negative: right-aligned), and whether a longer text is cut
        // (the id and the SUT, as before); the last column (pricing) as it is.
        const auto row = [](const QStringList &cells) {
            static const struct
            {
                int width;
                bool cut;
            } columns[] = {{-4, false}, {16, true},  {14, true},  {8, false},
                           {24, false}, {24, false}, {-16, false}};
            QStringList out;
            for (qsizetype i = 0; i < cells.size(); ++i) {
                if (i >= qsizetype(std::size(columns))) {
                    out << cells.at(i);
                    continue;
                }
                const auto [w, cut] = columns[i];
                out << (w < 0 ? padLeftToWidth(cells.at(i), -w)
                              : padToWidth(cut ? truncateToWidth(cells.at(i), w) : cells.at(i), w));
            }
            return out.join(u"  "_s) + u'\n';
        };
        out << row({u"row"_s, u"id"_s, u"SUT"_s, u"category"_s, u"start (UTC)"_s, u"end (UTC)"_s,
                    u"total"_s, u"pricing"_s});
        for (const ProjectBillItem &p : items) {
            const auto total = p.item.total();
            out << row({QString::number(p.rowId), p.item.id,
                        p.sut.isEmpty() ? u"(shared)"_s : p.sut,
                        QString::fromLatin1(billCategoryName(p.item.category)),
                        formatUtcTimestamp(p.item.start), formatUtcTimestamp(p.item.end),
                        total ? total->toString() + u' ' + p.item.currency : u"invalid"_s,
                        p.item.pricingText()});
        }
        out << items.size() << " bill item(s)\n";
    }
    for (const QString &p : problems)
        fail(cmd, p);
    return problems.isEmpty() ? 0 : 1;
}

// --- windows ---------------------------------------------------------------------------------

void printWindow(QTextStream &out, const ProjectWindow &p, bool created = false)
{
    const TestWindow &w = p.window;
    out << (created ? u"Created test window"_s : u"Test window"_s)
        << u" '%1' (id %2) on SUT '%3'\n"_s.arg(w.name, w.id, w.sut);
    out << u"  %1 – %2 (exclusive)\n"_s.arg(formatUtcTimestamp(w.start), formatUtcTimestamp(w.end));
    for (const WindowRun &r : w.runs)
        out << u"  run %1: %2 – %3, %4 successful requests, %5 output tokens, %6\n"_s.arg(r.runId)
                   .arg(formatUtcTimestamp(r.start), formatUtcTimestamp(r.end))
                   .arg(r.successfulRequests)
                   .arg(r.outputTokens)
                   .arg(r.load.isEmpty() ? u"load not stated"_s : r.load);
    if (w.runs.isEmpty())
        out << "  no runs: unit costs will not be available\n";
    for (auto it = w.overlapRules.cbegin(); it != w.overlapRules.cend(); ++it)
        out << u"  rule: bill item '%1' -> %2\n"_s.arg(
            it.key(), QLatin1StringView(overlapRuleName(it.value())));
    for (const QString &problem : p.problems)
        out << "  problem: " << problem << "\n";
}

QList<qint64> parseRunIds(const QString &text, bool *ok)
{
    QList<qint64> ids;
    *ok = true;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        bool good = false;
        const qint64 id = part.trimmed().toLongLong(&good);
        if (!good || id <= 0)
            *ok = false;
        ids.append(id);
    }
    *ok = *ok && !ids.isEmpty();
    return ids;
}

QDateTime parseTimeFlag(const Args &a, const QString &flag, QString *error)
{
    QString why;
    const QDateTime t = parseUtcTimestamp(a.value(flag), &why);
    if (!t.isValid())
        *error = u"--%1 '%2': %3"_s.arg(flag, a.value(flag), why);
    return t;
}

int windowCreate(const QStringList &argv)
{
    const QString cmd = u"window create"_s;
    Args a(withCommon({{u"name"_s, OptionSpec::Value, u"window name (unique in the project)"_s, {}},
                       {u"runs"_s, OptionSpec::Value, u"run ids, comma-separated: ID,ID"_s, {}},
                       {u"start"_s, OptionSpec::Value, u"window start, ISO 8601 UTC"_s, {}},
                       {u"end"_s, OptionSpec::Value, u"window end (exclusive), ISO 8601 UTC"_s, {}},
                       {u"sut"_s, OptionSpec::Value, u"SUT name (with --start/--end)"_s, {}}}));
    int code = 0;
    if (!parseArgs(&a, argv, cmd,
                   u"servebench-cli window create --project FILE --name NAME "
                   "(--runs ID,ID | --start ISO --end ISO --sut NAME)"_s,
                   &code))
        return code;
    QString name;
    if (!requireValue(a, cmd, u"name"_s, &name, &code))
        return code;
    const bool byRuns = a.has(u"runs"_s);
    const bool byInterval = a.has(u"start"_s) || a.has(u"end"_s) || a.has(u"sut"_s);
    if (byRuns == byInterval)
        return fail(cmd, u"give either --runs ID,ID or --start, --end and --sut"_s, 2);
    QList<qint64> runIds;
    QDateTime start, end;
    QString sut;
    if (byRuns) {
        bool ok = false;
        runIds = parseRunIds(a.value(u"runs"_s), &ok);
        if (!ok)
            return fail(cmd,
                        u"--runs '%1': expected run ids like 3,4 (see `servebench-cli runs`)"_s.arg(
                            a.value(u"runs"_s)),
                        2);
    } else {
        for (const QString &flag : {u"start"_s, u"end"_s, u"sut"_s})
            if (!requireValue(a, cmd, flag, &sut, &code))
                return code;
        sut = a.value(u"sut"_s);
        QString error;
        start = parseTimeFlag(a, u"start"_s, &error);
        if (start.isValid())
            end = parseTimeFlag(a, u"end"_s, &error);
        if (!error.isEmpty())
            return fail(cmd, error, 2);
        if (!(start < end))
            return fail(cmd, u"--end must come after --start"_s, 2);
    }
    ProjectStore store;
    if (!openProject(a, cmd, &store, true, &code))
        return code;
    CostStore costs(&store);
    QStringList notes;
    const auto window = byRuns ? costs.windowFromRuns(name, runIds)
                               : costs.windowFromInterval(name, sut, start, end, &notes);
    if (!window)
        return fail(cmd, (byRuns ? u"--runs: "_s : u"--sut: "_s) + costs.lastError());
    const qint64 id = costs.saveWindow(*window);
    if (id <= 0)
        return fail(cmd, costs.lastError());
    for (const QString &n : notes)
        note(cmd, n);
    const auto saved = costs.window(QString::number(id));
    QTextStream out(stdout);
    if (saved)
        printWindow(out, *saved, true);
    return 0;
}

int windowList(const QStringList &argv)
{
    const QString cmd = u"window list"_s;
    Args a(withCommon({}));
    int code = 0;
    if (!parseArgs(&a, argv, cmd, u"servebench-cli window list --project FILE"_s, &code))
        return code;
    ProjectStore store;
    if (!openProject(a, cmd, &store, false, &code))
        return code;
    CostStore costs(&store);
    QTextStream out(stdout);
    const QList<ProjectWindow> windows = costs.windows();
    for (const ProjectWindow &w : windows)
        printWindow(out, w);
    out << windows.size() << " test window(s)\n";
    return 0;
}

int windowRule(const QStringList &argv)
{
    const QString cmd = u"window rule"_s;
    Args a(withCommon({{u"window"_s, OptionSpec::Value, u"window name or id"_s, {}},
                       {u"item"_s, OptionSpec::Value, u"bill item id (or #row)"_s, {}},
                       {u"rule"_s, OptionSpec::Value, u"prorate | whole | undecided"_s, {}}}));
    int code = 0;
    if (!parseArgs(&a, argv, cmd,
                   u"servebench-cli window rule --project FILE --window NAME --item ID "
                   "--rule prorate|whole|undecided"_s,
                   &code))
        return code;
    QString window, item, ruleText;
    if (!requireValue(a, cmd, u"window"_s, &window, &code) ||
        !requireValue(a, cmd, u"item"_s, &item, &code) ||
        !requireValue(a, cmd, u"rule"_s, &ruleText, &code))
        return code;
    OverlapRule rule = OverlapRule::Undecided;
    if (!overlapRuleFromName(ruleText, &rule))
        return fail(cmd, u"--rule '%1': expected prorate, whole or undecided"_s.arg(ruleText), 2);
    ProjectStore store;
    if (!openProject(a, cmd, &store, true, &code))
        return code;
    CostStore costs(&store);
    QString n;
    if (!costs.setOverlapRule(window, item, rule, &n))
        return fail(cmd, costs.lastError());
    if (!n.isEmpty())
        note(cmd, n);
    QTextStream(stdout) << u"Window '%1': bill item '%2' -> %3\n"_s.arg(
        window, item, QLatin1StringView(overlapRuleName(rule)));
    return 0;
}

// --- cost ------------------------------------------------------------------------------------

// "EUR:USD=1.08": 1 EUR = 1.08 USD.
bool parseRate(const QString &text, const QString &source, ConversionRate *out, QString *error)
{
    const qsizetype colon = text.indexOf(u':');
    const qsizetype eq = text.indexOf(u'=');
    if (colon < 0 || eq < colon) {
        *error = u"--rate '%1': expected FROM:TO=RATE, e.g. EUR:USD=1.08"_s.arg(text);
        return false;
    }
    out->from = text.left(colon).trimmed();
    out->to = text.mid(colon + 1, eq - colon - 1).trimmed();
    out->source = source;
    for (const QString &code : {out->from, out->to})
        if (!isCurrencyCode(code)) {
            *error = u"--rate '%1': '%2' is not an ISO 4217 code (three upper-case letters)"_s.arg(
                text, code);
            return false;
        }
    QString why;
    const auto rate = Decimal::parse(text.mid(eq + 1), &why);
    if (!rate || !rate->isPositive()) {
        *error = u"--rate '%1': %2"_s.arg(text, rate ? u"the rate must be positive"_s : why);
        return false;
    }
    out->rate = *rate;
    return true;
}

} // namespace

int billsCommand(const QStringList &args)
{
    const QString sub = args.value(0);
    if (sub == "import"_L1)
        return billsImport(args.mid(1));
    if (sub == "list"_L1)
        return billsList(args.mid(1));
    return fail(u"bills"_s,
                sub.isEmpty() || sub.startsWith("--"_L1)
                    ? u"expected a subcommand: import or list"_s
                    : u"unknown subcommand '%1' (import, list)"_s.arg(sub),
                2);
}

int windowCommand(const QStringList &args)
{
    const QString sub = args.value(0);
    if (sub == "create"_L1)
        return windowCreate(args.mid(1));
    if (sub == "list"_L1)
        return windowList(args.mid(1));
    if (sub == "rule"_L1)
        return windowRule(args.mid(1));
    return fail(u"window"_s,
                sub.isEmpty() || sub.startsWith("--"_L1)
                    ? u"expected a subcommand: create, list or rule"_s
                    : u"unknown subcommand '%1' (create, list, rule)"_s.arg(sub),
                2);
}

int costCommand(const QStringList &argv)
{
    const QString cmd = u"cost"_s;
    Args a(withCommon(
        {{u"window"_s, OptionSpec::Value, u"test window name or id"_s, {}},
         {u"json"_s,
          OptionSpec::Flag,
          u"print the breakdown as JSON (exact decimal strings)"_s,
          {}},
         {u"currency"_s, OptionSpec::Value, u"report currency, e.g. USD"_s, {}},
         {u"rate"_s,
          OptionSpec::Repeated,
          u"conversion rate FROM:TO=RATE (1 FROM = RATE TO)"_s,
          {}},
         {u"rate-source"_s, OptionSpec::Value, u"where the --rate values come from"_s, {}},
         {u"save-rates"_s,
          OptionSpec::Flag,
          u"keep --currency and --rate in the project for later breakdowns"_s,
          {}}}));
    int code = 0;
    if (!parseArgs(&a, argv, cmd,
                   u"servebench-cli cost --project FILE --window NAME [--json] [--currency CUR] "
                   "[--rate FROM:TO=RATE ...] [--save-rates]"_s,
                   &code))
        return code;
    QString windowName;
    if (!requireValue(a, cmd, u"window"_s, &windowName, &code))
        return code;
    if (a.has(u"currency"_s) && !isCurrencyCode(a.value(u"currency"_s)))
        return fail(
            cmd,
            u"--currency '%1': expected an ISO 4217 code such as USD"_s.arg(a.value(u"currency"_s)),
            2);
    QList<ConversionRate> given;
    for (const QString &text : a.values(u"rate"_s)) {
        ConversionRate r;
        QString error;
        if (!parseRate(text, a.value(u"rate-source"_s, u"given on the command line"_s), &r, &error))
            return fail(cmd, error, 2);
        given.append(r);
    }
    const bool save = a.has(u"save-rates"_s);
    ProjectStore store;
    if (!openProject(a, cmd, &store, save, &code))
        return code;
    CostStore costs(&store);
    // Stored choices first; what the command line says overrides them.
    CostOptions options = costs.costOptions();
    if (a.has(u"currency"_s))
        options.currency = a.value(u"currency"_s);
    for (const ConversionRate &r : given) {
        options.rates.removeIf(
            [&r](const ConversionRate &o) { return o.from == r.from && o.to == r.to; });
        options.rates.append(r);
    }
    if (save && !costs.saveCostOptions(options))
        return fail(cmd, costs.lastError());
    const auto window = costs.window(windowName);
    if (!window)
        return fail(cmd,
                    u"--window: "_s + costs.lastError() + u" (see `servebench-cli window list`)"_s);
    const CostBreakdown b = costs.breakdown(*window, options);
    QTextStream out(stdout);
    if (a.has(u"json"_s))
        out << QJsonDocument(b.toJson()).toJson(QJsonDocument::Indented);
    else
        out << b.formatText();
    out.flush();
    for (const QString &e : b.errors)
        fail(cmd, e);
    return b.ok() ? 0 : 1;
}

} // namespace sb::cli
