#include "comparisontablemodel.h"

#include "compare/differencetext.h"
#include "metrics/definitions.h"
#include "report/comparisonstats.h"

#include <QColor>
#include <QFont>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString signedPercent(double rel)
{
    return signedNumber(rel * 100, 1, true) + u'%';
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setComparison(const Comparison &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    m_has = true;
    m_lines.clear();
    m_lines.append(Line{RowKind::Rank, -1, {}});
    QString group;
    for (int i = 0; i < m_comparison.rows.size(); ++i) {
        const ComparisonRow &r = m_comparison.rows.at(i);
        if (i == 0 || r.group != group) {
            group = r.group;
            // A group line keeps the index of its first row, whose groupMessage names it.
            m_lines.append(Line{RowKind::Group, i, group});
        }
        m_lines.append(Line{RowKind::Metric, i, group});
    }
    endResetModel();
}

void ComparisonTableModel::clear()
{
    beginResetModel();
    m_comparison = Comparison();
    m_has = false;
    m_lines.clear();
    endResetModel();
}

ComparisonTableModel::RowKind ComparisonTableModel::rowKind(int row) const
{
    return m_lines.value(row).kind;
}

int ComparisonTableModel::rowOf(const QString &key) const
{
    for (int i = 0; i < m_lines.size(); ++i)
        if (m_lines.at(i).kind == RowKind::Metric &&
            m_comparison.rows.at(m_lines.at(i).row).key == key)
            return i;
    return -1;
}

const ComparisonRow *ComparisonTableModel::comparisonRow(int row) const
{
    if (row < 0 || row >= m_lines.size() || m_lines.at(row).kind != RowKind::Metric)
        return nullptr;
    return &m_comparison.rows.at(m_lines.at(row).row);
}

void ComparisonTableModel::retranslate()
{
    if (m_lines.isEmpty())
        return;
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int ComparisonTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_has ? 0 : 1 + int(m_comparison.columns.size());
}

const CandidateTest *ComparisonTableModel::testOf(const ComparisonRow &row, int run) const
{
    const int k = m_comparison.candidateOf(run);
    if (k < 0 || k >= row.tests.size())
        return nullptr;
    return &row.tests.at(k);
}

int ComparisonTableModel::rankOf(int run) const
{
    const qsizetype i = m_comparison.ranking.indexOf(run);
    return i < 0 ? 0 : int(i) + 1;
}

QString ComparisonTableModel::groupLabel(const Line &line) const
{
    // Core names the groups (TTFT, TPOT, ITL, E2EL stay as they are in every language).
    if (line.row >= 0 && line.row < m_comparison.rows.size())
        return m_comparison.rows.at(line.row).groupMessage.translated();
    return line.group;
}

QString ComparisonTableModel::costNotesText() const
{
    return translatedTexts(m_comparison.costNoteMessages).join(u"; "_s);
}

QString ComparisonTableModel::rowLabel(const ComparisonRow &row) const
{
    const QString label = row.labelMessage.isEmpty() ? row.label : row.labelMessage.translated();
    return row.unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row.unit);
}

QString ComparisonTableModel::rowToolTip(const ComparisonRow &row) const
{
    QString tip;
    const QString metric = row.key.section(u'.', 0, 0);
    if (const MetricDefinition *d = metricDefinition(metric)) {
        tip = metricToolTip(*d);
        if (row.key.section(u'.', 1).startsWith(u'p'))
            tip += u"\n\n"_s + percentileMethodMessage().translated();
    } else if (row.key == "completed"_L1) {
        tip = tr("Measured requests that succeeded (warm-up excluded).");
    } else if (row.key == "failed"_L1) {
        tip = tr("Measured requests that failed, whatever the error class.");
    } else if (row.key == "failure_rate"_L1) {
        tip = tr("Failed requests / (successful + failed requests).");
    } else if (row.key.startsWith("cost_"_L1)) {
        tip = tr("From the test window that holds the run: the window's total cost, divided by "
                 "its successful requests or its output tokens. Never estimated: without bill "
                 "items the cost is not available.");
    }
    if (!tip.isEmpty())
        tip += u"\n\n"_s;
    tip += row.lowerIsBetter ? tr("Lower is better.") : tr("Higher is better.");
    if (!row.diffs && !m_comparison.costNoteMessages.isEmpty())
        tip += u"\n"_s + tr("Differences not computed: %1").arg(costNotesText());
    return tip;
}

