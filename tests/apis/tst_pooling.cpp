// Embeddings and rerank as endpoint kinds (docs/metrics.md, "Embeddings and rerank"): their
// names (vLLM's openai-embeddings, infinity-embeddings and vllm-rerank, AIPerf's embeddings and
// rerank), the request each sends (a batch of items: input as a string or a list; query,
// documents and top_n), how a non-streamed answer is read (usage, one result per item, failures
// by class), the summary that has no streaming metric (n/a with the reason, E2EL to the end of
// the body, items/s), the CLI flags and their inverse, the plan checks, and comparability (a
// generation run never ranks against an embeddings run; embeddings runs rank by E2EL).

#include "client/requestbuilder.h"
#include "client/streamaccumulator.h"
#include "config/runplan.h"
#include "metrics/resultjson.h"
#include "metrics/summary.h"
#include "metrics/summarytext.h"
#include "report/comparability.h"
#include "report/comparison.h"
#include "report/reportcost.h"
#include "report/reportrun.h"
#include "run/planvalidation.h"
#include "run/runflags.h"
#include "run/runrequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// OpenAI's embeddings answer (the API reference's example, two inputs), and vLLM's rerank
// answer (its openai/protocol RerankResponse), both with usage.
const QByteArray kEmbeddings2 =
    R"({"object":"list","data":[{"object":"embedding","embedding":[0.0023064255,-0.009327292],"index":0},)"
    R"({"object":"embedding","embedding":[-0.0028842222,0.0107],"index":1}],)"
    R"("model":"text-embedding-3-small","usage":{"prompt_tokens":8,"total_tokens":8}})";
const QByteArray kRerank3 =
    R"({"id":"rerank-1","model":"BAAI/bge-reranker-base","usage":{"total_tokens":51},"results":[)"
    R"({"index":2,"document":{"text":"c"},"relevance_score":0.99},)"
    R"({"index":0,"document":{"text":"a"},"relevance_score":0.5},)"
    R"({"index":1,"document":{"text":"b"},"relevance_score":0.01}]})";

RequestRecord readAnswer(ApiFlavour flavour, int status, const QByteArray &body, int batch,
                         bool bytewise = false)
{
    RequestRecord r;
    r.tSend = 1000;
    r.batchItems = batch;
    r.expectedInputTokens = 7;
    StreamAccumulator acc(flavour, &r);
    acc.onHttpStatus(status);
    if (bytewise) {
        for (qsizetype i = 0; i < body.size(); ++i)
            acc.onBytes(body.constData() + i, 1, 2000 + i);
    } else {
        acc.onBytes(body.constData(), body.size(), 2000);
    }
    acc.finish(ErrorClass::None, {}, 5'000'000);
    return r;
}

RequestRecord pooledRecord(qint64 index, qint64 sendNs, qint64 latencyNs, int items, int tokens)
{
    RequestRecord r;
    r.index = index;
    r.tSched = r.tQueued = r.tDispatch = sendNs;
    r.tSend = sendNs;
    r.tEnd = sendNs + latencyNs;
    r.batchItems = items;
    r.resultItems = items;
    r.inputTokens = tokens;
    r.inputSource = TokenSource::ServerUsage;
    r.outputTokens = 0;
    r.httpStatus = 200;
    return r;
}

QJsonObject snapshot(ApiFlavour flavour)
{
    RunPlan p;
    p.sut.flavour = flavour;
    QJsonObject s = p.toJson();
    s[u"dataset_info"_s] = QJsonObject{{u"sha256"_s, QString(64, u'a')}};
    s[u"tool_version"_s] = u"0.1.0"_s;
    return s;
}

