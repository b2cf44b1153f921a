// RunSession against the built-in simulator: a series of runs (--num-runs) with its statistics
// over runs, the error-rate stop (--max-error-rate) and the saturation stop, each recorded in a
// project file with why it ended; the server metrics scraped beside a run (the simulator's own
// counters agree with the client's counts) and a run whose /metrics is unusable (it continues, the
// evidence says why each figure is missing).

#include "run/runpreparation.h"
#include "run/runsession.h"
#include "sim/simulator.h"
#include "store/projectstore.h"

#include <QEventLoop>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

struct Finished
{
    SessionResult result;
    QList<RunOutcome> outcomes;
};

// Prepares and runs `request` against `sim`, recording into `project`; waits for the end.
bool runSession(RunRequest request, const std::shared_ptr<Simulator> &sim, const QString &project,
                Finished *out, QString *error)
{
    request.plan.sut.builtInSimulator = true;
    PrepareContext context;
    context.simulator = sim;
    PreparedRun prepared;
    PlanIssue issue;
    if (!prepareRun(request, context, &prepared, &issue)) {
        *error = issue.text();
        return false;
    }
    RunSession session(std::move(prepared));
    if (!session.openProject(project, error))
        return false;
    QObject::connect(&session, &RunSession::runFinished, &session,
                     [out](const RunOutcome &o) { out->outcomes.append(o); });
    QEventLoop loop;
    QObject::connect(&session, &RunSession::finished, &loop, [&](const SessionResult &r) {
        out->result = r;
        loop.quit();
    });
    if (!session.start(error))
        return false;
    QTimer::singleShot(240000, &loop, &QEventLoop::quit);
    loop.exec();
    return true;
}

// A /metrics that answers every request with the same bytes (head and body).
class CannedExporter : public QTcpServer
{
public:
    explicit CannedExporter(const QByteArray &response) : m_response(response)
    {
        listen(QHostAddress::LocalHost, 0);
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    if (s->readAll().contains("\r\n\r\n"))
                        s->write(m_response);
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    QString url() const { return u"http://127.0.0.1:%1/metrics"_s.arg(serverPort()); }

private:
    QByteArray m_response;
};

QByteArray answer(const QByteArray &type, const QByteArray &body)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: " + type +
           "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

RunRequest shortPlan(int prompts, double rate)
{
    RunRequest r;
    r.plan.dataset.randomInputLen = 16;
    r.plan.dataset.randomOutputLen = 4;
    r.plan.profile.numPrompts = prompts;
    r.plan.profile.requestRate = rate;
    r.calibrateTokens = false;
    return r;
}

} // namespace

class TestRunSession : public QObject
{
    Q_OBJECT
private slots:
    void seriesRunsThePlanNTimes()
    {
        QTemporaryDir dir;
        auto sim = std::make_shared<Simulator>();
        QVERIFY(sim->start());
        RunRequest r = shortPlan(30, 60);
        r.numRuns = 3;
        Finished f;
        QString error;
        QVERIFY2(runSession(r, sim, dir.filePath(u"p.sbproj"_s), &f, &error), qPrintable(error));
        QVERIFY2(f.result.ok, qPrintable(f.result.error));
        QCOMPARE(f.outcomes.size(), 3);
        QCOMPARE(f.outcomes.at(2).label, u"run-3"_s);
        QVERIFY(f.result.cacheState.startsWith(u"not cache-busted"_s));
        // The spread over the three runs, per metric.
        const auto metric = [&](const QString &key) -> const SeriesMetric * {
            for (const SeriesMetric &m : f.result.series)
                if (m.key == key)
                    return &m;
            return nullptr;
        };
        QVERIFY(metric(u"ttft.mean"_s) && metric(u"request_throughput"_s));
        const SeriesStats &s = metric(u"ttft.mean"_s)->stats;
        QCOMPARE(s.runs, 3);
        double mean = 0;
        for (const RunOutcome &o : std::as_const(f.outcomes))
            mean += o.derived.summary.ttft.mean / 3;
        QVERIFY(qAbs(s.mean - mean) < 1e-9);
        QVERIFY(s.meanInterval.available && s.meanInterval.contains(s.mean));
        // Stored as one series row whose runs keep their place.
        ProjectStore store;
        QVERIFY(store.open(dir.filePath(u"p.sbproj"_s), ProjectStore::OpenMode::ReadOnly));
        const QList<StoredSweep> sweeps = store.listSweeps();
        QCOMPARE(sweeps.size(), 1);
        QCOMPARE(sweeps.first().kind, u"series"_s);
        QCOMPARE(sweeps.first().config.value(u"runs"_s).toInt(), 3);
        QVERIFY(!sweeps.first().config.value(u"cache_state"_s).toString().isEmpty());
        const QList<RunInfo> runs = store.listRuns();
        QCOMPARE(runs.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(runs.at(i).sweepId, sweeps.first().id);
            QCOMPARE(runs.at(i).sweepPosition, i);
        }
    }

