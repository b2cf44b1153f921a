#include "studydecisionmodel.h"

#include <QColor>
#include <QLocale>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

StudyDecisionModel::StudyDecisionModel(QObject *parent) : QAbstractTableModel(parent) {}

void StudyDecisionModel::setDecision(const StudyDecision &decision)
{
    beginResetModel();
    m_decision = decision;
    m_rows.clear();
    for (int s = 0; s < m_decision.scenarios.size(); ++s) {
        const StudyScenarioDecision &sd = m_decision.scenarios.at(s);
        QList<int> order = sd.order;
        // Candidates the order leaves out (none should) still get a row.
        for (int c = 0; c < sd.candidates.size(); ++c)
            if (!order.contains(c))
                order.append(c);
        for (int c : std::as_const(order))
            m_rows.append({s, c});
    }
    endResetModel();
}

void StudyDecisionModel::clear()
{
    setDecision(StudyDecision{});
}

int StudyDecisionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StudyDecisionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString StudyDecisionModel::figureText(const StudyFigure &f, int decimals, const QString &unit)
{
    const QLocale loc;
    const SeriesStats &st = f.stats;
    if (f.values.isEmpty() || std::isnan(st.mean))
        return tr("n/a");
    QString text = loc.toString(st.mean, 'f', decimals);
    if (st.meanInterval.available)
        text += u" [%1, %2]"_s.arg(loc.toString(st.meanInterval.lo, 'f', decimals),
                                   loc.toString(st.meanInterval.hi, 'f', decimals));
    if (!unit.isEmpty())
        text += u' ' + unit;
    return text;
}

QString StudyDecisionModel::verdictLabel(sb::Verdict v)
{
    switch (v) {
    case sb::Verdict::Better:
        return tr("better");
    case sb::Verdict::Worse:
        return tr("worse");
    case sb::Verdict::NoDetectableDifference:
        return tr("no detectable difference");
    case sb::Verdict::NotAvailable:
        break;
    }
    return tr("n/a");
}

QString StudyDecisionModel::rankText(const StudyCandidateResult &c)
{
    if (c.rank <= 0)
        return tr("not ranked");
    return c.tied ? u"=%1"_s.arg(c.rank) : QString::number(c.rank);
}

QVariant StudyDecisionModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &r = m_rows.at(index.row());
    const StudyScenarioDecision &sd = m_decision.scenarios.at(r.scenario);
    const StudyCandidateResult &c = sd.candidates.at(r.candidate);
    const QLocale loc;
    auto cost = [&](const std::optional<double> &v) -> QString {
        if (!v)
            return tr("n/a");
        return u"%1 %2"_s.arg(loc.toString(*v, 'f', *v < 0.01 ? 6 : 4), c.currency);
    };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Scenario:
            return sd.scenario;
        case Candidate:
            return c.baseline ? tr("%1 (baseline)").arg(c.candidate) : c.candidate;
        case Rank:
            return rankText(c);
        case Merit:
            return figureText(c.merit, sd.decimals, sd.unit);
        case Verdict:
            return c.baseline ? QStringLiteral("—") : verdictLabel(c.verdict);
        case Repeats:
            return QString::number(c.runIds.size());
        case CostPerRequest:
            return cost(c.costPerRequest);
        case CostPerMTok:
            return cost(c.costPerMillionOutputTokens);
        }
    } else if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Merit:
            // Not available, with the core's reason (a server scenario whose searches found no
            // VALID rate).
            if (!c.meritNote.isEmpty())
                return c.meritNote.translated();
            return tr("%1, mean over %n repeat(s) with its 95 % interval (Student's t over the "
                      "repeats: run-to-run variation)",
                      nullptr, int(c.runIds.size()))
                .arg(sd.meritLabel.translated());
        case Rank:
            return c.tiedWith.isEmpty()
                       ? tr("Separated: its interval does not overlap the others'")
                       : tr("Tied with %1: the intervals overlap").arg(c.tiedWith.join(u", "_s));
        case CostPerRequest:
        case CostPerMTok:
            return c.costNote.isEmpty() ? tr("From the test window %1").arg(c.window) : c.costNote;
        }
    } else if (role == Qt::ForegroundRole && index.column() == Verdict && !c.baseline) {
        if (c.verdict == sb::Verdict::Better)
            return QColor(0x1b, 0x7f, 0x3b);
        if (c.verdict == sb::Verdict::Worse)
            return QColor(0xb0, 0x20, 0x20);
    } else if (role == Qt::TextAlignmentRole && index.column() >= Rank) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant StudyDecisionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Scenario:
        return tr("Scenario");
    case Candidate:
        return tr("Candidate");
    case Rank:
        return tr("Rank");
    case Merit:
        return tr("Figure of merit [95 % interval]");
    case Verdict:
        return tr("Against baseline");
    case Repeats:
        return tr("Repeats");
    case CostPerRequest:
        return tr("Cost / request");
    case CostPerMTok:
        return tr("Cost / 1M output tokens");
    }
    return {};
}

} // namespace sb
