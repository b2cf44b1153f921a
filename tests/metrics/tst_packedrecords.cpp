// PackedRecords and RecordSet: every field of every record reads back exactly as it went in,
// across block boundaries, and the metrics computed over a packed set equal those over the list.
#include "metrics/clienthealth.h"
#include "metrics/connectionstats.h"
#include "metrics/packedrecords.h"
#include "metrics/recordset.h"
#include "metrics/resultjson.h"
#include "metrics/saturation.h"
#include "metrics/steadystate.h"
#include "metrics/summary.h"
#include "metrics/timeslices.h"

#include "syntheticqueue.h"
#include "syntheticrun.h"

#include <QTest>

#include <limits>
#include <random>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Every field of RequestRecord (packedrecords.cpp trips a static_assert when one is added).
bool sameRecord(const RequestRecord &a, const RequestRecord &b, QString *why)
{
#define SB_SAME(f)                                                                                 \
    do {                                                                                           \
        if (!(a.f == b.f)) {                                                                       \
            *why = u"" #f " differs at index %1"_s.arg(a.index);                                   \
            return false;                                                                          \
        }                                                                                          \
    } while (false)
    SB_SAME(index);
    SB_SAME(datasetItem);
    SB_SAME(warmup);
    SB_SAME(requestId);
    SB_SAME(tSched);
    SB_SAME(tQueued);
    SB_SAME(tDispatch);
    SB_SAME(tSend);
    SB_SAME(tFirst);
    SB_SAME(tLast);
    SB_SAME(tEnd);
    SB_SAME(tFirstReasoning);
    SB_SAME(tFirstContent);
    SB_SAME(tConnectStart);
    SB_SAME(tConnected);
    SB_SAME(tTlsDone);
    SB_SAME(tRequestWritten);
    SB_SAME(tHeadReceived);
    SB_SAME(connection);
    SB_SAME(chunkTimes);
    SB_SAME(chunkTokens);
    SB_SAME(inputTokens);
    SB_SAME(outputTokens);
    SB_SAME(cachedTokens);
    SB_SAME(cacheCreationTokens);
    SB_SAME(batchItems);
    SB_SAME(resultItems);
    SB_SAME(imageBytes);
    SB_SAME(inputSource);
    SB_SAME(outputSource);
    SB_SAME(reasoningTokens);
    SB_SAME(reasoningSource);
    SB_SAME(clientOutputTokens);
    SB_SAME(expectedInputTokens);
    SB_SAME(expectedOutputTokens);
    SB_SAME(httpStatus);
    SB_SAME(finishReason);
    SB_SAME(error);
    SB_SAME(errorMessage);
    SB_SAME(outputChars);
    SB_SAME(sessionId);
    SB_SAME(turnIndex);
    SB_SAME(sessionTurns);
    SB_SAME(historyTokens);
    SB_SAME(thinkNs);
    SB_SAME(outputText);
#undef SB_SAME
    return true;
}

