// The legend of a report chart (render/chartrenderer.h) with six runs of long names: every entry
// inside the image, none over another, rows added as needed, and the plot moved below them.
#include "chartrenderer.h"
#include "report/chartspec.h"

#include <QFont>
#include <QImage>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestChartLegend : public QObject
{
    Q_OBJECT
private slots:
    void sixLongNamesStayInside()
    {
        QFont font;
        font.setPixelSize(14);
        const QFontMetricsF fm(font);
        QStringList labels;
        for (int i = 1; i <= 6; ++i)
            labels << u"#%1 vllm-a100 · Poisson 10 req/s · repeat %2"_s.arg(i).arg((i + 1) / 2);
        constexpr qreal left = 80, right = 940, top = 30;
        const QList<QRectF> r = legendLayout(fm, labels, left, right, top);
        QCOMPARE(r.size(), labels.size());
        for (int i = 0; i < r.size(); ++i) {
            QVERIFY2(r[i].left() >= left && r[i].right() <= right,
                     qPrintable(
                         u"entry %1 spans %2–%3"_s.arg(i + 1).arg(r[i].left()).arg(r[i].right())));
            // Wide enough for its whole label: nothing of the name is cut.
            QVERIFY(r[i].width() >= 28 + fm.horizontalAdvance(labels[i]));
            for (int j = 0; j < i; ++j)
                QVERIFY2(!r[i].intersects(r[j]), qPrintable(u"%1 over %2"_s.arg(i + 1).arg(j + 1)));
        }
        QVERIFY(r.last().top() > top); // it took more than one row
    }

    void shortNamesShareOneRow()
    {
        QFont font;
        font.setPixelSize(14);
        const QList<QRectF> r =
            legendLayout(QFontMetricsF(font), {u"#1 A"_s, u"#2 B"_s, u"#3 C"_s}, 80, 940, 30);
        QCOMPARE(r.size(), 3);
        QCOMPARE(r[2].top(), r[0].top());
    }
};

QTEST_MAIN(TestChartLegend)
#include "tst_chartlegend.moc"
