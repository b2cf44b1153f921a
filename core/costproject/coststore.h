#pragma once

#include "cost/costattribution.h"
#include "cost/testwindow.h"
#include "costproject/projectbillitem.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace sb {

class ProjectStore;
struct CostBreakdown;
struct RunInfo;
struct TestWindowRow;

// A test window as the project holds it. The runs' figures are not stored with the window:
// they are read from the runs each time (counts recomputed from the raw records), so a window
// can never disagree with its runs.
struct ProjectWindow
{
    qint64 rowId = 0;
    qint64 sutId = 0;     // 0 when the runs carry no SUT row (the SUT name comes from the snapshot)
    TestWindow window;    // id = the row id as text
    QStringList problems; // what could not be read (a rule naming a vanished item, ...)
};

// A problem with one of the items of an import, by its index in the list (-1: not one item's).
struct BillImportProblem
{
    int index = -1;
    QString column; // "id" for a clash; empty otherwise
    QString message;
};

// Maps the cost module's values (BillItem, TestWindow, CostOptions) onto the project file's rows
// and builds test windows from stored runs. It works on an open ProjectStore, in the thread that
// opened it. Failing calls return 0 / false / nullopt and set lastError().
class CostStore
{
public:
    explicit CostStore(ProjectStore *store);

    QString lastError() const { return m_error; }

    // --- bill items ------------------------------------------------------------------------
    // Every item, oldest start first. Rows that cannot be read are left out and described in
    // *problems (a breakdown then refuses to total: a missing line would make it wrong).
    QList<ProjectBillItem> billItems(QStringList *problems = nullptr) const;
    // The items a window on this SUT considers: the SUT's own and the shared ones.
    QList<ProjectBillItem> billItemsForSut(const QString &sut,
                                           QStringList *problems = nullptr) const;
    // Saves all items for `sut` (empty: shared) in one transaction, or none. Item ids must be
    // unique among the items a window could see together (the SUT's and the shared ones); an
    // empty id gets a UUID. Returns the row ids in order; on failure an empty list and the
    // problems (every item is checked).
    QList<qint64> importBillItems(const QList<BillItem> &items, const QString &sut,
                                  QList<BillImportProblem> *problems);
    qint64 saveBillItem(const ProjectBillItem &item); // rowId 0 inserts

    // --- SUT names ---------------------------------------------------------------------------
    // The SUT a stored run was recorded against: its SUT row's name, else the name in its
    // snapshot (an imported run, "imported (vllm bench serve)", has no SUT row). Windows, bill
    // items and `bills import --sut` resolve a SUT name with this, so every command accepts
    // the same names.
    QString runSutName(const RunInfo &run) const;
    // Every SUT name the project knows: its SUT rows' and its runs' (runSutName), sorted.
    QStringList sutNames() const;

    // --- runs and windows ------------------------------------------------------------------
    // One stored run as a window sees it: its exact start/end (UTC), successful requests and
    // output tokens recomputed from its raw records (the stored summary when it has none) and
    // a load descriptor. Sets *sut / *sutId to the run's SUT. A run still running is refused.
    std::optional<WindowRun> windowRun(qint64 runId, QString *sut = nullptr,
                                       qint64 *sutId = nullptr) const;
    // The window spanning the runs exactly. They must all be finished runs of one SUT; the
    // error names the runs of each SUT otherwise.
    std::optional<TestWindow> windowFromRuns(const QString &name,
                                             const QList<qint64> &runIds) const;
    // The window [start, end) on the named SUT with every finished run of it inside the
    // interval. *notes lists runs of the SUT that only partly overlap (left out).
    std::optional<TestWindow> windowFromInterval(const QString &name, const QString &sut,
                                                 const QDateTime &start, const QDateTime &end,
                                                 QStringList *notes = nullptr) const;

    // Saves the window (its SUT, interval, runs and overlap rules) as a new row, or over the row
    // whose id is window.id. Rules are keyed by the bill items' ids among the SUT's items.
    // Window names are unique in a project. Returns the row id.
    qint64 saveWindow(const TestWindow &window);
    QList<ProjectWindow> windows() const;
    // By name, or by row id when the text is a number and no window has that name.
    std::optional<ProjectWindow> window(const QString &nameOrId) const;
    // Moves an existing window's bounds to [start, end) (UTC), keeping its runs and overlap
    // rules: every run must still lie inside, or nothing is saved and the error names the run
    // that would fall out (a window covers its runs whole; docs/cost.md, "Test windows").
    bool setWindowBounds(const QString &windowNameOrId, const QDateTime &start,
                         const QDateTime &end);
    // Records the user's choice for an item that overlaps the window (Undecided clears it).
    // *note says when the rule has no effect because the item does not partly overlap.
    bool setOverlapRule(const QString &windowNameOrId, const QString &itemId, OverlapRule rule,
                        QString *note = nullptr);

    // --- conversion and breakdown ----------------------------------------------------------
    // The report currency and the user-given conversion rates kept with the project.
    CostOptions costOptions() const;
    bool saveCostOptions(const CostOptions &options);
    // Attributes the window's SUT's items. Unreadable items or runs are errors of the
    // breakdown (its figures are then not available), never silently skipped.
    CostBreakdown breakdown(const ProjectWindow &window, const CostOptions &options) const;
    // The same from values already read (all the project's items; the window's SUT's and the
    // shared ones are used): for a view that read the project once, off its own thread.
    static CostBreakdown breakdown(const ProjectWindow &window, const QList<ProjectBillItem> &items,
                                   const QStringList &itemProblems, const CostOptions &options);

private:
    bool fail(const QString &message) const;
    QString sutName(qint64 sutId) const;
    qint64 sutIdByName(const QString &name) const;
    std::optional<ProjectWindow> fromRow(const TestWindowRow &row) const;

    ProjectStore *m_store;
    mutable QString m_error;
};

} // namespace sb
