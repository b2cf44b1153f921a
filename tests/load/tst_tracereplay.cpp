#include "load/tracereplay.h"

#include <QTest>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {
QString traceFile(const char *name)
{
    return QStringLiteral(SB_TEST_DATA_DIR) + u"/traces/"_s + QString::fromLatin1(name);
}
} // namespace

class TestTraceReplay : public QObject
{
    Q_OBJECT
private slots:
    void loadsRows()
    {
        QList<TraceRow> rows;
        QString error;
        QVERIFY2(loadTrace(traceFile("simple.jsonl"), &rows, &error), qPrintable(error));
        QVERIFY(error.isEmpty());
        QCOMPARE(rows.size(), 5); // the blank line is skipped
        QCOMPARE(rows.at(0).inputTokens, 512);
        QCOMPARE(rows.at(0).outputTokens, 128);
        QCOMPARE(rows.at(2).inputTokens, -1);
        QCOMPARE(rows.at(2).prompt, u"Summarise the plot of Hamlet in one sentence."_s);
        QCOMPARE(rows.at(2).line, 4);
        QCOMPARE(rows.at(3).outputTokens, -1);
    }

    void schedule_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("n");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::newRow("real time")
            << 1.0 << -1 << QList<qint64>{0, 250000000, 1500000000, 1500000000, 4000000000};
        QTest::newRow("twice as fast")
            << 0.5 << -1 << QList<qint64>{0, 125000000, 750000000, 750000000, 2000000000};
        QTest::newRow("slowed down x3, first 3")
            << 3.0 << 3 << QList<qint64>{0, 750000000, 4500000000};
        QTest::newRow("all at once") << 0.0 << 10 << QList<qint64>{0, 0, 0, 0, 0};
        QTest::newRow("negative scale") << -1.0 << -1 << QList<qint64>{};
    }

    void schedule()
    {
        QFETCH(double, scale);
        QFETCH(int, n);
        QFETCH(QList<qint64>, expected);
        QList<TraceRow> rows;
        QString error;
        QVERIFY(loadTrace(traceFile("simple.jsonl"), &rows, &error));
        QCOMPARE(buildTraceSchedule(rows, scale, n), expected);
    }

    void badFileNamesLineAndField()
    {
        QList<TraceRow> rows;
        QString error;
        QVERIFY(!loadTrace(traceFile("bad_timestamp.jsonl"), &rows, &error));
        QCOMPARE(error, u"bad_timestamp.jsonl:3: field 'timestamp' is missing or not a number"_s);
        QVERIFY(rows.isEmpty());

        QVERIFY(!loadTrace(traceFile("does-not-exist.jsonl"), &rows, &error));
        QVERIFY2(error.contains(u"cannot open trace"_s), qPrintable(error));
    }

    void badLines_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("expected");
        const QByteArray good = "{\"timestamp\": 1, \"input_tokens\": 3}\n";
        QTest::newRow("invalid json") << good + "{\"timestamp\": 2,\n" << u"t:2: invalid JSON"_s;
        QTest::newRow("not an object") << good + "\n[1, 2]\n" << u"t:3: expected a JSON object"_s;
        QTest::newRow("missing timestamp") << good + "{\"input_tokens\": 3}\n"
                                           << u"t:2: field 'timestamp' is missing"_s;
        QTest::newRow("negative timestamp")
            << QByteArray("{\"timestamp\": -1, \"input_tokens\": 3}")
            << u"t:1: field 'timestamp' must be a finite number >= 0"_s;
        QTest::newRow("goes back in time") << good + "{\"timestamp\": 0.5, \"input_tokens\": 3}\n"
                                           << u"t:2: field 'timestamp' 0.5 is earlier"_s;
        QTest::newRow("fractional tokens")
            << good + "{\"timestamp\": 2, \"input_tokens\": 3.5}\n"
            << u"t:2: field 'input_tokens' must be a non-negative integer"_s;
        QTest::newRow("output tokens as string")
            << good + "{\"timestamp\": 2, \"input_tokens\": 3, \"output_tokens\": \"7\"}\n"
            << u"t:2: field 'output_tokens' must be a non-negative integer"_s;
        QTest::newRow("no input") << good + "{\"timestamp\": 2, \"output_tokens\": 7}\n"
                                  << u"t:2: field 'input_tokens' (or 'prompt') is missing"_s;
        QTest::newRow("prompt not a string") << good + "{\"timestamp\": 2, \"prompt\": 7}\n"
                                             << u"t:2: field 'prompt' must be a string"_s;
    }

    void badLines()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, expected);
        QList<TraceRow> rows;
        QString error;
        QVERIFY(!parseTrace(data, u"t"_s, &rows, &error));
        QVERIFY2(error.startsWith(expected), qPrintable(error));
        QVERIFY(rows.isEmpty());
    }

    void crlfAndEmpty()
    {
        QList<TraceRow> rows;
        QString error;
        QVERIFY(parseTrace("{\"timestamp\": 1, \"input_tokens\": 3}\r\n\r\n{\"timestamp\": 2, "
                           "\"input_tokens\": 4}\r\n",
                           u"t"_s, &rows, &error));
        QCOMPARE(rows.size(), 2);
        QVERIFY(parseTrace(QByteArray(), u"t"_s, &rows, &error));
        QVERIFY(rows.isEmpty());
        QVERIFY(buildTraceSchedule(rows, 1.0).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTraceReplay)
#include "tst_tracereplay.moc"
