// servebench-cli end to end, as a user runs it: real processes, the built-in simulator (in the
// CLI's own process or as `servebench-cli simulate`), real sockets and project files.
#include "capturerelay.h"
#include "clirun.h"
#include "common/clock.h"
#include "config/runplan.h"
#include "load/schedule.h"
#include "metrics/requestrecord.h"
#include "sim/simulator.h"
#include "store/projectstore.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
using Result = test::CliResult;
using test::runCli;

// The source tree (README.md, docs/), from the test data folder.
QString sourceRoot()
{
    return QDir::cleanPath(QStringLiteral(SB_TEST_DATA_DIR "/../.."));
}

QString sourceText(const QString &path)
{
    QFile f(QDir(sourceRoot()).filePath(path));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The commands `servebench-cli --help` lists.
QStringList cliCommands()
{
    const Result usage = runCli({u"--help"_s});
    QStringList commands;
    const QRegularExpression row(u"^  ([a-z][a-z-]+)  "_s, QRegularExpression::MultilineOption);
    for (auto it = row.globalMatch(usage.code == 0 ? usage.out : QString()); it.hasNext();)
        commands << it.next().captured(1);
    return commands;
}

const QStringList kShort = {u"--num-prompts"_s,       u"20"_s, u"--random-input-len"_s, u"16"_s,
                            u"--random-output-len"_s, u"8"_s};
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void runPrintsVllmLabelsAndExitsZero()
    {
        const Result r = runCli(QStringList{u"run"_s} + kShort);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.err.contains("built-in simulator"_L1));
        for (const char *label :
             {"============ Serving Benchmark Result ============", "Successful requests:",
              "Benchmark duration (s):", "Total input tokens:", "Total generated tokens:",
              "Request throughput (req/s):", "Output token throughput (tok/s):",
              "Total Token throughput (tok/s):", "Mean TTFT (ms):", "Median TTFT (ms):",
              "P99 TTFT (ms):", "Mean TPOT (ms):", "Mean ITL (ms):", "Mean schedule lag (ms):",
              "Output token count source:", "Dataset hash:"})
            QVERIFY2(r.out.contains(QLatin1StringView(label)), label);
        QVERIFY(r.out.contains(QRegularExpression(u"Successful requests:\\s+20\\s"_s)));
        QVERIFY(r.out.contains(QRegularExpression(u"Total generated tokens:\\s+160\\s"_s)));
    }

    void resultJsonHasVllmAndServeBenchKeys()
    {
        const Result r = runCli(QStringList{u"run"_s} + kShort +
                                QStringList{u"--save-result"_s, u"--save-detailed"_s,
                                            u"--result-dir"_s, m_dir.path(), u"--result-filename"_s,
                                            u"r.json"_s, u"--goodput"_s, u"ttft:1000"_s,
                                            u"tpot:100"_s, u"--metric-percentiles"_s, u"50,99"_s});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(m_dir.filePath(u"r.json"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        for (const char *key : {"date",
                                "backend",
                                "model_id",
                                "num_prompts",
                                "request_rate",
                                "burstiness",
                                "max_concurrency",
                                "duration",
                                "completed",
                                "failed",
                                "total_input_tokens",
                                "total_output_tokens",
                                "request_throughput",
                                "request_goodput",
                                "output_throughput",
                                "total_token_throughput",
                                "mean_ttft_ms",
                                "median_ttft_ms",
                                "std_ttft_ms",
                                "p99_ttft_ms",
                                "p50_ttft_ms",
                                "mean_tpot_ms",
                                "p99_itl_ms",
                                "mean_e2el_ms",
                                "input_lens",
                                "output_lens",
                                "ttfts",
                                "itls",
                                "errors",
                                "e2els",
                                "start_times",
                                "scheduled_times",
                                "schedule_lag",
                                "failed_by_class",
                                "token_count_source",
                                "metric_definitions",
                                "config_snapshot",
                                "tool_version",
                                "client_health"})
            QVERIFY2(o.contains(QLatin1StringView(key)), key);
        QCOMPARE(o.value(u"request_rate"_s).toString(), u"inf"_s);
        QCOMPARE(o.value(u"completed"_s).toInt(), 20);
        QCOMPARE(o.value(u"ttfts"_s).toArray().size(), 20);
        QCOMPARE(o.value(u"itls"_s).toArray().at(0).toArray().size(), 7);
        // vLLM's arrays are in seconds: a 50 ms TTFT is about 0.05.
        const double ttft = o.value(u"ttfts"_s).toArray().at(0).toDouble();
        QVERIFY2(ttft > 0.04 && ttft < 1.0, qPrintable(QString::number(ttft)));
        QCOMPARE(o.value(u"request_goodput"_s).toDouble() > 0, true);
        // No text is kept, and unknown is not empty: vLLM's generated_texts is left out with
        // its reason, not filled with "" (docs/metrics.md, "Not available").
        QVERIFY(!o.contains(u"generated_texts"_s));
        QVERIFY(o.value(u"generated_texts_unavailable_reason"_s)
                    .toString()
                    .contains(u"does not keep the generated text"_s));
    }

    void badArgumentsNameTheFlag_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("flag");
        QTest::newRow("unknown") << QStringList{u"--frobnicate"_s} << u"--frobnicate"_s;
        QTest::newRow("rate") << QStringList{u"--request-rate"_s, u"fast"_s} << u"--request-rate"_s;
        QTest::newRow("prompts") << QStringList{u"--num-prompts"_s, u"0"_s} << u"--num-prompts"_s;
        QTest::newRow("backend") << QStringList{u"--backend"_s, u"tgi"_s} << u"--backend"_s;
        QTest::newRow("goodput") << QStringList{u"--goodput"_s, u"ttft"_s} << u"--goodput"_s;
        QTest::newRow("extra-body")
            << QStringList{u"--extra-body"_s, u"{nope"_s} << u"--extra-body"_s;
        QTest::newRow("dataset") << QStringList{u"--dataset-name"_s, u"sharegpt"_s}
                                 << u"--dataset-path"_s;
        QTest::newRow("missing value") << QStringList{u"--model"_s} << u"--model"_s;
    }
    void badArgumentsNameTheFlag()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, flag);
        const Result r = runCli(QStringList{u"run"_s} + args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(flag), qPrintable(r.err));
        QCOMPARE(r.err.count(u'\n'), 1); // one line
    }

    void unreachableServerIsAnError()
    {
        const Result r = runCli({u"run"_s, u"--base-url"_s, u"http://127.0.0.1:1"_s, u"--model"_s,
                                 u"m"_s, u"--num-prompts"_s, u"3"_s});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot reach http://127.0.0.1:1"_L1), qPrintable(r.err));
        QVERIFY(r.err.contains("--base-url"_L1));
    }

    void vllmCompatibilityFlagsAreNotedNotMisread()
    {
        const Result r = runCli(QStringList{u"run"_s, u"--disable-tqdm"_s} + kShort);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.err.contains("note: --disable-tqdm"_L1));
        // --tokenizer is used (docs/tokenizers.md): a Hugging Face model id, which vLLM would
        // download, is refused before the run starts, saying what the flag reads.
        const Result hub =
            runCli(QStringList{u"run"_s, u"--tokenizer"_s, u"meta-llama/x"_s} + kShort);
        QCOMPARE(hub.code, 1);
        QVERIFY2(hub.err.contains("--tokenizer"_L1) && hub.err.contains("meta-llama/x"_L1) &&
                     hub.err.contains("not downloaded"_L1),
                 qPrintable(hub.err));
        QVERIFY(!hub.out.contains("Serving Benchmark Result"_L1));
    }

    void apiKeyIsSentButNeverEchoedOrStored()
    {
        // The runs go through a relay that keeps what reached the server: the credentials must
        // arrive there, and nowhere else (output, project file and its -wal, result file).
        Simulator sim;
        QVERIFY(sim.start());
        test::CaptureRelay relay(sim.port());
        QVERIFY(relay.port() > 0);
        const QString base = u"http://127.0.0.1:%1"_s.arg(relay.port());
        const QString project = m_dir.filePath(u"secret.sbproj"_s);
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(u"OPENAI_API_KEY"_s, u"sk-test-DO-NOT-LEAK-123456789012345"_s);

        // The key from the environment.
        Result r =
            runCli(QStringList{u"run"_s, u"--base-url"_s, base, u"--model"_s, u"servebench-sim"_s,
                               u"--project"_s, project, u"--save-result"_s, u"--result-dir"_s,
                               m_dir.path(), u"--result-filename"_s, u"secret.json"_s} +
                       kShort,
                   120000, env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!r.out.contains("DO-NOT-LEAK"_L1) && !r.err.contains("DO-NOT-LEAK"_L1));
        const QByteArray first = relay.received();
        QCOMPARE(first.count("POST /v1/completions "), 20);
        // Every request, the checks before the run (GET /v1/models, POST /tokenize) included.
        const auto requests = [](const QByteArray &b) {
            return b.count("POST ") + b.count("GET ");
        };
        QCOMPARE(first.count("\r\nAuthorization: Bearer sk-test-DO-NOT-LEAK-123456789012345\r\n"),
                 requests(first));

        // Headers given on the command line replace it; '=' inside the value, and the inline
        // form.
        r = runCli(QStringList{u"run"_s, u"--base-url"_s, base, u"--model"_s, u"servebench-sim"_s,
                               u"--project"_s, project, u"--header"_s,
                               u"Authorization: Bearer sk-header-secret"_s,
                               u"--header=X-Api-Key:keypart=tail-secret"_s} +
                       kShort,
                   120000, env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray second = relay.received().mid(first.size());
        QCOMPARE(second.count("POST /v1/completions "), 20);
        QCOMPARE(second.count("\r\nAuthorization: Bearer sk-header-secret\r\n"), requests(second));
        QCOMPARE(second.count("\r\nX-Api-Key: keypart=tail-secret\r\n"), requests(second));
        QVERIFY(!second.contains("DO-NOT-LEAK"));

        // After a clean exit SQLite has folded the -wal into the file and removed it; a run that
        // is killed leaves its -wal, holding everything it committed (snapshot, headers it was
        // given, records). Kill one mid-run and read that too.
        QProcess killed;
        killed.setProcessEnvironment(env);
        killed.start(QString::fromUtf8(SB_CLI),
                     {u"run"_s, u"--base-url"_s, base, u"--model"_s, u"servebench-sim"_s,
                      u"--project"_s, project, u"--header=X-Api-Key:keypart=tail-secret"_s,
                      u"--num-prompts"_s, u"100000"_s, u"--request-rate"_s, u"100"_s,
                      u"--random-output-len"_s, u"2"_s, u"--random-input-len"_s, u"8"_s});
        QVERIFY(killed.waitForStarted());
        const QString wal = project + u"-wal"_s;
        QDeadlineTimer deadline(30000);
        while (QFileInfo(wal).size() < 64 * 1024 && !deadline.hasExpired())
            QTest::qWait(100);
        killed.kill();
        QVERIFY(killed.waitForFinished());
        QVERIFY2(QFileInfo(wal).size() >= 64 * 1024, "the killed run left no -wal to read");
        QVERIFY(relay.received().mid(first.size() + second.size()).contains("keypart=tail-secret"));

        for (const QString &file : {project, wal, m_dir.filePath(u"secret.json"_s)}) {
            QFile f(file);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file));
            const QByteArray bytes = f.readAll();
            QVERIFY2(!bytes.contains("DO-NOT-LEAK"), qPrintable(file));
            QVERIFY2(!bytes.contains("sk-header-secret"), qPrintable(file));
            QVERIFY2(!bytes.contains("keypart") && !bytes.contains("tail-secret"),
                     qPrintable(file));
        }
    }

    void projectRunsShowExport()
    {
        const QString project = m_dir.filePath(u"p.sbproj"_s);
        const Result r1 = runCli(QStringList{u"run"_s, u"--project"_s, project} + kShort);
        QVERIFY2(r1.code == 0, qPrintable(r1.err));
        const Result r2 = runCli(
            QStringList{u"run"_s, u"--project"_s, project, u"--request-rate"_s, u"40"_s} + kShort);
        QVERIFY2(r2.code == 0, qPrintable(r2.err));

        const Result runs = runCli({u"runs"_s, u"--project"_s, project});
        QCOMPARE(runs.code, 0);
        QCOMPARE(runs.out.count(u"completed"_s), 2);

        // show recomputes from stored raw records exactly what run printed at its end.
        const Result show = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"2"_s});
        QCOMPARE(show.code, 0);
        const QString printed = r2.out.mid(r2.out.indexOf("============ Serving"_L1));
        QCOMPARE(show.out, printed);

        const Result json = runCli(
            {u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"json"_s});
        QCOMPARE(json.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o.value(u"completed"_s).toInt(), 20);
        QCOMPARE(o.value(u"ttfts"_s).toArray().size(), 20);

        const Result csv = runCli(
            {u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"csv"_s});
        QCOMPARE(csv.code, 0);
        const QStringList lines = csv.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 21);
        QVERIFY(lines.first().startsWith("index,request_id"_L1));

        const Result missing = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"99"_s});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("--run 99"_L1));
    }

    void singleStreamEstimateIsTheThirdLargestOf100()
    {
        const QString project = m_dir.filePath(u"ss.sbproj"_s);
        const Result r =
            runCli({u"run"_s, u"--scenario"_s, u"single-stream"_s, u"--num-prompts"_s, u"100"_s,
                    u"--random-output-len"_s, u"3"_s, u"--project"_s, project, u"--save-result"_s,
                    u"--result-dir"_s, m_dir.path(), u"--result-filename"_s, u"ss.json"_s});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(m_dir.filePath(u"ss.json"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject ml =
            QJsonDocument::fromJson(f.readAll()).object().value(u"mlperf"_s).toObject();
        QCOMPARE(ml.value(u"scenario"_s).toString(), u"single-stream"_s);

        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
        const QList<RequestRecord> recs = store.loadRequests(store.listRuns().first().id);
        QCOMPARE(recs.size(), 100);
        QList<double> lat;
        for (const auto &rec : recs) {
            QVERIFY(rec.ok());
            lat.append(nsToMs(rec.tLast - rec.tSched)); // LoadGen: from the scheduled time
        }
        std::sort(lat.begin(), lat.end());
        // Also no overlap: SingleStream sends the next query after the previous completes.
        for (int i = 1; i < recs.size(); ++i)
            QVERIFY(recs[i].tSend >= recs[i - 1].tEnd);
        // p90 at N = 100: early stopping discards the 2 highest; the estimate is the 3rd largest.
        const double estimate = ml.value(u"early_stopping_estimate_ms"_s).toDouble();
        QCOMPARE(estimate, lat.at(97));
        const QJsonObject e2el =
            ml.value(u"early_stopping"_s).toObject().value(u"e2el"_s).toObject();
        QCOMPARE(e2el.value(u"queries"_s).toInt(), 100);
        QCOMPARE(e2el.value(u"discarded"_s).toInt(), 2);
    }

    void singleStreamOf63NeedsAtLeast64()
    {
        const Result r = runCli({u"run"_s, u"--scenario"_s, u"single-stream"_s, u"--num-prompts"_s,
                                 u"63"_s, u"--random-output-len"_s, u"2"_s});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Result is : INVALID"_L1));
        QVERIFY2(r.out.contains("at least 64 queries"_L1), qPrintable(r.out));
    }

    void serverTooSlowIsInvalidAndNamesTheConstraint()
    {
        const Result r = runCli({u"run"_s, u"--scenario"_s, u"server"_s, u"--request-rate"_s,
                                 u"20"_s, u"--num-prompts"_s, u"40"_s, u"--random-output-len"_s,
                                 u"4"_s, u"--ttft-slo-ms"_s, u"5"_s, u"--tpot-slo-ms"_s, u"100"_s});
        QVERIFY2(r.code == 0, qPrintable(r.err)); // the run completed; the result is INVALID
        QVERIFY(r.out.contains("Result is : INVALID"_L1));
        QVERIFY2(r.out.contains("TTFT p99"_L1), qPrintable(r.out));
    }

    void serverFastEnoughIsValid()
    {
        // 500 queries: enough for early stopping at p99 with no query over the bound (459).
        const Result r = runCli({u"run"_s, u"--scenario"_s, u"server"_s, u"--request-rate"_s,
                                 u"250"_s, u"--num-prompts"_s, u"500"_s, u"--random-output-len"_s,
                                 u"2"_s, u"--random-input-len"_s, u"8"_s, u"--ttft-slo-ms"_s,
                                 u"2000"_s, u"--tpot-slo-ms"_s, u"200"_s});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("Result is : VALID"_L1), qPrintable(r.out));
    }

    void offlineIssuesEverythingAtOnce()
    {
        const QString project = m_dir.filePath(u"offline.sbproj"_s);
        const Result r =
            runCli({u"run"_s, u"--scenario"_s, u"offline"_s, u"--num-prompts"_s, u"30"_s,
                    u"--random-output-len"_s, u"4"_s, u"--project"_s, project});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
        const QList<RequestRecord> recs = store.loadRequests(store.listRuns().first().id);
        QCOMPARE(recs.size(), 30);
        for (const RequestRecord &rec : recs) {
            QCOMPARE(rec.tSched, recs.first().tSched); // one instant for every sample
            QVERIFY(rec.tSend < recs.first().tFirst);  // all sent before any answer came
        }
    }

    void closedLoopStaysAtC()
    {
        const QString project = m_dir.filePath(u"closed.sbproj"_s);
        const int c = 5;
        const Result r =
            runCli({u"run"_s, u"--concurrency"_s, QString::number(c), u"--num-prompts"_s, u"60"_s,
                    u"--random-output-len"_s, u"4"_s, u"--project"_s, project});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
        const QList<RequestRecord> recs = store.loadRequests(store.listRuns().first().id);
        QCOMPARE(recs.size(), 60);
        // At every send, the requests in flight (sent, not yet ended) including this one.
        for (const RequestRecord &a : recs) {
            int inFlight = 0;
            for (const RequestRecord &b : recs)
                if (b.tSend <= a.tSend && b.tEnd > a.tSend)
                    ++inFlight;
            QVERIFY2(inFlight <= c, qPrintable(QString::number(inFlight)));
        }
        // And it stays at C: by Little's law the mean number in flight is the summed request
        // time over the run's span; a slot is refilled the moment it frees.
        qint64 busy = 0, first = recs.first().tSend, last = 0;
        for (const RequestRecord &a : recs) {
            busy += a.tEnd - a.tSend;
            first = std::min(first, a.tSend);
            last = std::max(last, a.tEnd);
        }
        const double meanInFlight = double(busy) / double(last - first);
        QVERIFY2(meanInFlight > 0.9 * c, qPrintable(QString::number(meanInFlight)));
    }

    void sweepAchievesIncreasingRates()
    {
        const Result r = runCli({u"run"_s, u"--sweep"_s, u"2"_s, u"--num-prompts"_s, u"40"_s,
                                 u"--random-output-len"_s, u"4"_s, u"--random-input-len"_s, u"8"_s},
                                300000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const int at = r.out.indexOf("Sweep: latency versus throughput"_L1);
        QVERIFY(at >= 0);
        QList<double> rates; // achieved req/s in the order: synchronous, throughput, rate-1, rate-2
        for (const QString &line : r.out.mid(at).split(u'\n')) {
            const QStringList f = line.split(u' ', Qt::SkipEmptyParts);
            if (f.size() >= 3 && (f[0] == "synchronous"_L1 || f[0] == "throughput"_L1 ||
                                  f[0].startsWith("rate-"_L1)))
                rates.append(f[2].toDouble());
        }
        QCOMPARE(rates.size(), 4);
        QVERIFY2(rates[0] < rates[2] && rates[2] < rates[3],
                 qPrintable(u"%1 %2 %3"_s.arg(rates[0]).arg(rates[2]).arg(rates[3])));
    }

    void storedPoissonScheduleMatchesTheSeed()
    {
        const QString project = m_dir.filePath(u"poisson.sbproj"_s);
        const Result r =
            runCli({u"run"_s, u"--project"_s, project, u"--request-rate"_s, u"40"_s, u"--seed"_s,
                    u"42"_s, u"--num-prompts"_s, u"30"_s, u"--random-output-len"_s, u"2"_s});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
        const auto run = store.loadRun(store.listRuns().first().id);
        QVERIFY(run.has_value());
        const RunPlan plan = RunPlan::fromJson(run->snapshot);
        QCOMPARE(plan.profile.seed, quint64(42));
        const QList<qint64> schedule = buildSchedule(plan.profile, 30, 42);
        const QList<RequestRecord> recs = store.loadRequests(run->id);
        QCOMPARE(recs.size(), 30);
        for (int i = 0; i < recs.size(); ++i)
            QCOMPARE(recs[i].tSched - run->startedMonoNs, schedule[i]);
        QVERIFY(schedule.last() > schedule.first()); // a real Poisson schedule, not all zeros
    }

    void killedRunIsInterruptedWithItsRecords()
    {
        const QString project = m_dir.filePath(u"kill.sbproj"_s);
        QProcess p;
        p.start(QString::fromUtf8(SB_CLI),
                {u"run"_s, u"--project"_s, project, u"--num-prompts"_s, u"100000"_s,
                 u"--request-rate"_s, u"200"_s, u"--random-output-len"_s, u"2"_s,
                 u"--random-input-len"_s, u"8"_s});
        QVERIFY(p.waitForStarted());
        // Long enough for several committed batches (the writer commits at least once a second).
        QTest::qWait(3500);
        p.kill();
        QVERIFY(p.waitForFinished());
        ProjectStore store;
        QVERIFY2(store.open(project), qPrintable(store.lastError()));
        QString details;
        QVERIFY2(store.integrityCheck(&details), qPrintable(details));
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().status, StoredRunStatus::Interrupted);
        QVERIFY2(runs.first().requestCount > 50,
                 qPrintable(QString::number(runs.first().requestCount)));
        QCOMPARE(store.loadRequests(runs.first().id).size(), runs.first().requestCount);
    }

    // --- what the README and docs/ say of the command line (issue 27) -------------------------

    void runHelpListsTheKeychainToken()
    {
        const Result r = runCli({u"run"_s, u"--help"_s});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(u"token-keychain=ENTRY"_s), qPrintable(r.out));
    }

    void shardErrorNamesTheFlagOnce()
    {
        Simulator sim;
        QVERIFY(sim.start());
        const Result r = runCli(
            {u"run"_s, u"--base-url"_s, u"http://127.0.0.1:%1"_s.arg(sim.port()), u"--model"_s,
             u"servebench-sim"_s, u"--num-prompts"_s, u"2"_s, u"--shard"_s, u"0/3"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"error: --shard 0/3: the plan has 2 measured requests"_s),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"--shard --shard"_s), qPrintable(r.err));
    }

    void errorRateStopIsOneSentence()
    {
        SimConfig config;
        config.faultRates[int(SimFault::Http500)] = 1.0;
        Simulator sim(config);
        QVERIFY(sim.start());
        const Result r = runCli(
            {u"run"_s, u"--base-url"_s, u"http://127.0.0.1:%1"_s.arg(sim.port()), u"--model"_s,
             u"servebench-sim"_s, u"--num-prompts"_s, u"200"_s, u"--random-input-len"_s, u"4"_s,
             u"--random-output-len"_s, u"2"_s, u"--max-error-rate"_s, u"0.2"_s});
        QCOMPARE(r.code, 1);
        const qsizetype at = r.err.indexOf(u"error: the run stopped: the error rate exceeded"_s);
        QVERIFY2(at >= 0, qPrintable(r.err));
        const QString line = r.err.mid(at).section(u'\n', 0, 0);
        QVERIFY2(!line.contains(u"  "_s), qPrintable(line));
    }

    // Against the built-in simulator a user's DCGM exporter is the only "dcgm": the simulator's
    // simulated GPU is named so and stands in only when no target is given
    // (docs/server-metrics.md).
    void usersMetricsTargetIsNotShadowedBySimulatedGpu()
    {
        const QRegularExpression scraping(u"Server metrics: scraping ([^\n]*)"_s);
        // About a second of sending, so that the GPU is usually scraped inside the window.
        Result r = runCli(QStringList{u"run"_s, u"--request-rate"_s, u"20"_s} + kShort);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QRegularExpressionMatch m = scraping.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        QVERIFY2(m.captured(1).contains(u"dcgm-simulated ("_s), qPrintable(m.captured(1)));
        // Its evidence says it is simulated where the summary shows it: "(simulated:
        // dcgm-simulated)" after a figure, the target's name in the reason of an n/a.
        for (const char *label : {"GPU utilisation (mean):", "GPU power (mean):"}) {
            const qsizetype at = r.out.indexOf(QLatin1StringView(label));
            QVERIFY2(at >= 0, label);
            const QString line = r.out.mid(at).section(u'\n', 0, 0);
            QVERIFY2(line.endsWith(u"(simulated: dcgm-simulated)"_s) ||
                         (line.contains(u"n/a"_s) && line.contains(u"'dcgm-simulated'"_s)),
                     qPrintable(line));
        }

        r = runCli(
            QStringList{u"run"_s, u"--metrics-target"_s, u"dcgm=http://127.0.0.1:1/metrics"_s} +
            kShort);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        m = scraping.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        const QString targets = m.captured(1);
        QCOMPARE(targets.count(u"dcgm"_s), 1);
        QVERIFY2(targets.contains(u"dcgm (http://127.0.0.1:1/metrics)"_s), qPrintable(targets));
        QVERIFY2(!r.out.contains(u"dcgm-simulated"_s), qPrintable(r.out));
    }

    // `report` renders with a QGuiApplication; Qt's offscreen platform must not make it print
    // "QStandardPaths: XDG_RUNTIME_DIR not set" on a machine (CI, a container) without one.
    void reportPrintsNoRuntimeDirWarning()
    {
        const QString project = m_dir.filePath(u"report-env.sbproj"_s);
        Result r = runCli(QStringList{u"run"_s, u"--project"_s, project} + kShort);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove(u"XDG_RUNTIME_DIR"_s);
        env.remove(u"QT_QPA_PLATFORM"_s);
        env.remove(u"DISPLAY"_s);
        env.remove(u"WAYLAND_DISPLAY"_s);
        r = runCli({u"report"_s, u"--project"_s, project, u"--runs"_s, u"1"_s, u"--html"_s,
                    m_dir.filePath(u"report-env.html"_s), u"--pdf"_s,
                    m_dir.filePath(u"report-env.pdf"_s)},
                   180000, env);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY2(!r.err.contains(u"QStandardPaths"_s) && !r.err.contains(u"XDG_RUNTIME_DIR"_s),
                 qPrintable(r.err));
        QVERIFY(QFileInfo(m_dir.filePath(u"report-env.pdf"_s)).size() > 0);
    }

    // Every command `servebench-cli --help` lists is documented in both READMEs.
    void readmesNameEveryCommand()
    {
        const QStringList commands = cliCommands();
        QVERIFY2(commands.contains(u"version"_s), qPrintable(commands.join(u' ')));
        for (const QString &readme : {u"README.md"_s, u"README.zh_CN.md"_s}) {
            const QString text = sourceText(readme);
            QVERIFY(!text.isEmpty());
            for (const QString &c : std::as_const(commands))
                QVERIFY2(text.contains(u'`' + c), qPrintable(readme + u": "_s + c));
        }
    }

    // Every `servebench-cli COMMAND [SUBCOMMAND] --flag` the READMEs and docs/ print names a
    // command that exists and flags that command's --help lists (a doc that names a flag its
    // command does not have sends a reader to an error; `--token-keychain` was missing from
    // `run --help`, issue 27).
    void docsNameOnlyFlagsTheirCommandHas()
    {
        const QStringList commands = cliCommands();
        QHash<QString, QString> helps; // "study run" → its --help text
        const auto helpOf = [&](const QStringList &words) {
            const QString key = words.join(u' ');
            if (!helps.contains(key)) {
                const Result r = runCli(words + QStringList{u"--help"_s});
                helps.insert(key, r.code == 0 ? r.out + r.err : QString());
            }
            return helps.value(key);
        };
        const QDir docs(QDir(sourceRoot()).filePath(u"docs"_s));
        QStringList files = docs.entryList({u"*.md"_s}, QDir::Files);
        for (QString &f : files)
            f = u"docs/"_s + f;
        files << u"README.md"_s << u"README.zh_CN.md"_s;
        static const QRegularExpression invocation(
            u"servebench-cli((?:[ \\t]|\\\\\\n)+[^`\\n|;&>]*(?:\\\\\\n[^`\\n|;&>]*)*)"_s);
        static const QRegularExpression flag(u"(?:^|\\s)(--[a-z][a-z0-9-]*)"_s);
        int checked = 0;
        QStringList problems;
        for (const QString &file : std::as_const(files)) {
            const QString text = sourceText(file);
            for (auto it = invocation.globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                const QStringList words =
                    m.captured(1).simplified().remove(u"\\ "_s).split(u' ', Qt::SkipEmptyParts);
                if (words.isEmpty() || words.first().startsWith(u'-') ||
                    words.first().startsWith(u'<') || words.first().startsWith(u'['))
                    continue; // `servebench-cli --help`, `servebench-cli <command>`
                const QString command = words.first();
                const int line = int(text.left(m.capturedStart()).count(u'\n')) + 1;
                if (!commands.contains(command)) {
                    // Prose such as "servebench-cli is ..." names no command.
                    if (command.contains(QRegularExpression(u"^[a-z][a-z-]*$"_s)) &&
                        text.mid(m.capturedStart() - 1, 1) == u"`"_s)
                        problems << u"%1:%2: no command '%3'"_s.arg(file).arg(line).arg(command);
                    continue;
                }
                QStringList key{command};
                const QString top = helpOf(key);
                // A command with subcommands says so in its usage line ("run|status|…") or
                // refuses to run without one.
                if (words.size() > 1 && !words.at(1).startsWith(u'-') &&
                    (top.contains(u"servebench-cli %1 "_s.arg(command) + words.at(1)) ||
                     top.isEmpty() || top.contains(u'|')))
                    key << words.at(1);
                const QString help = helpOf(key);
                if (help.isEmpty()) {
                    problems
                        << u"%1:%2: `servebench-cli %3 --help` fails"_s.arg(file).arg(line).arg(
                               key.join(u' '));
                    continue;
                }
                const QString rest = words.join(u' ');
                for (auto f = flag.globalMatch(rest); f.hasNext();) {
                    const QString name = f.next().captured(1);
                    ++checked;
                    if (!help.contains(QRegularExpression(QRegularExpression::escape(name) +
                                                          u"(?![a-z0-9-])"_s)))
                        problems
                            << u"%1:%2: `servebench-cli %3` has no %4"_s.arg(file).arg(line).arg(
                                   key.join(u' '), name);
                }
            }
        }
        QVERIFY2(checked > 50, qPrintable(QString::number(checked)));
        problems.removeDuplicates();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    }

    // The READMEs' layout tables name folders that exist, and every core unit.
    void readmeLayoutMatchesTheTree()
    {
        const QDir root(sourceRoot());
        QStringList units;
        for (const QString &d :
             QDir(root.filePath(u"core"_s)).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            if (QFileInfo::exists(root.filePath(u"core/%1/CMakeLists.txt"_s.arg(d))))
                units << u"core/"_s + d;
        QVERIFY(units.contains(u"core/shard"_s));
        for (const QString &readme : {u"README.md"_s, u"README.zh_CN.md"_s}) {
            const QString text = sourceText(readme);
            const qsizetype from = text.indexOf(u"\n| `core/` |"_s);
            QVERIFY2(from >= 0, qPrintable(readme));
            const QString table = text.mid(from, text.indexOf(u"\n\n"_s, from + 1) - from);
            QStringList folders;
            const QRegularExpression path(u"`([a-z_]+/[a-z_/]*)`"_s);
            for (auto it = path.globalMatch(table); it.hasNext();) {
                QString p = it.next().captured(1);
                if (p.endsWith(u'/'))
                    p.chop(1);
                folders << p;
                QVERIFY2(QFileInfo(root.filePath(p)).isDir(),
                         qPrintable(readme + u": no folder "_s + p));
            }
            for (const QString &u : std::as_const(units))
                QVERIFY2(folders.contains(u), qPrintable(readme + u": "_s + u + u" missing"_s));
        }
    }

    // A doc that starts `servebench-cli simulate` and then runs against it must point the run at
    // it: a `run` without --base-url measures the CLI's own built-in simulator instead
    // (docs/statistics.md's example did, issue 27).
    void docsRunAgainstTheSimulatorTheyStart()
    {
        const QDir docs(QDir(sourceRoot()).filePath(u"docs"_s));
        QStringList files = docs.entryList({u"*.md"_s}, QDir::Files);
        QVERIFY(files.contains(u"statistics.md"_s));
        for (QString &f : files)
            f = u"docs/"_s + f;
        files << u"README.md"_s << u"README.zh_CN.md"_s;
        const QString sim = u"servebench-cli simulate"_s;
        const QString run = u"servebench-cli run "_s;
        for (const QString &file : std::as_const(files)) {
            const QStringList chunks = sourceText(file).split(u"\n\n"_s);
            for (const QString &chunk : chunks) {
                const qsizetype started = chunk.indexOf(sim);
                if (started < 0)
                    continue;
                const bool code = chunk.trimmed().startsWith(u"```"_s);
                for (qsizetype at = chunk.indexOf(run, started); at >= 0;
                     at = chunk.indexOf(run, at + 1)) {
                    // The command: to its closing backquote in prose, to its last continued
                    // line in a code block.
                    qsizetype end = at;
                    while (end < chunk.size()) {
                        const QChar c = chunk.at(end);
                        if (!code && c == u'`')
                            break;
                        if (code && c == u'\n' && chunk.at(end - 1) != u'\\')
                            break;
                        ++end;
                    }
                    const QString command = chunk.mid(at, end - at);
                    QVERIFY2(command.contains(u"--base-url"_s) || command.contains(u"--port"_s),
                             qPrintable(file + u": "_s + command));
                }
            }
        }
    }

    // The README's quick start prints what the command prints: its command is run as shown, and
    // each output line it shows (above and below its "…" line) has the same words as the
    // printed line, numbers apart.
    void readmeQuickStartIsWhatRunPrints()
    {
        const QString text = sourceText(u"README.md"_s);
        const qsizetype start = text.indexOf(u"```console\n$ "_s);
        QVERIFY(start >= 0);
        const qsizetype end = text.indexOf(u"\n```"_s, start + 10);
        QStringList lines = text.mid(start, end - start).split(u'\n').mid(1);
        QString command;
        while (!lines.isEmpty()) {
            QString l = lines.takeFirst();
            const bool more = l.endsWith(u'\\');
            if (more)
                l.chop(1);
            command += l + u' ';
            if (!more)
                break;
        }
        QStringList args = command.split(u' ', Qt::SkipEmptyParts);
        const qsizetype cli = args.indexOf(QRegularExpression(u".*servebench-cli$"_s));
        QVERIFY2(cli >= 0, qPrintable(command));
        args = args.mid(cli + 1);
        const QString project = m_dir.filePath(u"demo.sbproj"_s);
        args.replaceInStrings(u"/tmp/demo.sbproj"_s, project);

        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels); // as a terminal shows it
        p.start(QString::fromUtf8(SB_CLI), args);
        QVERIFY(p.waitForFinished(180000));
        const QString merged = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(merged));
        QStringList printed = merged.split(u'\n');
        if (!printed.isEmpty() && printed.last().isEmpty())
            printed.removeLast();

        const auto shape = [&](QString l) {
            l.replace(project, u"/tmp/demo.sbproj"_s);
            l.replace(QRegularExpression(u"\\b[0-9a-f]{64}\\b"_s), u"#"_s);
            l.replace(QRegularExpression(u"\\d+(\\.\\d+)?"_s), u"#"_s);
            return l.simplified();
        };
        const qsizetype cut = lines.indexOf(u"…"_s);
        const QStringList head = cut < 0 ? lines : lines.mid(0, cut);
        const QStringList tail = cut < 0 ? QStringList() : lines.mid(cut + 1);
        QVERIFY2(printed.size() >= head.size() + tail.size(), qPrintable(merged));
        if (cut < 0)
            QCOMPARE(printed.size(), head.size());
        for (qsizetype i = 0; i < head.size(); ++i)
            QVERIFY2(shape(printed.at(i)) == shape(head.at(i)),
                     qPrintable(u"README line %1:\n  %2\nprinted:\n  %3"_s.arg(i + 1).arg(
                         head.at(i), printed.at(i))));
        for (qsizetype i = 0; i < tail.size(); ++i) {
            const QString &got = printed.at(printed.size() - tail.size() + i);
            QVERIFY2(
                shape(got) == shape(tail.at(i)),
                qPrintable(u"README line after …:\n  %1\nprinted:\n  %2"_s.arg(tail.at(i), got)));
        }
    }

    void simulateCommandServesAnotherCliRun()
    {
        QProcess sim;
        sim.start(QString::fromUtf8(SB_CLI),
                  {u"simulate"_s, u"--port"_s, u"0"_s, u"--ttft-ms"_s, u"10"_s, u"--itl-ms"_s,
                   u"2"_s, u"--duration"_s, u"60"_s});
        QVERIFY(sim.waitForStarted());
        QByteArray line;
        for (int i = 0; i < 100 && !line.contains('\n'); ++i) {
            sim.waitForReadyRead(100);
            line += sim.readAllStandardOutput();
        }
        const auto m =
            QRegularExpression(u"http://[0-9.]+:(\\d+)"_s).match(QString::fromUtf8(line));
        QVERIFY2(m.hasMatch(), line.constData());
        const Result r =
            runCli(QStringList{u"run"_s, u"--base-url"_s, u"http://127.0.0.1:"_s + m.captured(1),
                               u"--backend"_s, u"openai-chat"_s, u"--endpoint"_s,
                               u"/v1/chat/completions"_s} +
                   kShort);
        sim.terminate();
        sim.waitForFinished(5000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QRegularExpression(u"Successful requests:\\s+20\\s"_s)));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
