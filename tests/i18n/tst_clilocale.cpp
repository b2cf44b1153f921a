// servebench-cli under a Chinese locale (LANG=zh_CN.UTF-8): a validation error, `compare`'s
// verdict and row labels, and `report`'s HTML come out in Chinese; the JSON report stays English;
// under LANG=C the same commands speak English (so the check is not vacuous).

#include "../report/reportfixture.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Result
{
    int code = -1;
    QString out;
    QString err;
};

Result cli(const QString &lang, const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *v : {"LC_ALL", "LC_MESSAGES", "LANGUAGE"})
        env.remove(QString::fromLatin1(v));
    env.insert(u"LANG"_s, lang);
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SB_CLI), args);
    Result r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestCliLocale : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(fixture::build(m_dir.filePath(u"p.sbproj"_s), &m_project, &error),
                 qPrintable(error));
    }

    void validationError_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zh") << u"zh_CN.UTF-8"_s << u"--num-prompts 必须在 1 到"_s;
        QTest::newRow("C") << u"C.UTF-8"_s << u"--num-prompts must be between 1 and"_s;
    }

    void validationError()
    {
        QFETCH(QString, lang);
        QFETCH(QString, expected);
        const Result r = cli(lang, {u"run"_s, u"--num-prompts"_s, u"0"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }

    void compareVerdict_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("zh") << u"zh_CN.UTF-8"_s
                            << QStringList{u"可比性：可比较：恰好一个变量不同——SUT（"_s,
                                           u"请求吞吐量 (req/s)"_s,
                                           u"按 P99 TTFT 排名（越低越好）"_s}
                            << QStringList{u"Comparable"_s, u"Ranked by"_s,
                                           u"Request throughput"_s};
        QTest::newRow("C") << u"C"_s
                           << QStringList{u"Comparability: Comparable: exactly one variable "
                                          "differs — SUT ("_s,
                                          u"Request throughput (req/s)"_s,
                                          u"Ranked by P99 TTFT (lower is better)"_s}
                           << QStringList{u"可比较"_s};
    }

    void compareVerdict()
    {
        QFETCH(QString, lang);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, absent);
        const Result r = cli(lang, {u"compare"_s, u"--project"_s, m_project.path, u"--runs"_s,
                                    u"%1,%2"_s.arg(m_project.runA).arg(m_project.runB)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const QString &e : expected)
            QVERIFY2(r.out.contains(e), qPrintable(e + u"\n---\n"_s + r.out));
        for (const QString &a : absent)
            QVERIFY2(!r.out.contains(a), qPrintable(a + u"\n---\n"_s + r.out));
    }

    void reportInTheLocale()
    {
        const QString html = m_dir.filePath(u"r.html"_s);
        const QString json = m_dir.filePath(u"r.json"_s);
        const Result r =
            cli(u"zh_CN.UTF-8"_s, {u"report"_s, u"--project"_s, m_project.path, u"--runs"_s,
                                   u"%1,%2"_s.arg(m_project.runA).arg(m_project.runB), u"--html"_s,
                                   html, u"--json"_s, json});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"可比性：可比较"_s), qPrintable(r.out));
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(h.readAll());
        QVERIFY(page.contains(u"<html lang=\"zh-CN\">"_s));
        QVERIFY(page.contains(u"<h2 id=\"summary\">总结论</h2>"_s));
        QVERIFY(page.contains(u"可比较：恰好一个变量不同"_s));
        QVERIFY(!page.contains(u"Summary verdict"_s));
        // The machine form stays English.
        QFile j(json);
        QVERIFY(j.open(QIODevice::ReadOnly));
        const QString data = QString::fromUtf8(j.readAll());
        QVERIFY(data.contains(u"Comparable: exactly one variable differs"_s));
        QVERIFY(!data.contains(u"可比较"_s));
    }

private:
    QTemporaryDir m_dir;
    fixture::Project m_project;
};

QTEST_GUILESS_MAIN(TestCliLocale)
#include "tst_clilocale.moc"
