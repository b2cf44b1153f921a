#pragma once

#include "cost/costattribution.h"
#include "costproject/coststore.h"
#include "costwindowdialog.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <memory>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QPushButton;
class QPlainTextEdit;
class QScrollArea;
class QTableView;

namespace sb {

class CostBillModel;
class CostTimeline;

// The cost page: the project's bill items, a test window's timeline (its runs against the items
// on one time axis), the overlap rule of the selected item, and the window's breakdown with the
// unit costs. It reads the project on a thread of its own (with its own connection: the store
// is per-thread) so a window over large runs never freezes the GUI; a rule change is one small
// write, done here, after which the breakdown is recomputed from what is already in memory.
//
// Bills are imported and test windows created or moved here through the same core functions as
// `servebench-cli bills import` and `window create` (importBillFile, CostStore), each in a
// thread of its own with its own connection; the page then reads the project again. It also
// reads again when the file changes on disk (reloadFromDisk, from ProjectDocument::changedOnDisk):
// the CLI importing bills into the open project shows here without reopening it.
class CostPage : public QWidget
{
    Q_OBJECT
public:
    explicit CostPage(QWidget *parent = nullptr);
    ~CostPage() override;

    // Loads the project in the background; an empty path clears the page.
    void setProject(const QString &projectPath);
    QString projectPath() const { return m_path; }

    // The window shown, by its name; false when the project has no such window.
    bool selectWindow(const QString &name);
    // The breakdown shown (for the report export and for tests).
    const CostBreakdown &breakdown() const;
    bool isLoading() const { return m_loading; }
    bool isWriting() const { return m_writing; }

    // The SUT names a window or an import may name, and the default bounds of a new window on
    // one of them (its finished runs' span in whole seconds; invalid when it has none).
    QStringList sutNames() const;
    QPair<QDateTime, QDateTime> defaultWindowBounds(const QString &sut) const;

public slots:
    // Reads the project again, now when the page is visible, else when it is next shown (a run
    // writing the file does not make a hidden tab read it every few hundred ms). A read already
    // under way is followed by one more, never abandoned.
    void reloadFromDisk();

    // What "Import bills…" does when accepted: imports the CSV for `sut` (empty: shared) in a
    // worker thread, as `bills import --csv PATH [--sut SUT]`. writeFinished follows; a bad file
    // imports nothing and the message names the file and the row.
    void importBills(const QString &csvPath, const QString &sut);
    // What "New window…" does when accepted: `window create --name --sut --start --end`.
    void createWindow(const QString &name, const QString &sut, const QDateTime &start,
                      const QDateTime &end);
    // Moves the window (name or id) to [start, end); its runs must stay inside.
    void setWindowBounds(const QString &window, const QDateTime &start, const QDateTime &end);

signals:
    // After every load (successful or not) and every recomputation.
    void loaded();
    void breakdownChanged();
    // After a write of the page (import, window) is done; on success a reload follows.
    void writeFinished(bool ok);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    struct Data;
    struct WriteResult;
    // Every text of the page in the current language; the status, the rule hint and the
    // breakdown's placeholder are rendered again from what the page holds (no reload).
    void retranslateUi();
    void updateBreakdownText();
    void startLoad();
    void applyLoad(quint64 generation, const std::shared_ptr<Data> &data);
    void showWindow(int index);
    void recompute();
    void updateRuleCombo();
    void ruleChosen(int comboIndex);
    // The status is kept as how to render it, so a language switch can render it again.
    void setStatus(std::function<QString()> text, bool error = false);
    // The outcome of the last import or window change, rendered like the status.
    void setMessage(std::function<QString()> text, bool error = false);
    // Runs `job` on a worker thread with its own read-write connection to the project; `done`
    // renders the outcome on the GUI thread. `select`: the window to show after the reload.
    void runWrite(std::function<void(CostStore &, WriteResult &)> job,
                  std::function<QString(const WriteResult &)> done, const QString &select);
    void updateActions();
    void openImportDialog();
    void openWindowDialog();
    void saveBounds();

    bool m_writing = false;
    bool m_stale = false;         // changed on disk while hidden: read when shown
    bool m_reloadPending = false; // changed while a read was under way
    QString m_selectAfterLoad;
    QString m_boundsShownFor; // the window (id and bounds) the bounds fields were set from

    QString m_path;
    quint64 m_generation = 0; // a load that finishes after a newer one started is dropped
    bool m_loading = false;
    std::shared_ptr<Data> m_data;
    int m_windowIndex = -1;
    std::unique_ptr<CostBreakdown> m_breakdown;

    QComboBox *m_windowCombo = nullptr;
    QLabel *m_status = nullptr;
    std::function<QString()> m_statusText;
    QLabel *m_windowLabel = nullptr;
    QLabel *m_ruleLabel = nullptr;
    CostTimeline *m_timeline = nullptr;
    QScrollArea *m_timelineScroll = nullptr;
    QTableView *m_table = nullptr;
    CostBillModel *m_model = nullptr;
    QComboBox *m_ruleCombo = nullptr;
    QLabel *m_ruleHint = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QPushButton *m_importButton = nullptr;
    QPushButton *m_newWindowButton = nullptr;
    QLabel *m_boundsLabel = nullptr;
    QLabel *m_boundsTo = nullptr;
    QDateTimeEdit *m_startEdit = nullptr;
    QDateTimeEdit *m_endEdit = nullptr;
    QPushButton *m_saveBoundsButton = nullptr;
    QLabel *m_message = nullptr;
    std::function<QString()> m_messageText;
};

} // namespace sb
