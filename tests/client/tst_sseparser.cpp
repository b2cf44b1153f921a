#include "client/sseparser.h"

#include <QByteArrayList>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArrayList parse(const QByteArray &in, const QList<qsizetype> &cuts)
{
    SseParser p;
    QByteArrayList events;
    auto collect = [&events](QByteArrayView e) {
        events.append(e.toByteArray());
    };
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        p.feed(in.constData() + from, cut - from, collect);
        from = cut;
    }
    p.feed(in.constData() + from, in.size() - from, collect);
    return events;
}

} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT

private slots:
    void events_data();
    void events();
    void zeroCopyWithinOneRead();
    void flush_data();
    void flush();
    void reset();
    void largeEventAcrossReads();
    void eventTimeIsWhenTheLastDataLineEnded_data();
    void eventTimeIsWhenTheLastDataLineEnded();
};

void TestSseParser::events_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArrayList>("expected");

    QTest::newRow("one event") << QByteArray("data: {\"a\":1}\n\n") << QByteArrayList{"{\"a\":1}"};
    QTest::newRow("several events") << QByteArray("data: a\n\ndata: b\n\ndata: [DONE]\n\n")
                                    << QByteArrayList{"a", "b", "[DONE]"};
    QTest::newRow("CRLF") << QByteArray("data: a\r\n\r\ndata: b\r\n\r\n")
                          << QByteArrayList{"a", "b"};
    // A \r\n cut between two reads is still one line end: a second one would end the event.
    QTest::newRow("multiple data lines, CRLF")
        << QByteArray("data: a\r\ndata: b\r\n\r\n") << QByteArrayList{"a\nb"};
    QTest::newRow("lone CR") << QByteArray("data: a\r\rdata: b\r\r") << QByteArrayList{"a", "b"};
    QTest::newRow("mixed line ends")
        << QByteArray("data: a\r\n\ndata: b\r\r\ndata: c\n\r") << QByteArrayList{"a", "b", "c"};
    QTest::newRow("comments") << QByteArray(": ping\n\ndata: a\n: inside\n\n:\n\n")
                              << QByteArrayList{"a"};
    QTest::newRow("no space after colon")
        << QByteArray("data:a\n\ndata:[DONE]\n\n") << QByteArrayList{"a", "[DONE]"};
    QTest::newRow("only one space is stripped")
        << QByteArray("data:  a \n\n") << QByteArrayList{" a "};
    QTest::newRow("multiple data lines joined by LF")
        << QByteArray("data: {\"a\":\ndata: 1}\ndata:\n\n") << QByteArrayList{"{\"a\":\n1}\n"};
    QTest::newRow("other fields ignored")
        << QByteArray("event: message\nid: 7\nretry: 3000\nfoo: bar\ndata: a\n\n")
        << QByteArrayList{"a"};
    QTest::newRow("event without data is not delivered")
        << QByteArray("id: 1\n\nevent: x\n\n") << QByteArrayList{};
    QTest::newRow("empty data") << QByteArray("data:\n\ndata\n\n") << QByteArrayList{"", ""};
    QTest::newRow("field names are exact")
        << QByteArray("data : a\ndatum: b\nDATA: c\n\n") << QByteArrayList{};
    QTest::newRow("blank lines between events")
        << QByteArray("\n\n\ndata: a\n\n\n\ndata: b\n\n") << QByteArrayList{"a", "b"};
    QTest::newRow("unterminated last event")
        << QByteArray("data: a\n\ndata: b\n") << QByteArrayList{"a"};
    QTest::newRow("colon in value")
        << QByteArray("data: {\"k\":\"v:w\"}\n\n") << QByteArrayList{"{\"k\":\"v:w\"}"};
    QTest::newRow("multi-byte UTF-8")
        << QByteArray("data: {\"t\":\"你好😀\"}\n\ndata: {\"t\":\"世界\"}\r\n\r\n")
        << QByteArrayList{"{\"t\":\"你好😀\"}", "{\"t\":\"世界\"}"};
}

void TestSseParser::events()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArrayList, expected);

    QCOMPARE(parse(input, {}), expected);
    QList<qsizetype> everyByte;
    for (qsizetype i = 1; i < input.size(); ++i) {
        everyByte.append(i);
        const QByteArrayList split = parse(input, {i});
        QVERIFY2(split == expected,
                 qPrintable(u"split at %1: %2"_s.arg(i).arg(QString::fromUtf8(split.join('|')))));
        for (qsizetype j = i + 1; j < input.size(); ++j)
            QVERIFY2(parse(input, {i, j}) == expected,
                     qPrintable(u"split at %1 and %2"_s.arg(i).arg(j)));
    }
    QCOMPARE(parse(input, everyByte), expected);
}

