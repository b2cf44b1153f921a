// The cancellation load (docs/metrics.md, "Cancelled by the load") end to end: `servebench-cli
// run --request-cancellation-rate 30 …` against the built-in simulator (`servebench-cli
// simulate` in a child process, its --request-log) and against the independent FastAPI server
// (tests/servers/fastapi_server.py, its --log), both logging on the client's CLOCK_MONOTONIC.
// Paired by request id, the server's own log must agree with what the client stored: which
// requests were cancelled and how many, that each was cut off after the stated point, the
// completed requests' latency (and that only theirs makes the statistics), and the server's
// running-request count after the cancellations. The same seed chooses the same requests.

#include "clirun.h"
#include "common/clock.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "simprocess.h"
#include "store/projectstore.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr int kPrompts = 40;
constexpr int kOutputTokens = 30;
constexpr int kItlMs = 20;

// One finished request as the server logged it.
struct ServerEntry
{
    bool cancelled = false;
    QList<qint64> chunkNs; // write times
    qint64 tAccept = 0;
    qint64 tBusy = 0; // from when the server's running gauge counts it
    qint64 tEnd = 0;  // the server was done with it (stream ended or disconnect noticed)
};

// The FastAPI server in a child process; stopped when it goes out of scope.
class FastApiProcess
{
public:
    FastApiProcess(const QStringList &args)
    {
        const QString python =
            QFile::exists(u"/usr/bin/python3"_s) ? u"/usr/bin/python3"_s : u"python3"_s;
        m_p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_p.start(python, QStringList{QString::fromUtf8(SB_FASTAPI_SERVER), u"--port"_s, u"0"_s} +
                              args);
        if (!m_p.waitForStarted(10000))
            return;
        QByteArray line;
        const qint64 deadline = monotonicNs() + 30'000'000'000;
        while (!line.contains('\n') && monotonicNs() < deadline &&
               m_p.state() == QProcess::Running) {
            m_p.waitForReadyRead(200);
            line += m_p.readAllStandardOutput();
        }
        if (line.startsWith("LISTENING "))
            url = u"http://127.0.0.1:%1"_s.arg(line.mid(10).trimmed().toInt());
    }
    ~FastApiProcess()
    {
        m_p.terminate();
        if (!m_p.waitForFinished(10000)) {
            m_p.kill();
            m_p.waitForFinished();
        }
    }
    QString url;

private:
    QProcess m_p;
};

struct Run
{
    test::CliResult cli;
    RunInfo info;
    QList<RequestRecord> records;
    QHash<QString, ServerEntry> server; // by request id, this run's requests only
    QString error;

    QSet<qint64> cancelledIndices() const
    {
        QSet<qint64> out;
        for (const RequestRecord &r : records)
            if (r.cancelledByLoad())
                out.insert(r.index);
        return out;
    }
    QString line(const QString &startsWith) const
    {
        for (const QString &l : cli.out.split(u'\n'))
            if (l.startsWith(startsWith))
                return l;
        return {};
    }
};

} // namespace

