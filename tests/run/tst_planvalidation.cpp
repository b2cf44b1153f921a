// Every numeric setting has a stated range and is checked before anything runs, in both front
// ends (the CLI's flags here; the workbench's editors use the same validateRunRequest). At the
// extremes: values just inside pass, values outside are refused with a message naming the flag,
// and the schedules of the valid extremes are computed without overflow.

#include "load/schedule.h"
#include "run/planvalidation.h"
#include "run/runflags.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Parses and validates `args`; returns the error line the CLI would print (empty: valid).
QString check(const QStringList &args, RunRequest *request = nullptr)
{
    RunRequest r;
    RunFlagOptions opts;
    QString error;
    if (!parseRunFlags(args, &r, &opts, &error))
        return error;
    const QList<PlanIssue> issues = validateRunRequest(r);
    if (request)
        *request = r;
    return issues.isEmpty() ? QString()
                            : u"--"_s + issues.first().field + u' ' + issues.first().message.text();
}

} // namespace

class TestPlanValidation : public QObject
{
    Q_OBJECT
private slots:
    void extremes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("flag"); // empty: valid
        const auto row = [](const char *name, const QStringList &args, const char *flag) {
            QTest::newRow(name) << args << QString::fromLatin1(flag);
        };
        row("rate tiny", {u"--request-rate"_s, u"1e-20"_s}, "--request-rate");
        row("rate subnormal", {u"--request-rate"_s, u"1e-320"_s}, "--request-rate");
        row("rate zero", {u"--request-rate"_s, u"0"_s}, "--request-rate");
        row("rate negative", {u"--request-rate"_s, u"-5"_s}, "--request-rate");
        row("rate nan", {u"--request-rate"_s, u"nan"_s}, "--request-rate");
        row("rate huge", {u"--request-rate"_s, u"1e300"_s}, "--request-rate");
        row("rate max", {u"--request-rate"_s, u"1e6"_s}, "");
        row("rate inf", {u"--request-rate"_s, u"inf"_s}, "");
        row("rate min, few requests",
            {u"--request-rate"_s, u"0.0001"_s, u"--num-prompts"_s, u"100"_s}, "");
        row("schedule longer than 30 days",
            {u"--request-rate"_s, u"0.0001"_s, u"--num-prompts"_s, u"1000"_s}, "--request-rate");
        row("prompts zero", {u"--num-prompts"_s, u"0"_s}, "--num-prompts");
        row("prompts a billion", {u"--num-prompts"_s, u"1000000000"_s}, "--num-prompts");
        row("prompts overflow int", {u"--num-prompts"_s, u"99999999999"_s}, "--num-prompts");
        row("prompts max", {u"--num-prompts"_s, u"10000000"_s}, "");
        row("cap zero", {u"--max-concurrency"_s, u"0"_s}, "--max-concurrency");
        row("cap negative", {u"--max-concurrency"_s, u"-1"_s}, "--max-concurrency");
        row("cap huge", {u"--max-concurrency"_s, u"1000000"_s}, "--max-concurrency");
        row("closed loop zero", {u"--concurrency"_s, u"0"_s}, "--concurrency");
        row("cap and closed loop", {u"--concurrency"_s, u"4"_s, u"--max-concurrency"_s, u"8"_s},
            "--concurrency");
        row("burstiness zero", {u"--burstiness"_s, u"0"_s}, "--burstiness");
        row("burstiness huge", {u"--burstiness"_s, u"1e9"_s}, "--burstiness");
        row("duration negative", {u"--duration"_s, u"-1"_s}, "--duration");
        row("duration a year", {u"--duration"_s, u"31536000"_s, u"--request-rate"_s, u"1"_s},
            "--duration");
        row("duration inf", {u"--duration"_s, u"inf"_s, u"--request-rate"_s, u"1"_s}, "--duration");
        row("timeout zero", {u"--timeout"_s, u"0"_s}, "--timeout");
        row("timeout huge", {u"--timeout"_s, u"1e12"_s}, "--timeout");
        row("connection mode unknown", {u"--connection-mode"_s, u"hot"_s}, "--connection-mode");
        row("connection mode per_request", {u"--connection-mode"_s, u"per_request"_s}, "");
        row("idle timeout negative", {u"--idle-timeout"_s, u"-1"_s}, "--idle-timeout");
        row("idle timeout huge", {u"--idle-timeout"_s, u"1e12"_s}, "--idle-timeout");
        row("idle timeout nan", {u"--idle-timeout"_s, u"nan"_s}, "--idle-timeout");
        row("idle timeout", {u"--idle-timeout"_s, u"2.5"_s}, "");
        row("head cap tiny", {u"--max-head-bytes"_s, u"10"_s}, "--max-head-bytes");
        row("event cap off", {u"--max-event-bytes"_s, u"0"_s}, "");
        row("body cap huge", {u"--max-body-bytes"_s, u"9223372036854775807"_s}, "--max-body-bytes");
        row("warm-up negative", {u"--warmup-requests"_s, u"-3"_s}, "--warmup-requests");
        row("warm-up seconds nan", {u"--warmup-seconds"_s, u"nan"_s}, "--warmup-seconds");
        row("input len zero", {u"--random-input-len"_s, u"0"_s}, "--random-input-len");
        row("input len huge", {u"--random-input-len"_s, u"2000000"_s}, "--random-input-len");
        row("range ratio one", {u"--random-range-ratio"_s, u"1"_s}, "--random-range-ratio");
        row("ramp down",
            {u"--ramp-up-strategy"_s, u"linear"_s, u"--ramp-up-start-rps"_s, u"10"_s,
             u"--ramp-up-end-rps"_s, u"1"_s},
            "--ramp-up-end-rps");
        row("ramp from zero",
            {u"--ramp-up-strategy"_s, u"linear"_s, u"--ramp-up-start-rps"_s, u"0"_s,
             u"--ramp-up-end-rps"_s, u"5"_s},
            "--ramp-up-start-rps");
        row("trace scale negative", {u"--trace-time-scale"_s, u"-1"_s}, "--trace-time-scale");
        row("max error rate one", {u"--max-error-rate"_s, u"1"_s}, "--max-error-rate");
        // The cancellation load (docs/metrics.md, "Cancelled by the load").
        row("cancel rate 30 after 5 tokens",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--request-cancellation-after-tokens"_s,
             u"5"_s},
            "");
        row("cancel rate 100 after 0.2 s",
            {u"--request-cancellation-rate"_s, u"100"_s, u"--request-cancellation-delay"_s,
             u"0.2"_s},
            "");
        row("cancel rate above 100", {u"--request-cancellation-rate"_s, u"100.5"_s},
            "--request-cancellation-rate");
        row("cancel rate negative", {u"--request-cancellation-rate"_s, u"-1"_s},
            "--request-cancellation-rate");
        row("cancel rate nan", {u"--request-cancellation-rate"_s, u"nan"_s},
            "--request-cancellation-rate");
        row("cancel rate not a number", {u"--request-cancellation-rate"_s, u"thirty"_s},
            "--request-cancellation-rate");
        row("cancel delay negative",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--request-cancellation-delay"_s,
             u"-0.1"_s},
            "--request-cancellation-delay");
        row("cancel delay inf",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--request-cancellation-delay"_s,
             u"inf"_s},
            "--request-cancellation-delay");
        row("cancel tokens negative",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--request-cancellation-after-tokens"_s,
             u"-5"_s},
            "--request-cancellation-after-tokens");
        row("cancel tokens not whole",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--request-cancellation-after-tokens"_s,
             u"2.5"_s},
            "--request-cancellation-after-tokens");
        row("cancel delay and tokens",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--request-cancellation-delay"_s,
             u"0.2"_s, u"--request-cancellation-after-tokens"_s, u"5"_s},
            "--request-cancellation-delay");
        row("cancel delay without a rate", {u"--request-cancellation-delay"_s, u"0.2"_s},
            "--request-cancellation-delay");
        row("cancel tokens without a rate", {u"--request-cancellation-after-tokens"_s, u"5"_s},
            "--request-cancellation-after-tokens");
        row("cancel with an MLPerf scenario",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--scenario"_s, u"offline"_s},
            "--request-cancellation-rate");
        row("cancel with sessions",
            {u"--request-cancellation-rate"_s, u"30"_s, u"--multi-turn"_s},
            "--request-cancellation-rate");
        row("num runs zero", {u"--num-runs"_s, u"0"_s}, "--num-runs");
        row("num runs and sweep", {u"--num-runs"_s, u"3"_s, u"--sweep"_s, u"2"_s}, "--num-runs");
        row("sweep huge", {u"--sweep"_s, u"1000"_s}, "--sweep");
        row("tolerance one",
            {u"--find-max-valid-rate"_s, u"--ttft-slo-ms"_s, u"100"_s, u"--rate-tolerance"_s,
             u"1"_s},
            "--rate-tolerance");
        row("percentile 150", {u"--metric-percentiles"_s, u"50,150"_s}, "--metric-percentiles");
        row("slo percentile 100",
            {u"--scenario"_s, u"server"_s, u"--request-rate"_s, u"5"_s, u"--slo-percentile"_s,
             u"100"_s},
            "--slo-percentile");
        row("temperature nan", {u"--temperature"_s, u"nan"_s}, "--temperature");
        row("server without rate", {u"--scenario"_s, u"server"_s}, "--request-rate");
        row("offline with a rate", {u"--scenario"_s, u"offline"_s, u"--request-rate"_s, u"5"_s},
            "--request-rate");
        row("header injection", {u"--header"_s, u"X-A: b\r\nX-Injected: 1"_s}, "--header");
        row("header NUL", {u"--header"_s, QStringLiteral("X-A: b") + QChar(0) + u"c"_s},
            "--header");
        row("header bad name", {u"--header"_s, u"X A: b"_s}, "--header");
        row("password in the base URL", {u"--base-url"_s, u"http://alice:SECRETPW42@host:8000"_s},
            "--base-url");
        row("user in the base URL", {u"--base-url"_s, u"http://alice@host:8000"_s}, "--base-url");
        row("base URL not http", {u"--base-url"_s, u"ftp://host"_s}, "--base-url");
        row("endpoint with a newline", {u"--endpoint"_s, u"/v1/completions\r\nX: y"_s},
            "--endpoint");
        row("saturation window tiny", {u"--saturation-window"_s, u"1"_s}, "--saturation-window");
        // Server metrics (docs/server-metrics.md).
        const QString mt = u"--metrics-target"_s;
        row("metrics off", {u"--metrics"_s, u"OFF"_s}, "");
        row("metrics URL", {u"--metrics"_s, u"https://h:9400/metrics"_s}, "");
        row("metrics neither", {u"--metrics"_s, u"sometimes"_s}, "--metrics");
        row("metrics URL with a password", {u"--metrics"_s, u"http://u:pw@h:1/metrics"_s},
            "--metrics");
        row("target ok", {mt, u"dcgm=http://h:9400/metrics,token-env=DCGM_TOKEN"_s}, "");
        row("target name with a slash", {mt, u"../x=http://h:9400/metrics"_s}, "--metrics-target");
        row("target twice", {mt, u"a=http://h:1/m"_s, mt, u"a=http://h:2/m"_s}, "--metrics-target");
        row("target not http", {mt, u"a=file:///etc/passwd"_s}, "--metrics-target");
        row("target URL with a password", {mt, u"a=http://u:pw@h:1/m"_s}, "--metrics-target");
        row("target without URL", {mt, u"a="_s}, "--metrics-target");
        row("target without name", {mt, u"http://h:1/m"_s}, "--metrics-target");
        row("target token without name", {mt, u"a=http://h:1/m,token-env="_s}, "--metrics-target");
        row("interval min", {u"--metrics-interval"_s, u"0.05"_s}, "");
        row("interval too short", {u"--metrics-interval"_s, u"0.01"_s}, "--metrics-interval");
        row("interval zero", {u"--metrics-interval"_s, u"0"_s}, "--metrics-interval");
        row("interval nan", {u"--metrics-interval"_s, u"nan"_s}, "--metrics-interval");
        row("interval an hour", {u"--metrics-interval"_s, u"3600"_s}, "--metrics-interval");
    }

    void extremes()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, flag);
        RunRequest r;
        const QString error = check(args, &r);
        if (flag.isEmpty()) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            // The schedule of a valid extreme: every offset representable and in order.
            const LoadProfile &p = r.plan.profile;
            const int n = std::min(p.numPrompts, 200000);
            const QList<qint64> s = buildSchedule(p, n, p.seed);
            QCOMPARE(s.size(), n);
            for (qsizetype i = 1; i < s.size(); ++i)
                QVERIFY2(s.at(i) >= s.at(i - 1) && s.at(i) >= 0,
                         qPrintable(u"offset %1 = %2"_s.arg(i).arg(s.at(i))));
        } else {
            QVERIFY2(error.startsWith(flag), qPrintable(u"expected %1: %2"_s.arg(flag, error)));
            QVERIFY(!error.contains(u'\n'));
        }
    }

    // For callers that skip validation: an interval past ~100 years is refused whole, never
    // wrapped into a negative or tiny nanosecond offset.
    void scheduleNeverWraps_data()
    {
        QTest::addColumn<double>("rate");
        QTest::newRow("1e-10") << 1e-10;
        QTest::newRow("1e-20") << 1e-20;
        QTest::newRow("1e-320") << 1e-320;
    }
    void scheduleNeverWraps()
    {
        QFETCH(double, rate);
        for (ArrivalProcess a :
             {ArrivalProcess::Constant, ArrivalProcess::Poisson, ArrivalProcess::Gamma}) {
            LoadProfile p;
            p.arrival = a;
            p.burstiness = a == ArrivalProcess::Gamma ? 0.5 : 1.0;
            p.requestRate = rate;
            const QList<qint64> s = buildSchedule(p, 10, 1);
            for (qint64 v : s)
                QVERIFY2(v >= 0, qPrintable(QString::number(v)));
            QVERIFY2(s.isEmpty(), qPrintable(u"%1 offsets, first %2"_s.arg(s.size()).arg(
                                      s.isEmpty() ? 0 : s.first())));
        }
    }

    void datasetPathWithoutName()
    {
        QTemporaryDir dir;
        const QString jsonl = dir.filePath(u"d.jsonl"_s);
        QFile f(jsonl);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"prompt\": \"hello\"}\n");
        f.close();
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        // The kind is read from the file, and said.
        QVERIFY(parseRunFlags({u"--dataset-path"_s, jsonl}, &r, &opts, &error));
        QCOMPARE(r.plan.dataset.kind, DatasetKind::Custom);
        QVERIFY(opts.notes.join(u' ').contains(u"custom"_s));
        // A missing file is an error naming the flag, not a silent random dataset.
        QVERIFY(!parseRunFlags({u"--dataset-path"_s, dir.filePath(u"missing.json"_s)}, &r, &opts,
                               &error));
        QVERIFY2(error.startsWith(u"--dataset-path"_s), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPlanValidation)
#include "tst_planvalidation.moc"
