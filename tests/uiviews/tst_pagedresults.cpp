// A stored run too large to hold is shown paged (docs/uiviews.md, "Large runs"): the same
// numbers, rows and orders as the in-memory view of the same records, but the request table
// reads its rows from the project file on demand and sorts and filters in the worker.
#include "uiviewstestutil.h"

#include "charts/chartview.h"
#include "models/requestfilterproxy.h"
#include "models/requestrow.h"
#include "models/requesttablemodel.h"
#include "models/resultsdata.h"
#include "models/runtotalsmodel.h"
#include "models/storedrunrows.h"
#include "models/summarytablemodel.h"
#include "projectdocument.h"
#include "resultsview.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QTableView>
#include <QTemporaryDir>
#include <QXYSeries>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// The synthetic records' kinds (warm-up, multi-token, one token, http_5xx, timeout, a spike)
// repeated with jittered times: ties, empty cells and failures in every column.
QList<RequestRecord> makeRecords(int n)
{
    const QList<RequestRecord> kinds = uitest::syntheticRecords();
    QRandomGenerator rng(5);
    QList<RequestRecord> out;
    for (int i = 0; i < n; ++i) {
        RequestRecord r = kinds.at(i % kinds.size());
        const qint64 shift = qint64(i) * 3'000'000;
        // Every third request keeps its kind's exact times: equal values to sort stably.
        const qint64 jitter = i % 3 == 0 ? 0 : qint64(rng.bounded(5'000'000));
        r.index = i;
        r.datasetItem = i;
        r.warmup = r.warmup && i < 7;
        r.requestId = u"req-%1"_s.arg(qint64(rng.bounded(100000)), 0, 36);
        for (qint64 *t : {&r.tSched, &r.tQueued, &r.tDispatch, &r.tSend})
            *t += shift;
        for (qint64 &t : r.chunkTimes)
            t += shift + jitter;
        if (!r.chunkTimes.isEmpty()) {
            r.tFirst = r.chunkTimes.constFirst();
            r.tLast = r.chunkTimes.constLast();
        }
        r.tEnd += shift + jitter;
        out << r;
    }
    return out;
}

qint64 writeRun(const QString &path, const RunPlan &plan, const QList<RequestRecord> &records)
{
    {
        ProjectStore create;
        if (!create.open(path))
            return 0;
    }
    RunWriter w;
    QString error;
    if (!w.open(path, &error))
        return 0;
    const qint64 runId = w.beginRun(plan.toJson(), RunInfo{}, &error);
    for (const RequestRecord &r : records)
        w.append(r);
    if (!w.finishRun(StoredRunStatus::Completed, {}, {}, {}, 0, &error))
        return 0;
    w.close();
    return runId;
}

QList<qint64> indicesOf(const QAbstractItemModel *m, int rows)
{
    QList<qint64> out;
    for (int r = 0; r < std::min(rows, m->rowCount()); ++r)
        out << m->index(r, RequestTableModel::IndexColumn).data().toLongLong();
    return out;
}

QStringList cellsOf(const QAbstractItemModel *m, int rows)
{
    QStringList out;
    for (int r = 0; r < std::min(rows, m->rowCount()); ++r)
        for (int c = 0; c < m->columnCount(); ++c)
            out << m->index(r, c).data().toString();
    return out;
}

QStringList allCells(const QAbstractItemModel *m)
{
    return cellsOf(m, m->rowCount());
}

} // namespace

class TestPagedResults : public QObject
{
    Q_OBJECT

    RunPlan m_plan;
    QList<RequestRecord> m_records;
    QTemporaryDir m_dir;
    QString m_path;
    qint64 m_runId = 0;

private slots:
    void initTestCase()
    {
        m_plan.name = u"paged"_s;
        m_plan.profile.metricPercentiles = {50, 90, 99};
        m_records = makeRecords(1500);
        m_path = m_dir.filePath(u"p.sbproj"_s);
        m_runId = writeRun(m_path, m_plan, m_records);
        QVERIFY(m_runId > 0);
    }

