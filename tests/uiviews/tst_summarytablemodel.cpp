// The summary tables display core's summarize() and nothing else: every cell equals the
// RunSummary it was given, definitions are the tooltips, and the models pass the tester.
#include "uiviewstestutil.h"

#include "metrics/definitions.h"
#include "metrics/summary.h"
#include "models/runtotalsmodel.h"
#include "models/summarytablemodel.h"

#include <QAbstractItemModelTester>

using namespace Qt::StringLiterals;
using namespace sb;

class TestSummaryTableModel : public QObject
{
    Q_OBJECT

    RunSummary summary() const
    {
        LoadProfile p;
        p.metricPercentiles = {99, 75};
        p.goodput.ttftMs = 25;
        return summarize(uitest::syntheticRecords(), SummaryOptions::forProfile(p));
    }

private slots:
    void modelsAreConsistent()
    {
        SummaryTableModel stats;
        QAbstractItemModelTester t1(&stats, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunTotalsModel totals;
        QAbstractItemModelTester t2(&totals,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(stats.rowCount(), 0);
        stats.setSummary(summary());
        totals.setSummary(summary());
        stats.clear();
        totals.clear();
        stats.setSummary(summary());
        totals.setSummary(summary());
    }

    void statsEqualTheSummary_data()
    {
        QTest::addColumn<QString>("key");
        for (const QString &k : SummaryTableModel::metricKeys())
            QTest::newRow(qPrintable(k)) << k;
    }
    void statsEqualTheSummary()
    {
        QFETCH(QString, key);
        const RunSummary s = summary();
        SummaryTableModel model;
        model.setSummary(s);
        const int row = model.rowOf(key);
        QVERIFY(row >= 0);
        const MetricStats *m = s.stats(key);
        QVERIFY(m);
        const auto v = [&](int col) {
            return model.index(row, col).data(SummaryTableModel::ValueRole);
        };
        QCOMPARE(v(SummaryTableModel::CountColumn).toDouble(), double(m->count));
        if (m->count == 0) {
            QVERIFY(!v(SummaryTableModel::MeanColumn).isValid());
            return;
        }
        QCOMPARE(v(SummaryTableModel::MeanColumn).toDouble(), m->mean);
        QCOMPARE(v(SummaryTableModel::MedianColumn).toDouble(), m->median);
        QCOMPARE(v(SummaryTableModel::StdColumn).toDouble(), m->stddev);
        QCOMPARE(v(SummaryTableModel::MinColumn).toDouble(), m->min);
        QCOMPARE(v(SummaryTableModel::MaxColumn).toDouble(), m->max);
        QCOMPARE(model.columnCount(),
                 SummaryTableModel::FirstPercentileColumn + s.percentiles.size());
        for (double p : s.percentiles) {
            const int col = model.columnOfPercentile(p);
            QVERIFY(col >= SummaryTableModel::FirstPercentileColumn);
            QCOMPARE(v(col).toDouble(), m->percentile(p));
            QCOMPARE(model.index(row, col).data().toString(),
                     QString::number(m->percentile(p), 'f', 2));
        }
        const QString tip =
            model.index(row, SummaryTableModel::MeanColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(metricDefinition(key)->definition), qPrintable(tip));
    }

    void percentileHeadersFollowTheProfile()
    {
        SummaryTableModel model;
        model.setSummary(summary());
        QStringList headers;
        for (int c = SummaryTableModel::FirstPercentileColumn; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        // Defaults ∪ profile (75, 99), ascending.
        QCOMPARE(headers,
                 (QStringList{u"P50"_s, u"P75"_s, u"P90"_s, u"P95"_s, u"P99"_s, u"P99.9"_s}));
        // Hand-checked: TTFT of the measured ok requests r1..r3, r6 = 10, 20, 30, 250 ms.
        const int ttft = model.rowOf(u"ttft"_s);
        QCOMPARE(model.index(ttft, SummaryTableModel::MeanColumn).data().toString(), u"77.50"_s);
        QCOMPARE(model.index(ttft, SummaryTableModel::CountColumn).data().toString(), u"4"_s);
    }

    void intervalsBesideTheirStatistics()
    {
        // deriveRun's intervals: "value [low, high]" where one is derived, "omitted: why" in
        // the interval role and the tooltip where too few samples, nothing for the rest.
        Interval mean;
        mean.available = true;
        mean.estimate = 77.5;
        mean.lo = 1;
        mean.hi = 2;
        mean.method = u"student-t"_s;
        mean.n = 4;
        const Interval p99 = Interval::unavailable(
            u"order-statistic"_s,
            u"p99 needs at least 299 samples for a distribution-free 95 % interval (has 4)"_s, 4,
            kDefaultConfidence);
        SummaryTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSummary(summary(), {{u"ttft"_s, {{u"mean"_s, mean}, {u"p99"_s, p99}}}});
        const int ttft = model.rowOf(u"ttft"_s);
        const int p99col = model.columnOfPercentile(99);
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.index(row, col).data(role).toString();
        };
        // Off by default: the value alone, the interval in the tooltip.
        QCOMPARE(cell(ttft, SummaryTableModel::MeanColumn), u"77.50"_s);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setShowIntervals(true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(cell(ttft, SummaryTableModel::MeanColumn), u"77.50 [1.00, 2.00]"_s);
        QCOMPARE(cell(ttft, SummaryTableModel::MeanColumn, SummaryTableModel::IntervalRole),
                 u"[1.00, 2.00]"_s);
        QVERIFY(cell(ttft, SummaryTableModel::MeanColumn, Qt::ToolTipRole)
                    .startsWith(u"95 % interval [1.00, 2.00] (Student's t, n = 4)"_s));
        // The omitted one keeps its value and says why it has no interval.
        QVERIFY(!cell(ttft, p99col).contains(u'['));
        QCOMPARE(cell(ttft, p99col, SummaryTableModel::IntervalRole),
                 u"omitted: p99 needs at least 299 samples for a distribution-free 95 % interval "
                 "(has 4)"_s);
        QVERIFY(cell(ttft, p99col, Qt::ToolTipRole).contains(u"omitted: p99 needs"_s));
        const auto omitted = model.omittedIntervals();
        QCOMPARE(omitted.size(), 1);
        QVERIFY2(omitted.first().first.endsWith(u" P99"_s), qPrintable(omitted.first().first));
        // No interval derived: no brackets, no interval role.
        QVERIFY(!cell(ttft, SummaryTableModel::MedianColumn).contains(u'['));
        QVERIFY(!model.index(ttft, SummaryTableModel::MedianColumn)
                     .data(SummaryTableModel::IntervalRole)
                     .isValid());
        const int e2el = model.rowOf(u"e2el"_s);
        QVERIFY(!cell(e2el, SummaryTableModel::MeanColumn).contains(u'['));
        model.clear();
        QVERIFY(model.omittedIntervals().isEmpty());
    }

    // The CLI's Connections block, in the totals: what connectionStats() says, nothing when it
    // looked at no request.
    void totalsShowTheConnections()
    {
        const RunSummary s = summary();
        ConnectionStats c;
        c.requests = 10;
        c.opened = 4;
        c.reused = 5;
        c.prewarmed = 1;
        c.setup.n = 4;
        c.setup.p99 = 1.25;
        c.ttftWithoutSetup.n = 10;
        c.ttftWithoutSetup.p99 = 50.5;
        RunTotalsModel model;
        model.setSummary(s, c);
        const auto cell = [&](const QString &key, int role) {
            const int row = model.rowOfKey(key);
            return row < 0 ? QVariant() : model.index(row, RunTotalsModel::ValueColumn).data(role);
        };
        QCOMPARE(cell(u"connections"_s, Qt::DisplayRole).toString(), u"4 / 5 / 1"_s);
        QCOMPARE(cell(u"setup_p99"_s, RunTotalsModel::ValueRole).toDouble(), 1.25);
        QCOMPARE(cell(u"ttft_without_setup_p99"_s, RunTotalsModel::ValueRole).toDouble(), 50.5);
        model.retranslate(); // rendered again from what the model holds
        QCOMPARE(cell(u"connections"_s, Qt::DisplayRole).toString(), u"4 / 5 / 1"_s);
        c.unknown = 2; // an imported run or an older file: the transport did not say
        model.setSummary(s, c);
        QCOMPARE(cell(u"connections"_s, Qt::DisplayRole).toString(), u"4 / 5 / 1"_s);
        QVERIFY(cell(u"connections"_s, Qt::ToolTipRole).toString().contains(u"2 requests"_s));
        ConnectionStats none; // nothing recorded at all: n/a, not "0 / 0 / 0"
        none.requests = none.unknown = 3;
        model.setSummary(s, none);
        QCOMPARE(cell(u"connections"_s, Qt::DisplayRole).toString(), u"n/a"_s);
        c.unknown = 0;
        c.setup.n = 0; // warm: no request opened one
        model.setSummary(s, c);
        QCOMPARE(model.rowOfKey(u"setup_p99"_s), -1);
        model.setSummary(s);
        QCOMPARE(model.rowOfKey(u"connections"_s), -1);
    }

    void totalsEqualTheSummary()
    {
        const RunSummary s = summary();
        RunTotalsModel model;
        model.setSummary(s);
        const auto value = [&](const QString &key) {
            const int row = model.rowOfKey(key);
            return row < 0 ? QVariant()
                           : model.index(row, RunTotalsModel::ValueColumn)
                                 .data(RunTotalsModel::ValueRole);
        };
        QCOMPARE(value(u"completed"_s).toDouble(), double(s.completed));
        QCOMPARE(value(u"failed"_s).toDouble(), double(s.failed));
        QCOMPARE(value(u"failed:http_5xx"_s).toDouble(), 1.0);
        QCOMPARE(value(u"failed:timeout"_s).toDouble(), 1.0);
        QCOMPARE(value(u"warmup"_s).toDouble(), 1.0);
        QCOMPARE(value(u"duration"_s).toDouble(), s.durationS);
        QCOMPARE(value(u"request_throughput"_s).toDouble(), s.requestThroughput);
        QCOMPARE(value(u"output_throughput"_s).toDouble(), s.outputThroughput);
        QCOMPARE(value(u"total_token_throughput"_s).toDouble(), s.totalTokenThroughput);
        QCOMPARE(value(u"request_goodput"_s).toDouble(), s.requestGoodput); // SLO set
        QCOMPARE(value(u"total_output_tokens"_s).toDouble(), double(s.totalOutputTokens));
        // In words (no translation is installed here): the stored name is describe().
        QCOMPARE(value(u"output_source"_s).toString(), s.outputSources.describeMessage().text());
        QCOMPARE(value(u"output_source"_s).toString(), u"mixed (server usage 3, chunk count 1)"_s);
        QCOMPARE(value(u"cached_tokens"_s).toDouble(), 5.0);
        QCOMPARE(value(u"multi_token_chunks"_s).toString(), u"yes"_s);
        const int failedRow = model.rowOfKey(u"failed"_s);
        QVERIFY(model.index(failedRow, 1).data(Qt::ForegroundRole).isValid()); // shown in red
        QVERIFY(model.index(model.rowOfKey(u"duration"_s), 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(metricDefinition(u"duration"_s)->definition));

        RunSummary noSlo = summarize(uitest::syntheticRecords());
        model.setSummary(noSlo);
        QCOMPARE(model.rowOfKey(u"request_goodput"_s), -1); // not reported without an SLO
        // No request reasoned and no tokenizer counted: neither block is shown.
        QCOMPARE(model.rowOfKey(u"total_reasoning_tokens"_s), -1);
        QCOMPARE(model.rowOfKey(u"output_token_mismatch"_s), -1);

        // Two successful requests reasoned (3 and 5 tokens, from usage) and a tokenizer counted
        // every output: one of them one token off the server's usage.
        QList<RequestRecord> recs = uitest::syntheticRecords();
        int reasoned = 0, compared = 0;
        for (RequestRecord &r : recs) {
            if (r.warmup || r.error != ErrorClass::None || r.tFirst == 0 || r.outputTokens < 0)
                continue;
            if (reasoned < 2) {
                r.tFirstReasoning = r.tFirst;
                r.tFirstContent = r.tLast;
                r.reasoningTokens = reasoned == 0 ? 3 : 5;
                r.reasoningSource = TokenSource::ServerUsage;
                ++reasoned;
            }
            r.clientOutputTokens = r.outputTokens + (compared == 0 ? 1 : 0);
            ++compared;
        }
        QCOMPARE(reasoned, 2);
        const RunSummary rs = summarize(recs);
        model.setSummary(rs);
        QCOMPARE(value(u"reasoning_requests"_s).toDouble(), 2.0);
        QCOMPARE(value(u"total_reasoning_tokens"_s).toDouble(), 8.0);
        QCOMPARE(value(u"reasoning_source"_s).toString(), u"server usage"_s);
        QCOMPARE(rs.outputCountCompared, qint64(compared));
        QCOMPARE(value(u"output_token_mismatch"_s).toDouble(), 100.0 / compared);
    }
};

QTEST_MAIN(TestSummaryTableModel)
#include "tst_summarytablemodel.moc"
