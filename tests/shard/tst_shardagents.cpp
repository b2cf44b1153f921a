// N agents on this machine, as N pods of the Kubernetes Indexed Job would be: real
// `servebench-cli run --shard I/N` processes against one `servebench-cli simulate`, then
// `servebench-cli merge`. The merged run must be the plan's run: the same requests and dataset
// items as a single agent's run of the plan, and statistics that are exactly summarize() of the
// union of the agents' own records.
#include "clirun.h"
#include "shard/shardrecords.h"

#include "config/runplan.h"
#include "load/schedule.h"
#include "metrics/requestrecord.h"
#include "metrics/summary.h"
#include "store/projectstore.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

using Result = test::CliResult;
using test::runCli;

// Runs the agents at the same time, like the pods of one Job.
QList<Result> runAgents(const QList<QStringList> &argsPerAgent)
{
    std::vector<std::unique_ptr<QProcess>> procs;
    for (const QStringList &args : argsPerAgent) {
        procs.push_back(std::make_unique<QProcess>());
        procs.back()->start(QString::fromUtf8(SB_CLI), args);
    }
    QList<Result> results;
    for (auto &p : procs)
        results.append(test::finishCli(*p));
    return results;
}

void compareStats(const MetricStats &a, const MetricStats &b, const char *what)
{
    QVERIFY2(a.count == b.count, what);
    QVERIFY2(a.mean == b.mean, what);
    QVERIFY2(a.median == b.median, what);
    QVERIFY2(a.stddev == b.stddev, what);
    QVERIFY2(a.min == b.min, what);
    QVERIFY2(a.max == b.max, what);
    QVERIFY2(a.percentiles == b.percentiles, what);
}

} // namespace

