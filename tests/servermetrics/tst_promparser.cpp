#include "servermetrics/promparser.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArray readData(const QString &relative)
{
    QFile f(QStringLiteral(SB_TEST_DATA_DIR "/servermetrics/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", qPrintable(f.fileName()));
    return f.readAll();
}

// "name{k=v,k2=v2}" -> name and label pairs (the test's own compact notation, no escapes).
QPair<QByteArray, QList<QPair<QByteArray, QByteArray>>> selector(const QString &spec)
{
    const qsizetype brace = spec.indexOf(u'{');
    QPair<QByteArray, QList<QPair<QByteArray, QByteArray>>> out;
    out.first = spec.left(brace < 0 ? spec.size() : brace).toUtf8();
    if (brace >= 0) {
        const QStringList pairs = spec.mid(brace + 1).chopped(1).split(u',');
        for (const QString &p : pairs) {
            const qsizetype eq = p.indexOf(u'=');
            out.second.append({p.left(eq).toUtf8(), p.mid(eq + 1).toUtf8()});
        }
    }
    return out;
}

QList<int> errorLines(const PromParseResult &r)
{
    QList<int> lines;
    for (const PromParseError &e : r.errors)
        lines.append(e.line);
    return lines;
}

QString describeErrors(const PromParseResult &r)
{
    QStringList s;
    for (const PromParseError &e : r.errors)
        s.append(u"line %1: %2"_s.arg(e.line).arg(e.message));
    return s.join(u"; "_s);
}

} // namespace

class TestPromParser : public QObject
{
    Q_OBJECT

private slots:
    void realPayloads_data();
    void realPayloads();
    void openMetricsConformance_data();
    void openMetricsConformance();
    void labelEscapes();
    void specialValuesAndTimestamps();
    void openMetricsEofAndExemplars();
    void malformedLinesReportedByNumber_data();
    void malformedLinesReportedByNumber();
    void seriesKeyRoundTrip();
};

