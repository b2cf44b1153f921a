#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPair>
#include <QStringList>

class QBarCategoryAxis;
class QValueAxis;

namespace sb {

// A titled bar chart in the look of charts/chartview.h (bold title, tight margins, legend at the
// bottom only when it names more than one set, no animation): one group of bars per category,
// one bar per set. The value axis starts at 0, as rates and counts never go below it.
class BarChartView : public QChartView
{
    Q_OBJECT
public:
    explicit BarChartView(const QString &title, QWidget *parent = nullptr);

    // Replaces the bars: `sets` are (name, one value per category).
    void setData(const QStringList &categories, const QList<QPair<QString, QList<double>>> &sets,
                 const QList<QColor> &colors);
    void setTitle(const QString &title);
    void setValueAxisTitle(const QString &title);
    void setSubtitle(const QString &text);
    int setCount() const;

private:
    void updateTitle();

    QString m_title;
    QString m_subtitle;
    QBarCategoryAxis *m_x;
    QValueAxis *m_y;
};

} // namespace sb