class TestShardAgents : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QProcess m_sim;
    QString m_url;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // The plan every agent and the single-agent run share.
    QStringList plan(const QStringList &extra) const
    {
        return QStringList{u"run"_s, u"--base-url"_s,           m_url,    u"--num-prompts"_s,
                           u"31"_s,  u"--random-input-len"_s,   u"12"_s,  u"--random-output-len"_s,
                           u"5"_s,   u"--random-range-ratio"_s, u"0.5"_s, u"--seed"_s,
                           u"42"_s,  u"--warmup-requests"_s,    u"2"_s} +
               extra;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_sim.start(QString::fromUtf8(SB_CLI),
                    {u"simulate"_s, u"--port"_s, u"0"_s, u"--ttft-ms"_s, u"15"_s, u"--itl-ms"_s,
                     u"3"_s, u"--duration"_s, u"500"_s});
        QVERIFY(m_sim.waitForStarted());
        QByteArray line;
        for (int i = 0; i < 200 && !line.contains('\n'); ++i) {
            m_sim.waitForReadyRead(100);
            line += m_sim.readAllStandardOutput();
        }
        const auto m =
            QRegularExpression(u"(http://[0-9.]+:\\d+)"_s).match(QString::fromUtf8(line));
        QVERIFY2(m.hasMatch(), line.constData());
        m_url = m.captured(1);
    }

    void cleanupTestCase()
    {
        m_sim.terminate();
        if (!m_sim.waitForFinished(5000))
            m_sim.kill();
    }

    // Poisson arrivals: each agent draws rate/N from its own seed.
    void mergedRunEqualsThePlansRun()
    {
        const int n = 3;
        const Result single =
            runCli(plan({u"--request-rate"_s, u"60"_s, u"--project"_s, path(u"single.sbproj"_s)}));
        QVERIFY2(single.code == 0, qPrintable(single.err));

        QList<QStringList> agents;
        for (int i = 0; i < n; ++i)
            agents.append(
                plan({u"--request-rate"_s, u"60"_s, u"--shard"_s, u"%1/%2"_s.arg(i).arg(n),
                      u"--save-result"_s, u"--save-detailed"_s, u"--result-dir"_s,
                      path(u"poisson"_s), u"--result-filename"_s, u"shard-%1.json"_s.arg(i)}));
        for (const Result &r : runAgents(agents))
            QVERIFY2(r.code == 0, qPrintable(r.err));

        const Result merge =
            runCli({u"merge"_s, u"--project"_s, path(u"merged.sbproj"_s), path(u"poisson"_s)});
        QVERIFY2(merge.code == 0, qPrintable(merge.err + merge.out));
        QVERIFY2(merge.out.contains(QRegularExpression(u"Successful requests:\\s+31\\s"_s)),
                 qPrintable(merge.out));
        QVERIFY(merge.out.contains("Merged from 3 agents"_L1));
        QVERIFY(merge.out.contains("Start skew between agents (ms):"_L1));

        // The union of the agents' own records, mapped to plan indices.
        QList<RequestRecord> unionRecords;
        QSet<QString> hashes;
        for (int i = 0; i < n; ++i) {
            QList<ShardRun> runs;
            QString error;
            QVERIFY2(loadShardRuns(path(u"poisson/shard-%1.json"_s.arg(i)), &runs, &error),
                     qPrintable(error));
            QCOMPARE(runs.size(), 1);
            const QJsonObject shard = runs.first().shard();
            QCOMPARE(shard.value(u"index"_s).toInt(), i);
            QCOMPARE(shard.value(u"mode"_s).toString(), u"poisson-split"_s);
            QVERIFY(!shard.value(u"host"_s).toString().isEmpty());
            QVERIFY(shard.value(u"start_wall_utc_ns"_s).toString().toLongLong() > 0);
            QVERIFY(shard.value(u"start_monotonic_ns"_s).toString().toLongLong() > 0);
            QCOMPARE(RunPlan::fromJson(runs.first().snapshot).profile.requestRate, 20.0);
            hashes.insert(shard.value(u"plan_hash"_s).toString());
            for (RequestRecord r : runs.first().records) {
                r.index = i + r.index * n;
                unionRecords.append(r);
            }
        }
        QCOMPARE(hashes.size(), 1);
        std::sort(unionRecords.begin(), unionRecords.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });

        ProjectStore singleStore, mergedStore;
        QVERIFY(singleStore.open(path(u"single.sbproj"_s), ProjectStore::OpenMode::ReadOnly));
        QVERIFY(mergedStore.open(path(u"merged.sbproj"_s), ProjectStore::OpenMode::ReadOnly));
        QCOMPARE(mergedStore.listRuns().size(), 1);
        const qint64 mergedId = mergedStore.listRuns().first().id;
        const auto mergedRun = mergedStore.loadRun(mergedId);
        QVERIFY(mergedRun);
        QCOMPARE(mergedRun->status, StoredRunStatus::Completed);
        QVERIFY(mergedRun->host.startsWith("merged: "_L1));
        const QJsonObject mergeBlock = mergedRun->snapshot.value(u"merge"_s).toObject();
        QCOMPARE(mergeBlock.value(u"agents"_s).toInt(), n);
        QCOMPARE(mergeBlock.value(u"plan_hash"_s).toString(), *hashes.cbegin());
        QVERIFY(mergeBlock.value(u"time_axis"_s).toString().contains("UTC"_L1));
        // The merged run's plan is the plan, not an agent's share of it.
        const RunPlan mergedPlan = RunPlan::fromJson(mergedRun->snapshot);
        QCOMPARE(mergedPlan.profile.requestRate, 60.0);
        QCOMPARE(mergedPlan.profile.numPrompts, 31);
        QCOMPARE(mergedPlan.profile.seed, quint64(42));

        const QList<RequestRecord> merged = mergedStore.loadRequests(mergedId);
        const QList<RequestRecord> one =
            singleStore.loadRequests(singleStore.listRuns().first().id);
        QCOMPARE(merged.size(), one.size());
        QCOMPARE(merged.size(), unionRecords.size());
        for (int k = 0; k < merged.size(); ++k) {
            QCOMPARE(merged.at(k).index, qint64(k));
            // The same dataset item for the same plan request, warm-ups in the same places.
            QCOMPARE(merged.at(k).datasetItem, one.at(k).datasetItem);
            QCOMPARE(merged.at(k).warmup, one.at(k).warmup);
            QCOMPARE(merged.at(k).expectedInputTokens, one.at(k).expectedInputTokens);
            QCOMPARE(merged.at(k).expectedOutputTokens, one.at(k).expectedOutputTokens);
            QCOMPARE(merged.at(k).datasetItem, unionRecords.at(k).datasetItem);
            // Moving onto the merged axis keeps every interval exact.
            QCOMPARE(merged.at(k).tFirst - merged.at(k).tSend,
                     unionRecords.at(k).tFirst - unionRecords.at(k).tSend);
        }

        const SummaryOptions opts = SummaryOptions::forProfile(mergedPlan.profile);
        const RunSummary sMerged = summarize(merged, opts);
        const RunSummary sUnion = summarize(unionRecords, opts);
        const RunSummary sOne = summarize(one, opts);
        QCOMPARE(sMerged.completed, 31);
        QCOMPARE(sMerged.warmup, 2);
        QCOMPARE(sMerged.completed, sOne.completed);
        QCOMPARE(sMerged.failed, sOne.failed);
        QCOMPARE(sMerged.totalInputTokens, sOne.totalInputTokens);
        QCOMPARE(sMerged.totalOutputTokens, sOne.totalOutputTokens);
        compareStats(sMerged.ttft, sUnion.ttft, "ttft");
        compareStats(sMerged.tpot, sUnion.tpot, "tpot");
        compareStats(sMerged.itl, sUnion.itl, "itl");
        compareStats(sMerged.e2el, sUnion.e2el, "e2el");
        QCOMPARE(sMerged.totalOutputTokens, sUnion.totalOutputTokens);
        // Latencies of a different run of the same plan against the same simulator.
        QVERIFY(qAbs(sMerged.ttft.median - sOne.ttft.median) < 25);

        // `show` recomputes the same numbers from the stored merged run.
        const Result show = runCli({u"show"_s, u"--project"_s, path(u"merged.sbproj"_s), u"--run"_s,
                                    QString::number(mergedId)});
        QVERIFY2(show.code == 0, qPrintable(show.err));
        const QString head =
            merge.out.section(u"==================================================\n"_s, 0, 0);
        QVERIFY2(show.out.startsWith(head), qPrintable(show.out));
    }

    // A fixed schedule and a shared start: the agents send the plan's own requests at the plan's
    // own times, so every merged t_sched is start-at + the plan's schedule offset, exactly.
    void sharedStartReproducesTheSchedule()
    {
        const int n = 2;
        const qint64 startAtMs = QDateTime::currentMSecsSinceEpoch() + 6000;
        QList<QStringList> agents;
        for (int i = 0; i < n; ++i)
            agents.append(
                plan({u"--request-rate"_s, u"50"_s, u"--arrival"_s, u"constant"_s, u"--shard"_s,
                      u"%1/%2"_s.arg(i).arg(n), u"--start-at"_s, QString::number(startAtMs),
                      u"--project"_s, path(u"agent-%1.sbproj"_s.arg(i))}));
        for (const Result &r : runAgents(agents))
            QVERIFY2(r.code == 0, qPrintable(r.err));
        const Result merge = runCli({u"merge"_s, u"--project"_s, path(u"constant.sbproj"_s),
                                     path(u"agent-1.sbproj"_s), path(u"agent-0.sbproj"_s)});
        QVERIFY2(merge.code == 0, qPrintable(merge.err + merge.out));

        ProjectStore store;
        QVERIFY(store.open(path(u"constant.sbproj"_s), ProjectStore::OpenMode::ReadOnly));
        const auto run = store.loadRun(store.listRuns().first().id);
        QVERIFY(run);
        const QJsonObject mergeBlock = run->snapshot.value(u"merge"_s).toObject();
        const QJsonArray shards = mergeBlock.value(u"shards"_s).toArray();
        QCOMPARE(shards.size(), n);
        for (const QJsonValue &s : shards) {
            QCOMPARE(s.toObject().value(u"mode"_s).toString(), u"interleave"_s);
            QCOMPARE(s.toObject().value(u"start_at_ms"_s).toString(), QString::number(startAtMs));
        }
        // Both agents started at the shared instant on their own clocks (one host: one clock).
        QVERIFY2(mergeBlock.value(u"start_skew_ms"_s).toDouble() < 0.001,
                 qPrintable(QString::number(mergeBlock.value(u"start_skew_ms"_s).toDouble())));

        const RunPlan p = RunPlan::fromJson(run->snapshot);
        const QList<qint64> schedule = buildSchedule(p.profile, 33, p.profile.seed);
        const QList<RequestRecord> records = store.loadRequests(run->id);
        QCOMPARE(records.size(), 33);
        for (int k = 0; k < records.size(); ++k) {
            QCOMPARE(records.at(k).index, qint64(k));
            QCOMPARE(records.at(k).tSched, startAtMs * 1'000'000 + schedule.at(k));
            QVERIFY(records.at(k).tSend >= records.at(k).tSched);
        }
    }

    void mergeRefusesAnIncompleteSet()
    {
        const Result r = runCli({u"merge"_s, u"--project"_s, path(u"partial.sbproj"_s),
                                 path(u"poisson/shard-0.json"_s), path(u"poisson/shard-2.json"_s)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("shard 1 of 3 is missing"_L1), qPrintable(r.err));
        QVERIFY(!QFile::exists(path(u"partial.sbproj"_s)));
    }

    void shardWithoutASharedEndpointIsRefused()
    {
        const Result r = runCli({u"run"_s, u"--num-prompts"_s, u"4"_s, u"--shard"_s, u"0/2"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("base URL"_L1), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestShardAgents)
#include "tst_shardagents.moc"