void TestPromParser::realPayloads_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("families");
    QTest::addColumn<int>("samples");
    QTest::addColumn<QList<int>>("errorLines");
    // "selector=value" checks on sample values, and "family:type" checks.
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QStringList>("types");

    QTest::newRow("vllm design doc") << u"vllm_design_doc_example.txt"_s << 4 << 14
                                     << QList<int>{4, 8, 14}
                                     << QStringList{
                                            u"vllm:num_requests_running=8"_s,
                                            u"vllm:generation_tokens_total=27453"_s,
                                            u"vllm:request_success_total{finished_reason=length}=131"_s,
                                            u"vllm:time_to_first_token_seconds_bucket{le=0.04}=97"_s,
                                            u"vllm:time_to_first_token_seconds_count=140"_s,
                                        }
                                     << QStringList{u"vllm:time_to_first_token_seconds:histogram"_s,
                                                    u"vllm:generation_tokens_total:counter"_s,
                                                    u"vllm:num_requests_running:gauge"_s};
    QTest::newRow("vllm usage doc")
        << u"vllm_usage_doc_example.txt"_s << 1 << 9 << QList<int>{12}
        << QStringList{u"vllm:iteration_tokens_total_bucket{le=512.0}=3"_s,
                       u"vllm:iteration_tokens_total_sum=0"_s}
        << QStringList{u"vllm:iteration_tokens_total:histogram"_s};
    QTest::newRow("sglang production metrics doc")
        << u"sglang_production_metrics_doc.txt"_s << 12 << 91 << QList<int>{}
        << QStringList{u"sglang:num_queue_reqs=2826"_s,
                       u"sglang:prompt_tokens_total=8128902"_s,
                       u"sglang:token_usage=0.28"_s,
                       u"sglang:time_to_first_token_seconds_bucket{le=+Inf}=11008"_s,
                       u"sglang:time_per_output_token_seconds_bucket{le=0.1}=4950195"_s,
                       u"sglang:func_latency_seconds_bucket{le=0.07500000000000001,name=generate_request}=14006"_s,
                       u"sglang:e2e_request_latency_seconds_sum=3116093.850019932"_s}
        << QStringList{u"sglang:e2e_request_latency_seconds:histogram"_s,
                       u"sglang:cache_hit_rate:gauge"_s, u"sglang:prompt_tokens_total:counter"_s};
    QTest::newRow("dcgm-exporter readme")
        << u"dcgm_exporter_readme.txt"_s << 3 << 3 << QList<int>{7, 11}
        << QStringList{u"DCGM_FI_DEV_SM_CLOCK{gpu=0,UUID=GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52}=139"_s,
                       u"DCGM_FI_DEV_MEMORY_TEMP=9223372036854775794"_s}
        << QStringList{u"DCGM_FI_DEV_MEM_CLOCK:gauge"_s};
    QTest::newRow("dcgm gpu telemetry a100")
        << u"dcgm_gpu_telemetry_a100.txt"_s << 17 << 21 << QList<int>{}
        << QStringList{u"DCGM_FI_DEV_POWER_USAGE{gpu=0}=409.692"_s,
                       u"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION=319159391"_s,
                       u"DCGM_FI_DEV_FB_USED{Hostname=ub20-a100-k8s}=4845"_s,
                       u"DCGM_FI_PROF_GR_ENGINE_ACTIVE{GPU_I_ID=13}=0.995687"_s}
        << QStringList{u"DCGM_FI_DEV_POWER_USAGE:untyped"_s};
    QTest::newRow("triton trt-llm readme")
        << u"triton_trtllm_readme.txt"_s << 16 << 30 << QList<int>{}
        << QStringList{u"nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}=0.4875"_s,
                       u"nv_trt_llm_request_metrics{request_type=max,model=tensorrt_llm}=512"_s,
                       u"nv_trt_llm_general_metrics{general_type=timestamp}=1700074049"_s}
        << QStringList{u"nv_trt_llm_disaggregated_serving_metrics:counter"_s,
                       u"nv_inference_pending_request_count:gauge"_s,
                       u"nv_inference_request_duration_us:counter"_s};
    QTest::newRow("triton user guide")
        << u"triton_user_guide_examples.txt"_s << 7 << 16 << QList<int>{}
        << QStringList{u"nv_inference_first_response_histogram_ms{le=500}=30"_s,
                       u"nv_inference_queue_summary_us{quantile=0.99}=101"_s,
                       u"nv_inference_queue_summary_us_count=161"_s}
        << QStringList{u"nv_first_response_histogram_ms:histogram"_s,
                       u"nv_inference_first_response_histogram_ms:untyped"_s,
                       u"nv_inference_queue_summary_us:summary"_s};
    QTest::newRow("tgi constructed")
        << u"tgi_router_constructed.txt"_s << 11 << 365 << QList<int>{}
        << QStringList{u"tgi_request_duration_sum=12.5"_s, u"tgi_request_duration_count=8"_s,
                       u"tgi_request_generated_tokens_sum=720"_s,
                       u"tgi_batch_inference_count{method=decode}=700"_s,
                       u"tgi_request_duration_bucket{le=0.00015000000000000001}=0"_s}
        << QStringList{u"tgi_request_duration:histogram"_s, u"tgi_queue_size:gauge"_s,
                       u"tgi_request_count:counter"_s};
}

void TestPromParser::realPayloads()
{
    QFETCH(QString, file);
    QFETCH(int, families);
    QFETCH(int, samples);
    QFETCH(QList<int>, errorLines);
    QFETCH(QStringList, values);
    QFETCH(QStringList, types);

    const PromParseResult r = PromParser::parse(readData(file));
    QVERIFY2(::errorLines(r) == errorLines, qPrintable(describeErrors(r)));
    QCOMPARE(r.families.size(), families);
    QCOMPARE(r.samples, samples);
    int counted = 0;
    for (const PromFamily &f : r.families)
        counted += int(f.samples.size());
    QCOMPARE(counted, samples);
    for (const QString &v : values) {
        const qsizetype eq = v.lastIndexOf(u'=');
        const auto sel = selector(v.left(eq));
        const PromSample *s = r.sample(sel.first, sel.second);
        QVERIFY2(s, qPrintable(v));
        QCOMPARE(s->value, v.mid(eq + 1).toDouble());
    }
    for (const QString &t : types) {
        const qsizetype colon = t.lastIndexOf(u':');
        const PromFamily *f = r.family(t.left(colon).toUtf8());
        QVERIFY2(f, qPrintable(t));
        QCOMPARE(QString::fromLatin1(promTypeName(f->type)), t.mid(colon + 1));
    }
}