QString ComparisonTableModel::cellText(const ComparisonRow &row, int run) const
{
    const ComparisonCell &cell = row.cells.at(run);
    if (!cell.value)
        return tr("n/a");
    QString text = formatCell(row, cell, true);
    if (run == m_comparison.baseline || !row.diffs || !cell.absDiff)
        return text;
    if (cell.relDiff)
        return u"%1 (%2, %3)"_s.arg(text, signedNumber(*cell.absDiff, row.decimals, true),
                                    signedPercent(*cell.relDiff));
    return u"%1 (%2)"_s.arg(text, signedNumber(*cell.absDiff, row.decimals, true));
}

QString ComparisonTableModel::cellToolTip(const ComparisonRow &row, int run) const
{
    const ComparisonCell &cell = row.cells.at(run);
    const QString who = m_comparison.columns.value(run);
    if (!cell.value)
        return tr("%1: not available — %2")
            .arg(who, cell.noteMessage.isEmpty() ? tr("no value") : cell.noteMessage.translated());
    QString tip = u"%1: %2 %3"_s.arg(who, formatCell(row, cell, true), row.unit).trimmed();
    if (!row.diffs) {
        tip += u"\n"_s + tr("Differences not computed: %1").arg(costNotesText());
    } else if (run == m_comparison.baseline) {
        tip += u"\n"_s + tr("Baseline: the other runs' differences are taken against this one.");
    } else if (cell.absDiff) {
        const QString base = m_comparison.columns.value(m_comparison.baseline);
        tip += u"\n"_s + tr("Against %1: %2 %3")
                             .arg(base, signedNumber(*cell.absDiff, row.decimals, true), row.unit)
                             .trimmed();
        if (cell.relDiff)
            tip += u" ("_s + signedPercent(*cell.relDiff) + u')';
        else
            tip += u"\n"_s + tr("No relative difference: the baseline is zero.");
    } else {
        tip += u"\n"_s + tr("No difference: the baseline has no value.");
    }
    // The statistical test of the run's candidate: the difference with its interval and the
    // verdict, or why there is none.
    if (const CandidateTest *t = testOf(row, run); t && !t->baseline) {
        const int k = m_comparison.candidateOf(run);
        const ComparisonCandidate &cand = m_comparison.candidates.at(k);
        tip += u"\n\n"_s;
        if (cand.isSeries())
            tip +=
                tr("%1 (mean of its runs: %2 %3)")
                    .arg(cand.labelMessage.translated(),
                         t->estimate ? QString::number(*t->estimate, 'f', row.decimals) : tr("n/a"),
                         row.unit)
                    .trimmed() +
                u"\n"_s;
        tip += tr("Test at %1: %2")
                   .arg(confidenceText(m_comparison.confidence), formatTest(row, *t, true));
        if (!t->hintMessage.isEmpty() && t->verdict() == Verdict::NoDetectableDifference)
            tip += u"\n"_s + t->hintMessage.translated();
    }
    return tip;
}

