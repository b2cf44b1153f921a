// The per-request table: its values are core's per-request definitions, failed requests are
// rows like any other, the proxy filters and sorts them, and a selection copies as TSV.
#include "uiviewstestutil.h"

#include "metrics/summary.h"
#include "models/requestfilterproxy.h"
#include "models/requestrow.h"
#include "models/requesttablemodel.h"
#include "models/selectiontsv.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// NaN-aware comparison with the summary of the single record.
bool sameValue(const QVariant &cell, const MetricStats &stats, double expected)
{
    if (stats.count == 0)
        return !cell.isValid();
    return cell.isValid() && std::abs(cell.toDouble() - expected) < 1e-9;
}

RunSummary summaryOf(const RequestRecord &r)
{
    SummaryOptions o;
    o.includeWarmup = true;
    return summarize(QList<RequestRecord>{r}, o);
}

} // namespace

class TestRequestTableModel : public QObject
{
    Q_OBJECT

    QList<RequestRecord> m_records = uitest::syntheticRecords();

private slots:
    void modelIsConsistent()
    {
        RequestTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(requestRows(m_records, uitest::kT0));
        QCOMPARE(model.rowCount(), m_records.size());
        RequestFilterProxy proxy;
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setFailedOnly(true);
        proxy.setText(u"time"_s);
        proxy.sort(RequestTableModel::TtftColumn, Qt::DescendingOrder);
        proxy.setFailedOnly(false);
        proxy.setText({});
        model.setRows({});
        model.setRows(requestRows(m_records, uitest::kT0));
    }

    void valuesAreCoreDefinitions_data()
    {
        QTest::addColumn<int>("row");
        for (int i = 0; i < m_records.size(); ++i)
            QTest::newRow(qPrintable(u"request %1"_s.arg(i))) << i;
    }
    void valuesAreCoreDefinitions()
    {
        QFETCH(int, row);
        RequestTableModel model;
        model.setRows(requestRows(m_records, uitest::kT0));
        const RequestRecord &r = m_records.at(row);
        const RunSummary s = summaryOf(r);
        const auto cell = [&](int col) {
            return model.index(row, col).data(RequestTableModel::SortRole);
        };
        QCOMPARE(cell(RequestTableModel::IndexColumn).toLongLong(), r.index);
        QVERIFY(sameValue(cell(RequestTableModel::TtftColumn), s.ttft, s.ttft.mean));
        QVERIFY(sameValue(cell(RequestTableModel::TpotColumn), s.tpot, s.tpot.mean));
        QVERIFY(sameValue(cell(RequestTableModel::E2elColumn), s.e2el, s.e2el.mean));
        QVERIFY(sameValue(cell(RequestTableModel::ItlMeanColumn), s.itl, s.itl.mean));
        QVERIFY(sameValue(cell(RequestTableModel::ItlMaxColumn), s.itl, s.itl.max));
        QVERIFY(sameValue(cell(RequestTableModel::ScheduleLagColumn), s.scheduleLag,
                          s.scheduleLag.mean));
        TokenSource inSrc, outSrc;
        QCOMPARE(cell(RequestTableModel::InputTokensColumn).toInt(),
                 effectiveInputTokens(r, &inSrc));
        QCOMPARE(cell(RequestTableModel::OutputTokensColumn).toInt(),
                 effectiveOutputTokens(r, &outSrc));
        // Shown as the reader's words ("server usage"), not the stored name ("server_usage").
        QCOMPARE(cell(RequestTableModel::InputSourceColumn).toString(),
                 tokenSourceLabel(inSrc).translated());
        QCOMPARE(cell(RequestTableModel::OutputSourceColumn).toString(),
                 tokenSourceLabel(outSrc).translated());
        QCOMPARE(model.index(row, 0).data(RequestTableModel::FailedRole).toBool(), !r.ok());
        QCOMPARE(model.index(row, 0).data(RequestTableModel::WarmupRole).toBool(), r.warmup);
        if (!r.ok()) {
            QCOMPARE(cell(RequestTableModel::StatusColumn).toString(),
                     QString::fromLatin1(errorClassName(r.error)));
            QCOMPARE(cell(RequestTableModel::ErrorMessageColumn).toString(), r.errorMessage);
            QVERIFY(model.index(row, 0).data(Qt::BackgroundRole).isValid());
        }
    }