// The OpenMetrics project's own parser conformance cases. Every case the suite says must parse
// parses without a single reported line; every case it says must fail is reported, except the
// cases listed here, which need checks of meaning rather than of syntax. A scraper keeps what
// it can read; the evidence judges the values (a counter that drops is a reset there).
void TestPromParser::openMetricsConformance_data()
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<bool>("shouldParse");
    QTest::addColumn<bool>("lenient");

    // Checks of meaning, deliberately not made (exactly these cases): counter and bucket values
    // (negative, NaN), histogram shape (bucket order, missing +Inf, sum without count),
    // grouping and ordering of series, the labels each type requires, exemplar contents and
    // placement (exemplars are dropped), info and stateset values, a unit that does not match
    // the name's suffix, metadata after another family's samples, colliding sample names.
    static const QStringList kSemanticCases = {
        u"bad_clashing_names_2"_s,
        u"bad_counter_values_0"_s,
        u"bad_counter_values_1"_s,
        u"bad_counter_values_10"_s,
        u"bad_counter_values_11"_s,
        u"bad_counter_values_12"_s,
        u"bad_counter_values_13"_s,
        u"bad_counter_values_14"_s,
        u"bad_counter_values_15"_s,
        u"bad_counter_values_16"_s,
        u"bad_counter_values_17"_s,
        u"bad_counter_values_18"_s,
        u"bad_counter_values_19"_s,
        u"bad_counter_values_2"_s,
        u"bad_counter_values_3"_s,
        u"bad_counter_values_4"_s,
        u"bad_counter_values_5"_s,
        u"bad_counter_values_6"_s,
        u"bad_counter_values_7"_s,
        u"bad_counter_values_8"_s,
        u"bad_counter_values_9"_s,
        u"bad_exemplar_complex_chars"_s,
        u"bad_exemplar_timestamp_0"_s,
        u"bad_exemplar_timestamp_1"_s,
        u"bad_exemplar_timestamp_2"_s,
        u"bad_exemplars_3"_s,
        u"bad_exemplars_4"_s,
        u"bad_exemplars_5"_s,
        u"bad_exemplars_6"_s,
        u"bad_exemplars_7"_s,
        u"bad_exemplars_8"_s,
        u"bad_exemplars_9"_s,
        u"bad_exemplars_on_unallowed_metric_types_0"_s,
        u"bad_exemplars_on_unallowed_metric_types_1"_s,
        u"bad_exemplars_on_unallowed_metric_types_2"_s,
        u"bad_exemplars_on_unallowed_samples_0"_s,
        u"bad_exemplars_on_unallowed_samples_1"_s,
        u"bad_exemplars_on_unallowed_samples_2"_s,
        u"bad_exemplars_on_unallowed_samples_3"_s,
        u"bad_grouping_or_ordering_0"_s,
        u"bad_grouping_or_ordering_10"_s,
        u"bad_grouping_or_ordering_2"_s,
        u"bad_grouping_or_ordering_3"_s,
        u"bad_grouping_or_ordering_4"_s,
        u"bad_grouping_or_ordering_5"_s,
        u"bad_grouping_or_ordering_6"_s,
        u"bad_grouping_or_ordering_7"_s,
        u"bad_grouping_or_ordering_8"_s,
        u"bad_grouping_or_ordering_9"_s,
        u"bad_histograms_0"_s,
        u"bad_histograms_1"_s,
        u"bad_histograms_10"_s,
        u"bad_histograms_11"_s,
        u"bad_histograms_12"_s,
        u"bad_histograms_13"_s,
        u"bad_histograms_14"_s,
        u"bad_histograms_2"_s,
        u"bad_histograms_3"_s,
        u"bad_histograms_6"_s,
        u"bad_histograms_7"_s,
        u"bad_histograms_8"_s,
        u"bad_histograms_9"_s,
        u"bad_info_and_stateset_values_0"_s,
        u"bad_info_and_stateset_values_1"_s,
        u"bad_metadata_in_wrong_place_1"_s,
        u"bad_metadata_in_wrong_place_2"_s,
        u"bad_missing_or_invalid_labels_for_a_type_0"_s,
        u"bad_missing_or_invalid_labels_for_a_type_1"_s,
        u"bad_missing_or_invalid_labels_for_a_type_2"_s,
        u"bad_missing_or_invalid_labels_for_a_type_3"_s,
        u"bad_missing_or_invalid_labels_for_a_type_4"_s,
        u"bad_missing_or_invalid_labels_for_a_type_5"_s,
        u"bad_missing_or_invalid_labels_for_a_type_6"_s,
        u"bad_missing_or_invalid_labels_for_a_type_7"_s,
        u"bad_stateset_info_values_0"_s,
        u"bad_stateset_info_values_1"_s,
        u"bad_stateset_info_values_2"_s,
        u"bad_stateset_info_values_3"_s,
        u"bad_unit_4"_s,
        u"bad_unit_6"_s,
        u"bad_unit_7"_s,
    };
    const QDir root(QStringLiteral(SB_TEST_DATA_DIR "/servermetrics/openmetrics-parsers"));
    const QStringList dirs = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(dirs.size() > 200);
    for (const QString &d : dirs) {
        QFile f(root.filePath(d + u"/test.json"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const bool should =
            QJsonDocument::fromJson(f.readAll()).object().value("shouldParse"_L1).toBool();
        const bool lenient = kSemanticCases.contains(d);
        QTest::newRow(qPrintable(d)) << root.filePath(d) << should << lenient;
    }
}

void TestPromParser::openMetricsConformance()
{
    QFETCH(QString, dir);
    QFETCH(bool, shouldParse);
    QFETCH(bool, lenient);
    QFile f(dir + u"/metrics"_s);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const PromParseResult r = PromParser::parse(f.readAll(), PromFormat::OpenMetrics);
    if (shouldParse) {
        QVERIFY2(r.errors.isEmpty(), qPrintable(describeErrors(r)));
    } else if (lenient) {
        // Listed above as not checked: accepted as it is (and the list stays exact).
        QVERIFY2(r.errors.isEmpty(), qPrintable(describeErrors(r)));
    } else {
        QVERIFY2(!r.errors.isEmpty(), "a malformed payload was accepted");
    }
}

void TestPromParser::labelEscapes()
{
    const QByteArray payload = "# HELP m A help with a \\\\ backslash and a \\n newline\n"
                               "# TYPE m gauge\n"
                               "m{path=\"C:\\\\dir\\\\\",quote=\"say \\\"hi\\\"\",nl=\"a\\nb\","
                               "utf8=\"caf\xc3\xa9\",comma=\"x,y\",brace=\"{}\"} 1\n";
    const PromParseResult r = PromParser::parse(payload);
    QVERIFY2(r.errors.isEmpty(), qPrintable(describeErrors(r)));
    QCOMPARE(r.families.size(), 1);
    const PromFamily &f = r.families[0];
    QCOMPARE(f.help, u"A help with a \\ backslash and a \n newline"_s);
    const PromSample &s = f.samples[0];
    QCOMPARE(s.label("path"), QByteArray("C:\\dir\\"));
    QCOMPARE(s.label("quote"), QByteArray("say \"hi\""));
    QCOMPARE(s.label("nl"), QByteArray("a\nb"));
    QCOMPARE(QString::fromUtf8(s.label("utf8")), u"café"_s);
    QCOMPARE(s.label("comma"), QByteArray("x,y"));
    QCOMPARE(s.label("brace"), QByteArray("{}"));
    // Sorted by label name, whatever order the server wrote.
    QStringList names;
    for (const auto &l : s.labels)
        names.append(QString::fromUtf8(l.first));
    QCOMPARE(names,
             (QStringList{u"brace"_s, u"comma"_s, u"nl"_s, u"path"_s, u"quote"_s, u"utf8"_s}));
}

void TestPromParser::specialValuesAndTimestamps()
{
    const QByteArray payload = "a NaN\n"
                               "b +Inf\n"
                               "c -Inf 1712345678901\n"
                               "d 1.5e-3 -5\n"
                               "e{x=\"1\"}\t42\t1000\n"
                               "f Inf\n"
                               "g 0x10\n"; // Go accepts hex floats; we do not: reported
    const PromParseResult r = PromParser::parse(payload);
    QCOMPARE(errorLines(r), QList<int>{7});
    QVERIFY(std::isnan(r.sample("a")->value));
    QCOMPARE(r.sample("b")->value, std::numeric_limits<double>::infinity());
    QCOMPARE(r.sample("c")->value, -std::numeric_limits<double>::infinity());
    QVERIFY(r.sample("c")->hasTimestamp);
    QCOMPARE(r.sample("c")->timestampMs, Q_INT64_C(1712345678901));
    QCOMPARE(r.sample("d")->value, 1.5e-3);
    QCOMPARE(r.sample("d")->timestampMs, -5);
    QCOMPARE(r.sample("e")->value, 42.0);
    QCOMPARE(r.sample("e")->timestampMs, 1000);
    QVERIFY(!r.sample("a")->hasTimestamp);
    QCOMPARE(r.sample("f")->value, std::numeric_limits<double>::infinity());
    QVERIFY(!r.sample("g"));
}

void TestPromParser::openMetricsEofAndExemplars()
{
    const QByteArray payload = "# TYPE foo counter\n"
                               "# UNIT foo seconds\n"
                               "# HELP foo Seconds spent.\n"
                               "foo_total{a=\"b\"} 17.0 1520879607.789 # {id=\"counter-test\"} 5\n"
                               "foo_created{a=\"b\"} 1520872607.123\n"
                               "# TYPE h histogram\n"
                               "h_bucket{le=\"1\"} 2 # {trace_id=\"x\"} 0.5 123.4\n"
                               "h_bucket{le=\"+Inf\"} 3\n"
                               "h_count 3\n"
                               "h_sum 2.5\n"
                               "# EOF\n";
    const PromParseResult r = PromParser::parse(payload);
    QVERIFY(r.openMetrics); // detected from the terminator
    QVERIFY2(r.errors.isEmpty(), qPrintable(describeErrors(r)));
    QCOMPARE(r.families.size(), 2);
    const PromFamily *foo = r.family("foo");
    QVERIFY(foo);
    QCOMPARE(foo->type, PromType::Counter);
    QCOMPARE(foo->unit, QByteArray("seconds"));
    QCOMPARE(foo->samples.size(), 2); // _total and _created belong to family foo
    QCOMPARE(r.sample("foo_total")->value, 17.0);
    QCOMPARE(r.sample("foo_total")->timestampMs, Q_INT64_C(1520879607789)); // seconds -> ms
    QCOMPARE(r.sample("h_bucket", {{"le", "1"}})->value, 2.0);              // exemplar dropped
    QCOMPARE(r.family("h")->samples.size(), 4);

    // Without its terminator an OpenMetrics payload is reported as truncated, after its last
    // line; anything after # EOF is reported once.
    const QByteArray truncated = "# TYPE g gauge\ng 1\n";
    const PromParseResult t = PromParser::parse(truncated, PromFormat::OpenMetrics);
    QCOMPARE(errorLines(t), QList<int>{3});
    QCOMPARE(t.sample("g")->value, 1.0);
    const PromParseResult after =
        PromParser::parse("g 1\n# EOF\ng 2\nh 3\n", PromFormat::OpenMetrics);
    QCOMPARE(errorLines(after), QList<int>{3});
    QCOMPARE(after.samples, 1);
    // A 0.0.4 payload may carry a comment that reads "# EOF"; it ends nothing there.
    const PromParseResult text = PromParser::parse("g 1\n# EOF\ng2 2\n", PromFormat::Text004);
    QVERIFY(text.errors.isEmpty());
    QCOMPARE(text.samples, 2);
}

void TestPromParser::malformedLinesReportedByNumber_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QList<int>>("lines");
    QTest::addColumn<int>("samples");

    QTest::newRow("html page") << QByteArray(
                                      "<!DOCTYPE html>\n<html><body>Not found</body></html>\n")
                               << QList<int>{1, 2} << 0;
    QTest::newRow("each kind once")
        << QByteArray("ok 1\n"                       // 1 fine
                      "unterminated{a=\"x} 1\n"      // 2 quoted value not closed
                      "badvalue abc\n"               // 3
                      "novalue\n"                    // 4
                      "dup{a=\"1\",a=\"2\"} 1\n"     // 5 duplicate label
                      "3starts_with_digit 1\n"       // 6
                      "esc{a=\"\\q\"} 1\n"           // 7 invalid escape
                      "# TYPE t bogus\n"             // 8 unknown type
                      "# TYPE ok2 gauge\n"           // 9 fine
                      "# TYPE ok2 counter\n"         // 10 second TYPE
                      "ok2 2\n"                      // 11 fine
                      "trail 1 2 3\n"                // 12 garbage after the timestamp
                      "noequals{a \"x\"} 1\n"        // 13
                      "unquoted{a=x} 1\n"            // 14
                      "nocomma{a=\"x\" b=\"y\"} 1\n" // 15
                      "badts 1 12.5\n"               // 16 fractional ms timestamp in 0.0.4
                      "ok3{} 3\n")                   // 17 fine: an empty label set
        << QList<int>{2, 3, 4, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16} << 3;
    QTest::newRow("type after samples")
        << QByteArray("x 1\n# TYPE x gauge\nx 2\n") << QList<int>{2} << 2;
    QTest::newRow("crlf and blanks are fine")
        << QByteArray("a 1\r\n\r\n  b{ c = \"d\" , } 2 \r\n") << QList<int>{} << 2;
}

