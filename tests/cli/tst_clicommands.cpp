// servebench-cli's commands end to end, as a user runs them: --find-max-valid-rate against a
// simulator of known capacity, compare, report (every output written and read back), import
// --vllm-json, run --trace, and a run killed with SIGKILL as every reader sees it.
#include "clirun.h"
#include "metrics/requestrecord.h"
#include "simprocess.h"
#include "store/projectstore.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// `servebench-cli simulate` for this test (tests/common/simprocess.h) with its usual settings.
struct SimProcess : sb::test::SimProcess
{
    explicit SimProcess(const QStringList &args)
        : sb::test::SimProcess(QStringList{u"--duration"_s, u"600"_s} + args)
    {}
};

using Result = test::CliResult;
using test::runCli;

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
}

// The value printed after `label` in `text` (the first such line).
double printed(const QString &text, const QString &label)
{
    const auto m =
        QRegularExpression(QRegularExpression::escape(label) + u"\\s+([0-9.]+)"_s).match(text);
    return m.hasMatch() ? m.captured(1).toDouble() : qQNaN();
}

// The project file and its -wal: what a reader must leave as it found them.
QByteArray projectBytesHash(const QString &path)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(readAll(path));
    h.addData("|");
    h.addData(readAll(path + u"-wal"_s));
    return h.result();
}

const QStringList kShort = {u"--num-prompts"_s,       u"20"_s, u"--random-input-len"_s, u"16"_s,
                            u"--random-output-len"_s, u"8"_s};

} // namespace

