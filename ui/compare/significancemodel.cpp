#include "significancemodel.h"

#include "compare/differencetext.h"
#include "metrics/confidence.h"
#include "report/comparisonstats.h"

#include <QColor>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

SignificanceModel::SignificanceModel(QObject *parent) : QAbstractTableModel(parent) {}

void SignificanceModel::setComparison(const Comparison &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    m_lines.clear();
    for (int i = 0; i < m_comparison.rows.size(); ++i) {
        const ComparisonRow &r = m_comparison.rows.at(i);
        for (int k = 0; k < r.tests.size(); ++k)
            if (!r.tests.at(k).baseline)
                m_lines.append(Line{i, k});
    }
    endResetModel();
}

void SignificanceModel::clear()
{
    beginResetModel();
    m_comparison = Comparison();
    m_lines.clear();
    endResetModel();
}

void SignificanceModel::retranslate()
{
    if (m_lines.isEmpty())
        return;
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int SignificanceModel::rowOf(const QString &key, int candidate) const
{
    for (int i = 0; i < m_lines.size(); ++i)
        if (m_lines.at(i).candidate == candidate &&
            m_comparison.rows.at(m_lines.at(i).row).key == key)
            return i;
    return -1;
}

int SignificanceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int SignificanceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SignificanceModel::number(const ComparisonRow &row, const std::optional<double> &v) const
{
    return v ? QString::number(*v, 'f', row.decimals) : tr("n/a");
}

QVariant SignificanceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Line &line = m_lines.at(index.row());
    const ComparisonRow &row = m_comparison.rows.at(line.row);
    const CandidateTest &t = row.tests.at(line.candidate);
    const CandidateTest &base = row.tests.value(m_comparison.baselineCandidate);
    const ComparisonCandidate &cand = m_comparison.candidates.at(line.candidate);
    const Difference &d = t.difference;
    switch (role) {
    case VerdictRole:
        return QString::fromLatin1(verdictKey(t.verdict()));
    case RowKeyRole:
        return row.key;
    case CandidateRole:
        return line.candidate;
    case LowRole:
        return d.absolute.available ? QVariant(d.absolute.lo) : QVariant();
    case HighRole:
        return d.absolute.available ? QVariant(d.absolute.hi) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == VerdictColumn && t.significant())
            return t.verdict() == Verdict::Better ? kDifferenceBetter : kDifferenceWorse;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() >= BaselineColumn && index.column() <= RelativeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case DifferenceColumn:
        case RelativeColumn:
            return d.absolute.available
                       ? tr("%1 − %2 at %3 (%4; n = %5 and %6 %7)")
                             .arg(cand.labelMessage.translated(),
                                  m_comparison.candidates.value(m_comparison.baselineCandidate)
                                      .labelMessage.translated(),
                                  confidenceText(d.confidence), d.absolute.method)
                             .arg(d.nCandidate)
                             .arg(d.nBaseline)
                             .arg(d.unit)
                       : QVariant();
        case NoteColumn:
        case VerdictColumn:
            return formatTest(row, t, true);
        case CandidateColumn:
            return cand.isSeries() ? cand.cacheState : QVariant();
        default:
            return {};
        }
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case MetricColumn: {
        const QString label = row.labelMessage.translated();
        return row.unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row.unit);
    }
    case CandidateColumn:
        return cand.labelMessage.translated();
    case BaselineColumn:
        return number(row, base.estimate);
    case ValueColumn:
        if (cand.isSeries() && t.estimate && std::isfinite(t.series.cv))
            return tr("%1 (CV %2 %)")
                .arg(number(row, t.estimate))
                .arg(t.series.cv * 100, 0, 'f', 1);
        return number(row, t.estimate);
    case DifferenceColumn:
        if (!d.absolute.available)
            return QString();
        return u"%1 [%2, %3]"_s.arg(signedNumber(d.absolute.estimate, row.decimals),
                                    signedNumber(d.absolute.lo, row.decimals),
                                    signedNumber(d.absolute.hi, row.decimals));
    case RelativeColumn:
        if (!d.relative.available)
            return QString();
        return u"%1 % [%2, %3]"_s.arg(signedNumber(d.relative.estimate * 100, 1),
                                      signedNumber(d.relative.lo * 100, 1),
                                      signedNumber(d.relative.hi * 100, 1));
    case VerdictColumn:
        return t.verdictMessage.translated();
    case NoteColumn:
        if (!t.noteMessage.isEmpty())
            return t.noteMessage.translated();
        if (t.verdict() == Verdict::NoDetectableDifference)
            return t.hintMessage.translated();
        return QString();
    default:
        return {};
    }
}

QVariant SignificanceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const QString conf = confidenceText(m_comparison.confidence);
    switch (section) {
    case MetricColumn:
        return tr("Metric");
    case CandidateColumn:
        return tr("Candidate");
    case BaselineColumn:
        return tr("Baseline");
    case ValueColumn:
        return tr("Candidate value");
    case DifferenceColumn:
        return tr("Difference [%1 interval]").arg(conf);
    case RelativeColumn:
        return tr("Relative [%1 interval]").arg(conf);
    case VerdictColumn:
        return tr("Verdict");
    case NoteColumn:
        return tr("Why not / requests needed");
    default:
        return {};
    }
}

} // namespace sb