void TestPromParser::malformedLinesReportedByNumber()
{
    QFETCH(QByteArray, payload);
    QFETCH(QList<int>, lines);
    QFETCH(int, samples);
    const PromParseResult r = PromParser::parse(payload, PromFormat::Text004);
    QVERIFY2(errorLines(r) == lines, qPrintable(describeErrors(r)));
    QCOMPARE(r.samples, samples);
    for (const PromParseError &e : r.errors)
        QVERIFY(!e.message.isEmpty());
}

void TestPromParser::seriesKeyRoundTrip()
{
    const QList<QPair<QByteArray, QByteArray>> labels = {
        {"a", "x\"y\\z\nw"}, {"le", "+Inf"}, {"model_name", "meta-llama/Llama-3.1-8B"}};
    const QByteArray key = PromParser::seriesKey("vllm:e2e_request_latency_seconds_bucket", labels);
    QCOMPARE(key, QByteArray("vllm:e2e_request_latency_seconds_bucket{a=\"x\\\"y\\\\z\\nw\","
                             "le=\"+Inf\",model_name=\"meta-llama/Llama-3.1-8B\"}"));
    QByteArray name;
    QList<QPair<QByteArray, QByteArray>> back;
    QVERIFY(PromParser::splitSeriesKey(key, &name, &back));
    QCOMPARE(name, QByteArray("vllm:e2e_request_latency_seconds_bucket"));
    QCOMPARE(back, labels);
    QCOMPARE(PromParser::seriesKey("plain", {}), QByteArray("plain"));
    // A UTF-8 metric name (Prometheus 3) is quoted inside the braces and survives too.
    const QByteArray dotted = PromParser::seriesKey("my.metric", {{"k", "v"}});
    QCOMPARE(dotted, QByteArray("{\"my.metric\",k=\"v\"}"));
    QVERIFY(PromParser::splitSeriesKey(dotted, &name, &back));
    QCOMPARE(name, QByteArray("my.metric"));
    QVERIFY(!PromParser::splitSeriesKey("broken{a=", &name, &back));
}

QTEST_GUILESS_MAIN(TestPromParser)
#include "tst_promparser.moc"
