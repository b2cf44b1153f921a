// --cache-policy (docs/cache-audit.md, "Cache policy") through servebench-cli, against the
// built-in simulator run as a server and against the independent FastAPI server: `reset` before
// a repeated prompt set gives a cold first pass where `keep` gives hits — read from the engine's
// own prefix-cache counters by this test, not by ServeBench — and a server without a reset
// endpoint gets the fallback the user chose (refuse: no run; bust: a run with unique prefixes).

#include "clirun.h"
#include "servertestutil.h"
#include "simprocess.h"
#include "store/projectstore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace sb;
using namespace sb::test;

namespace {

// The server under test: the simulator or the FastAPI server, in a child process.
struct Server
{
    std::unique_ptr<SimProcess> sim;
    std::unique_ptr<FastApiProcess> fastapi;
    QString url;
    QString error;
};

Server startServer(const QString &kind, bool withReset)
{
    Server s;
    if (kind == "simulator"_L1) {
        QStringList args{u"--prefix-cache"_s, u"--ttft-ms"_s, u"2"_s,     u"--itl-ms"_s,
                         u"1"_s,              u"--duration"_s, u"600"_s};
        if (!withReset)
            args << u"--no-cache-reset"_s;
        s.sim = std::make_unique<SimProcess>(args);
        s.url = s.sim->url;
        if (s.url.isEmpty())
            s.error = QString::fromUtf8(s.sim->banner);
    } else {
        QStringList args{u"--prefix-cache"_s, u"--ttft-ms"_s, u"2"_s, u"--itl-ms"_s, u"1"_s};
        if (!withReset)
            args << u"--no-reset"_s;
        s.fastapi = std::make_unique<FastApiProcess>(args);
        s.url = s.fastapi->url;
        s.error = s.fastapi->error;
    }
    return s;
}

struct Counters
{
    double queries = -1;
    double hits = -1;
};

Counters counters(const QString &url)
{
    const QByteArray m = httpGet(url + u"/metrics"_s);
    return {promValue(m, u"vllm:prefix_cache_queries_total"_s),
            promValue(m, u"vllm:prefix_cache_hits_total"_s)};
}

// The same 12 prompts every time (fixed seed), one at a time so they never overlap.
CliResult runWith(const QString &url, const QString &project, const QStringList &policy)
{
    return runCli(QStringList{u"run"_s, u"--base-url"_s, url, u"--num-prompts"_s, u"12"_s,
                              u"--random-input-len"_s, u"64"_s, u"--random-output-len"_s, u"2"_s,
                              u"--seed"_s, u"7"_s, u"--max-concurrency"_s, u"1"_s, u"--project"_s,
                              project} +
                  policy);
}


} // namespace

