// Reasoning-aware latency end to end (docs/metrics.md, reasoning): `servebench-cli simulate` in
// reasoning mode streams reasoning deltas before the answer, `servebench-cli run` records when
// each kind began, counts the reasoning tokens and reports them in the summary and result JSON.
#include "clirun.h"
#include "simprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// `servebench-cli simulate` for this test (tests/common/simprocess.h) with its usual settings.
struct SimProcess : sb::test::SimProcess
{
    explicit SimProcess(const QStringList &args)
        : sb::test::SimProcess(QStringList{u"--duration"_s, u"120"_s, u"--ttft-ms"_s, u"5"_s,
                                           u"--itl-ms"_s, u"1"_s} +
                               args)
    {}
};

constexpr int kPrompts = 12;
constexpr int kOutput = 10;

} // namespace

class TestReasoningCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void reasoningIsRecordedAndReported_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<int>("reasoningPerRequest"); // 0: the model does not reason
        QTest::addColumn<QString>("reasoningSource");
        QTest::addColumn<QString>("outputSource");
        QTest::newRow("usage details")
            << QStringList{u"--reasoning-tokens"_s, u"6"_s, u"--reasoning-usage"_s} << 6
            << u"server_usage"_s << u"server_usage"_s;
        // vLLM >= 0.10 names the field "reasoning"; without usage details the reasoning chunks
        // are counted (one token each in the simulator).
        QTest::newRow("field reasoning, chunk count")
            << QStringList{u"--reasoning-tokens"_s, u"4"_s, u"--reasoning-field"_s, u"reasoning"_s}
            << 4 << u"chunk_count"_s << u"server_usage"_s;
        QTest::newRow("no usage at all")
            << QStringList{u"--reasoning-tokens"_s, u"3"_s, u"--no-usage"_s} << 3
            << u"chunk_count"_s << u"chunk_count"_s;
        QTest::newRow("no reasoning") << QStringList{} << 0 << QString() << u"server_usage"_s;
    }

    void reasoningIsRecordedAndReported()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(int, reasoningPerRequest);
        QFETCH(QString, reasoningSource);
        QFETCH(QString, outputSource);
        SimProcess sim(simArgs);
        QVERIFY2(!sim.url.isEmpty(), sim.banner.constData());
        const QString file =
            QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_') + u".json"_s;
        const sb::test::CliResult r = sb::test::runCli(
            {u"run"_s, u"--base-url"_s, sim.url, u"--backend"_s, u"openai-chat"_s, u"--endpoint"_s,
             u"/v1/chat/completions"_s, u"--num-prompts"_s, QString::number(kPrompts),
             u"--random-input-len"_s, u"16"_s, u"--random-output-len"_s, QString::number(kOutput),
             u"--save-result"_s, u"--save-detailed"_s, u"--result-dir"_s, m_dir.path(),
             u"--result-filename"_s, file});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QFile f(m_dir.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o.value(u"completed"_s).toInt(), kPrompts);
        // Reasoning tokens are part of the output, as vLLM counts them.
        QCOMPARE(o.value(u"total_output_tokens"_s).toInt(), kPrompts * kOutput);
        QCOMPARE(o.value(u"token_count_source"_s)
                     .toObject()
                     .value(u"output"_s)
                     .toObject()
                     .value(outputSource)
                     .toInt(),
                 kPrompts);

        const QJsonArray ttfts = o.value(u"ttfts"_s).toArray();
        const QJsonArray ttfcts = o.value(u"ttfcts"_s).toArray();
        const QJsonArray reasoningLens = o.value(u"reasoning_lens"_s).toArray();
        QCOMPARE(ttfcts.size(), kPrompts);
        QCOMPARE(reasoningLens.size(), kPrompts);
        // TTFT counts a token of either kind (vLLM's definition); the first content token comes
        // after the reasoning, or with the first token when there is none.
        for (int i = 0; i < kPrompts; ++i) {
            QVERIFY(ttfcts.at(i).isDouble());
            if (reasoningPerRequest > 0)
                QVERIFY2(
                    ttfcts.at(i).toDouble() >= ttfts.at(i).toDouble(),
                    qPrintable(
                        u"%1 < %2"_s.arg(ttfcts.at(i).toDouble()).arg(ttfts.at(i).toDouble())));
            else
                QCOMPARE(ttfcts.at(i).toDouble(), ttfts.at(i).toDouble());
        }

        if (reasoningPerRequest == 0) {
            QCOMPARE(o.value(u"reasoning_requests"_s).toInt(), 0);
            QVERIFY(o.value(u"reasoning_time"_s).isNull());
            QVERIFY(o.value(u"total_reasoning_tokens"_s).isNull());
            QVERIFY(o.value(u"ttfct"_s).isObject());
            for (const QJsonValue &v : reasoningLens)
                QVERIFY(v.isNull());
            QVERIFY(!r.out.contains("Reasoning Time"_L1));
            return;
        }
        QCOMPARE(o.value(u"reasoning_requests"_s).toInt(), kPrompts);
        QCOMPARE(o.value(u"total_reasoning_tokens"_s).toInt(), kPrompts * reasoningPerRequest);
        for (const QJsonValue &v : reasoningLens)
            QCOMPARE(v.toInt(), reasoningPerRequest);
        QCOMPARE(o.value(u"token_count_source"_s)
                     .toObject()
                     .value(u"reasoning"_s)
                     .toObject()
                     .value(reasoningSource)
                     .toInt(),
                 kPrompts);
        const QJsonObject phase = o.value(u"reasoning_time"_s).toObject();
        QVERIFY2(!phase.isEmpty(),
                 qPrintable(o.value(u"reasoning_time_unavailable_reason"_s).toString()));
        QVERIFY(phase.value(u"mean_ms"_s).toDouble() >= 0);
        QCOMPARE(o.value(u"reasoning_tokens"_s).toObject().value(u"mean_tokens"_s).toDouble(),
                 double(reasoningPerRequest));

        for (const char *label : {"Time to First Content Token",
                                  "Mean TTFCT (ms):", "Reasoning Time", "Requests with reasoning:",
                                  "Total reasoning tokens:", "Reasoning token count source:"})
            QVERIFY2(r.out.contains(QLatin1StringView(label)), label);
        QVERIFY(r.out.contains(QRegularExpression(
            u"Total reasoning tokens:\\s+%1\\s"_s.arg(kPrompts * reasoningPerRequest))));
    }
};

QTEST_GUILESS_MAIN(TestReasoningCli)
#include "tst_reasoningcli.moc"