QVariant ComparisonTableModel::rankData(int column, int role) const
{
    const ComparisonRow *by = m_comparison.row(m_comparison.rankBy.rowKey());
    if (column == 0) {
        switch (role) {
        case Qt::DisplayRole:
            if (m_comparison.ranking.isEmpty())
                return tr("Rank: none");
            return tr("Rank by %1").arg(by ? rowLabel(*by) : m_comparison.rankBy.rowKey());
        case Qt::ToolTipRole:
            return m_comparison.rankNoteMessage.translated();
        case RowKeyRole:
            return u"rank"_s;
        case Qt::FontRole: {
            QFont f;
            f.setBold(true);
            return f;
        }
        default:
            return {};
        }
    }
    const int run = column - 1;
    const int rank = rankOf(run);
    bool tied = false;
    const int tiedRank = m_comparison.tiedRanking.order.isEmpty()
                             ? 0
                             : m_comparison.tiedRankOf(m_comparison.candidateOf(run), &tied);
    switch (role) {
    case Qt::DisplayRole:
        if (tiedRank > 0)
            return tied ? u"%1="_s.arg(tiedRank) : QString::number(tiedRank);
        return rank > 0 ? QString::number(rank) : u"—"_s;
    case RankRole:
        return rank > 0 ? QVariant(rank) : QVariant();
    case TiedRankRole:
        return tiedRank > 0 ? QVariant(tiedRank) : QVariant();
    case TiedRole:
        return tiedRank > 0 ? QVariant(tied) : QVariant();
    case RowKeyRole:
        return u"rank"_s;
    case Qt::ToolTipRole: {
        if (rank <= 0)
            return m_comparison.rankNoteMessage.translated();
        QString tip = tr("%1 of %2 by %3")
                          .arg(rank)
                          .arg(m_comparison.ranking.size())
                          .arg(by ? rowLabel(*by) : QString());
        if (tiedRank > 0)
            tip += u"\n"_s + (tied ? tr("Rank %1, shared: %2")
                                         .arg(tiedRank)
                                         .arg(m_comparison.tieNoteMessage.translated())
                                   : tr("Rank %1: separated from the others at %2")
                                         .arg(tiedRank)
                                         .arg(confidenceText(m_comparison.confidence)));
        return tip;
    }
    case Qt::FontRole: {
        QFont f;
        f.setBold(tiedRank > 0 ? tiedRank == 1 : rank == 1);
        return f;
    }
    case Qt::ForegroundRole:
        // Green only for a best rank the data separate from the rest.
        if (tiedRank > 0)
            return tiedRank == 1 && !tied ? QVariant(kDifferenceBetter) : QVariant();
        return rank == 1 ? QVariant(kDifferenceBetter) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ComparisonTableModel::metricData(const Line &line, int column, int role) const
{
    const ComparisonRow &row = m_comparison.rows.at(line.row);
    if (role == RowKeyRole)
        return row.key;
    if (column == 0) {
        switch (role) {
        case Qt::DisplayRole:
            return rowLabel(row);
        case Qt::ToolTipRole:
            return rowToolTip(row);
        default:
            return {};
        }
    }
    const int run = column - 1;
    if (run >= row.cells.size())
        return {};
    const ComparisonCell &cell = row.cells.at(run);
    switch (role) {
    case Qt::DisplayRole:
        return cellText(row, run);
    case Qt::ToolTipRole:
        return cellToolTip(row, run);
    case ValueRole:
        return cell.value ? QVariant(*cell.value) : QVariant();
    case AbsDiffRole:
        return cell.absDiff && row.diffs ? QVariant(*cell.absDiff) : QVariant();
    case RelDiffRole:
        return cell.relDiff && row.diffs ? QVariant(*cell.relDiff) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case VerdictRole: {
        const CandidateTest *t = testOf(row, run);
        return t && !t->baseline ? QVariant(QString::fromLatin1(verdictKey(t->verdict())))
                                 : QVariant();
    }
    case Qt::ForegroundRole: {
        if (!cell.value)
            return QColor(Qt::gray);
        if (!row.diffs || run == m_comparison.baseline)
            return {};
        // Colour is a claim: only a difference the test separates from noise gets one.
        const CandidateTest *t = testOf(row, run);
        if (!t || !t->significant())
            return {};
        return t->verdict() == Verdict::Better ? kDifferenceBetter : kDifferenceWorse;
    }
    case Qt::FontRole:
        if (run == m_comparison.baseline) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Line &line = m_lines.at(index.row());
    if (role == GroupRowRole)
        return line.kind == RowKind::Group;
    switch (line.kind) {
    case RowKind::Rank:
        return rankData(index.column(), role);
    case RowKind::Metric:
        return metricData(line, index.column(), role);
    case RowKind::Group:
        break;
    }
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == 0 ? groupLabel(line) : QString();
    case RowKeyRole:
        return QString();
    case Qt::FontRole: {
        QFont f;
        f.setBold(true);
        return f;
    }
    case Qt::BackgroundRole:
        return QColor(0x80, 0x80, 0x80, 40);
    default:
        return {};
    }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0) {
        if (role == Qt::DisplayRole)
            return tr("Metric");
        return {};
    }
    const int run = section - 1;
    const QString label = m_comparison.columns.value(run);
    switch (role) {
    case Qt::DisplayRole: {
        // Two lines: the run's code with its marks ("★ #1 (baseline)"), then its name. The code
        // identifies the column everywhere (picker, charts' legends), so it is never the part
        // a narrow column cuts.
        const qsizetype space = label.indexOf(u' ');
        const bool coded = label.startsWith(u'#') && space > 0;
        QString first = coded ? label.left(space) : label;
        // The star marks every run of a best rank, shared by the candidates the data cannot
        // separate.
        const int best = m_comparison.tiedRanking.order.isEmpty()
                             ? rankOf(run)
                             : m_comparison.tiedRankOf(m_comparison.candidateOf(run));
        if (best == 1)
            first = u"★ "_s + first;
        if (run == m_comparison.baseline)
            first += tr(" (baseline)");
        return coded ? first + u'\n' + label.mid(space + 1) : first;
    }
    case Qt::ToolTipRole: {
        QString tip = tr("Run %1").arg(m_comparison.runIds.value(run));
        if (run == m_comparison.baseline)
            tip += u"\n"_s + tr("Baseline of the differences");
        if (const int rank = rankOf(run))
            tip += u"\n"_s + tr("Rank %1 of %2").arg(rank).arg(m_comparison.ranking.size());
        return tip;
    }
    default:
        return {};
    }
}

} // namespace sb