    // The compact rows order exactly as the small run's proxy orders the same rows, for every
    // column, both directions, with and without "failed only".
    void orderIsTheProxyOrder_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<bool>("failedOnly");
        for (int c = 0; c < RequestTableModel::ColumnCount; ++c)
            for (bool desc : {false, true})
                for (bool failed : {false, true})
                    QTest::addRow("column %d %s%s", c, desc ? "desc" : "asc",
                                  failed ? " failed" : "")
                        << c << desc << failed;
    }
    void orderIsTheProxyOrder()
    {
        QFETCH(int, column);
        QFETCH(bool, descending);
        QFETCH(bool, failedOnly);
        const qint64 zero = runZeroNs(m_records);
        QList<RequestRow> rows;
        StoredRunRows stored;
        for (const RequestRecord &r : std::as_const(m_records)) {
            rows << RequestRow::fromRecord(r, zero);
            stored.add(rows.constLast());
        }
        RequestTableModel model;
        model.setRows(rows);
        RequestFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setFailedOnly(failedOnly);
        proxy.sort(column, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        std::vector<QString> texts;
        if (StoredRunRows::needsTexts(column))
            for (const RequestRow &r : std::as_const(rows))
                texts.push_back(RequestTableModel::cell(r, column, Qt::DisplayRole).toString());
        const std::vector<qint64> order =
            stored.order(column, descending, failedOnly, nullptr, &texts);
        QCOMPARE(qsizetype(order.size()), qsizetype(proxy.rowCount()));
        for (int i = 0; i < proxy.rowCount(); ++i)
            QCOMPARE(order[size_t(i)],
                     proxy.index(i, RequestTableModel::IndexColumn).data().toLongLong());
    }

    // The text filter reads the file and matches what the proxy's filter matches.
    void textFilterMatchesTheProxy_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("error class") << u"TIMEOUT"_s;
        QTest::newRow("error message") << u"internal server"_s;
        QTest::newRow("number") << u"12.0"_s;
        QTest::newRow("request id") << u"req-1"_s;
        QTest::newRow("nothing") << u"no such text"_s;
    }
    void textFilterMatchesTheProxy()
    {
        QFETCH(QString, text);
        const qint64 zero = runZeroNs(m_records);
        QList<RequestRow> rows;
        for (const RequestRecord &r : std::as_const(m_records))
            rows << RequestRow::fromRecord(r, zero);
        RequestTableModel model;
        model.setRows(rows);
        RequestFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setText(text);
        ProjectStore store;
        QVERIFY(store.open(m_path, ProjectStore::OpenMode::ReadOnly));
        std::vector<quint8> match;
        QString error;
        QVERIFY2(matchStoredRows(store, m_runId, zero, text, &match, &error), qPrintable(error));
        QCOMPARE(qsizetype(match.size()), m_records.size());
        QList<qint64> matched;
        for (size_t i = 0; i < match.size(); ++i)
            if (match[i])
                matched << m_records.at(qsizetype(i)).index;
        QCOMPARE(matched, indicesOf(&proxy, proxy.rowCount()));
    }

    void readRequestsAtReadsTheAskedRows()
    {
        ProjectStore store;
        QVERIFY(store.open(m_path, ProjectStore::OpenMode::ReadOnly));
        QList<RequestRecord> out;
        QVERIFY2(store.readRequestsAt(m_runId, {1200, 3, 777}, &out),
                 qPrintable(store.lastError()));
        QCOMPARE(out.size(), 3);
        QCOMPARE(out.at(0).index, 1200);
        QCOMPARE(out.at(1).requestId, m_records.at(3).requestId);
        QCOMPARE(out.at(2).chunkTimes, m_records.at(777).chunkTimes);
        QVERIFY(!store.readRequestsAt(m_runId, {5, 999999}, &out));
        QVERIFY(store.lastError().contains(u"999999"_s));
        // The index pass: every row's index, t_sched, t_send and error class, in order.
        qsizetype i = 0;
        QVERIFY(store.visitRequestIndex(m_runId, [&](qint64 index, qint64 tSched, qint64 tSend,
                                                     ErrorClass error) {
            const RequestRecord &r = m_records.at(i++);
            return index == r.index && tSched == r.tSched && tSend == r.tSend && error == r.error;
        }));
        QCOMPARE(i, m_records.size());
    }

    // The same run shown both ways: identical summary, totals, counts, table cells and orders,
    // the same charts (ITL placed within one FineHistogram bucket), and the paged table holds
    // only the rows it has shown.
    void pagedViewShowsTheSameRun()
    {
        ResultsView held;
        ResultsView paged;
        for (ResultsView *v : {&held, &paged}) {
            v->resize(1300, 850);
            v->show();
            v->tabs()->setCurrentIndex(1); // the request table, so its rows are painted
        }
        QSignalSpy heldShown(&held, &ResultsView::chartsShown);
        QSignalSpy pagedShown(&paged, &ResultsView::chartsShown);
        held.showRun(m_plan, m_records);
        paged.showStoredRun(m_plan, m_path, m_runId, m_records.size());
        QVERIFY(heldShown.wait(60000));
        QVERIFY(pagedShown.count() > 0 || pagedShown.wait(60000));
        QVERIFY(paged.isPaged());
        QVERIFY(!held.isPaged());

        QCOMPARE(allCells(paged.summaryModel()), allCells(held.summaryModel()));
        QCOMPARE(allCells(paged.totalsModel()), allCells(held.totalsModel()));
        for (const char *name : {"requestCount", "header"})
            QCOMPARE(paged.findChild<QLabel *>(QString::fromLatin1(name))->text(),
                     held.findChild<QLabel *>(QString::fromLatin1(name))->text());
        QCOMPARE(paged.findChild<QCheckBox *>(u"failedOnly"_s)->text(),
                 held.findChild<QCheckBox *>(u"failedOnly"_s)->text());

        // Rows on demand: the first screenful arrives, and no more than its blocks is held.
        QTableView *table = paged.requestTable();
        QAbstractItemModel *pagedModel = table->model();
        QAbstractItemModel *heldModel = held.requestTable()->model();
        QCOMPARE(pagedModel->rowCount(), m_records.size());
        QTRY_VERIFY(pagedModel->index(0, RequestTableModel::TtftColumn).data().isValid());
        QCOMPARE(cellsOf(pagedModel, 20), cellsOf(heldModel, 20));
        QVERIFY2(paged.requestModel()->cachedRows() <= 4 * RequestTableModel::kPageRows,
                 qPrintable(QString::number(paged.requestModel()->cachedRows())));
        QVERIFY(paged.requestModel()->cachedRows() < m_records.size());

        // Charts: TTFT/TPOT/E2EL exact; ITL the same samples, placed within one bucket.
        for (const QString &key : {u"ttft"_s, u"tpot"_s, u"e2el"_s}) {
            const QList<QPointF> a =
                held.findChild<ChartView *>(u"cdf_"_s + key)->series(0)->points();
            const QList<QPointF> b =
                paged.findChild<ChartView *>(u"cdf_"_s + key)->series(0)->points();
            QCOMPARE(b, a);
        }
        QCOMPARE(paged.findChild<ChartView *>(u"requestsPerSecond"_s)->series(0)->points(),
                 held.findChild<ChartView *>(u"requestsPerSecond"_s)->series(0)->points());
        const QList<QPointF> itlA = held.findChild<ChartView *>(u"cdf_itl"_s)->series(0)->points();
        const QList<QPointF> itlB = paged.findChild<ChartView *>(u"cdf_itl"_s)->series(0)->points();
        QVERIFY(!itlB.isEmpty());
        QCOMPARE(itlB.constLast().y(), 1.0);
        QCOMPARE(itlB.constFirst().x(), itlA.constFirst().x()); // the exact minimum

        // Sorting: a header click, done in the worker, gives the proxy's order.
        QSignalSpy ordered(&paged, &ResultsView::requestOrderShown);
        table->sortByColumn(RequestTableModel::TtftColumn, Qt::DescendingOrder);
        held.requestTable()->sortByColumn(RequestTableModel::TtftColumn, Qt::DescendingOrder);
        QVERIFY(ordered.wait(30000));
        QCOMPARE(indicesOf(pagedModel, 200), indicesOf(heldModel, 200));
        QTRY_VERIFY(pagedModel->index(0, RequestTableModel::TtftColumn).data().isValid());
        QCOMPARE(cellsOf(pagedModel, 10), cellsOf(heldModel, 10));

        // Failed only and a text filter, with the counts the label shows.
        for (ResultsView *v : {&held, &paged})
            v->findChild<QCheckBox *>(u"failedOnly"_s)->setChecked(true);
        QVERIFY(ordered.wait(30000));
        QCOMPARE(indicesOf(pagedModel, 2000), indicesOf(heldModel, 2000));
        for (ResultsView *v : {&held, &paged})
            v->findChild<QLineEdit *>(u"requestFilter"_s)->setText(u"timeout"_s);
        QVERIFY(ordered.wait(30000));
        QVERIFY(pagedModel->rowCount() > 0);
        QCOMPARE(indicesOf(pagedModel, 2000), indicesOf(heldModel, 2000));
        QCOMPARE(paged.findChild<QLabel *>(u"requestCount"_s)->text(),
                 held.findChild<QLabel *>(u"requestCount"_s)->text());

        // Copy: a selection over rows never read comes out as the in-memory view copies it.
        for (ResultsView *v : {&held, &paged}) {
            QTableView *t = v->requestTable();
            t->selectionModel()->select(
                QItemSelection(
                    t->model()->index(0, RequestTableModel::IndexColumn),
                    t->model()->index(t->model()->rowCount() - 1, RequestTableModel::E2elColumn)),
                QItemSelectionModel::ClearAndSelect);
            t->setFocus();
        }
        held.copySelection();
        const QString heldText = QApplication::clipboard()->text();
        QApplication::clipboard()->clear();
        QSignalSpy copied(&paged, &ResultsView::selectionCopied);
        paged.copySelection();
        QVERIFY(copied.wait(30000));
        QCOMPARE(copied.first().first().value<qsizetype>(), qsizetype(pagedModel->rowCount()));
        QVERIFY(heldText.count(u'\n') > 10);
        QCOMPARE(QApplication::clipboard()->text(), heldText);

        // Back to a small run: the proxy is in front again.
        paged.showRun(m_plan, m_records.mid(0, 50));
        QVERIFY(pagedShown.wait(60000));
        QVERIFY(!paged.isPaged());
        QCOMPARE(paged.requestTable()->model(), paged.requestProxy());
    }

    // The document does not load a run over its threshold: the view reads it from the file.
    void documentHandsLargeRunsToTheView_data()
    {
        QTest::addColumn<qint64>("threshold");
        QTest::addColumn<bool>("large");
        QTest::newRow("over the threshold") << qint64(1000) << true;
        QTest::newRow("under it") << qint64(5000) << false;
    }
    void documentHandsLargeRunsToTheView()
    {
        QFETCH(qint64, threshold);
        QFETCH(bool, large);
        ProjectDocument doc;
        doc.setLargeRunThreshold(threshold);
        QString error;
        QVERIFY2(doc.open(m_path, &error), qPrintable(error));
        QCOMPARE(doc.runs().size(), 1);
        QSignalSpy loaded(&doc, &ProjectDocument::runRecordsLoaded);
        QSignalSpy handed(&doc, &ProjectDocument::largeRunReady);
        doc.loadRunRecords(doc.runs().first().id);
        QTRY_VERIFY(loaded.count() + handed.count() > 0);
        QCOMPARE(handed.count(), large ? 1 : 0);
        QCOMPARE(loaded.count(), large ? 0 : 1);
        if (large) {
            QCOMPARE(handed.first().at(3).toLongLong(), m_runId);
            QCOMPARE(handed.first().at(4).toLongLong(), qint64(m_records.size()));
            QVERIFY(doc.runs().first().records.isEmpty());
        } else {
            QCOMPARE(loaded.first().at(2).value<QList<RequestRecord>>().size(), m_records.size());
        }
    }
};

QTEST_MAIN(TestPagedResults)
#include "tst_pagedresults.moc"
