#pragma once

#include <QList>
#include <QWidget>

class QChart;
class QChartView;

namespace sb {

// A histogram of token lengths (input or output) of a dataset's request list. Binning is for
// display only; the statistics shown next to it come from core (LengthStats).
class LengthHistogram : public QWidget
{
    Q_OBJECT
public:
    explicit LengthHistogram(QWidget *parent = nullptr);

    void setTitle(const QString &title);
    void setValues(const QList<qint32> &values);
    void clear();

    // Equal whole-number bins (at most `bins`) over [min, max]; returns the counts and fills the
    // bin edges (one more than the counts; a bin holds [edge_i, edge_i+1)).
    static QList<int> binCounts(const QList<qint32> &values, int bins, QList<double> *edges);

private:
    void rebuild();
    QChartView *m_view;
    QChart *m_chart;
    QString m_title;
    QList<qint32> m_values;
};

} // namespace sb