    void errorRateStopsTheRun()
    {
        QTemporaryDir dir;
        SimConfig cfg;
        cfg.setFaultRate(SimFault::Http500, 0.6);
        auto sim = std::make_shared<Simulator>(cfg);
        QVERIFY(sim->start());
        RunRequest r = shortPlan(600, 200);
        r.plan.profile.maxErrorRate = 0.2;
        Finished f;
        QString error;
        QVERIFY2(runSession(r, sim, dir.filePath(u"p.sbproj"_s), &f, &error), qPrintable(error));
        QCOMPARE(f.outcomes.size(), 1);
        const RunOutcome &o = f.outcomes.first();
        QVERIFY2(o.stopReason.contains(u"error rate"_s), qPrintable(o.stopReason));
        QVERIFY2(o.input.records.size() < 600, qPrintable(QString::number(o.input.records.size())));
        QCOMPARE(o.input.status, u"interrupted"_s);
        QVERIFY(o.summaryJson.value(u"stopped_early"_s).toObject().contains(u"reason"_s));
        QVERIFY(!f.result.ok);
        QVERIFY2(f.result.error.contains(u"error rate"_s), qPrintable(f.result.error));
        ProjectStore store;
        QVERIFY(store.open(dir.filePath(u"p.sbproj"_s), ProjectStore::OpenMode::ReadOnly));
        const RunInfo run = *store.loadRun(store.listRuns().first().id);
        QCOMPARE(run.status, StoredRunStatus::Interrupted);
        QVERIFY2(run.statusMessage.contains(u"error rate"_s), qPrintable(run.statusMessage));
    }

    void saturationStopsAnOverloadedRun_data()
    {
        QTest::addColumn<double>("rate");
        QTest::addColumn<bool>("saturates");
        // One sequence at a time of ~35 ms: about 28 requests per second.
        QTest::newRow("3x capacity") << 80.0 << true;
        QTest::newRow("third of capacity") << 10.0 << false;
    }

    void saturationStopsAnOverloadedRun()
    {
        QFETCH(double, rate);
        QFETCH(bool, saturates);
        QTemporaryDir dir;
        SimConfig cfg;
        cfg.capacity = 1;
        cfg.ttftMs = 20;
        cfg.itlMs = 5;
        auto sim = std::make_shared<Simulator>(cfg);
        QVERIFY(sim->start());
        const int prompts = int(rate * (saturates ? 30 : 12));
        RunRequest r = shortPlan(prompts, rate);
        r.stopWhenSaturated = true;
        r.saturationWindowS = 6;
        Finished f;
        QString error;
        QVERIFY2(runSession(r, sim, dir.filePath(u"p.sbproj"_s), &f, &error), qPrintable(error));
        QCOMPARE(f.outcomes.size(), 1);
        const RunOutcome &o = f.outcomes.first();
        QCOMPARE(o.saturated, saturates);
        if (saturates) {
            QVERIFY2(o.input.records.size() < prompts,
                     qPrintable(QString::number(o.input.records.size())));
            const QJsonObject early = o.summaryJson.value(u"stopped_early"_s).toObject();
            QVERIFY(early.value(u"saturation"_s).toObject().value(u"saturated"_s).toBool());
            QVERIFY2(o.stopReason.contains(u"saturated"_s), qPrintable(o.stopReason));
            QVERIFY2(f.result.ok, qPrintable(f.result.error)); // a deliberate stop, not a failure
        } else {
            QCOMPARE(o.input.records.size(), prompts);
            QCOMPARE(o.input.status, u"completed"_s);
        }
    }