ReportRun reportRun(qint64 id, const QString &label, ApiFlavour flavour, qint64 latencyNs)
{
    ReportRun run;
    run.id = id;
    run.label = label;
    run.info.snapshot = snapshot(flavour);
    run.input.plan.sut.flavour = flavour;
    QList<RequestRecord> records;
    for (int i = 0; i < 20; ++i)
        records.append(pooledRecord(i, 1'000'000'000 + i * 10'000'000, latencyNs + i * 1000, 4, 40));
    run.input.records = records;
    run.summary = summarize(records);
    return run;
}

} // namespace

class TestPooling : public QObject
{
    Q_OBJECT
private slots:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("openai-embeddings") << u"openai-embeddings"_s << int(ApiFlavour::Embeddings)
                                           << u"openai-embeddings"_s;
        QTest::newRow("infinity-embeddings (vLLM)")
            << u"infinity-embeddings"_s << int(ApiFlavour::Embeddings) << u"openai-embeddings"_s;
        QTest::newRow("embeddings (AIPerf)")
            << u"embeddings"_s << int(ApiFlavour::Embeddings) << u"openai-embeddings"_s;
        QTest::newRow("vllm-rerank") << u"vllm-rerank"_s << int(ApiFlavour::Rerank)
                                     << u"vllm-rerank"_s;
        QTest::newRow("rerank (AIPerf)") << u"rerank"_s << int(ApiFlavour::Rerank)
                                         << u"vllm-rerank"_s;
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(int, flavour);
        QFETCH(QString, canonical);
        ApiFlavour f = ApiFlavour::Completions;
        QVERIFY(apiFlavourFromName(name, &f));
        QCOMPARE(int(f), flavour);
        QCOMPARE(QString::fromLatin1(apiFlavourName(f)), canonical);
        QVERIFY(apiFlavourIsPooling(f));
        QVERIFY(!apiFlavourTakesMessages(f));
        QVERIFY(!apiFlavourTakesImages(f));
        SutConfig sut;
        sut.flavour = f;
        QCOMPARE(int(SutConfig::fromJson(sut.toJson()).flavour), flavour);
    }

    void bodies()
    {
        SutConfig sut;
        sut.model = u"bge"_s;
        sut.baseUrl = u"http://h:1/v1"_s;
        sut.flavour = ApiFlavour::Embeddings;
        RequestParams params;
        params.temperature = 0.5; // a sampling field: never sent to a pooling endpoint
        // One input is a string, a batch a list (OpenAI's and vLLM's input).
        QJsonObject one = parse(buildPoolingBody(sut, params, {}, {u"alpha"_s}));
        QCOMPARE(one.value(u"input"_s).toString(), u"alpha"_s);
        QCOMPARE(one.value(u"model"_s).toString(), u"bge"_s);
        QCOMPARE(one.value(u"encoding_format"_s).toString(), u"float"_s);
        QVERIFY(!one.contains(u"stream"_s));
        QVERIFY(!one.contains(u"temperature"_s));
        QJsonObject batch = parse(buildPoolingBody(sut, params, {}, {u"a"_s, u"b"_s, u"c"_s}));
        QCOMPARE(batch.value(u"input"_s).toArray(),
                 (QJsonArray{u"a"_s, u"b"_s, u"c"_s}));
        QCOMPARE(endpointUrl(sut).toString(), u"http://h:1/v1/embeddings"_s);
        const auto headers = buildRequestHeaders(sut, {}, u"id"_s);
        bool json = false;
        for (const auto &[k, v] : headers)
            json = json || (k == "Accept" && v == "application/json");
        QVERIFY(json);

        sut.flavour = ApiFlavour::Rerank;
        params.extraBody = QJsonObject{{u"return_documents"_s, false}};
        QJsonObject rerank = parse(buildPoolingBody(sut, params, u"q"_s, {u"d1"_s, u"d2"_s}));
        QCOMPARE(rerank.value(u"query"_s).toString(), u"q"_s);
        QCOMPARE(rerank.value(u"documents"_s).toArray(), (QJsonArray{u"d1"_s, u"d2"_s}));
        QCOMPARE(rerank.value(u"top_n"_s).toInt(), 2);
        QCOMPARE(rerank.value(u"return_documents"_s).toBool(true), false);
        QCOMPARE(endpointUrl(sut).toString(), u"http://h:1/v1/rerank"_s);
        sut.endpoint = u"/rerank"_s; // the form engines expose without /v1
        sut.baseUrl = u"http://h:1"_s;
        QCOMPARE(endpointUrl(sut).toString(), u"http://h:1/rerank"_s);
        // A caller with one prompt (the connection test) sends it as the one item.
        QJsonObject probe = parse(buildRequestBody(sut, {}, u"p"_s, {}, 16));
        QCOMPARE(probe.value(u"documents"_s).toArray(), (QJsonArray{u"p"_s}));
    }

    // A non-streamed answer read whole: usage and one result per item, or the failure's class.
    void answers_data()
    {
        QTest::addColumn<int>("flavour");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("batch");
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("results");
        QTest::addColumn<int>("inputTokens");
        QTest::addColumn<int>("inputSource");
        const int E = int(ApiFlavour::Embeddings), R = int(ApiFlavour::Rerank);
        const int usage = int(TokenSource::ServerUsage), dataset = int(TokenSource::Dataset);
        QTest::newRow("embeddings") << E << 200 << kEmbeddings2 << 2 << u"none"_s << 2 << 8
                                    << usage;
        QTest::newRow("embeddings: fewer than the batch")
            << E << 200 << kEmbeddings2 << 3 << u"result_mismatch"_s << 2 << 8 << usage;
        QTest::newRow("embeddings: more than the batch")
            << E << 200 << kEmbeddings2 << 1 << u"result_mismatch"_s << 2 << 8 << usage;
        QTest::newRow("embeddings: no data list")
            << E << 200 << QByteArray(R"({"object":"list","usage":{"prompt_tokens":3}})") << 1
            << u"result_mismatch"_s << -1 << 3 << usage;
        QTest::newRow("embeddings: invalid JSON")
            << E << 200 << kEmbeddings2.left(60) << 2 << u"invalid_json"_s << -1 << 7 << dataset;
        QTest::newRow("embeddings: HTTP 400")
            << E << 400
            << QByteArray(R"({"object":"error","message":"the maximum context length is 512 tokens"})")
            << 2 << u"http_4xx"_s << -1 << 7 << dataset;
        QTest::newRow("embeddings: error object with 200")
            << E << 200 << QByteArray(R"({"error":{"message":"boom"}})") << 1
            << u"stream_error"_s << -1 << 7 << dataset;
        QTest::newRow("embeddings: no usage") << E << 200
                                              << QByteArray(R"({"data":[{"embedding":[1]}]})")
                                              << 1 << u"none"_s << 1 << 7 << dataset;
        // vLLM's rerank reports total_tokens only (nothing is generated: it is the input).
        QTest::newRow("rerank") << R << 200 << kRerank3 << 3 << u"none"_s << 3 << 51 << usage;
        QTest::newRow("rerank: a result short")
            << R << 200 << kRerank3 << 4 << u"result_mismatch"_s << 3 << 51 << usage;
        QTest::newRow("rerank: an index never sent")
            << R << 200 << kRerank3 << 2 << u"result_mismatch"_s << 3 << 51 << usage;
        QTest::newRow("rerank: a document twice")
            << R << 200
            << QByteArray(R"({"results":[{"index":0,"relevance_score":0.5},{"index":0,"relevance_score":0.4}]})")
            << 2 << u"result_mismatch"_s << 2 << 7 << dataset;
        QTest::newRow("rerank: HTTP 529") << R << 529 << QByteArray("{}") << 2
                                          << u"overloaded"_s << -1 << 7 << dataset;
    }
    void answers()
    {
        QFETCH(int, flavour);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, batch);
        QFETCH(QString, error);
        QFETCH(int, results);
        QFETCH(int, inputTokens);
        QFETCH(int, inputSource);
        for (bool bytewise : {false, true}) {
            const RequestRecord r = readAnswer(ApiFlavour(flavour), status, body, batch, bytewise);
            QCOMPARE(QString::fromLatin1(errorClassName(r.error)), error);
            if (r.error != ErrorClass::None)
                QVERIFY(!r.errorMessage.isEmpty());
            QCOMPARE(r.resultItems, results);
            QCOMPARE(r.inputTokens, inputTokens);
            QCOMPARE(int(r.inputSource), inputSource);
            // Nothing is generated, nothing streamed.
            QCOMPARE(r.outputTokens, 0);
            QCOMPARE(r.tFirst, 0);
            QCOMPARE(r.tLast, 0);
            QVERIFY(r.chunkTimes.isEmpty());
            QCOMPARE(r.tEnd, 5'000'000);
        }
    }

    // The summary of a non-streamed run has no streaming metric: n/a with the reason, E2EL to
    // the end of the body, items and input tokens per second.
    void summaryHasNoStreamingMetrics()
    {
        QList<RequestRecord> records;
        // Latencies 10, 20, ..., 100 ms; sends 100 ms apart; 4 items and 40 tokens each.
        for (int i = 0; i < 10; ++i)
            records.append(
                pooledRecord(i, 1'000'000'000 + i * 100'000'000, (i + 1) * 10'000'000, 4, 40));
        RequestRecord failed = pooledRecord(10, 2'100'000'000, 5'000'000, 4, 40);
        failed.error = ErrorClass::ResultMismatch;
        records.append(failed);
        const RunSummary s = summarize(records);
        QVERIFY(s.nonStreamed);
        QCOMPARE(s.completed, 10);
        QCOMPARE(s.failed, 1);
        QCOMPARE(s.failedByClass.value(u"result_mismatch"_s), 1);
        QCOMPARE(s.totalItems, 40);
        QCOMPARE(s.totalInputTokens, 400);
        QCOMPARE(s.e2el.count, 10);
        QCOMPARE(s.e2el.mean, 55.0);
        QCOMPARE(s.e2el.median, 55.0);
        // The window: the first send (1.0 s) to the last end (the failed one at 2.105 s).
        QCOMPARE(s.durationS, 1.105);
        QCOMPARE(s.itemThroughput, 40 / 1.105);
        QCOMPARE(s.inputThroughput, 400 / 1.105);
        for (const char *key : {"ttft", "tpot", "itl", "itl_per_token", "output_throughput",
                                "total_output_tokens", "ttfct", "max_output_tokens_per_s"}) {
            QVERIFY2(!s.isAvailable(QString::fromLatin1(key)), key);
            QCOMPARE(s.unavailableReason(QString::fromLatin1(key)),
                     u"non-streamed endpoint: no tokens are generated"_s);
        }
        QVERIFY(s.isAvailable(u"e2el"_s));
        QVERIFY(s.isAvailable(u"request_throughput"_s));

        SummaryTextOptions o;
        o.metricPercentiles = {50, 99};
        const QString text = formatVllmSummary(s, o);
        QVERIFY2(text.contains(u"n/a (non-streamed endpoint: no tokens are generated)"_s),
                 qPrintable(text));
        for (const char *absent : {"Mean TTFT", "TPOT (ms)", "Mean ITL", "Time to First Token",
                                   "Output token throughput", "ITL per token",
                                   "Output token count source"})
            QVERIFY2(!text.contains(QLatin1StringView(absent)), absent);
        const auto line = [](const char *label, const char *value) {
            return QString::fromLatin1(label).leftJustified(40) + u' ' + QLatin1StringView(value);
        };
        QVERIFY(text.contains(line("Mean E2EL (ms):", "55.00")));
        QVERIFY(text.contains(line("P50 E2EL (ms):", "55.00")));
        QVERIFY(text.contains(line("P99 E2EL (ms):", "99.10")));
        QVERIFY(text.contains(line("Item throughput (items/s):", "36.20")));
        QVERIFY(text.contains(line("Input token throughput (tok/s):", "361.99")));
        QVERIFY(text.contains(u"result_mismatch:"_s));

        // The result JSON: the streaming metrics are null with the reason, never 0.
        ResultJsonOptions jo;
        jo.detailed = true;
        const QJsonObject j = vllmResultJson(s, records, jo);
        QVERIFY(j.value(u"mean_ttft_ms"_s).isNull());
        QCOMPARE(j.value(u"ttft_unavailable_reason"_s).toString(),
                 u"non-streamed endpoint: no tokens are generated"_s);
        QVERIFY(j.value(u"output_throughput"_s).isNull());
        QVERIFY(j.value(u"total_output_tokens"_s).isNull());
        QCOMPARE(j.value(u"mean_e2el_ms"_s).toDouble(), 55.0);
        QCOMPARE(j.value(u"non_streamed"_s).toBool(), true);
        QCOMPARE(j.value(u"total_items"_s).toInteger(), 40);
        QCOMPARE(j.value(u"e2els"_s).toArray().at(0).toDouble(), 0.01);
        QCOMPARE(j.value(u"batch_items"_s).toArray().at(0).toInt(), 4);
    }

    // A generation run's summary is untouched by the new fields.
    void generationSummaryUnchanged()
    {
        RequestRecord r;
        r.index = 0;
        r.tSend = 1'000'000;
        r.tFirst = r.tLast = 11'000'000;
        r.tEnd = 12'000'000;
        r.chunkTimes = {11'000'000};
        r.chunkTokens = {1};
        r.outputTokens = 1;
        const RunSummary s = summarize(QList<RequestRecord>{r});
        QVERIFY(!s.nonStreamed);
        QVERIFY(s.isAvailable(u"ttft"_s));
        QCOMPARE(s.e2el.mean, 10.0); // t_last, not t_end
        QVERIFY(!formatVllmSummary(s).contains(u"non-streamed"_s));
    }

    void flags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<int>("batch");
        QTest::newRow("--backend openai-embeddings --random-batch-size 8")
            << QStringList{u"--backend"_s, u"openai-embeddings"_s, u"--random-batch-size"_s,
                           u"8"_s}
            << int(ApiFlavour::Embeddings) << 8;
        QTest::newRow("--embedding-batch-size")
            << QStringList{u"--backend"_s, u"openai-embeddings"_s, u"--embedding-batch-size"_s,
                           u"3"_s}
            << int(ApiFlavour::Embeddings) << 3;
        QTest::newRow("--endpoint /v1/embeddings")
            << QStringList{u"--base-url"_s, u"http://h:1"_s, u"--endpoint"_s, u"/v1/embeddings"_s}
            << int(ApiFlavour::Embeddings) << 1;
        QTest::newRow("--endpoint /rerank")
            << QStringList{u"--base-url"_s, u"http://h:1"_s, u"--endpoint"_s, u"/rerank"_s,
                           u"--random-batch-size"_s, u"5"_s}
            << int(ApiFlavour::Rerank) << 5;
        QTest::newRow("--backend vllm-rerank --endpoint /v2/rerank")
            << QStringList{u"--base-url"_s, u"http://h:1"_s, u"--backend"_s, u"vllm-rerank"_s,
                           u"--endpoint"_s, u"/v2/rerank"_s}
            << int(ApiFlavour::Rerank) << 1;
    }
    void flags()
    {
        QFETCH(QStringList, args);
        QFETCH(int, flavour);
        QFETCH(int, batch);
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY2(parseRunFlags(args, &r, &opts, &error), qPrintable(error));
        QCOMPARE(int(r.plan.sut.flavour), flavour);
        QCOMPARE(r.plan.profile.batchSize, batch);
        QVERIFY2(validateRunRequest(r).isEmpty(), qPrintable(validateRunRequest(r).value(0).text()));
        QCOMPARE(r.plan.itemsPerRequest(),
                 flavour == int(ApiFlavour::Rerank) ? batch + 1 : batch);
        RunRequest again;
        QVERIFY2(parseRunFlags(runFlags(r), &again, &opts, &error), qPrintable(error));
        QCOMPARE(int(again.plan.sut.flavour), flavour);
        QCOMPARE(again.plan.profile.batchSize, batch);
        QCOMPARE(LoadProfile::fromJson(r.plan.profile.toJson()).batchSize, batch);
    }

    void planChecks_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("said");
        QTest::newRow("a batch for a chat endpoint")
            << QStringList{u"--backend"_s, u"openai-chat"_s, u"--random-batch-size"_s, u"4"_s}
            << u"random-batch-size"_s << u"embeddings and rerank endpoints only"_s;
        QTest::newRow("batch 0") << QStringList{u"--backend"_s, u"openai-embeddings"_s,
                                                u"--random-batch-size"_s, u"0"_s}
                                 << u"random-batch-size"_s << u"between 1 and"_s;
        QTest::newRow("embeddings sessions")
            << QStringList{u"--backend"_s, u"openai-embeddings"_s, u"--multi-turn"_s}
            << u"multi-turn"_s << u"no conversation"_s;
        QTest::newRow("a TTFT SLO for embeddings")
            << QStringList{u"--backend"_s, u"openai-embeddings"_s, u"--goodput"_s, u"ttft:100"_s}
            << u"goodput"_s << u"not streamed"_s;
        QTest::newRow("an MLPerf scenario for rerank")
            << QStringList{u"--backend"_s, u"vllm-rerank"_s, u"--scenario"_s, u"offline"_s}
            << u"scenario"_s << u"MLPerf"_s;
        QTest::newRow("cancel after tokens for embeddings")
            << QStringList{u"--backend"_s, u"openai-embeddings"_s,
                           u"--request-cancellation-rate"_s, u"10"_s,
                           u"--request-cancellation-after-tokens"_s, u"2"_s}
            << u"request-cancellation-after-tokens"_s << u"not streamed"_s;
    }
    void planChecks()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, field);
        QFETCH(QString, said);
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY2(parseRunFlags(args, &r, &opts, &error), qPrintable(error));
        const QList<PlanIssue> issues = validateRunRequest(r);
        bool found = false;
        for (const PlanIssue &i : issues)
            found = found || (i.field == field && i.message.text().contains(said));
        QVERIFY2(found, qPrintable(issues.isEmpty() ? u"no issue"_s : issues.first().text()));
    }

    // A generation run never ranks against an embeddings or rerank run; runs of one kind do.
    void comparability_data()
    {
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<bool>("rankable");
        QTest::newRow("chat vs embeddings")
            << int(ApiFlavour::Chat) << int(ApiFlavour::Embeddings) << false;
        QTest::newRow("completions vs rerank")
            << int(ApiFlavour::Completions) << int(ApiFlavour::Rerank) << false;
        QTest::newRow("embeddings vs rerank")
            << int(ApiFlavour::Embeddings) << int(ApiFlavour::Rerank) << false;
        QTest::newRow("embeddings vs embeddings")
            << int(ApiFlavour::Embeddings) << int(ApiFlavour::Embeddings) << true;
        QTest::newRow("rerank vs rerank") << int(ApiFlavour::Rerank) << int(ApiFlavour::Rerank)
                                          << true;
    }
    void comparability()
    {
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(bool, rankable);
        const Comparability c = checkComparability(
            {snapshot(ApiFlavour(a)), snapshot(ApiFlavour(b))}, {u"a"_s, u"b"_s});
        QCOMPARE(c.rankable(), rankable);
        if (!rankable)
            QVERIFY2(c.refusals.join(u' ').contains(u"different kinds of API"_s),
                     qPrintable(c.refusals.join(u' ')));
    }

    // Two embeddings runs compare on latency and throughput: the default ranking (P99 TTFT)
    // has nothing to read, so it ranks by P99 E2EL and says so; a chat run beside one is not
    // ranked at all.
    void comparisonRanksEmbeddingsByE2el()
    {
        const ReportRun slow = reportRun(1, u"#1 slow"_s, ApiFlavour::Embeddings, 30'000'000);
        const ReportRun fast = reportRun(2, u"#2 fast"_s, ApiFlavour::Embeddings, 10'000'000);
        const Comparison c = buildComparison({slow, fast}, {}, {});
        QVERIFY(c.comparability.rankable());
        QCOMPARE(c.rankBy.rowKey(), u"e2el.p99"_s);
        QCOMPARE(c.ranking, (QList<int>{1, 0}));
        QVERIFY2(c.rankNote.contains(u"non-streamed"_s), qPrintable(c.rankNote));
        QVERIFY(c.row(u"item_throughput"_s));
        QVERIFY(!c.row(u"ttft.p99"_s)->cells.at(0).value);

        ReportRun chat = reportRun(3, u"#3 chat"_s, ApiFlavour::Chat, 10'000'000);
        const Comparison mixed = buildComparison({slow, chat}, {}, {});
        QVERIFY(!mixed.comparability.rankable());
        QVERIFY(mixed.ranking.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPooling)
#include "tst_pooling.moc"
