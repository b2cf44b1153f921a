// The core's message catalogue (docs/translations.md): every identifier has a Simplified
// Chinese translation in the compiled catalogue with the same placeholders; installing and
// removing it switches Message::translated(); the producers' English is the catalogue's
// (metric definitions, error classes, token sources); stored English texts are recognised.

#include "common/coretranslation.h"
#include "common/message.h"
#include "metrics/definitions.h"
#include "metrics/requestrecord.h"
#include "metrics/summary.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QTranslator>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QList<int> placeholders(const QString &s)
{
    static const QRegularExpression re(u"%([1-9])"_s);
    QSet<int> found;
    for (auto it = re.globalMatch(s); it.hasNext();)
        found.insert(it.next().captured(1).toInt());
    QList<int> out(found.cbegin(), found.cend());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestCoreCatalogue : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(m_zh.load(u":/i18n/servebench_core_zh_CN.qm"_s),
                 "the compiled catalogue is not among the core's resources");
    }

    void everyIdIsTranslated_data()
    {
        QTest::addColumn<QByteArray>("id");
        QTest::addColumn<QString>("english");
        QSet<QByteArray> ids;
        for (const auto &[id, text] : Message::catalogue()) {
            QVERIFY2(!ids.contains(QByteArray(id)), id); // one entry per identifier
            ids.insert(QByteArray(id));
            QTest::newRow(id) << QByteArray(id) << QString::fromUtf8(text);
        }
        QVERIFY(ids.size() > 400);
    }

    void everyIdIsTranslated()
    {
        QFETCH(QByteArray, id);
        QFETCH(QString, english);
        const QString zh =
            m_zh.translate(Message::kContext, english.toUtf8().constData(), id.constData());
        QVERIFY2(!zh.isEmpty(), qPrintable(u"no zh_CN translation for %1: %2"_s.arg(
                                    QString::fromLatin1(id), english)));
        QCOMPARE(placeholders(zh), placeholders(english));
    }

    void installSwitchesTheLanguage()
    {
        const Message m("cmp.verdict.one_variable", {Message("cmp.field.request_rate")});
        QCOMPARE(m.translated(), u"Comparable: exactly one variable differs — request rate."_s);
        QVERIFY(installCoreTranslation(u"zh_CN.UTF-8"_s));
        QCOMPARE(coreTranslationLanguage(), u"zh_CN"_s);
        // The argument is a message too: translated with its sentence.
        QCOMPARE(m.translated(), u"可比较：恰好一个变量不同——请求速率。"_s);
        QCOMPARE(m.text(), u"Comparable: exactly one variable differs — request rate."_s);
        QVERIFY(installCoreTranslation(u"en"_s));
        QCOMPARE(coreTranslationLanguage(), u"en"_s);
        QCOMPARE(m.translated(), m.text());
    }

    void environmentPicksTheLanguage_data()
    {
        QTest::addColumn<QString>("lcAll");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("expected");
        QTest::newRow("LANG zh") << QString() << u"zh_CN.UTF-8"_s << QString() << u"zh_CN"_s;
        QTest::newRow("LANG zh_TW") << QString() << u"zh_TW.UTF-8"_s << QString() << u"zh_CN"_s;
        QTest::newRow("LC_ALL wins")
            << u"en_US.UTF-8"_s << u"zh_CN.UTF-8"_s << QString() << u"en"_s;
        QTest::newRow("LANGUAGE first")
            << QString() << u"en_US.UTF-8"_s << u"zh_CN:en"_s << u"zh_CN"_s;
        QTest::newRow("C ignores LANGUAGE") << u"C"_s << QString() << u"zh_CN"_s << u"en"_s;
        QTest::newRow("nothing") << QString() << QString() << QString() << u"en"_s;
    }

    void environmentPicksTheLanguage()
    {
        QFETCH(QString, lcAll);
        QFETCH(QString, lang);
        QFETCH(QString, language);
        QFETCH(QString, expected);
        const auto set = [](const char *name, const QString &v) {
            if (v.isEmpty())
                qunsetenv(name);
            else
                qputenv(name, v.toUtf8());
        };
        set("LC_ALL", lcAll);
        set("LC_MESSAGES", QString());
        set("LANG", lang);
        set("LANGUAGE", language);
        QCOMPARE(languageFromEnvironment(), expected);
    }

    // The definitions are stored with runs in English: the catalogue must hold them verbatim.
    void metricDefinitionsAreTheCatalogues()
    {
        for (const MetricDefinition &d : metricDefinitions()) {
            QCOMPARE(d.labelMessage.text(), d.label);
            QCOMPARE(d.definitionMessage.text(), d.definition);
            QCOMPARE(d.detailMessage.text(), d.detail);
        }
    }

    void everyErrorClassHasALabel()
    {
        for (ErrorClass c : allErrorClasses()) {
            const QByteArray id = QByteArray("error_class.") + errorClassName(c);
            QVERIFY2(Message::known(id.constData()), id.constData());
            QVERIFY(!errorClassLabel(c).text().isEmpty());
        }
        for (TokenSource s : {TokenSource::Unknown, TokenSource::ServerUsage,
                              TokenSource::ChunkCount, TokenSource::Dataset})
            QVERIFY(Message::known((QByteArray("token_source.") + tokenSourceName(s)).constData()));
        TokenSourceCounts mixed;
        mixed.add(TokenSource::ServerUsage);
        mixed.add(TokenSource::ChunkCount);
        QCOMPARE(mixed.describeMessage().text(), u"mixed (server usage 1, chunk count 1)"_s);
    }

    // A text stored in English before it had an identifier is found again, arguments included.
    void englishIsRecognised()
    {
        const Message m("cost.warning.left_out", {Message("cost.warning.undecided", {u"2"_s})});
        const Message back = Message::fromEnglish(m.text());
        QCOMPARE(QByteArray(back.id()), QByteArray("cost.warning.left_out"));
        QCOMPARE(back.text(), m.text());
        QCOMPARE(QByteArray(back.argMessages().value(0).id()),
                 QByteArray("cost.warning.undecided"));
        QVERIFY(Message::fromEnglish(u"a run's own name"_s).isLiteral());
        const Message dup = Message::fromEnglish(u"run 3 is listed twice, twice"_s);
        QCOMPARE(dup.text(), u"run 3 is listed twice, twice"_s);
    }

private:
    QTranslator m_zh;
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    TestCoreCatalogue t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_corecatalogue.moc"