    void handWorkedValues()
    {
        // Independent of summarize(): numbers worked out from uiviewstestutil.h's table.
        RequestTableModel model;
        model.setRows(requestRows(m_records, uitest::kT0));
        const auto v = [&](int row, int col) {
            return model.index(row, col).data(RequestTableModel::SortRole);
        };
        QCOMPARE(v(1, RequestTableModel::TtftColumn).toDouble(), 10.0); // 112 - 102
        QCOMPARE(v(1, RequestTableModel::E2elColumn).toDouble(), 40.0); // 142 - 102
        QCOMPARE(v(1, RequestTableModel::TpotColumn).toDouble(), 10.0); // (40 - 10) / 3
        QCOMPARE(v(1, RequestTableModel::ScheduleLagColumn).toDouble(), 2.0);
        QCOMPARE(v(2, RequestTableModel::TpotColumn).toDouble(), 6.0);     // (50 - 20) / 5
        QCOMPARE(v(2, RequestTableModel::ItlMeanColumn).toDouble(), 15.0); // (20 + 10) / 2
        QVERIFY(!v(3, RequestTableModel::TpotColumn).isValid());           // n_out = 1
        QCOMPARE(v(3, RequestTableModel::InputSourceColumn).toString(), u"dataset length"_s);
        QCOMPARE(v(3, RequestTableModel::OutputSourceColumn).toString(), u"chunk count"_s);
        QVERIFY(!v(4, RequestTableModel::TtftColumn).isValid()); // failed: no latency
        QCOMPARE(v(4, RequestTableModel::HttpStatusColumn).toInt(), 500);
        QCOMPARE(v(5, RequestTableModel::ScheduleLagColumn).toDouble(), 1.0); // failed: lag kept
        QCOMPARE(v(6, RequestTableModel::ItlMaxColumn).toDouble(), 500.0);
        QCOMPARE(model.index(1, RequestTableModel::TtftColumn).data().toString(), u"10.00"_s);
        QCOMPARE(model.index(4, RequestTableModel::TtftColumn).data().toString(), QString());
        QCOMPARE(model.index(0, RequestTableModel::StatusColumn).data().toString(), u"warm-up"_s);
        QCOMPARE(model.index(1, RequestTableModel::SentColumn).data().toString(), u"0.102"_s);
    }

    void headersCarryDefinitions()
    {
        RequestTableModel model;
        const QString tip =
            model.headerData(RequestTableModel::TtftColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString();
        QVERIFY2(tip.contains(u"t_first − t_send"_s), qPrintable(tip));
        QVERIFY(
            model.headerData(RequestTableModel::ScheduleLagColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(u"t_send − t_sched"_s));
    }

    void failedOnlyAndTextFilter_data()
    {
        QTest::addColumn<bool>("failedOnly");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<qint64>>("indexes");
        QTest::newRow("all") << false << QString() << QList<qint64>{0, 1, 2, 3, 4, 5, 6};
        QTest::newRow("failed only") << true << QString() << QList<qint64>{4, 5};
        QTest::newRow("error class") << false << u"HTTP_5xx"_s << QList<qint64>{4};
        QTest::newRow("message word") << true << u"timed out"_s << QList<qint64>{5};
        QTest::newRow("request id") << false << u"req-3"_s << QList<qint64>{3};
        QTest::newRow("failed and ok text") << true << u"warm-up"_s << QList<qint64>{};
    }
    void failedOnlyAndTextFilter()
    {
        QFETCH(bool, failedOnly);
        QFETCH(QString, text);
        QFETCH(QList<qint64>, indexes);
        RequestTableModel model;
        model.setRows(requestRows(m_records, uitest::kT0));
        RequestFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(RequestTableModel::IndexColumn, Qt::AscendingOrder);
        proxy.setFailedOnly(failedOnly);
        proxy.setText(text);
        QList<qint64> got;
        for (int r = 0; r < proxy.rowCount(); ++r)
            got << proxy.index(r, RequestTableModel::IndexColumn)
                       .data(RequestTableModel::SortRole)
                       .toLongLong();
        QCOMPARE(got, indexes);
    }

    void sortsNumericallyWithEmptyCellsLast()
    {
        RequestTableModel model;
        model.setRows(requestRows(m_records, uitest::kT0));
        RequestFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(RequestTableModel::TtftColumn, Qt::AscendingOrder);
        QList<qint64> order;
        for (int r = 0; r < proxy.rowCount(); ++r)
            order << proxy.index(r, 0).data(RequestTableModel::SortRole).toLongLong();
        // TTFT: r0 10, r1 10, r2 20, r3 30, r6 250; failed r4, r5 have none.
        QCOMPARE(order.mid(0, 5), (QList<qint64>{0, 1, 2, 3, 6}));
        QCOMPARE(QSet<qint64>(order.begin() + 5, order.end()), (QSet<qint64>{4, 5}));
        // Numeric, not lexical: "250" sorts after "30".
        QVERIFY(proxy.index(4, RequestTableModel::TtftColumn).data().toString() == u"250.00"_s);
    }

    void selectionCopiesAsTsv()
    {
        RequestTableModel model;
        model.setRows(requestRows(m_records, uitest::kT0));
        RequestFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(RequestTableModel::IndexColumn, Qt::AscendingOrder);
        proxy.setFailedOnly(true);
        QItemSelectionModel sel(&proxy);
        for (int r = 0; r < proxy.rowCount(); ++r) {
            sel.select(proxy.index(r, RequestTableModel::IndexColumn), QItemSelectionModel::Select);
            sel.select(proxy.index(r, RequestTableModel::StatusColumn),
                       QItemSelectionModel::Select);
            sel.select(proxy.index(r, RequestTableModel::ErrorMessageColumn),
                       QItemSelectionModel::Select);
        }
        const QString tsv = selectionToTsv(sel.selectedIndexes(), true);
        const QString expected = u"#\tStatus\tError message\n"
                                 "4\thttp_5xx\tHTTP 500: internal server error\n"
                                 "5\ttimeout\trequest timed out after 0.06 s\n"_s;
        QCOMPARE(tsv, expected);
    }
};

QTEST_MAIN(TestRequestTableModel)
#include "tst_requesttablemodel.moc"
