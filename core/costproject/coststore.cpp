#include "coststore.h"

#include "config/runplan.h"
#include "cost/costbreakdown.h"
#include "costproject/loaddescriptor.h"
#include "metrics/summary.h"
#include "store/projectstore.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// project_info key of the report currency and conversion rates.
const QString kCostOptionsKey = u"cost.options"_s;

QString runList(const QStringList &ids)
{
    return (ids.size() == 1 ? u"run "_s : u"runs "_s) + ids.join(u", "_s);
}

} // namespace

CostStore::CostStore(ProjectStore *store) : m_store(store) {}

bool CostStore::fail(const QString &message) const
{
    m_error = message;
    return false;
}

QString CostStore::sutName(qint64 sutId) const
{
    if (sutId <= 0)
        return {};
    const auto s = m_store->loadSut(sutId);
    return s ? s->config.name : QString();
}

qint64 CostStore::sutIdByName(const QString &name) const
{
    for (const StoredSut &s : m_store->listSuts())
        if (s.config.name == name)
            return s.id;
    return 0;
}

QString CostStore::runSutName(const RunInfo &run) const
{
    QString name = sutName(run.sutId);
    if (name.isEmpty()) {
        const auto full = m_store->loadRun(run.id);
        name = full ? RunPlan::fromJson(full->snapshot).sut.name : QString();
    }
    return name;
}

QStringList CostStore::sutNames() const
{
    QStringList names;
    for (const StoredSut &s : m_store->listSuts())
        names.append(s.config.name);
    for (const RunInfo &r : m_store->listRuns())
        names.append(runSutName(r));
    names.removeAll(QString());
    names.removeDuplicates();
    names.sort();
    return names;
}

// --- bill items ------------------------------------------------------------------------------

QList<ProjectBillItem> CostStore::billItems(QStringList *problems) const
{
    QList<ProjectBillItem> out;
    const QList<BillItemRow> rows = m_store->listBillItems();
    if (rows.isEmpty() && !m_store->lastError().isEmpty() && problems)
        problems->append(u"reading bill items: "_s + m_store->lastError());
    for (const BillItemRow &row : rows) {
        QString error;
        if (auto item = ProjectBillItem::fromRow(row, &error))
            out.append(*item);
        else if (problems)
            problems->append(error);
    }
    return out;
}

QList<ProjectBillItem> CostStore::billItemsForSut(const QString &sut, QStringList *problems) const
{
    QList<ProjectBillItem> out;
    for (const ProjectBillItem &p : billItems(problems))
        if (p.sut.isEmpty() || p.sut == sut)
            out.append(p);
    return out;
}

QList<qint64> CostStore::importBillItems(const QList<BillItem> &items, const QString &sut,
                                         QList<BillImportProblem> *problems)
{
    QList<BillImportProblem> found;
    // Ids a window could see next to the new items: a shared item meets every SUT's items.
    QHash<QString, const ProjectBillItem *> taken;
    const QList<ProjectBillItem> existing = billItems();
    for (const ProjectBillItem &p : existing)
        if (sut.isEmpty() || p.sut.isEmpty() || p.sut == sut)
            taken.insert(p.item.id, &p);
    QHash<QString, int> inBatch;
    QList<BillItemRow> rows;
    for (int i = 0; i < items.size(); ++i) {
        ProjectBillItem p;
        p.sut = sut;
        p.item = items[i];
        if (p.item.id.isEmpty())
            p.item.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        for (const QString &why : p.item.validate())
            found.append({i, {}, why});
        if (const auto *other = taken.value(p.item.id)) {
            found.append({i, u"id"_s,
                          u"'%1' is already used by bill item #%2%3"_s.arg(p.item.id)
                              .arg(other->rowId)
                              .arg(other->sut.isEmpty() ? u" (shared)"_s
                                                        : u" of SUT '%1'"_s.arg(other->sut))});
        } else if (inBatch.contains(p.item.id)) {
            found.append({i, u"id"_s, u"'%1' is used twice in this import"_s.arg(p.item.id)});
        }
        inBatch.insert(p.item.id, i);
        rows.append(p.toRow());
    }
    if (found.isEmpty()) {
        const QList<qint64> ids = m_store->saveBillItems(rows);
        if (ids.size() == rows.size() && !rows.isEmpty())
            return ids;
        if (!rows.isEmpty())
            found.append({-1, {}, m_store->lastError()});
    }
    if (problems)
        *problems = found;
    fail(found.isEmpty() ? u"nothing to import"_s : found.first().message);
    return {};
}