void TestSseParser::zeroCopyWithinOneRead()
{
    const QByteArray in = "data: abc\n\ndata: de\n";
    SseParser p;
    QList<QByteArrayView> seen;
    p.feed(in.constData(), in.size(), [&seen](QByteArrayView e) { seen.append(e); });
    QCOMPARE(seen.size(), 1);
    // The event lies inside the read, so it is handed out in place.
    QCOMPARE(seen[0].data(), in.constData() + 6);
    QCOMPARE(seen[0], "abc");
    // The unfinished one was copied: the caller may reuse its buffer now.
    QCOMPARE(p.bufferedBytes(), 2);

    QByteArray rest = "\n";
    QByteArray got;
    p.feed(rest.constData(), rest.size(), [&got](QByteArrayView e) { got = e.toByteArray(); });
    QCOMPARE(got, "de");
    QCOMPARE(p.bufferedBytes(), 0);
}

void TestSseParser::flush_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArrayList>("expected");
    QTest::newRow("terminated data line")
        << QByteArray("data: [DONE]\n") << QByteArrayList{"[DONE]"};
    QTest::newRow("terminated by CR") << QByteArray("data: [DONE]\r") << QByteArrayList{"[DONE]"};
    QTest::newRow("partial line dropped") << QByteArray("data: [DON") << QByteArrayList{};
    QTest::newRow("partial second line dropped")
        << QByteArray("data: a\ndata: b") << QByteArrayList{"a"};
    QTest::newRow("nothing pending") << QByteArray("data: a\n\n") << QByteArrayList{"a"};
}

void TestSseParser::flush()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArrayList, expected);
    for (qsizetype cut = 0; cut <= input.size(); ++cut) {
        SseParser p;
        QByteArrayList events;
        auto collect = [&events](QByteArrayView e) {
            events.append(e.toByteArray());
        };
        p.feed(input.constData(), cut, collect);
        p.feed(input.constData() + cut, input.size() - cut, collect);
        p.flush(collect);
        QCOMPARE(events, expected);
        QCOMPARE(p.bufferedBytes(), 0);
        QVERIFY(!p.flush(collect));
    }
}

void TestSseParser::reset()
{
    SseParser p;
    QByteArrayList events;
    auto collect = [&events](QByteArrayView e) {
        events.append(e.toByteArray());
    };
    p.feed("data: old\ndata: par", 19, collect);
    QVERIFY(p.bufferedBytes() > 0);
    p.reset();
    QCOMPARE(p.bufferedBytes(), 0);
    p.feed("\ndata: new\n\n", 12, collect);
    QCOMPARE(events, QByteArrayList{"new"});
}

void TestSseParser::largeEventAcrossReads()
{
    // A 1 MiB event arriving in 1000-byte reads, followed by a small one in the same last read.
    const QByteArray payload(1 << 20, 'x');
    const QByteArray in = "data: " + payload + "\n\ndata: tail\n\n";
    SseParser p;
    QList<qsizetype> sizes;
    QByteArray last;
    for (qsizetype off = 0; off < in.size(); off += 1000) {
        p.feed(in.constData() + off, std::min<qsizetype>(1000, in.size() - off),
               [&](QByteArrayView e) {
                   sizes.append(e.size());
                   last = e.toByteArray();
                   if (e.size() == payload.size())
                       QVERIFY(e == payload);
               });
    }
    QCOMPARE(sizes, (QList<qsizetype>{payload.size(), 4}));
    QCOMPARE(last, "tail");
}

void TestSseParser::eventTimeIsWhenTheLastDataLineEnded_data()
{
    // Reads, each with its time (its index + 1), and the time each event must carry.
    QTest::addColumn<QByteArrayList>("reads");
    QTest::addColumn<QList<qint64>>("times");
    QTest::newRow("whole events") << QByteArrayList{"data: a\n\n", "data: b\n\n"}
                                  << QList<qint64>{1, 2};
    QTest::newRow("blank line in the next read")
        << QByteArrayList{"data: a\n", "\ndata: b\n", "\n"} << QList<qint64>{1, 2};
    QTest::newRow("line cut before its LF")
        << QByteArrayList{"data: a", "\n", "\n"} << QList<qint64>{2};
    QTest::newRow("CR ends the line, LF in the next read")
        << QByteArrayList{"data: a\r", "\n\r\n"} << QList<qint64>{1};
    QTest::newRow("second data line later")
        << QByteArrayList{"data: a\n", "data: b\n", "\n"} << QList<qint64>{2};
    QTest::newRow("comment after the data line")
        << QByteArrayList{"data: a\n", ": keep-alive\n", "\n"} << QList<qint64>{1};
    QTest::newRow("two events in one read")
        << QByteArrayList{"data: a\n\ndata: b\n\n"} << QList<qint64>{1, 1};
}

void TestSseParser::eventTimeIsWhenTheLastDataLineEnded()
{
    QFETCH(QByteArrayList, reads);
    QFETCH(QList<qint64>, times);
    SseParser p;
    QList<qint64> got;
    for (qsizetype i = 0; i < reads.size(); ++i)
        p.feed(reads[i].constData(), reads[i].size(), i + 1,
               [&](QByteArrayView) { got.append(p.eventTime()); });
    QCOMPARE(got, times);
}

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