class TestCliCommands : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void findMaxValidRateFindsTheCapacity()
    {
        // 16 sequences at once, each held 10 ms + 5 × 10 ms = 60 ms: the simulator serves at
        // most 16 / 0.060 = 266.7 req/s. The search bisects to 5 % of the measured maximum;
        // Poisson arrivals queue before the capacity is reached, so the TTFT bound (p90 within
        // 60 ms, 50 ms above the unloaded TTFT: room for a busy machine's scheduling noise)
        // fails a little below it. The highest VALID rate
        // therefore lies at most one tolerance above the capacity and at most two below it
        // (bisection step plus queueing): measured 0.94 to 0.98 of the capacity.
        const double capacity = 16 / 0.060;
        const double tolerance = 0.05;
        SimProcess sim({u"--capacity"_s, u"16"_s, u"--ttft-ms"_s, u"10"_s, u"--itl-ms"_s, u"10"_s});
        QVERIFY(!sim.url.isEmpty());
        const QString project = m_dir.filePath(u"maxrate.sbproj"_s);
        const Result r = runCli({u"run"_s,
                                 u"--base-url"_s,
                                 sim.url,
                                 u"--model"_s,
                                 u"servebench-sim"_s,
                                 u"--find-max-valid-rate"_s,
                                 u"--rate-tolerance"_s,
                                 QString::number(tolerance),
                                 u"--num-prompts"_s,
                                 u"300"_s,
                                 u"--random-input-len"_s,
                                 u"8"_s,
                                 u"--random-output-len"_s,
                                 u"6"_s,
                                 u"--ignore-eos"_s,
                                 u"--slo-percentile"_s,
                                 u"90"_s,
                                 u"--ttft-slo-ms"_s,
                                 u"60"_s,
                                 u"--tpot-slo-ms"_s,
                                 u"100"_s,
                                 u"--min-query-count"_s,
                                 u"100"_s,
                                 u"--min-duration"_s,
                                 u"0.5"_s,
                                 u"--project"_s,
                                 project},
                                300000);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const auto found =
            QRegularExpression(u"Highest VALID Server rate: ([0-9.]+) req/s"_s).match(r.out);
        QVERIFY2(found.hasMatch(), qPrintable(r.out));
        const double rate = found.captured(1).toDouble();
        qInfo("found %.2f req/s; capacity %.2f req/s", rate, capacity);
        QVERIFY2(
            rate <= capacity * (1 + tolerance) && rate >= capacity * (1 - 2 * tolerance),
            qPrintable(u"%1 req/s is not within [-%2, +%3] of the capacity %4 req/s"_s.arg(rate)
                           .arg(2 * tolerance)
                           .arg(tolerance)
                           .arg(capacity)));
        // The client's own maximum (the "throughput" point) measured the same capacity.
        const auto maxRow = QRegularExpression(u"^throughput\\s+-\\s+([0-9.]+)\\s"_s,
                                               QRegularExpression::MultilineOption)
                                .match(r.out);
        QVERIFY2(maxRow.hasMatch(), qPrintable(r.out));
        const double maxThroughput = maxRow.captured(1).toDouble();
        QVERIFY2(qAbs(maxThroughput - capacity) <= capacity * 0.1, qPrintable(r.out));
        // Every server rate tried below the found one was VALID, every one above INVALID, and
        // the bracket around it is within the tolerance.
        double lowestInvalid = qInf();
        const QRegularExpression row(u"^server-([0-9.]+)\\s.*\\s(VALID|INVALID)\\s*$"_s,
                                     QRegularExpression::MultilineOption);
        int tried = 0;
        for (auto it = row.globalMatch(r.out); it.hasNext();) {
            const auto m = it.next();
            const double t = m.captured(1).toDouble();
            const bool valid = m.captured(2) == "VALID"_L1;
            ++tried;
            QVERIFY2(valid == (t <= rate), qPrintable(m.captured(0)));
            if (!valid)
                lowestInvalid = std::min(lowestInvalid, t);
        }
        QVERIFY(tried >= 3);
        // The bracket's upper end: the lowest INVALID rate, or the search's own ceiling (5 %
        // above the measured maximum) when every rate tried was VALID.
        const double upper = std::min(lowestInvalid, maxThroughput * 1.05);
        QVERIFY2(upper - rate <= tolerance * maxThroughput * 1.01,
                 qPrintable(u"bracket %1 .. %2"_s.arg(rate).arg(upper)));

        // The search is stored as one sweep whose runs say what they were.
        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
        const QList<StoredSweep> sweeps = store.listSweeps();
        QCOMPARE(sweeps.size(), 1);
        QCOMPARE(sweeps.first().kind, u"find-max-valid-rate"_s);
        QCOMPARE(store.listRuns(sweeps.first().id).size(), tried + 2);
    }

    void compareAndEveryReportOutput()
    {
        const QString project = m_dir.filePath(u"cmp.sbproj"_s);
        for (const char *rate : {"20", "40"}) {
            const Result r = runCli(QStringList{u"run"_s, u"--project"_s, project,
                                                u"--request-rate"_s, QString::fromLatin1(rate)} +
                                    kShort);
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
        }
        const Result show1 = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"1"_s});
        const Result show2 = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"2"_s});
        QVERIFY(show1.code == 0 && show2.code == 0);

        // compare: the verdict names the one difference, and the table holds show's numbers.
        const Result cmp = runCli({u"compare"_s, u"--project"_s, project, u"--runs"_s, u"1,2"_s,
                                   u"--rank-by"_s, u"request_throughput"_s});
        QVERIFY2(cmp.code == 0, qPrintable(cmp.describe()));
        QVERIFY2(cmp.out.contains(u"exactly one variable differs — request rate"_s),
                 qPrintable(cmp.out));
        const auto tput = QRegularExpression(u"Request throughput \\(req/s\\)\\s+([0-9.]+)\\s+"
                                             "([0-9.]+)"_s)
                              .match(cmp.out);
        QVERIFY2(tput.hasMatch(), qPrintable(cmp.out));
        QCOMPARE(tput.captured(1).toDouble(), printed(show1.out, u"Request throughput (req/s):"_s));
        QCOMPARE(tput.captured(2).toDouble(), printed(show2.out, u"Request throughput (req/s):"_s));
        // Ranked by throughput, higher first: the 40 req/s run leads.
        QVERIFY2(QRegularExpression(u"1\\. #2 "_s).match(cmp.out).hasMatch(), qPrintable(cmp.out));

        // report: every output, then each read back.
        const QString html = m_dir.filePath(u"r.html"_s), pdf = m_dir.filePath(u"r.pdf"_s),
                      csv = m_dir.filePath(u"r.csv"_s), json = m_dir.filePath(u"r.json"_s),
                      bundle = m_dir.filePath(u"bundle"_s);
        const Result rep =
            runCli({u"report"_s, u"--project"_s, project, u"--runs"_s, u"1,2"_s, u"--html"_s, html,
                    u"--pdf"_s, pdf, u"--csv"_s, csv, u"--json"_s, json, u"--bundle"_s, bundle});
        QVERIFY2(rep.code == 0, qPrintable(rep.describe()));

        // JSON: both runs, their results as `show` computed them, and the comparison rows.
        const QJsonObject j = readJson(json);
        const QJsonArray runs = j.value(u"runs"_s).toArray();
        QCOMPARE(runs.size(), 2);
        QHash<QString, double> jsonMeanTtft;
        for (int i = 0; i < 2; ++i) {
            const QJsonObject run = runs.at(i).toObject();
            QCOMPARE(run.value(u"id"_s).toInteger(), i + 1);
            const QJsonObject result = run.value(u"result"_s).toObject();
            QCOMPARE(result.value(u"completed"_s).toInt(), 20);
            QCOMPARE(result.value(u"status"_s).toString(), u"completed"_s);
            const QString &shown = i == 0 ? show1.out : show2.out;
            QCOMPARE(QString::number(result.value(u"mean_ttft_ms"_s).toDouble(), 'f', 2),
                     QString::number(printed(shown, u"Mean TTFT (ms):"_s), 'f', 2));
            jsonMeanTtft.insert(QString::number(i + 1), result.value(u"mean_ttft_ms"_s).toDouble());
        }
        QVERIFY(j.value(u"comparison"_s).isObject());

        // CSV: one row per metric and run, the same numbers as the JSON.
        const QStringList csvLines =
            QString::fromUtf8(readAll(csv)).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(csvLines.size() > 10);
        const QStringList header = csvLines.first().split(u',');
        const qsizetype metricCol = header.indexOf(u"metric"_s),
                        runCol = header.indexOf(u"run_id"_s), valueCol = header.indexOf(u"value"_s);
        QVERIFY(metricCol >= 0 && runCol >= 0 && valueCol >= 0);
        int ttftRows = 0;
        for (const QString &line : csvLines) {
            const QStringList f = line.split(u',');
            if (f.value(metricCol) != "ttft.mean"_L1)
                continue;
            ++ttftRows;
            QVERIFY(qAbs(f.value(valueCol).toDouble() - jsonMeanTtft.value(f.value(runCol))) <
                    1e-3);
        }
        QCOMPARE(ttftRows, 2);
        const QString requestsCsv = m_dir.filePath(u"r-requests.csv"_s);
        QCOMPARE(QString::fromUtf8(readAll(requestsCsv)).split(u'\n', Qt::SkipEmptyParts).size(),
                 41);

        // HTML: one self-contained page naming both runs and the verdict.
        const QString page = QString::fromUtf8(readAll(html));
        QVERIFY(page.startsWith(u"<!DOCTYPE html>"_s, Qt::CaseInsensitive));
        QVERIFY(page.trimmed().endsWith(u"</html>"_s));
        QVERIFY(page.contains(u"#1 "_s) && page.contains(u"#2 "_s));
        QVERIFY(page.contains(u"exactly one variable differs"_s));
        QVERIFY(page.contains(QString::number(jsonMeanTtft.value(u"1"_s), 'f', 2)));

        // PDF: pdftotext (poppler) reads it back.
        QProcess text;
        text.start(QStringLiteral(SB_PDFTOTEXT), {pdf, u"-"_s});
        QVERIFY(text.waitForFinished(60000));
        QCOMPARE(text.exitCode(), 0);
        // Lines wrap where the page ends them: compare words, not lines.
        const QString pdfText = QString::fromUtf8(text.readAllStandardOutput()).simplified();
        // ("differs" is set with an ff ligature.)
        QVERIFY2(pdfText.contains(u"exactly one variable"_s), qPrintable(pdfText.left(2000)));
        QVERIFY(pdfText.contains(u"#1 built-in simulator vs #2 built-in simulator"_s));
        QVERIFY(pdfText.contains(QString::number(jsonMeanTtft.value(u"2"_s), 'f', 2)));

        // Bundle: every file the manifest lists has the hash it states, and nothing is missing.
        const QStringList manifest = QString::fromUtf8(readAll(bundle + u"/MANIFEST.sha256"_s))
                                         .split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(manifest.size() >= 5);
        for (const QString &line : manifest) {
            const qsizetype sp = line.indexOf(u"  "_s);
            QVERIFY2(sp == 64, qPrintable(line));
            const QString file = line.mid(sp + 2);
            const QByteArray bytes = readAll(bundle + u'/' + file);
            QVERIFY2(!bytes.isEmpty(), qPrintable(file));
            QCOMPARE(QString::fromLatin1(
                         QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()),
                     line.left(64));
        }
        const QJsonObject bundleManifest = readJson(bundle + u"/manifest.json"_s);
        QCOMPARE(bundleManifest.value(u"files"_s).toArray().size(), manifest.size() - 1);
    }

    void importVllmJsonShowsWhatTheFileHolds()
    {
        const QString project = m_dir.filePath(u"import.sbproj"_s);
        const QString detailed = QStringLiteral(SB_TEST_DATA_DIR "/vllm/vllm-serve-detailed.json");
        const QString plain = QStringLiteral(SB_TEST_DATA_DIR "/vllm/vllm-serve-plain.json");
        Result r = runCli({u"import"_s, u"--project"_s, project, u"--vllm-json"_s, detailed});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(r.out.contains(u"as run 1 with per-request results"_s));
        QVERIFY(r.out.contains(u"recomputed summary matches the file's statistics"_s));
        r = runCli({u"import"_s, u"--project"_s, project, u"--vllm-json"_s, plain});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(r.out.contains(u"as run 2 (summary only)"_s));

        const Result runs = runCli({u"runs"_s, u"--project"_s, project});
        QCOMPARE(runs.out.count(u"completed"_s), 2);

        const QJsonObject file = readJson(detailed);
        for (const char *id : {"1", "2"}) {
            const Result show =
                runCli({u"show"_s, u"--project"_s, project, u"--run"_s, QString::fromLatin1(id)});
            QVERIFY2(show.code == 0, qPrintable(show.describe()));
            // The file's own numbers ...
            QCOMPARE(printed(show.out, u"Successful requests:"_s),
                     double(file.value(u"completed"_s).toInt()));
            QCOMPARE(QString::number(printed(show.out, u"Mean TTFT (ms):"_s), 'f', 2),
                     QString::number(file.value(u"mean_ttft_ms"_s).toDouble(), 'f', 2));
            QCOMPARE(QString::number(printed(show.out, u"Benchmark duration (s):"_s), 'f', 2),
                     QString::number(file.value(u"duration"_s).toDouble(), 'f', 2));
            // ... and what it never held said so, never printed as 0.
            QVERIFY2(show.out.contains(QRegularExpression(
                         u"Achieved request rate \\(req/s\\):\\s+n/a \\(imported from vLLM"_s)),
                     qPrintable(show.out));
            QVERIFY(show.out.contains(
                QRegularExpression(u"Mean schedule lag \\(ms\\):\\s+n/a \\(imported from vLLM"_s)));
            QVERIFY2(!show.out.contains(QRegularExpression(u"(rate|lag).*:\\s+0\\.00\\s"_s)),
                     qPrintable(show.out));
        }
        const Result json = runCli(
            {u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"json"_s});
        QCOMPARE(json.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QVERIFY(o.value(u"achieved_request_rate"_s).isNull());
        QVERIFY(o.value(u"achieved_request_rate_unavailable_reason"_s)
                    .toString()
                    .contains(u"imported from vLLM"_s));
        QCOMPARE(o.value(u"completed"_s).toInt(), file.value(u"completed"_s).toInt());
    }

    void runTraceReplaysTimesAndLengths()
    {
        // Epoch-second timestamps (offsets from the first row), a prompt row, a 0.5 time scale.
        const QString trace = m_dir.filePath(u"trace.jsonl"_s);
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"timestamp\": 1700000100.0, \"input_tokens\": 12, \"output_tokens\": 3}\n"
                "{\"timestamp\": 1700000100.4, \"input_tokens\": 40, \"output_tokens\": 7}\n"
                "\n"
                "{\"timestamp\": 1700000100.5, \"prompt\": \"four words of prompt\", "
                "\"output_tokens\": 5}\n"
                "{\"timestamp\": 1700000101.8, \"input_tokens\": 8, \"output_tokens\": 2}\n");
        f.close();
        const QString project = m_dir.filePath(u"trace.sbproj"_s);
        const Result r = runCli({u"run"_s, u"--trace"_s, trace, u"--trace-time-scale"_s, u"0.5"_s,
                                 u"--project"_s, project});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(r.out.contains(QRegularExpression(u"Successful requests:\\s+4\\s"_s)));
        QVERIFY(r.out.contains(QRegularExpression(u"Total input tokens:\\s+64\\s"_s)));
        QVERIFY(r.out.contains(QRegularExpression(u"Total generated tokens:\\s+17\\s"_s)));

        ProjectStore store;
        QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
        const auto run = store.loadRun(store.listRuns().value(0).id);
        QVERIFY(run);
        const QList<RequestRecord> recs = store.loadRequests(run->id);
        QCOMPARE(recs.size(), 4);
        const qint64 offsetsMs[] = {0, 200, 250, 900}; // (t - t0) * 0.5
        const int inputs[] = {12, 40, 4, 8};
        const int outputs[] = {3, 7, 5, 2};
        const qint64 t0 = recs.first().tSched;
        for (int i = 0; i < 4; ++i) {
            // Epoch-second doubles carry ~0.2 µs of rounding.
            QVERIFY2(qAbs(recs[i].tSched - t0 - offsetsMs[i] * 1'000'000) < 1000,
                     qPrintable(QString::number(recs[i].tSched - t0)));
            QCOMPARE(recs[i].inputTokens, inputs[i]); // the simulator counts the words it got
            QCOMPARE(recs[i].outputTokens, outputs[i]);
            QVERIFY(recs[i].ok());
        }
    }

    void connectionModeReachesTheWire()
    {
        // per-request: every request opens its own connection (as vLLM's client); warm: the
        // connections are open before the clock, so none of the records opened one.
        const struct
        {
            const char *mode;
            bool everyOpened;
        } modes[] = {{"per-request", true}, {"warm", false}};
        for (const auto &m : modes) {
            const QString mode = QString::fromLatin1(m.mode);
            const QString project = m_dir.filePath(u"mode-%1.sbproj"_s.arg(mode));
            const Result r = runCli({u"run"_s, u"--connection-mode"_s, mode, u"--num-prompts"_s,
                                     u"12"_s, u"--max-concurrency"_s, u"3"_s,
                                     u"--random-output-len"_s, u"4"_s, u"--project"_s, project});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
            QVERIFY2(r.out.contains(QRegularExpression(u"Connection mode:\\s+"_s + mode)),
                     qPrintable(r.out));
            ProjectStore store;
            QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
            const auto run = store.loadRun(store.listRuns().value(0).id);
            QVERIFY(run);
            // The plan says what was asked, the route what the transport did.
            QCOMPARE(run->snapshot.value(u"load_profile"_s)
                         .toObject()
                         .value(u"connection_mode"_s)
                         .toString(),
                     mode);
            QCOMPARE(run->snapshot.value(u"connection"_s).toObject().value(u"mode"_s).toString(),
                     mode);
            // The socket transport's own counters are stored with the run: every plain-http
            // read stamped (kernel or wake-up), late reads among the kernel's.
            const QJsonObject counters = run->summary.value(u"transport_counters"_s).toObject();
            const qint64 kernel = counters.value(u"kernel_stamped_reads"_s).toInteger(-1);
            const qint64 user = counters.value(u"user_stamped_reads"_s).toInteger(-1);
            const qint64 late = counters.value(u"late_reads"_s).toInteger(-1);
            QVERIFY2(kernel + user >= 12 && late >= 0 && late <= kernel,
                     QJsonDocument(counters).toJson().constData());
            const QList<RequestRecord> recs = store.loadRequests(run->id);
            QCOMPARE(recs.size(), 12);
            for (const RequestRecord &rec : recs) {
                QCOMPARE(rec.connection == ConnectionUse::New, m.everyOpened);
                QCOMPARE(rec.tConnectStart > 0, m.everyOpened);
            }
        }
    }

    void killedRunReadsAsInterruptedEverywhere()
    {
        const QString project = m_dir.filePath(u"killed.sbproj"_s);
        QProcess writer;
        writer.start(QString::fromUtf8(SB_CLI),
                     {u"run"_s, u"--project"_s, project, u"--num-prompts"_s, u"100000"_s,
                      u"--request-rate"_s, u"100"_s, u"--random-output-len"_s, u"2"_s,
                      u"--random-input-len"_s, u"8"_s});
        QVERIFY(writer.waitForStarted());
        // Alive: `runs` lists it running and `show` says it is in progress.
        QDeadlineTimer deadline(60000);
        Result runs;
        while (!deadline.hasExpired()) {
            QTest::qWait(300);
            runs = runCli({u"runs"_s, u"--project"_s, project});
            const auto m = QRegularExpression(u"\\srunning\\s+(\\d+)\\s"_s).match(runs.out);
            if (runs.code == 0 && m.hasMatch() && m.captured(1).toInt() > 20)
                break;
        }
        QVERIFY2(runs.out.contains(u" running "_s), qPrintable(runs.describe()));
        const Result live = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"1"_s});
        QVERIFY2(live.out.contains(u"WARNING: the run is in progress"_s), qPrintable(live.out));

        writer.kill(); // SIGKILL: nothing in the writer gets to mark anything
        QVERIFY(writer.waitForFinished());
        QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
        const QByteArray before = projectBytesHash(project);

        // Every reader, with no writer opening the file in between.
        runs = runCli({u"runs"_s, u"--project"_s, project});
        QVERIFY2(runs.code == 0 && runs.out.contains(u" interrupted "_s) &&
                     !runs.out.contains(u" running "_s),
                 qPrintable(runs.describe()));
        const auto counted = QRegularExpression(u"\\sinterrupted\\s+(\\d+)\\s"_s).match(runs.out);
        QVERIFY(counted.hasMatch());
        const int recorded = counted.captured(1).toInt();
        QVERIFY(recorded > 20);

        const Result show = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"1"_s});
        QVERIFY2(show.code == 0, qPrintable(show.describe()));
        QVERIFY2(show.out.contains(u"WARNING: the run was interrupted (the run was not finished "
                                   "(the program was stopped or crashed); %1 requests were "
                                   "recorded)"_s.arg(recorded)),
                 qPrintable(show.out));
        QVERIFY(!show.out.contains(u"in progress"_s));

        const Result exported = runCli(
            {u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"json"_s});
        const QJsonObject o = QJsonDocument::fromJson(exported.out.toUtf8()).object();
        QCOMPARE(o.value(u"status"_s).toString(), u"interrupted"_s);
        QVERIFY(o.value(u"status_message"_s).toString().contains(u"stopped or crashed"_s));

        const QString reportJson = m_dir.filePath(u"killed-report.json"_s);
        const QString reportHtml = m_dir.filePath(u"killed-report.html"_s);
        const Result rep = runCli({u"report"_s, u"--project"_s, project, u"--runs"_s, u"1"_s,
                                   u"--json"_s, reportJson, u"--html"_s, reportHtml});
        QVERIFY2(rep.code == 0, qPrintable(rep.describe()));
        const QJsonObject reported =
            readJson(reportJson).value(u"runs"_s).toArray().at(0).toObject();
        QCOMPARE(reported.value(u"status"_s).toString(), u"interrupted"_s);
        QVERIFY(QString::fromUtf8(readAll(reportHtml)).contains(u"interrupted"_s));

        // The readers changed nothing: the file still says 'running'; only a writer stores it.
        QCOMPARE(projectBytesHash(project), before);
        ProjectStore rw;
        QVERIFY(rw.open(project));
        QCOMPARE(rw.interruptedOnOpen(), QList<qint64>{1});
        QCOMPARE(rw.loadRun(1)->requestCount, recorded);
    }
};

QTEST_GUILESS_MAIN(TestCliCommands)
#include "tst_clicommands.moc"