qint64 CostStore::saveBillItem(const ProjectBillItem &item)
{
    const QStringList problems = item.item.validate();
    if (!problems.isEmpty())
        return fail(problems.join(u"; "_s));
    const qint64 id = m_store->saveBillItem(item.toRow());
    if (id <= 0)
        fail(m_store->lastError());
    return id;
}

// --- runs and windows ------------------------------------------------------------------------

std::optional<WindowRun> CostStore::windowRun(qint64 runId, QString *sut, qint64 *sutId) const
{
    const auto run = m_store->loadRun(runId);
    if (!run) {
        fail(u"run %1: no such run"_s.arg(runId));
        return std::nullopt;
    }
    if (run->status == StoredRunStatus::Running) {
        fail(u"run %1 is still running: a test window needs its end"_s.arg(runId));
        return std::nullopt;
    }
    if (!run->startedUtc.isValid() || !run->endedUtc.isValid()) {
        fail(u"run %1 has no recorded start or end time"_s.arg(runId));
        return std::nullopt;
    }
    const RunPlan plan = RunPlan::fromJson(run->snapshot);
    WindowRun w;
    w.runId = QString::number(runId);
    w.start = run->startedUtc;
    w.end = run->endedUtc;
    w.load = loadDescriptor(plan.profile);
    // The raw records are the authority (the stored summary is a cache of them, and an
    // interrupted run has none); the same summarize() the reports use keeps the definitions.
    const QList<RequestRecord> records = m_store->loadRequests(runId);
    if (!records.isEmpty()) {
        const RunSummary s = summarize(records, SummaryOptions::forProfile(plan.profile));
        w.successfulRequests = s.completed;
        w.outputTokens = s.totalOutputTokens;
    } else if (run->requestCount > 0) {
        fail(u"run %1: its %2 request records cannot be read: %3"_s.arg(runId)
                 .arg(run->requestCount)
                 .arg(m_store->lastError()));
        return std::nullopt;
    } else {
        w.successfulRequests = run->summary.value(u"completed"_s).toInteger();
        w.outputTokens = run->summary.value(u"total_output_tokens"_s).toInteger();
    }
    // The GPU energy its server metrics measured (docs/server-metrics.md, energy_j), as the
    // stored summary holds it: what a per-kWh bill item prices.
    const QJsonObject energy = run->summary.value(u"server_metrics"_s)
                                   .toObject()
                                   .value(u"evidence"_s)
                                   .toObject()
                                   .value(u"energy_j"_s)
                                   .toObject();
    if (energy.value(u"available"_s).toBool() && energy.value(u"value"_s).isDouble())
        w.energyJ = energy.value(u"value"_s).toDouble();
    QString name = sutName(run->sutId);
    if (name.isEmpty())
        name = plan.sut.name;
    if (sut)
        *sut = name;
    if (sutId)
        *sutId = run->sutId;
    return w;
}

std::optional<TestWindow> CostStore::windowFromRuns(const QString &name,
                                                    const QList<qint64> &runIds) const
{
    if (runIds.isEmpty()) {
        fail(u"a test window needs at least one run"_s);
        return std::nullopt;
    }
    QList<WindowRun> runs;
    QStringList order; // SUT names in first-seen order
    QHash<QString, QStringList> runsBySut;
    QSet<qint64> seen;
    for (qint64 id : runIds) {
        if (seen.contains(id)) {
            fail(u"run %1 is listed twice"_s.arg(id));
            return std::nullopt;
        }
        seen.insert(id);
        QString sut;
        const auto run = windowRun(id, &sut);
        if (!run)
            return std::nullopt;
        if (!runsBySut.contains(sut))
            order.append(sut);
        runsBySut[sut].append(QString::number(id));
        runs.append(*run);
    }
    if (order.size() > 1) {
        QStringList parts;
        for (const QString &sut : order)
            parts << u"%1 on SUT '%2'"_s.arg(runList(runsBySut.value(sut)), sut);
        fail(u"a test window covers one SUT, but %1"_s.arg(parts.join(u" and "_s)));
        return std::nullopt;
    }
    return TestWindow::fromRuns(name, order.first(), runs);
}

