// Replays every kept fuzz input (tests/data/fuzz/) through the same entry point the libFuzzer
// target uses, without libFuzzer: the seeds and every finding stay regression tests.
#include "responsefuzz.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;

class TestFuzzReplay : public QObject
{
    Q_OBJECT

private slots:
    void replay_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(SB_TEST_DATA_DIR "/fuzz"));
        int n = 0;
        for (const QString &sub : {u"seeds"_s, u"findings"_s}) {
            const QDir d(dir.filePath(sub));
            for (const QString &f : d.entryList(QDir::Files, QDir::Name)) {
                QTest::addRow("%s/%s", qPrintable(sub), qPrintable(f)) << d.filePath(f);
                ++n;
            }
        }
        QVERIFY2(n > 0, "no fuzz inputs found");
    }
    void replay()
    {
        QFETCH(QString, path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray input = f.readAll();
        const QString broken = sb::fuzz::checkResponse(
            reinterpret_cast<const uint8_t *>(input.constData()), size_t(input.size()));
        QVERIFY2(broken.isEmpty(), qPrintable(broken));
    }
};

QTEST_GUILESS_MAIN(TestFuzzReplay)
#include "tst_fuzzreplay.moc"