class TestCancellationLoad : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<test::SimProcess> m_sim;
    std::unique_ptr<FastApiProcess> m_fastapi;
    int m_runs = 0;

    QString logPath(const QString &server) const
    {
        return m_dir.filePath(server + u".jsonl"_s);
    }
    QString urlOf(const QString &server) const
    {
        return server == "simulator"_L1 ? m_sim->url : m_fastapi->url;
    }

    // Runs the CLI against `server` with these extra flags into a project of its own, and reads
    // back the stored run and the server's log lines of this run's requests.
    Run run(const QString &server, const QStringList &flags)
    {
        Run out;
        const QString project = m_dir.filePath(u"p%1.sbproj"_s.arg(++m_runs));
        out.cli = test::runCli(QStringList{u"run"_s,
                                           u"--base-url"_s,
                                           urlOf(server),
                                           u"--model"_s,
                                           u"m"_s,
                                           u"--num-prompts"_s,
                                           QString::number(kPrompts),
                                           u"--random-input-len"_s,
                                           u"16"_s,
                                           u"--random-output-len"_s,
                                           QString::number(kOutputTokens),
                                           u"--request-rate"_s,
                                           u"20"_s,
                                           u"--metrics-interval"_s,
                                           u"0.25"_s,
                                           u"--project"_s,
                                           project} +
                               flags);
        if (out.cli.code != 0) {
            out.error = out.cli.describe();
            return out;
        }
        ProjectStore store;
        if (!store.open(project, ProjectStore::OpenMode::ReadOnly) || store.listRuns().isEmpty()) {
            out.error = u"no stored run in %1: %2"_s.arg(project, store.lastError());
            return out;
        }
        out.info = *store.loadRun(store.listRuns().constLast().id);
        out.records = store.loadRequests(out.info.id);
        QSet<QString> ids;
        for (const RequestRecord &r : std::as_const(out.records))
            ids.insert(r.requestId);
        // Every request's entry is written when the server is done with it; the client may have
        // closed a stream a moment before the server noticed.
        const qint64 deadline = monotonicNs() + 10'000'000'000;
        do {
            out.server.clear();
            QFile f(logPath(server));
            if (!f.open(QIODevice::ReadOnly)) {
                out.error = u"no server log"_s;
                return out;
            }
            for (const QByteArray &line : f.readAll().split('\n')) {
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                const QString id = o.value("request_id"_L1).toString();
                if (!ids.contains(id))
                    continue;
                ServerEntry e;
                e.cancelled = o.value("cancelled"_L1).toBool();
                for (const QJsonValue &t : o.value("chunk_times_ns"_L1).toArray())
                    e.chunkNs.append(t.toInteger());
                e.tAccept = o.value("t_accept_ns"_L1).toInteger();
                // The simulator's running gauge counts admitted requests, FastAPI's accepted.
                e.tBusy = o.contains("t_admit_ns"_L1) ? o.value("t_admit_ns"_L1).toInteger()
                                                      : e.tAccept;
                e.tEnd = o.value("t_end_ns"_L1).toInteger();
                out.server.insert(id, e);
            }
            if (out.server.size() >= out.records.size())
                break;
            QTest::qWait(100);
        } while (monotonicNs() < deadline);
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_sim = std::make_unique<test::SimProcess>(QStringList{
            u"--ttft-ms"_s, u"20"_s, u"--itl-ms"_s, QString::number(kItlMs), u"--request-log"_s,
            logPath(u"simulator"_s), u"--duration"_s, u"600"_s});
        QVERIFY2(!m_sim->url.isEmpty(), m_sim->banner.constData());
        m_fastapi = std::make_unique<FastApiProcess>(
            QStringList{u"--ttft-ms"_s, u"20"_s, u"--itl-ms"_s, QString::number(kItlMs),
                        u"--log"_s, logPath(u"fastapi"_s)});
        QVERIFY2(!m_fastapi->url.isEmpty(),
                 "the FastAPI server did not start (python3-fastapi and python3-uvicorn: "
                 "./scripts/deps.sh installs them)");
    }

    void cleanupTestCase()
    {
        m_sim.reset();
        m_fastapi.reset();
    }

    void afterTokens_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("transport");
        QTest::newRow("simulator") << u"simulator"_s << u"socket"_s;
        QTest::newRow("fastapi") << u"fastapi"_s << u"socket"_s;
        // Qt's manager pool closes a stream by aborting its reply.
        QTest::newRow("simulator, qnam") << u"simulator"_s << u"qnam"_s;
    }

    // 30 % cancelled after 5 tokens: the client's records, its summary and the server's log
    // tell the same story, request by request.
    void afterTokens()
    {
        QFETCH(QString, server);
        QFETCH(QString, transport);
        const QStringList flags = {u"--seed"_s, u"1"_s, u"--request-cancellation-rate"_s, u"30"_s,
                                   u"--request-cancellation-after-tokens"_s, u"5"_s,
                                   u"--transport"_s, transport};
        const Run r = run(server, flags);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.records.size(), kPrompts);
        QCOMPARE(r.server.size(), kPrompts);

        // The chosen requests: exactly those the seed chooses (by schedule index), each
        // cancelled on both sides, the others completed on both sides.
        LoadProfile profile;
        profile.seed = 1;
        profile.cancelRatePct = 30;
        profile.cancelAfterTokens = 5;
        qint64 cancelled = 0, completed = 0;
        double e2elSum = 0, ttftSum = 0;
        for (const RequestRecord &rec : r.records) {
            const ServerEntry &s = r.server[rec.requestId];
            const bool chosen = requestCancelledByLoad(profile, rec.index);
            QVERIFY2(rec.cancelledByLoad() == chosen,
                     qPrintable(u"request %1: %2"_s.arg(rec.index).arg(rec.errorMessage)));
            QCOMPARE(s.cancelled, chosen);
            // Every token chunk the client received was written by the server before.
            QVERIFY(rec.chunkTimes.size() <= s.chunkNs.size());
            for (qsizetype k = 0; k < rec.chunkTimes.size(); ++k)
                QVERIFY(rec.chunkTimes[k] >= s.chunkNs[k]);
            if (chosen) {
                ++cancelled;
                // Closed once 5 chunks had arrived; a read may have brought a 6th with the 5th.
                QVERIFY2(rec.chunkTimes.size() >= 5 && rec.chunkTimes.size() < kOutputTokens,
                         qPrintable(QString::number(rec.chunkTimes.size())));
                QVERIFY(rec.tFirst > 0 && rec.tEnd >= rec.chunkTimes.constLast());
                // The server stopped generating: it wrote fewer than all its tokens, and
                // noticed the close after the client made it.
                QVERIFY2(s.chunkNs.size() < kOutputTokens,
                         qPrintable(QString::number(s.chunkNs.size())));
                QVERIFY(s.tEnd >= rec.tEnd);
                // Within the settle time the run waits before its last scrape (1 s).
                QVERIFY2(s.tEnd - rec.tEnd < 1'000'000'000,
                         qPrintable(QString::number(s.tEnd - rec.tEnd)));
            } else {
                QVERIFY2(rec.ok(), qPrintable(rec.errorMessage));
                QCOMPARE(rec.chunkTimes.size(), s.chunkNs.size());
                QCOMPARE(s.chunkNs.size(), kOutputTokens);
                ++completed;
                ttftSum += double(rec.tFirst - rec.tSend) / 1e6;
                e2elSum += double(rec.tLast - rec.tSend) / 1e6;
            }
        }
        QVERIFY(cancelled > 0 && completed > 0);

        // The stored summary: its own class, not failures; latency over the completed only.
        const QJsonObject sum = r.info.summary;
        QCOMPARE(sum.value("completed"_L1).toInteger(), completed);
        QCOMPARE(sum.value("failed"_L1).toInteger(), 0);
        QVERIFY(sum.value("failed_by_class"_L1).toObject().isEmpty());
        QCOMPARE(sum.value("mean_ttft_ms"_L1).toDouble(), ttftSum / double(completed));
        QCOMPARE(sum.value("mean_e2el_ms"_L1).toDouble(), e2elSum / double(completed));
        const QJsonObject c = sum.value("cancelled_by_load"_L1).toObject();
        QCOMPARE(c.value("count"_L1).toInteger(), cancelled);
        QCOMPARE(c.value("of"_L1).toInteger(), kPrompts);
        QCOMPARE(c.value("after_tokens"_L1).toInt(), 5);
        QCOMPARE(c.value("requests"_L1).toArray().size(), cancelled);
        QCOMPARE(r.line(u"Cancelled by the load:"_s),
                 u"Cancelled by the load:                   %1 of %2 (rate 30 %, after 5 tokens)"_s
                     .arg(cancelled)
                     .arg(kPrompts));

        // The server's running requests after the cancellations, against its own log: the
        // requests it held at the scrape's instant. And the client's in flight then, from its
        // records.
        const QJsonObject rec = c.value("server_recovery"_L1).toObject();
        QVERIFY2(rec.value("available"_L1).toBool(), qPrintable(rec.value("reason"_L1).toString()));
        const qint64 scrape = rec.value("scrape_ns"_L1).toInteger();
        QVERIFY(rec.value("seconds_after_last_cancellation"_L1).toDouble() >= 1.0);
        qint64 serverHeld = 0, clientOpen = 0;
        for (const ServerEntry &s : r.server)
            serverHeld += s.tBusy > 0 && s.tBusy <= scrape && s.tEnd > scrape ? 1 : 0;
        for (const RequestRecord &x : r.records)
            clientOpen += x.tSend <= scrape && x.tEnd > scrape ? 1 : 0;
        QCOMPARE(rec.value("server_running"_L1).toDouble(), double(serverHeld));
        QCOMPARE(rec.value("client_in_flight"_L1).toInteger(), clientOpen);
        // After the run nothing is in flight, and a server that freed what the client closed
        // holds nothing either.
        QCOMPARE(clientOpen, 0);
        QCOMPARE(serverHeld, 0);
        QCOMPARE(r.line(u"Server running requests "_s),
                 u"Server running requests %1 s after the last cancellation: %2; client in "
                 "flight: %3"_s.arg(QString::number(
                                        rec.value("seconds_after_last_cancellation"_L1).toDouble(),
                                        'f', 2))
                     .arg(serverHeld)
                     .arg(clientOpen));
        qInfo().noquote() << server << ":" << r.line(u"Cancelled by the load:"_s) << "|"
                          << r.line(u"Server running requests "_s);

        // `show` recomputes both from the stored raw records and scrapes.
        const test::CliResult shown = test::runCli(
            {u"show"_s, u"--project"_s, m_dir.filePath(u"p%1.sbproj"_s.arg(m_runs)), u"--run"_s,
             QString::number(r.info.id)});
        QVERIFY2(shown.code == 0, qPrintable(shown.describe()));
        QVERIFY(shown.out.contains(r.line(u"Cancelled by the load:"_s)));
        QVERIFY(shown.out.contains(r.line(u"Server running requests "_s)));
    }

    void sameSeedSameRequests()
    {
        const auto flags = [](const char *seed) {
            return QStringList{u"--seed"_s, QString::fromLatin1(seed),
                               u"--request-cancellation-rate"_s, u"30"_s,
                               u"--request-cancellation-after-tokens"_s, u"5"_s};
        };
        const Run a = run(u"simulator"_s, flags("11"));
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        const Run b = run(u"fastapi"_s, flags("11"));
        QVERIFY2(b.error.isEmpty(), qPrintable(b.error));
        const Run other = run(u"simulator"_s, flags("12"));
        QVERIFY2(other.error.isEmpty(), qPrintable(other.error));
        QVERIFY(!a.cancelledIndices().isEmpty());
        QCOMPARE(a.cancelledIndices(), b.cancelledIndices());
        QVERIFY(a.cancelledIndices() != other.cancelledIndices());
    }

    void afterDelay_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("transport");
        QTest::newRow("simulator") << u"simulator"_s << u"socket"_s;
        QTest::newRow("fastapi") << u"fastapi"_s << u"socket"_s;
        QTest::newRow("fastapi, qnam") << u"fastapi"_s << u"qnam"_s;
    }

    // Cancelled 200 ms after the request was written: the server's log shows the disconnect
    // no earlier than that.
    void afterDelay()
    {
        QFETCH(QString, server);
        QFETCH(QString, transport);
        const Run r = run(server, {u"--seed"_s, u"3"_s, u"--request-cancellation-rate"_s, u"30"_s,
                                   u"--request-cancellation-delay"_s, u"0.2"_s, u"--transport"_s,
                                   transport});
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        LoadProfile profile;
        profile.seed = 3;
        profile.cancelRatePct = 30;
        qint64 cancelled = 0;
        for (const RequestRecord &rec : r.records) {
            const ServerEntry &s = r.server[rec.requestId];
            // 20 ms + 29 gaps of 20 ms: every stream lasts past 200 ms.
            const bool chosen = requestCancelledByLoad(profile, rec.index);
            QCOMPARE(rec.cancelledByLoad(), chosen);
            QCOMPARE(s.cancelled, chosen);
            if (!chosen)
                continue;
            ++cancelled;
            QVERIFY(rec.tRequestWritten > 0);
            QVERIFY2(rec.tEnd - rec.tRequestWritten >= 200'000'000,
                     qPrintable(QString::number(rec.tEnd - rec.tRequestWritten)));
            QVERIFY2(s.tEnd - rec.tRequestWritten >= 200'000'000,
                     qPrintable(QString::number(s.tEnd - rec.tRequestWritten)));
            QVERIFY(s.chunkNs.size() < kOutputTokens);
        }
        QVERIFY(cancelled > 0);
        const QJsonObject c = r.info.summary.value("cancelled_by_load"_L1).toObject();
        QCOMPARE(c.value("count"_L1).toInteger(), cancelled);
        QCOMPARE(c.value("delay_s"_L1).toDouble(), 0.2);
        QVERIFY(r.line(u"Cancelled by the load:"_s)
                    .endsWith(u"(rate 30 %, 0.2 s after the request was written)"_s));
    }
};

QTEST_GUILESS_MAIN(TestCancellationLoad)
#include "tst_cancellationload.moc"