std::optional<TestWindow> CostStore::windowFromInterval(const QString &name, const QString &sut,
                                                        const QDateTime &start,
                                                        const QDateTime &end,
                                                        QStringList *notes) const
{
    if (!start.isValid() || !end.isValid() || !(start < end)) {
        fail(u"the window's end must come after its start"_s);
        return std::nullopt;
    }
    TestWindow w;
    w.name = name;
    w.sut = sut;
    w.start = start.toUTC();
    w.end = end.toUTC();
    bool anyRunOfSut = false;
    for (const RunInfo &r : m_store->listRuns()) {
        if (runSutName(r) != sut)
            continue;
        anyRunOfSut = true;
        if (r.status == StoredRunStatus::Running || !r.endedUtc.isValid()) {
            if (r.startedUtc < w.end && notes)
                notes->append(u"run %1 is still running and is not in the window"_s.arg(r.id));
            continue;
        }
        if (r.startedUtc >= w.start && r.endedUtc <= w.end) {
            const auto run = windowRun(r.id);
            if (!run)
                return std::nullopt;
            w.runs.append(*run);
        } else if (r.startedUtc < w.end && r.endedUtc > w.start && notes) {
            notes->append(
                u"run %1 (%2 – %3) only partly overlaps the window and is not in it"_s.arg(r.id)
                    .arg(formatUtcTimestamp(r.startedUtc), formatUtcTimestamp(r.endedUtc)));
        }
    }
    if (!anyRunOfSut && !sutNames().contains(sut)) {
        fail(u"no SUT named '%1' in the project"_s.arg(sut));
        return std::nullopt;
    }
    return w;
}

qint64 CostStore::saveWindow(const TestWindow &window)
{
    if (window.name.trimmed().isEmpty())
        return fail(u"a test window needs a name"_s);
    if (window.sut.isEmpty())
        return fail(u"test window '%1' names no SUT"_s.arg(window.name));
    const QStringList invalid = window.validate();
    if (!invalid.isEmpty())
        return fail(u"test window '%1': %2"_s.arg(window.name, invalid.join(u"; "_s)));
    TestWindowRow row;
    if (!window.id.isEmpty()) {
        bool ok = false;
        row.id = window.id.toLongLong(&ok);
        if (!ok || row.id <= 0)
            return fail(u"test window id '%1' is not a row id"_s.arg(window.id));
    }
    for (const TestWindowRow &other : m_store->listTestWindows())
        if (other.name == window.name && other.id != row.id)
            return fail(u"a test window named '%1' already exists"_s.arg(window.name));
    row.name = window.name;
    row.sutId = sutIdByName(window.sut);
    row.startUtc = window.start;
    row.endUtc = window.end;
    for (const WindowRun &r : window.runs) {
        bool ok = false;
        const qint64 id = r.runId.toLongLong(&ok);
        if (!ok || id <= 0)
            return fail(u"run id '%1' is not a stored run"_s.arg(r.runId));
        QString runSut;
        if (!windowRun(id, &runSut))
            return 0;
        if (runSut != window.sut)
            return fail(u"run %1 is on SUT '%2', not on the window's SUT '%3'"_s.arg(
                r.runId, runSut, window.sut));
        row.runIds.append(id);
    }
    QHash<QString, qint64> rowOfItem;
    for (const ProjectBillItem &p : billItemsForSut(window.sut))
        rowOfItem.insert(p.item.id, p.rowId);
    for (auto it = window.overlapRules.cbegin(); it != window.overlapRules.cend(); ++it) {
        if (it.value() == OverlapRule::Undecided)
            continue; // no row: undecided is what an absent rule means
        if (!rowOfItem.contains(it.key()))
            return fail(
                u"overlap rule for bill item '%1', which is not one of SUT '%2''s items"_s.arg(
                    it.key(), window.sut));
        row.billRules.append(
            {rowOfItem.value(it.key()), QString::fromLatin1(overlapRuleName(it.value()))});
    }
    const qint64 id = m_store->saveTestWindow(row);
    if (id <= 0)
        fail(m_store->lastError());
    return id;
}