class TestCachePolicy : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void resetGivesColdFirstPassKeepGivesHits_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("simulator") << u"simulator"_s;
        QTest::newRow("fastapi (independent)") << u"fastapi"_s;
    }
    void resetGivesColdFirstPassKeepGivesHits()
    {
        QFETCH(QString, kind);
        const Server server = startServer(kind, true);
        QVERIFY2(!server.url.isEmpty(), qPrintable(server.error));
        const QString project = m_dir.filePath(kind + u"-reset.sbproj"_s);

        // A first pass fills the cache with the prompt set.
        CliResult r = runWith(server.url, project, {});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));

        // keep: the same prompts again find their blocks cached.
        const Counters before = counters(server.url);
        QVERIFY2(before.queries > 0, "the server exports no prefix-cache counters");
        r = runWith(server.url, project, {u"--cache-policy"_s, u"keep"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const Counters afterKeep = counters(server.url);
        const double keepHits = afterKeep.hits - before.hits;
        const double keepQueries = afterKeep.queries - before.queries;
        QVERIFY2(keepQueries > 0 && keepHits >= 0.5 * keepQueries,
                 qPrintable(u"keep: %1 hits of %2 looked-up tokens"_s.arg(keepHits).arg(keepQueries)));

        // reset: the engine's reset first, so the same prompts are a cold first pass.
        r = runWith(server.url, project, {u"--cache-policy"_s, u"reset"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const Counters afterReset = counters(server.url);
        QCOMPARE(afterReset.hits - afterKeep.hits, 0.0);
        QVERIFY(afterReset.queries - afterKeep.queries > 0);
        QVERIFY2(r.out.contains(u"verified cold"_s), qPrintable(r.out));

        // What the project keeps: the policy and the reset in the snapshot, the verification in
        // the result.
        const QList<RunInfo> runs = storedRuns(project);
        QCOMPARE(runs.size(), 3);
        const RunInfo &last = runs.last();
        const QJsonObject cache = last.snapshot.value(u"prefix_cache"_s).toObject();
        QCOMPARE(cache.value(u"policy"_s).toString(), u"reset"_s);
        const QJsonObject reset = cache.value(u"reset"_s).toObject();
        QVERIFY(reset.value(u"done"_s).toBool());
        QCOMPARE(reset.value(u"endpoint"_s).toString(), u"/reset_prefix_cache"_s);
        QCOMPARE(reset.value(u"http_status"_s).toInt(), 200);
        const QJsonObject v =
            last.summary.value(u"cache_policy"_s).toObject().value(u"verification"_s).toObject();
        QCOMPARE(v.value(u"verdict"_s).toString(), u"cold"_s);
        QCOMPARE(v.value(u"hits"_s).toDouble(), 0.0);
        QCOMPARE(v.value(u"first_requests"_s).toInteger(), 12);
        // The usage of the same requests agrees: nothing cached.
        QCOMPARE(v.value(u"cached_tokens_reported"_s).toInteger(), 0);
        // keep is what the snapshot says for the second run.
        QCOMPARE(runs.at(1).snapshot.value(u"prefix_cache"_s).toObject().value(u"policy"_s),
                 QJsonValue(u"keep"_s));
    }

    // The engine the SUT states decides which reset is called first: SGLang's /flush_cache.
    void statedEngineChoosesItsReset()
    {
        const Server server = startServer(u"simulator"_s, true);
        QVERIFY2(!server.url.isEmpty(), qPrintable(server.error));
        const QString project = m_dir.filePath(u"sglang.sbproj"_s);
        const CliResult r = runWith(server.url, project,
                                    {u"--cache-policy"_s, u"reset"_s, u"--sut"_s,
                                     u"engine=sglang"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QList<RunInfo> runs = storedRuns(project);
        QCOMPARE(runs.size(), 1);
        const QJsonObject reset = runs.first()
                                      .snapshot.value(u"prefix_cache"_s)
                                      .toObject()
                                      .value(u"reset"_s)
                                      .toObject();
        QCOMPARE(reset.value(u"endpoint"_s).toString(), u"/flush_cache"_s);
        QCOMPARE(reset.value(u"engine"_s).toString(), u"sglang"_s);
        QVERIFY(reset.value(u"done"_s).toBool());
    }

    void serverWithoutResetGetsTheFallback_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("fallback");
        for (const QString &kind : {u"simulator"_s, u"fastapi"_s})
            for (const QString &fallback : {u"refuse"_s, u"bust"_s})
                QTest::addRow("%s, %s", qPrintable(kind), qPrintable(fallback)) << kind << fallback;
    }
    void serverWithoutResetGetsTheFallback()
    {
        QFETCH(QString, kind);
        QFETCH(QString, fallback);
        const Server server = startServer(kind, false);
        QVERIFY2(!server.url.isEmpty(), qPrintable(server.error));
        const QString project = m_dir.filePath(kind + u"-no-reset-"_s + fallback + u".sbproj"_s);
        CliResult r = runWith(server.url, project, {});
        QVERIFY2(r.code == 0, qPrintable(r.describe())); // the prompts are cached now
        const Counters before = counters(server.url);
        r = runWith(server.url, project,
                    {u"--cache-policy"_s, u"reset"_s, u"--cache-reset-fallback"_s, fallback});
        if (fallback == "refuse"_L1) {
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(u"cache-policy"_s) &&
                         r.err.contains(u"has no prefix-cache reset"_s) &&
                         r.err.contains(u"/reset_prefix_cache: HTTP 404"_s),
                     qPrintable(r.err));
            QCOMPARE(storedRuns(project).size(), 1); // nothing ran
            QCOMPARE(counters(server.url).queries, before.queries);
            return;
        }
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(u"Fallback: cache bust"_s), qPrintable(r.err));
        // Unique prefixes: the cached prompt set is not found again.
        const Counters after = counters(server.url);
        QVERIFY(after.queries > before.queries);
        QCOMPARE(after.hits - before.hits, 0.0);
        const QList<RunInfo> runs = storedRuns(project);
        QCOMPARE(runs.size(), 2);
        const QJsonObject snap = runs.last().snapshot;
        const QJsonObject cache = snap.value(u"prefix_cache"_s).toObject();
        QVERIFY(!cache.value(u"reset"_s).toObject().value(u"done"_s).toBool());
        QCOMPARE(cache.value(u"fallback"_s).toString(), u"bust"_s);
        QVERIFY(snap.value(u"load_profile"_s).toObject().value(u"cache_bust"_s).toBool() ||
                snap.value(u"profile"_s).toObject().value(u"cache_bust"_s).toBool());
        // The command that reproduces the run asks for the same policy and fallback.
        const QString command = snap.value(u"command"_s).toString();
        QVERIFY2(command.contains(u"--cache-policy reset"_s) &&
                     command.contains(u"--cache-reset-fallback bust"_s),
                 qPrintable(command));
    }
};

QTEST_GUILESS_MAIN(TestCachePolicy)
#include "tst_cachepolicy.moc"
