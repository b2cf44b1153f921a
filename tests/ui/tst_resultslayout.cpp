// The Results tab inside the real main window (project dock, toolbars, tabs), at the window
// sizes people use: every number of the summary panes must be readable whole. The view alone,
// rendered wider than it ever is in the window, hid a Quantity / Value pane too narrow for its
// values. With SB_SCREENSHOT_DIR set the test also saves the window as PNGs (docs/screenshots,
// made under Xvfb: see docs/uiviews.md).

#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "models/runtotalsmodel.h"
#include "models/summarytablemodel.h"
#include "resultsview.h"
#include "settings.h"

#include <QDir>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr qint64 kT0 = 5'000'000'000;

// A long, busy Server run with failures of several classes: large token totals and rates are
// the widest numbers the panes hold.
QList<RequestRecord> busyRun(int n)
{
    QRandomGenerator rng(42);
    QList<RequestRecord> out;
    out.reserve(n);
    const ErrorClass failures[] = {ErrorClass::Http5xx, ErrorClass::Timeout,
                                   ErrorClass::StreamError, ErrorClass::Http429};
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        r.index = i;
        r.datasetItem = i;
        r.requestId = u"sb-layout-%1"_s.arg(i);
        r.warmup = i < 20;
        r.tSched = kT0 + qint64(i) * 8'000'000; // 125 req/s
        r.tQueued = r.tSched + 1000;
        r.tDispatch = r.tQueued + 2000;
        r.tSend = r.tDispatch + 50'000 + rng.bounded(200'000);
        r.inputTokens = 2000 + int(rng.bounded(6000));
        r.inputSource = TokenSource::ServerUsage;
        r.httpStatus = 200;
        if (i % 97 == 5) {
            r.error = failures[(i / 97) % 4];
            r.httpStatus = r.error == ErrorClass::Http5xx   ? 503
                           : r.error == ErrorClass::Http429 ? 429
                                                            : 200;
            r.errorMessage = u"failed on purpose"_s;
            r.tEnd = r.tSend + 30'000'000;
            out.append(r);
            continue;
        }
        const int chunks = 300 + int(rng.bounded(700));
        qint64 t = r.tSend + 180'000'000 + rng.bounded(400'000'000);
        for (int k = 0; k < chunks; ++k) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(4); // speculative decoding: multi-token chunks
            t += 9'000'000 + rng.bounded(6'000'000);
        }
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
        r.tEnd = r.tLast + 200'000;
        r.outputTokens = chunks * 4;
        r.outputSource = TokenSource::ServerUsage;
        r.cachedTokens = 512;
        r.finishReason = u"length"_s;
        out.append(r);
    }
    return out;
}

RunPlan busyPlan()
{
    RunPlan plan;
    plan.name = u"llama-70b on 8×H100 · server 125 req/s"_s;
    plan.profile.scenario = Scenario::Server;
    plan.profile.requestRate = 125;
    plan.profile.ttftSloMs = 2000;
    plan.profile.tpotSloMs = 200;
    plan.profile.numPrompts = 2000;
    plan.profile.metricPercentiles = {50, 90, 95, 99, 99.9};
    return plan;
}

// Every non-empty cell of `columns` is at least as wide as its text, and (visible) lies inside
// the viewport, not cut by its right edge.
void checkCellsFit(QTableView *t, const QList<int> &columns, bool visible, const QString &what)
{
    const QFontMetrics fm(t->font());
    // QCommonStyle's item text margin, on each side.
    const int margin = 2 * (t->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, t) + 1);
    const QAbstractItemModel *m = t->model();
    QVERIFY2(m->rowCount() > 0, qPrintable(what + u": no rows"_s));
    for (int c : columns) {
        for (int r = 0; r < m->rowCount(); ++r) {
            const QString text = m->index(r, c).data().toString();
            if (text.isEmpty())
                continue;
            const int need = fm.horizontalAdvance(text) + margin;
            const int width = t->columnWidth(c);
            QVERIFY2(width >= need, qPrintable(u"%1: row %2 ('%3') column %4: '%5' needs %6 px, "
                                               "the column is %7 px"_s.arg(what)
                                                   .arg(r)
                                                   .arg(m->index(r, 0).data().toString())
                                                   .arg(c)
                                                   .arg(text)
                                                   .arg(need)
                                                   .arg(width)));
            if (visible) {
                const int x = t->columnViewportPosition(c);
                QVERIFY2(x >= 0 && x + need <= t->viewport()->width(),
                         qPrintable(u"%1: row %2 column %3: '%4' lies at x %5..%6, the pane "
                                    "shows 0..%7"_s.arg(what)
                                        .arg(r)
                                        .arg(c)
                                        .arg(text)
                                        .arg(x)
                                        .arg(x + need)
                                        .arg(t->viewport()->width())));
            }
        }
    }
}

} // namespace

class TestResultsLayout : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QList<RequestRecord> m_records;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_records = busyRun(2000);
    }

    void valuesFitInTheMainWindow_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void valuesFitInTheMainWindow()
    {
        QFETCH(QSize, size);
        Settings settings(m_dir.filePath(u"settings-%1.ini"_s.arg(size.width())));
        ApiKeyStore keys(new KeychainUnavailableBackend);
        MainWindow w(&settings, &keys);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *results = w.findChild<ResultsView *>();
        QVERIFY(results);
        w.tabs()->setCurrentWidget(results);
        results->tabs()->setCurrentIndex(0); // Summary
        QSignalSpy shown(results, &ResultsView::summaryShown);
        results->showRun(busyPlan(), m_records);
        QVERIFY(shown.wait(60000));
        QTest::qWait(100); // layouts settle
        QCOMPARE(w.size(), size);

        auto *totals = results->findChild<QTableView *>(u"totalsTable"_s);
        auto *summary = results->findChild<QTableView *>(u"summaryTable"_s);
        QVERIFY(totals && summary && totals->isVisible() && summary->isVisible());
        // The totals are read whole, without scrolling sideways: labels and values.
        checkCellsFit(totals, {RunTotalsModel::QuantityColumn, RunTotalsModel::ValueColumn}, true,
                      u"totals"_s);
        // Latency statistics: every number fits its column. From 1600 px wide all thirteen
        // columns are in view; at 1280 the table (about 830 px of columns) scrolls sideways.
        QList<int> columns;
        for (int c = 0; c < summary->model()->columnCount(); ++c)
            columns << c;
        checkCellsFit(summary, columns, size.width() >= 1600, u"latency statistics"_s);

        const QString dir = qEnvironmentVariable("SB_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QSignalSpy charts(results, &ResultsView::chartsShown);
            if (results->isBusy())
                QVERIFY(charts.wait(60000));
            QTest::qWait(200);
            const QString file = QDir(dir).filePath(
                u"results-mainwindow-%1x%2.png"_s.arg(size.width()).arg(size.height()));
            QVERIFY2(w.grab().save(file), qPrintable(file));
            qInfo("wrote %s", qPrintable(file));
        }
    }
};

QTEST_MAIN(TestResultsLayout)
#include "tst_resultslayout.moc"
