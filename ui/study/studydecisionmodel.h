#pragma once

#include "study/studydecision.h"

#include <QAbstractTableModel>

namespace sb {

// The decision table of the Study tab: one row per scenario and candidate, best first within a
// scenario, with the figure of merit pooled over the repeats and its 95 % interval, the rank
// (ties marked "="), the verdict against the baseline and the unit costs of the candidate's test
// window — the same StudyDecision `servebench-cli study decide` prints (docs/study.md).
class StudyDecisionModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Scenario,
        Candidate,
        Rank,
        Merit,
        Verdict,
        Repeats,
        CostPerRequest,
        CostPerMTok,
        ColumnCount
    };
    explicit StudyDecisionModel(QObject *parent = nullptr);

    void setDecision(const StudyDecision &decision);
    void clear();
    const StudyDecision &decision() const { return m_decision; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // "12.34 [11.9, 12.8] ms": the pooled mean and its interval in the figure's unit.
    static QString figureText(const StudyFigure &f, int decimals, const QString &unit);
    static QString verdictLabel(sb::Verdict v);
    static QString rankText(const StudyCandidateResult &c);

private:
    struct Row
    {
        int scenario = 0;
        int candidate = 0;
    };
    StudyDecision m_decision;
    QList<Row> m_rows;
};

} // namespace sb