// Records with every field set to something other than its default, drawn from a fixed seed:
// large and negative values, times out of order, empty and unusual texts.
QList<RequestRecord> variedRecords(int n)
{
    std::mt19937_64 rng(42);
    auto draw = [&rng](qint64 lo, qint64 hi) {
        return std::uniform_int_distribution<qint64>(lo, hi)(rng);
    };
    const QString texts[] = {QString(),           u"stop"_s,
                             u"length"_s,         u"content_filter"_s,
                             u"Ünïcode — 字 😀"_s, QString(QChar(0xd800)) + u"lone surrogate"_s};
    QList<RequestRecord> out;
    qint64 t = 5'000'000'000;
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        r.index = i % 17 == 0 ? draw(-5, 1'000'000) : i;
        r.datasetItem = qint32(draw(-1, 100'000));
        r.warmup = i % 9 == 0;
        r.requestId = texts[i % 6] + QString::number(i);
        t += draw(0, 50'000'000);
        qint64 *times[] = {&r.tSched,        &r.tQueued,    &r.tDispatch,       &r.tSend,
                           &r.tConnectStart, &r.tConnected, &r.tTlsDone,        &r.tRequestWritten,
                           &r.tHeadReceived, &r.tFirst,     &r.tFirstReasoning, &r.tFirstContent,
                           &r.tLast,         &r.tEnd};
        for (qint64 *f : times)
            *f = draw(0, 3) == 0 ? 0 : t + draw(-1'000'000, 5'000'000'000);
        if (i == 3)
            r.tEnd = std::numeric_limits<qint64>::max();
        if (i == 4)
            r.tSched = std::numeric_limits<qint64>::min() + 1;
        r.connection = ConnectionUse(draw(0, 3));
        const int chunks = i % 5 == 0 ? 0 : int(draw(1, 300));
        qint64 c = r.tSend;
        for (int k = 0; k < chunks; ++k) {
            c += draw(-10, 20'000'000);
            r.chunkTimes.append(c);
            r.chunkTokens.append(qint32(draw(0, 4)));
        }
        if (i % 11 == 0 && !r.chunkTokens.isEmpty())
            r.chunkTokens.removeLast(); // not necessarily one count per time
        r.inputTokens = qint32(draw(-1, 200'000));
        r.outputTokens = qint32(draw(-1, 100'000));
        r.cachedTokens = qint32(draw(-1, 1000));
        r.cacheCreationTokens = qint32(draw(-1, 1000));
        r.batchItems = qint32(draw(0, 64));
        r.resultItems = qint32(draw(-1, 64));
        r.imageBytes = draw(0, 1LL << 40);
        r.inputSource = TokenSource(draw(0, 4));
        r.outputSource = TokenSource(draw(0, 4));
        r.reasoningTokens = qint32(draw(-1, 1000));
        r.reasoningSource = TokenSource(draw(0, 4));
        r.clientOutputTokens = qint32(draw(-1, 1000));
        r.expectedInputTokens = i == 6 ? std::numeric_limits<qint32>::min() : qint32(draw(-1, 9));
        r.expectedOutputTokens = i == 6 ? std::numeric_limits<qint32>::max() : qint32(draw(-1, 9));
        r.httpStatus = qint32(draw(0, 599));
        r.finishReason = texts[(i + 1) % 6];
        r.error = ErrorClass(draw(0, 5));
        r.errorMessage = texts[(i + 4) % 6];
        r.outputChars = draw(0, 1'000'000'000'000);
        r.sessionId = draw(-1, 1'000);
        r.turnIndex = qint32(draw(-1, 30));
        r.sessionTurns = qint32(draw(-1, 30));
        r.historyTokens = qint32(draw(-1, 100'000));
        r.thinkNs = draw(-1, 60'000'000'000);
        r.outputText = i == 7        ? QString(600'000, u'y') // 1.2 MB: more than a block
                       : i % 13 == 0 ? QString(70'000, u'x')
                                     : texts[(i + 2) % 6];
        out.append(r);
    }
    return out;
}

} // namespace

class TestPackedRecords : public QObject
{
    Q_OBJECT

private slots:
    void everyFieldReadsBack_data()
    {
        QTest::addColumn<int>("count");
        QTest::newRow("none") << 0;
        QTest::newRow("one") << 1;
        QTest::newRow("a few") << 40;
        // ~10 MB of bytes, so records cross many 1 MiB blocks (and some are larger than a block).
        QTest::newRow("many blocks") << 5000;
    }
    void everyFieldReadsBack()
    {
        QFETCH(int, count);
        const QList<RequestRecord> records = variedRecords(count);
        PackedRecords packed;
        for (const RequestRecord &r : records)
            packed.append(r);
        QCOMPARE(packed.size(), records.size());

        const RecordSet set = RecordSet::packed(std::move(packed));
        QVERIFY(set.isPacked());
        QCOMPARE(set.size(), records.size());
        qsizetype i = 0;
        QString why;
        for (const RequestRecord &r : set) {
            QVERIFY(i < records.size());
            QVERIFY2(sameRecord(r, records.at(i), &why), qPrintable(why));
            ++i;
        }
        QCOMPARE(i, records.size());

        // list() decodes the same records; a second pass reads them again from the start.
        const QList<RequestRecord> again = set.list();
        QCOMPARE(again.size(), records.size());
        for (qsizetype k = 0; k < again.size(); ++k)
            QVERIFY2(sameRecord(again.at(k), records.at(k), &why), qPrintable(why));
    }

    void aStoredRunsRecordsAreAFifthOfTheMemory()
    {
        // A chunkless record as the last pass reads it: no texts, a typical set of times.
        PackedRecords packed;
        const QList<RequestRecord> records = synthetic::records();
        for (int k = 0; k < 20'000; ++k) {
            RequestRecord r = records.at(k % records.size());
            r.index = k;
            r.chunkTimes.clear();
            r.chunkTokens.clear();
            r.requestId.clear();
            r.errorMessage.clear();
            packed.append(r);
        }
        const double perRecord = double(packed.capacityBytes()) / packed.size();
        qInfo("%.1f bytes a record packed, %zu as a RequestRecord", perRecord,
              sizeof(RequestRecord));
        QVERIFY(perRecord * 5 < double(sizeof(RequestRecord)));
    }

    void iteratorsCopyTheirRecord()
    {
        // A copied iterator keeps the record it was at (standard algorithms copy iterators).
        const QList<RequestRecord> records = variedRecords(30);
        PackedRecords packed;
        for (const RequestRecord &r : records)
            packed.append(r);
        const RecordSet set = RecordSet::packed(std::move(packed));
        auto it = set.begin();
        ++it;
        const auto kept = it;
        ++it;
        ++it;
        QCOMPARE(kept->requestId, records.at(1).requestId);
        QCOMPARE(it->requestId, records.at(3).requestId);
        const auto slowest =
            std::max_element(set.begin(), set.end(), [](const auto &a, const auto &b) {
                return a.outputChars < b.outputChars;
            });
        const auto expected =
            std::max_element(records.begin(), records.end(), [](const auto &a, const auto &b) {
                return a.outputChars < b.outputChars;
            });
        QCOMPARE(slowest->index, expected->index);
    }

    void metricsAgreeOnBothForms_data()
    {
        QTest::addColumn<QList<RequestRecord>>("records");
        QTest::newRow("hand-made run") << synthetic::records();
        synthq::Config steady;
        steady.poisson = true;
        steady.sendSeconds = 60;
        QTest::newRow("steady queue") << synthq::run(steady);
        synthq::Config overloaded = steady;
        overloaded.servers = 4; // the queue grows without bound: saturation
        QTest::newRow("overloaded queue") << synthq::run(overloaded);
    }
    void metricsAgreeOnBothForms()
    {
        QFETCH(QList<RequestRecord>, records);
        PackedRecords packed;
        for (const RequestRecord &r : records)
            packed.append(r);
        const RecordSet set = RecordSet::packed(std::move(packed));

        const SummaryOptions opts;
        const auto summaryJson = [&records](const RunSummary &s) {
            return vllmResultJson(s, records);
        };
        QCOMPARE(summaryJson(summarize(set, opts)), summaryJson(summarize(records, opts)));
        LoadProfile profile;
        QCOMPARE(assessClientHealth(set, profile).toJson(),
                 assessClientHealth(records, profile).toJson());
        QCOMPARE(connectionStats(set).toJson(), connectionStats(records).toJson());
        const SteadyStateWindow a = detectSteadyState(set), b = detectSteadyState(records);
        QCOMPARE(a.available, b.available);
        QCOMPARE(a.startNs, b.startNs);
        QCOMPARE(a.endNs, b.endNs);
        if (a.available)
            QCOMPARE(summaryJson(summarizeSteadyState(set, a, opts)),
                     summaryJson(summarizeSteadyState(records, b, opts)));
        QCOMPARE(timeSlices(set).toJson(), timeSlices(records).toJson());
        QCOMPARE(detectSaturation(set).toJson(), detectSaturation(records).toJson());
    }
};

QTEST_GUILESS_MAIN(TestPackedRecords)
#include "tst_packedrecords.moc"