std::optional<ProjectWindow> CostStore::fromRow(const TestWindowRow &row) const
{
    ProjectWindow p;
    p.rowId = row.id;
    p.sutId = row.sutId;
    TestWindow &w = p.window;
    w.id = QString::number(row.id);
    w.name = row.name;
    w.start = row.startUtc;
    w.end = row.endUtc;
    w.sut = sutName(row.sutId);
    for (qint64 runId : row.runIds) {
        QString runSut;
        if (const auto run = windowRun(runId, &runSut)) {
            w.runs.append(*run);
            if (w.sut.isEmpty())
                w.sut = runSut;
        } else {
            p.problems.append(m_error);
        }
    }
    QHash<qint64, QString> itemOfRow;
    for (const ProjectBillItem &item : billItemsForSut(w.sut))
        itemOfRow.insert(item.rowId, item.item.id);
    for (const WindowBillRule &r : row.billRules) {
        OverlapRule rule = OverlapRule::Undecided;
        if (!overlapRuleFromName(r.rule, &rule))
            p.problems.append(
                u"unknown overlap rule '%1' for bill item #%2"_s.arg(r.rule).arg(r.billItemId));
        else if (!itemOfRow.contains(r.billItemId))
            p.problems.append(
                u"overlap rule for bill item #%1, which is not one of SUT '%2''s items"_s
                    .arg(r.billItemId)
                    .arg(w.sut));
        else if (rule != OverlapRule::Undecided)
            w.overlapRules.insert(itemOfRow.value(r.billItemId), rule);
    }
    return p;
}

QList<ProjectWindow> CostStore::windows() const
{
    QList<ProjectWindow> out;
    for (const TestWindowRow &row : m_store->listTestWindows())
        if (auto w = fromRow(row))
            out.append(*w);
    return out;
}

std::optional<ProjectWindow> CostStore::window(const QString &nameOrId) const
{
    const QList<TestWindowRow> rows = m_store->listTestWindows();
    for (const TestWindowRow &row : rows)
        if (row.name == nameOrId)
            return fromRow(row);
    bool ok = false;
    const qint64 id = nameOrId.toLongLong(&ok);
    for (const TestWindowRow &row : rows)
        if (ok && row.id == id)
            return fromRow(row);
    fail(u"no test window named '%1'"_s.arg(nameOrId));
    return std::nullopt;
}

bool CostStore::setWindowBounds(const QString &windowNameOrId, const QDateTime &start,
                                const QDateTime &end)
{
    auto w = window(windowNameOrId);
    if (!w)
        return false;
    if (!w->problems.isEmpty())
        return fail(u"test window '%1' cannot be read whole: %2"_s.arg(w->window.name,
                                                                       w->problems.join(u"; "_s)));
    if (!start.isValid() || !end.isValid() || !(start < end))
        return fail(u"the window's end must come after its start"_s);
    w->window.start = start.toUTC();
    w->window.end = end.toUTC();
    // saveWindow() checks that every run still lies inside and writes over the same row.
    return saveWindow(w->window) > 0;
}

