// `show`'s streamed summary of a stored run (passes over the project file, records kept without
// their chunk lists) against summarize() of the fully loaded records: the same numbers and the
// same printed report, for runs that exercise every branch of the summary, with the ITL gaps
// pooled and streamed (the extra pass a large run takes).
#include "exactstats.h"
#include "metrics/statsparts.h"
#include "metrics/summary.h"
#include "report/runreport.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// A run with warm-up and failed requests, requests never sent, records without a server token
// count (the summary counts their chunks), and multi-token chunks that start only part-way
// through (ITL per token must still cover every earlier gap).
QList<RequestRecord> makeRecords(int n, int multiFrom, quint32 seed)
{
    QRandomGenerator rng(seed);
    QList<RequestRecord> out;
    const qint64 t0 = 5'000'000'000'000;
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        r.index = i;
        r.datasetItem = i % 17;
        r.requestId = u"req-%1"_s.arg(i);
        r.warmup = i < 3;
        r.tSched = t0 + qint64(i) * 40'000'000;
        r.tQueued = r.tSched;
        r.tDispatch = r.tSched + qint64(rng.bounded(50'000));
        r.inputTokens = 100 + int(rng.bounded(50));
        r.inputSource = TokenSource::ServerUsage;
        r.expectedInputTokens = 120;
        if (i % 23 == 7) { // never sent: refused by the transport before it left
            r.error = ErrorClass::Connect;
            r.errorMessage = u"refused"_s;
            out.append(r);
            continue;
        }
        r.tSend = r.tDispatch + qint64(rng.bounded(100'000));
        const int chunks = 1 + int(rng.bounded(40));
        qint64 t = r.tSend + 30'000'000 + qint64(rng.bounded(20'000'000));
        for (int c = 0; c < chunks; ++c) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(i >= multiFrom && c % 3 == 2 ? 3 : 1);
            t += 5'000'000 + qint64(rng.bounded(10'000'000));
        }
        r.tFirst = r.chunkTimes.first();
        r.tLast = r.chunkTimes.last();
        r.tEnd = r.tLast + 200'000;
        r.httpStatus = 200;
        if (i % 11 == 5) {
            r.error = ErrorClass::StreamError;
            r.errorMessage = u"mid-stream error"_s;
        }
        if (i % 7 == 3) {
            r.outputTokens = -1; // no usage: counted from the chunks
            r.outputSource = TokenSource::Unknown;
        } else {
            int tokens = 0;
            for (qint32 k : std::as_const(r.chunkTokens))
                tokens += k;
            r.outputTokens = tokens;
            r.outputSource = TokenSource::ServerUsage;
        }
        r.finishReason = u"length"_s;
        out.append(r);
    }
    return out;
}

} // namespace

class TestStoredSummary : public QObject
{
    Q_OBJECT
private slots:
    void streamedEqualsLoaded_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<int>("multiFrom"); // first request with multi-token chunks
        QTest::addColumn<bool>("slo");
        QTest::addColumn<int>("multi"); // expected multiTokenChunks; -1: whatever loading says
        // Streamed: any gap is one too many to pool (SummaryOptions::maxPooledGaps 0), so runs
        // of more gaps than computeStats() sorts take the extra pass.
        QTest::addColumn<bool>("streamed");
        for (bool streamed : {false, true}) {
            const char *mode = streamed ? "gaps streamed" : "gaps pooled";
            QTest::addRow("one-token chunks, %s", mode)
                << 300 << 1'000'000 << false << 0 << streamed;
            QTest::addRow("multi-token from the start, %s", mode)
                << 300 << 0 << true << 1 << streamed;
            QTest::addRow("multi-token part-way, %s", mode) << 300 << 150 << true << 1 << streamed;
            QTest::addRow("multi-token in the last request, %s", mode)
                << 120 << 119 << false << -1 << streamed;
            QTest::addRow("one request, %s", mode) << 1 << 0 << false << 0 << streamed;
        }
    }
    // The records as a finished run of a new project at path, opened read-only in *store.
    static void storeRun(const QString &path, const RunPlan &plan,
                         const QList<RequestRecord> &records, qint64 *runId, ProjectStore *store)
    {
        {
            ProjectStore create; // the writer appends to an existing project only
            QVERIFY2(create.open(path), qPrintable(create.lastError()));
        }
        RunWriter w;
        QString error;
        QVERIFY2(w.open(path, &error), qPrintable(error));
        *runId = w.beginRun(plan.toJson(), RunInfo{}, &error);
        QVERIFY2(*runId > 0, qPrintable(error));
        for (const RequestRecord &r : records)
            w.append(r);
        QVERIFY2(w.finishRun(StoredRunStatus::Completed, {}, {}, {}, 0, &error), qPrintable(error));
        w.close();
        QVERIFY2(store->open(path, ProjectStore::OpenMode::ReadOnly),
                 qPrintable(store->lastError()));
    }

    static QJsonObject intervalsOf(const RunDerivation &d)
    {
        QJsonObject o;
        for (const auto &[metric, stats] : d.intervals)
            for (const auto &[stat, interval] : stats)
                o.insert(metric + u' ' + stat, interval.toJson());
        return o;
    }

    void streamedEqualsLoaded()
    {
        QFETCH(int, requests);
        QFETCH(int, multiFrom);
        QFETCH(bool, slo);
        QFETCH(int, multi);
        QFETCH(bool, streamed);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"p.sbproj"_s);
        RunPlan plan;
        plan.name = u"stored"_s;
        plan.profile.numPrompts = requests;
        plan.profile.metricPercentiles = {50, 90, 99};
        if (slo) {
            plan.profile.goodput.ttftMs = 40;
            plan.profile.goodput.tpotMs = 9;
        }
        const QList<RequestRecord> records = makeRecords(requests, multiFrom, quint32(requests));
        qint64 runId = 0;
        ProjectStore store;
        storeRun(path, plan, records, &runId, &store);
        if (QTest::currentTestFailed())
            return;
        SummaryOptions opts = SummaryOptions::forProfile(plan.profile);
        if (streamed)
            opts.maxPooledGaps = 0;

        RunReportInput full;
        full.plan = plan;
        full.records = store.loadRequests(runId);
        QCOMPARE(full.records.size(), records.size());
        const RunSummary loaded = summarize(full.records, opts);

        RunReportInput fromStore;
        fromStore.plan = plan;
        QString error;
        QVERIFY2(loadStoredRunForReport(store, runId, opts, &fromStore, &error), qPrintable(error));
        QVERIFY(fromStore.summary.has_value());
        const RunSummary &s = *fromStore.summary;

        // The records kept for the report carry no chunk lists, except where the output count
        // has to come from them.
        // They come packed (a fifth of the memory) and read back as the store holds them.
        QCOMPARE(fromStore.records.size(), records.size());
        QVERIFY(fromStore.records.isPacked());
        const QList<RequestRecord> kept = fromStore.records.list();
        const QList<RequestRecord> all = full.records.list();
        int withChunks = 0;
        for (qsizetype i = 0; i < kept.size(); ++i) {
            const RequestRecord &r = kept.at(i);
            const RequestRecord &f = all.at(i);
            QCOMPARE(r.index, f.index);
            QCOMPARE(r.requestId, f.requestId);
            QCOMPARE(r.tSend, f.tSend);
            QCOMPARE(r.tFirst, f.tFirst);
            QCOMPARE(r.tEnd, f.tEnd);
            QCOMPARE(r.outputTokens, f.outputTokens);
            QCOMPARE(r.error, f.error);
            QCOMPARE(r.errorMessage, f.errorMessage);
            QCOMPARE(r.finishReason, f.finishReason);
            if (r.outputTokens >= 0) {
                QVERIFY(r.chunkTimes.isEmpty() && r.chunkTokens.isEmpty());
            } else {
                QCOMPARE(r.chunkTimes, f.chunkTimes);
                withChunks += r.chunkTimes.isEmpty() ? 0 : 1;
            }
        }
        QVERIFY(requests < 10 || withChunks > 0); // the fallback was exercised

        QCOMPARE(s.totalRecords, loaded.totalRecords);
        QCOMPARE(s.measured, loaded.measured);
        QCOMPARE(s.completed, loaded.completed);
        QCOMPARE(s.failed, loaded.failed);
        QCOMPARE(s.failedByClass, loaded.failedByClass);
        QCOMPARE(s.totalOutputTokens, loaded.totalOutputTokens);
        QCOMPARE(s.outputSources.describe(), loaded.outputSources.describe());
        QCOMPARE(s.multiTokenChunks, loaded.multiTokenChunks);
        if (multi >= 0)
            QCOMPARE(s.multiTokenChunks, multi == 1);
        QCOMPARE(s.peakOutputTokensPerS, loaded.peakOutputTokensPerS);
        QCOMPARE(s.peakConcurrentRequests, loaded.peakConcurrentRequests);
        QCOMPARE(s.goodRequests, loaded.goodRequests);
        QCOMPARE(s.durationS, loaded.durationS);
        for (const char *key : {"ttft", "tpot", "itl", "itl_per_token", "e2el", "schedule_lag",
                                "client_queue_time"}) {
            const MetricStats *a = s.stats(QString::fromLatin1(key));
            const MetricStats *b = loaded.stats(QString::fromLatin1(key));
            QVERIFY(a && b);
            QCOMPARE(a->count, b->count);
            QCOMPARE(a->mean, b->mean);
            QCOMPARE(a->median, b->median);
            QCOMPARE(a->max, b->max);
            for (double p : {90.0, 99.0})
                QCOMPARE(a->percentile(p), b->percentile(p));
        }
        // The ITL statistics to the bit (QCOMPARE on doubles is fuzzy), whichever way the gaps
        // went; the 300-request runs have more gaps than computeStats() sorts, the others fewer.
        QVERIFY(requests < 300 || loaded.itl.count > qint64(statsparts::kRadixThreshold));
        QString diff = testing::exactStatsDifference(s.itl, loaded.itl);
        QVERIFY2(diff.isEmpty(), qPrintable(u"itl "_s + diff));
        diff = testing::exactStatsDifference(s.itlPerToken, loaded.itlPerToken);
        QVERIFY2(diff.isEmpty(), qPrintable(u"itl per token "_s + diff));
        // And what `show` prints is the same text.
        QCOMPARE(formatRunReport(fromStore), formatRunReport(full));
        // The derivation's intervals, the Results view's brackets: the same, the ITL ones (a
        // bootstrap over every request's gaps) included, though the records come without gaps.
        QCOMPARE(intervalsOf(deriveRun(fromStore)), intervalsOf(deriveRun(full)));
    }

    void itlIntervalsPastTheBootstrapLimit()
    {
        // 1,000 requests of 2,002 chunks: 2,001,000 gaps, past the 2,000,000 the clustered
        // bootstrap is computed for. The stored run's ITL intervals say so as the loaded run's
        // do, with the same counts (not "no samples" from the chunkless records).
        QTemporaryDir dir;
        const QString path = dir.filePath(u"p.sbproj"_s);
        RunPlan plan;
        plan.profile.numPrompts = 1000;
        QList<RequestRecord> records;
        for (int i = 0; i < 1000; ++i) {
            RequestRecord r;
            r.index = i;
            r.tSched = r.tSend = 1'000'000'000 + qint64(i) * 1'000'000;
            for (int c = 0; c < 2002; ++c)
                r.chunkTimes.append(r.tSend + 50'000'000 + qint64(c) * (1'000'000 + i));
            r.chunkTokens = QList<qint32>(2002, 1);
            r.tFirst = r.chunkTimes.constFirst();
            r.tLast = r.tEnd = r.chunkTimes.constLast();
            r.outputTokens = 2002;
            r.outputSource = TokenSource::ServerUsage;
            r.httpStatus = 200;
            records.append(r);
        }
        qint64 runId = 0;
        ProjectStore store;
        storeRun(path, plan, records, &runId, &store);
        if (QTest::currentTestFailed())
            return;
        RunReportInput full;
        full.plan = plan;
        full.records = records;
        RunReportInput fromStore;
        fromStore.plan = plan;
        QString error;
        QVERIFY2(loadStoredRunForReport(store, runId, SummaryOptions::forProfile(plan.profile),
                                        &fromStore, &error),
                 qPrintable(error));
        QVERIFY(fromStore.itl && fromStore.itl->clusters.isEmpty()); // only the counts kept
        const QJsonObject stored = intervalsOf(deriveRun(fromStore));
        QCOMPARE(stored, intervalsOf(deriveRun(full)));
        QVERIFY(stored.value(u"itl p99"_s)
                    .toObject()
                    .value(u"reason"_s)
                    .toString()
                    .contains(u"2001000 inter-token gaps"_s));
    }
};

QTEST_GUILESS_MAIN(TestStoredSummary)
#include "tst_storedsummary.moc"