    // Done when: a run against the simulator shows its queue, KV cache and simulated power, and
    // the simulator's counters (scraped from its /metrics before the first request and after the
    // last) agree with what the client counted and with the simulator's own request log.
    void serverCountersAgreeWithTheClient()
    {
        QTemporaryDir dir;
        SimConfig cfg;
        cfg.capacity = 4;
        auto sim = std::make_shared<Simulator>(cfg);
        QVERIFY(sim->start());
        RunRequest r = shortPlan(60, 40);
        r.plan.dataset.randomOutputLen = 12;
        r.plan.profile.metricsIntervalS = 0.1;
        Finished f;
        QString error;
        QVERIFY2(runSession(r, sim, dir.filePath(u"p.sbproj"_s), &f, &error), qPrintable(error));
        QVERIFY2(f.result.ok, qPrintable(f.result.error));
        QCOMPARE(f.outcomes.size(), 1);
        const RunOutcome &o = f.outcomes.first();
        QVERIFY(o.derived.hasServerMetrics);
        const ServerEvidence &ev = o.derived.server;
        const auto value = [&](const char *name) {
            const EvidenceItem *it = ev.item(QString::fromLatin1(name));
            if (!it)
                qWarning("no evidence item %s", name);
            else if (!it->available)
                qWarning("%s not available: %s", name, qPrintable(it->reason));
            return it && it->available ? it->value : -1.0;
        };
        // The simulator's own log of generation requests (not the scrapes or the model probe).
        qint64 logTokens = 0;
        int logRequests = 0;
        const QList<SimLogEntry> log = sim->requestLog();
        for (const SimLogEntry &e : log) {
            if (e.method != "POST"_L1)
                continue;
            ++logRequests;
            logTokens += e.completionTokens;
        }
        QCOMPARE(o.derived.summary.completed, 60);
        QCOMPARE(logRequests, 60);
        QCOMPARE(o.derived.summary.totalOutputTokens, 60 * 12);
        QCOMPARE(qint64(value("server_generation_tokens")), o.derived.summary.totalOutputTokens);
        QCOMPARE(qint64(value("server_generation_tokens")), logTokens);
        QCOMPARE(qint64(value("server_requests")), o.derived.summary.completed);
        QCOMPARE(qint64(value("server_prompt_tokens")), 60 * 16);
        // Live gauges and GPU figures over the window.
        QVERIFY(value("running_peak") >= 1 && value("running_peak") <= 4);
        QVERIFY(value("kv_cache_usage_peak") > 0);
        QVERIFY(value("power_mean_w") > 60);
        QVERIFY(value("energy_j") > 0);
        // Stored with the run: one blob per target (the SUT's /metrics and the simulated GPU).
        ProjectStore store;
        QVERIFY(store.open(dir.filePath(u"p.sbproj"_s), ProjectStore::OpenMode::ReadOnly));
        QCOMPARE(store.loadRunMetrics(o.storedRunId).size(), 2);
    }

    // Bad input: a /metrics that refuses, never answers, answers something that is not
    // Prometheus text (JSON, HTML, garbage) or too much never stops or fails the run; every
    // figure says why it is missing.
    void unusableMetricsLeaveTheRunAlone_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unreachable") << u"closed"_s << u"unreachable"_s;
        QTest::newRow("never answers") << u"silent"_s << u"timeout"_s;
        QTest::newRow("JSON, not Prometheus") << u"/v1/models"_s << u"not Prometheus"_s;
        QTest::newRow("404") << u"/no/metrics/here"_s << u"HTTP 404"_s;
        QTest::newRow("HTML") << u"html"_s << u"not Prometheus"_s;
        QTest::newRow("malformed") << u"malformed"_s << u"no line is a metric"_s;
        QTest::newRow("huge") << u"huge"_s << u"oversize"_s;
    }
    void unusableMetricsLeaveTheRunAlone()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        auto sim = std::make_shared<Simulator>();
        QVERIFY(sim->start());
        QTcpServer silent; // accepts connections (the kernel does) and never answers
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        CannedExporter html(
            answer("text/html; charset=utf-8", "<!DOCTYPE html><html><body>Login</body></html>"));
        CannedExporter malformed(
            answer("text/plain; version=0.0.4", "this is { not\nmetrics at all =\n"));
        // A Content-Length of 100 MiB, beyond the 8 MiB cap: refused before the body is read.
        CannedExporter huge("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                            "Content-Length: 104857600\r\n\r\nup 1\n");
        QString url;
        if (path == "html"_L1) {
            url = html.url();
        } else if (path == "malformed"_L1) {
            url = malformed.url();
        } else if (path == "huge"_L1) {
            url = huge.url();
        } else if (path == "closed"_L1) {
            QTcpServer s;
            QVERIFY(s.listen(QHostAddress::LocalHost, 0));
            url = u"http://127.0.0.1:%1/metrics"_s.arg(s.serverPort());
        } else if (path == "silent"_L1) {
            url = u"http://127.0.0.1:%1/metrics"_s.arg(silent.serverPort());
        } else {
            url = sim->baseUrl().toString() + path;
        }
        RunRequest r = shortPlan(20, 40);
        r.plan.sut.serverMetrics.sut = url;
        r.plan.profile.metricsIntervalS = 0.2;
        Finished f;
        QString error;
        QVERIFY2(runSession(r, sim, dir.filePath(u"p.sbproj"_s), &f, &error), qPrintable(error));
        QVERIFY2(f.result.ok, qPrintable(f.result.error));
        QCOMPARE(f.outcomes.size(), 1);
        const RunOutcome &o = f.outcomes.first();
        QVERIFY(o.completed());
        QCOMPARE(o.derived.summary.completed, 20);
        QVERIFY(o.derived.hasServerMetrics);
        const QList<EvidenceItem> &items = o.derived.server.items();
        QVERIFY(!items.isEmpty());
        for (const EvidenceItem &it : items) {
            QVERIFY2(!it.available, qPrintable(it.name));
            QVERIFY2(it.reason.contains(u"'sut'"_s) && it.reason.contains(reason),
                     qPrintable(it.name + u": "_s + it.reason));
        }
    }
};

QTEST_GUILESS_MAIN(TestRunSession)
#include "tst_runsession.moc"