bool CostStore::setOverlapRule(const QString &windowNameOrId, const QString &itemId,
                               OverlapRule rule, QString *note)
{
    const QList<TestWindowRow> rows = m_store->listTestWindows();
    std::optional<TestWindowRow> row;
    for (const TestWindowRow &r : rows)
        if (r.name == windowNameOrId)
            row = r;
    bool ok = false;
    const qint64 id = windowNameOrId.toLongLong(&ok);
    for (const TestWindowRow &r : rows)
        if (!row && ok && r.id == id)
            row = r;
    if (!row)
        return fail(u"no test window named '%1'"_s.arg(windowNameOrId));
    const auto full = fromRow(*row);
    const QString sut = full->window.sut;
    std::optional<ProjectBillItem> item;
    const QList<ProjectBillItem> items = billItemsForSut(sut);
    for (const ProjectBillItem &p : items)
        if (p.item.id == itemId)
            item = p;
    const qint64 itemRow =
        itemId.startsWith(u'#') ? itemId.mid(1).toLongLong() : itemId.toLongLong();
    for (const ProjectBillItem &p : items)
        if (!item && itemRow > 0 && p.rowId == itemRow)
            item = p;
    if (!item)
        return fail(u"no bill item '%1' among SUT '%2''s and the shared items"_s.arg(itemId, sut));
    row->billRules.removeIf([&](const WindowBillRule &r) { return r.billItemId == item->rowId; });
    if (rule != OverlapRule::Undecided)
        row->billRules.append({item->rowId, QString::fromLatin1(overlapRuleName(rule))});
    if (m_store->saveTestWindow(*row) <= 0)
        return fail(m_store->lastError());
    if (note) {
        note->clear();
        const Placement where = placementOf(item->item.startMs(), item->item.endMs(),
                                            full->window.startMs(), full->window.endMs());
        if (where != Placement::Overlapping)
            *note = u"bill item '%1' lies %2 the window: the rule only matters for an item "
                    "that partly overlaps it"_s.arg(
                        item->item.id, where == Placement::Inside ? u"inside"_s : u"outside"_s);
    }
    return true;
}

// --- conversion and breakdown ----------------------------------------------------------------

CostOptions CostStore::costOptions() const
{
    CostOptions o;
    const QJsonObject json =
        QJsonDocument::fromJson(m_store->projectInfo(kCostOptionsKey).toUtf8()).object();
    o.currency = json.value(u"currency"_s).toString();
    for (const QJsonValue &v : json.value(u"rates"_s).toArray()) {
        const QJsonObject r = v.toObject();
        const auto rate = Decimal::parse(r.value(u"rate"_s).toString());
        if (!rate)
            continue; // written by saveCostOptions from a Decimal: cannot happen unedited
        o.rates.append({r.value(u"from"_s).toString(), r.value(u"to"_s).toString(), *rate,
                        r.value(u"source"_s).toString()});
    }
    return o;
}

bool CostStore::saveCostOptions(const CostOptions &options)
{
    QJsonArray rates;
    for (const ConversionRate &r : options.rates) {
        if (!isCurrencyCode(r.from) || !isCurrencyCode(r.to) || !r.rate.isPositive())
            return fail(u"conversion rate 1 %1 = %2 %3 is not valid"_s.arg(
                r.from, r.rate.toString(), r.to));
        // The rate as decimal text: a JSON double could not hold it exactly.
        rates.append(QJsonObject{{u"from"_s, r.from},
                                 {u"to"_s, r.to},
                                 {u"rate"_s, r.rate.toString()},
                                 {u"source"_s, r.source}});
    }
    const QJsonObject json{{u"currency"_s, options.currency}, {u"rates"_s, rates}};
    if (!m_store->setProjectInfo(
            kCostOptionsKey, QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact))))
        return fail(m_store->lastError());
    return true;
}

CostBreakdown CostStore::breakdown(const ProjectWindow &window, const CostOptions &options) const
{
    QStringList problems;
    const QList<ProjectBillItem> items = billItemsForSut(window.window.sut, &problems);
    return breakdown(window, items, problems, options);
}

CostBreakdown CostStore::breakdown(const ProjectWindow &window, const QList<ProjectBillItem> &items,
                                   const QStringList &itemProblems, const CostOptions &options)
{
    QStringList problems = window.problems + itemProblems;
    QList<BillItem> considered;
    for (const ProjectBillItem &p : items)
        if (p.sut.isEmpty() || p.sut == window.window.sut)
            considered.append(p.item);
    CostBreakdown b = attributeCosts(window.window, considered, options);
    if (!problems.isEmpty()) {
        b.errors += problems;
        const QString why = u"the project could not be read completely (see errors)"_s;
        for (CostFigure *f :
             {&b.total, &b.perSuccessfulRequest, &b.perOutputToken, &b.perMillionOutputTokens})
            *f = CostFigure::unavailable(why);
    }
    return b;
}

} // namespace sb
