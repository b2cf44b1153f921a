#include "metrics/definitions.h"
#include "metrics/resultjson.h"
#include "metrics/summary.h"
#include "syntheticrun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace sb;
using namespace Qt::StringLiterals;

class TestResultJson : public QObject
{
    Q_OBJECT

private slots:
    void vllmKeys();
    void servebenchKeys();
    void detailedArrays();
    void optionsAndNulls();
    void definitions();
    void unknownIsNullWithItsReason();
};

static ResultJsonOptions baseOptions()
{
    ResultJsonOptions o;
    o.backend = u"openai-chat"_s;
    o.modelId = u"meta-llama/Llama-3.1-8B-Instruct"_s;
    o.date = QDateTime(QDate(2025, 3, 4), QTime(5, 6, 7));
    o.toolVersion = u"9.9.9"_s;
    o.configSnapshot = QJsonObject{{u"name"_s, u"plan"_s}};
    o.dataset = QJsonObject{{u"hash"_s, u"sha256:abc"_s}};
    return o;
}

void TestResultJson::vllmKeys()
{
    const QList<RequestRecord> recs = synthetic::records();
    const QJsonObject j = vllmResultJson(summarize(recs), recs, baseOptions());

    QCOMPARE(j.value(u"date"_s).toString(), u"20250304-050607"_s);
    QCOMPARE(j.value(u"backend"_s).toString(), u"openai-chat"_s);
    QCOMPARE(j.value(u"model_id"_s).toString(), u"meta-llama/Llama-3.1-8B-Instruct"_s);
    QCOMPARE(j.value(u"tokenizer_id"_s).toString(), u"meta-llama/Llama-3.1-8B-Instruct"_s);
    QCOMPARE(j.value(u"num_prompts"_s).toInteger(), 5); // measured requests
    QCOMPARE(j.value(u"request_rate"_s).toString(), u"inf"_s);
    QCOMPARE(j.value(u"burstiness"_s).toDouble(), 1.0);
    QVERIFY(j.value(u"max_concurrency"_s).isNull());
    QCOMPARE(j.value(u"duration"_s).toDouble(), 0.1);
    QCOMPARE(j.value(u"completed"_s).toInteger(), 3);
    QCOMPARE(j.value(u"failed"_s).toInteger(), 2);
    QCOMPARE(j.value(u"total_input_tokens"_s).toInteger(), 60);
    QCOMPARE(j.value(u"total_output_tokens"_s).toInteger(), 11);
    QCOMPARE(j.value(u"request_throughput"_s).toDouble(), 30.0);
    QVERIFY(j.contains(u"request_goodput"_s));
    QVERIFY(j.value(u"request_goodput"_s).isNull());
    QCOMPARE(j.value(u"output_throughput"_s).toDouble(), 110.0);
    QCOMPARE(j.value(u"total_token_throughput"_s).toDouble(), 710.0);

    // Statistics in ms with vLLM's key spelling (hand values from tst_summary).
    QCOMPARE(j.value(u"mean_ttft_ms"_s).toDouble(), 20.0);
    QCOMPARE(j.value(u"median_ttft_ms"_s).toDouble(), 20.0);
    QCOMPARE(j.value(u"p99_ttft_ms"_s).toDouble(), 29.8);
    QCOMPARE(j.value(u"p99.9_ttft_ms"_s).toDouble(), 29.98);
    QCOMPARE(j.value(u"p50_ttft_ms"_s).toDouble(), 20.0);
    QCOMPARE(j.value(u"std_tpot_ms"_s).toDouble(), 2.0);
    QCOMPARE(j.value(u"mean_tpot_ms"_s).toDouble(), 8.0);
    QCOMPARE(j.value(u"std_itl_ms"_s).toDouble(), 4.0);
    QCOMPARE(j.value(u"p99_itl_ms"_s).toDouble(), 19.6);
    QCOMPARE(j.value(u"mean_e2el_ms"_s).toDouble(), 40.0);
    QCOMPARE(j.value(u"p99_e2el_ms"_s).toDouble(), 49.8);
    for (const char *m : {"ttft", "tpot", "itl", "e2el"})
        for (const char *k : {"mean", "median", "std", "p90", "p95"})
            QVERIFY2(j.contains(QString::fromLatin1(k) + u'_' + QString::fromLatin1(m) + u"_ms"_s),
                     m);

    // Without --save-detailed vLLM drops the per-request arrays.
    for (const char *k : {"input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors",
                          "e2els", "start_times", "scheduled_times"})
        QVERIFY2(!j.contains(QString::fromLatin1(k)), k);

    // Serialisable and lossless: a NaN or inf number would come back as null.
    const QByteArray bytes = QJsonDocument(j).toJson(QJsonDocument::Compact);
    QJsonParseError err;
    const QJsonDocument back = QJsonDocument::fromJson(bytes, &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    QCOMPARE(back.object(), j);
    QVERIFY(bytes.contains("\"request_rate\":\"inf\""));
}

void TestResultJson::servebenchKeys()
{
    const QList<RequestRecord> recs = synthetic::records();
    const QJsonObject j = vllmResultJson(summarize(recs), recs, baseOptions());

    const QJsonObject lag = j.value(u"schedule_lag"_s).toObject();
    QCOMPARE(lag.value(u"count"_s).toInteger(), 5);
    QCOMPARE(lag.value(u"mean_ms"_s).toDouble(), 1.6);
    QCOMPARE(lag.value(u"median_ms"_s).toDouble(), 1.0);
    QCOMPARE(lag.value(u"max_ms"_s).toDouble(), 5.0);
    QCOMPARE(lag.value(u"p99_ms"_s).toDouble(), 4.88);
    QCOMPARE(j.value(u"client_queue_time"_s).toObject().value(u"mean_ms"_s).toDouble(), 1.4);
    QCOMPARE(j.value(u"itl_per_token"_s).toObject().value(u"mean_ms"_s).toDouble(), 9.0);
    QCOMPARE(j.value(u"ttft_from_sched"_s).toObject().value(u"max_ms"_s).toDouble(), 35.0);

    const QJsonObject fbc = j.value(u"failed_by_class"_s).toObject();
    QCOMPARE(fbc.size(), 2);
    QCOMPARE(fbc.value(u"http_5xx"_s).toInteger(), 1);
    QCOMPARE(fbc.value(u"timeout"_s).toInteger(), 1);

    const QJsonObject src = j.value(u"token_count_source"_s).toObject();
    QCOMPARE(src.value(u"input"_s).toObject().value(u"source"_s).toString(), u"mixed"_s);
    QCOMPARE(src.value(u"input"_s).toObject().value(u"dataset"_s).toInteger(), 1);
    QCOMPARE(src.value(u"output"_s).toObject().value(u"chunk_count"_s).toInteger(), 1);
    QCOMPARE(j.value(u"cached_tokens"_s).toInteger(), 5);
    QCOMPARE(j.value(u"warmup_requests"_s).toInteger(), 1);
    QCOMPARE(j.value(u"metric_definitions_version"_s).toInt(), kMetricDefinitionsVersion);
    QCOMPARE(j.value(u"metric_definitions"_s).toObject(), metricDefinitionsJson());
    QCOMPARE(j.value(u"config_snapshot"_s).toObject().value(u"name"_s).toString(), u"plan"_s);
    QCOMPARE(j.value(u"tool_version"_s).toString(), u"9.9.9"_s);
    QCOMPARE(j.value(u"dataset"_s).toObject().value(u"hash"_s).toString(), u"sha256:abc"_s);
    QCOMPARE(j.value(u"percentile_method"_s).toString(), u"linear"_s);
    QCOMPARE(j.value(u"max_output_tokens_per_s"_s).toDouble(), 11.0);
    QCOMPARE(j.value(u"max_concurrent_requests"_s).toInteger(), 3);
}

void TestResultJson::detailedArrays()
{
    const QList<RequestRecord> recs = synthetic::records(); // not in index order
    ResultJsonOptions o = baseOptions();
    o.detailed = true;
    const QJsonObject j = vllmResultJson(summarize(recs), recs, o);

    // Measured records R1..R5 in index order; warm-up W excluded.
    const auto arr = [&j](const char *k) {
        return j.value(QString::fromLatin1(k)).toArray();
    };
    QCOMPARE(arr("input_lens"), (QJsonArray{10, 20, 30, 0, 0}));
    QCOMPARE(arr("output_lens"), (QJsonArray{4, 6, 1, 0, 0})); // failed -> 0, as vLLM

    // Seconds. TTFT: 0.010, 0.020, 0.030; R4 never got a token -> 0; R5 got one at 170 after
    // sending at 141 -> 0.029 (vLLM keeps what a failed request saw).
    const QJsonArray ttfts = arr("ttfts");
    QCOMPARE(ttfts.size(), 5);
    QCOMPARE(ttfts.at(0).toDouble(), 0.010);
    QCOMPARE(ttfts.at(1).toDouble(), 0.020);
    QCOMPARE(ttfts.at(2).toDouble(), 0.030);
    QCOMPARE(ttfts.at(3).toDouble(), 0.0);
    QCOMPARE(ttfts.at(4).toDouble(), 0.029);

    const QJsonArray itls = arr("itls");
    QCOMPARE(itls.size(), 5);
    QCOMPARE(itls.at(0).toArray().size(), 3);
    QCOMPARE(itls.at(0).toArray().at(2).toDouble(), 0.010);
    QCOMPARE(itls.at(1).toArray().size(), 2);
    QCOMPARE(itls.at(1).toArray().at(0).toDouble(), 0.020);
    QCOMPARE(itls.at(1).toArray().at(1).toDouble(), 0.010);
    QVERIFY(itls.at(2).toArray().isEmpty());
    QVERIFY(itls.at(3).toArray().isEmpty());

    // No text is kept, and unknown is not empty: the key is left out, with the reason.
    QVERIFY(!j.contains(u"generated_texts"_s));
    QVERIFY(!j.value(u"generated_texts_unavailable_reason"_s).toString().isEmpty());
    QCOMPARE(arr("errors"),
             (QJsonArray{u""_s, u""_s, u""_s, u"HTTP 500: internal error"_s, u"timeout"_s}));

    const QJsonArray e2els = arr("e2els");
    QCOMPARE(e2els.at(0).toDouble(), 0.040);
    QCOMPARE(e2els.at(1).toDouble(), 0.050);
    QCOMPARE(e2els.at(2).toDouble(), 0.030);
    QCOMPARE(e2els.at(3).toDouble(), 0.0);

    // Zero = earliest t_sched of the measured requests (100 ms): sends 102,110,125,130,141.
    const QJsonArray starts = arr("start_times");
    QCOMPARE(starts.at(0).toDouble(), 0.002);
    QCOMPARE(starts.at(1).toDouble(), 0.010);
    QCOMPARE(starts.at(4).toDouble(), 0.041);
    const QJsonArray scheds = arr("scheduled_times");
    QCOMPARE(scheds.at(0).toDouble(), 0.0);
    QCOMPARE(scheds.at(2).toDouble(), 0.020);

    // An explicit run start moves the zero point.
    o.runStartNs = synthetic::ms(0);
    const QJsonObject j2 = vllmResultJson(summarize(recs), recs, o);
    QCOMPARE(j2.value(u"start_times"_s).toArray().at(0).toDouble(), 0.102);
}

void TestResultJson::optionsAndNulls()
{
    const QList<RequestRecord> recs = synthetic::records();
    SummaryOptions so;
    so.goodput.ttftMs = 25;
    so.goodput.tpotMs = 9;
    ResultJsonOptions o = baseOptions();
    o.requestRate = 12.5;
    o.burstiness = 0.5;
    o.maxConcurrency = 8;
    o.numPrompts = 100;
    o.tokenizerId = u"tok"_s;
    o.label = u"cand-a"_s;
    const QJsonObject j = vllmResultJson(summarize(recs, so), recs, o);
    QCOMPARE(j.value(u"request_rate"_s).toDouble(), 12.5);
    QCOMPARE(j.value(u"burstiness"_s).toDouble(), 0.5);
    QCOMPARE(j.value(u"max_concurrency"_s).toInt(), 8);
    QCOMPARE(j.value(u"num_prompts"_s).toInteger(), 100);
    QCOMPARE(j.value(u"tokenizer_id"_s).toString(), u"tok"_s);
    QCOMPARE(j.value(u"label"_s).toString(), u"cand-a"_s);
    QCOMPARE(j.value(u"request_goodput"_s).toDouble(), 10.0); // R2 only, 1 / 0.1 s
    const QJsonObject slo = j.value(u"goodput_slo_ms"_s).toObject();
    QCOMPARE(slo.value(u"ttft"_s).toDouble(), 25.0);
    QVERIFY(slo.value(u"e2el"_s).isNull());

    LoadProfile p;
    p.requestRate = 3;
    p.burstiness = 2;
    p.maxConcurrency = 16;
    const ResultJsonOptions fp = ResultJsonOptions::forProfile(p);
    QCOMPARE(fp.requestRate, 3.0);
    QCOMPARE(fp.burstiness, 2.0);
    QCOMPARE(fp.maxConcurrency, 16);
}

void TestResultJson::unknownIsNullWithItsReason()
{
    QList<RequestRecord> recs = synthetic::records();
    for (RequestRecord &r : recs) {
        r.tSend = synthetic::ms(100); // one instant: no real send times
        r.tQueued = 0;                // no queue times
        if (!r.warmup && r.index != 2)
            r.error = ErrorClass::Reset; // only R2 succeeds: no TPOT... but ITL exists
    }
    const RunSummary s = summarize(recs);
    const QJsonObject j = vllmResultJson(s, recs, baseOptions());
    for (const char *key : {"achieved_request_rate", "max_concurrent_requests",
                            "max_output_tokens_per_s", "client_queue_time", "request_goodput"}) {
        const QString k = QString::fromLatin1(key);
        QVERIFY2(j.contains(k) && j.value(k).isNull(), key);
        QVERIFY2(!j.value(k + u"_unavailable_reason"_s).toString().isEmpty(), key);
        QCOMPARE(j.value(k + u"_unavailable_reason"_s).toString(), s.unavailableReason(k));
    }
    QVERIFY(j.value(u"achieved_request_rate_unavailable_reason"_s)
                .toString()
                .contains(u"same send time"_s));
    // Known quantities carry no reason and stay numbers.
    QVERIFY(j.value(u"duration"_s).isDouble());
    QVERIFY(!j.contains(u"duration_unavailable_reason"_s));
    QVERIFY(j.value(u"mean_ttft_ms"_s).isDouble());
    QVERIFY(j.value(u"schedule_lag"_s).isObject());

    // A latency metric with no sample: every vLLM key of it is null, one reason for all.
    for (RequestRecord &r : recs)
        if (!r.warmup)
            r.error = ErrorClass::Reset;
    const QJsonObject f = vllmResultJson(summarize(recs), recs, baseOptions());
    for (const char *key : {"mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p99_ttft_ms",
                            "mean_e2el_ms", "p99_itl_ms"})
        QVERIFY2(f.contains(QLatin1StringView(key)) && f.value(QLatin1StringView(key)).isNull(),
                 key);
    QCOMPARE(f.value(u"ttft_unavailable_reason"_s).toString(), u"no request succeeded"_s);
}

void TestResultJson::definitions()
{
    QCOMPARE(kMetricDefinitionsVersion, 1);
    const MetricDefinition *ttft = metricDefinition(u"ttft"_s);
    QVERIFY(ttft);
    QCOMPARE(ttft->definition, u"t_first − t_send"_s);
    QCOMPARE(ttft->unit, u"ms"_s);
    QCOMPARE(metricDefinition(u"tpot"_s)->definition,
             u"(E2EL − TTFT) / (n_out − 1), only for n_out > 1; excludes the first token"_s);
    QCOMPARE(metricDefinition(u"duration"_s)->unit, u"s"_s);
    QVERIFY(!metricDefinition(u"bogus"_s));
    for (const char *k : {"ttft", "e2el", "tpot", "itl", "itl_per_token", "schedule_lag",
                          "client_queue_time", "request_throughput", "output_throughput",
                          "total_token_throughput", "request_goodput", "duration"})
        QVERIFY2(metricDefinition(QString::fromLatin1(k)), k);

    const QJsonObject j = metricDefinitionsJson();
    QCOMPARE(j.value(u"version"_s).toInt(), 1);
    QVERIFY(j.value(u"percentile_method"_s).toString().contains(u"linear interpolation"_s));
    QCOMPARE(j.value(u"metrics"_s).toObject().value(u"itl"_s).toObject().value(u"unit"_s),
             QJsonValue(u"ms"_s));
    const QString text = metricDefinitionsText();
    QVERIFY(text.startsWith(u"Metric definitions (version 1)\n"_s));
    QVERIFY(text.contains(u"TTFT (ms): t_first − t_send"_s));
}

QTEST_GUILESS_MAIN(TestResultJson)
#include "tst_resultjson.moc"
