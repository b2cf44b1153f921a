#pragma once

#include "cost/costattribution.h"
#include "costproject/coststore.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
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

signals:
    // After every load (successful or not) and every recomputation.
    void loaded();
    void breakdownChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Data;
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
};

} // namespace sb
