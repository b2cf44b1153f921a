// Switching the language retranslates what is on screen at once, the Chinese catalogue is
// compiled into the resources, and every message in it is translated.

#include "editors/loadprofileeditor.h"
#include "editors/suteditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "projecttreemodel.h"
#include "settings.h"
#include "settingslanguage.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;
using namespace sb;

class TestTranslations : public QObject
{
    Q_OBJECT
private slots:
    void catalogueInResources();
    void catalogueComplete();
    void switchRetranslatesVisibleTexts();
    void systemLocaleResolves();
};

void TestTranslations::catalogueInResources()
{
    QVERIFY(QFile::exists(u":/i18n/servebench_zh_CN.qm"_s));
    LanguageSwitcher lang;
    QVERIFY(lang.apply(u"zh_CN"_s));
    QCOMPARE(lang.current(), u"zh_CN"_s);
    QVERIFY(!lang.apply(u"xx_XX"_s) || lang.current() != u"xx_XX"_s);
    QVERIFY(lang.apply(u"en"_s));
    QCOMPARE(lang.current(), u"en"_s);
}

void TestTranslations::catalogueComplete()
{
    // The .ts file is the translators' source: no message may be left unfinished or empty.
    QFile f(QStringLiteral(SB_TEST_DATA_DIR) + u"/../../translations/servebench_zh_CN.ts"_s);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    QXmlStreamReader xml(&f);
    int messages = 0;
    QStringList missing;
    QString source, translation, type;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == "message"_L1) {
                source.clear();
                translation.clear();
                type = u"missing"_s;
            } else if (xml.name() == "source"_L1) {
                source = xml.readElementText();
            } else if (xml.name() == "translation"_L1) {
                type = xml.attributes().value(u"type"_s).toString();
                translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            }
        } else if (xml.isEndElement() && xml.name() == "message"_L1) {
            ++messages;
            if (!type.isEmpty() || translation.trimmed().isEmpty())
                missing << source;
            // Placeholders must survive translation.
            for (int n = 1; n <= 9; ++n) {
                const QString p = u"%"_s + QString::number(n);
                if (source.contains(p) != translation.contains(p)) {
                    missing << u"placeholder %1 in: %2"_s.arg(p, source);
                    break;
                }
            }
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY2(messages > 200, qPrintable(QString::number(messages)));
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(u"\n"_s)));
}

void TestTranslations::switchRetranslatesVisibleTexts()
{
    QTemporaryDir dir;
    Settings settings(dir.filePath(u"s.ini"_s));
    ApiKeyStore keys(new KeychainUnavailableBackend);
    MainWindow w(&settings, &keys);
    w.show();
    w.setLanguage(u"en"_s);
    QCOMPARE(w.runAction()->text(), u"&Run"_s);
    QCOMPARE(w.tabs()->tabText(2), u"Results"_s);
    QCOMPARE(w.tabs()->tabText(4), u"Compare"_s);
    QCOMPARE(w.menuBar()->actions().first()->text(), u"&File"_s);
    w.editEntity(EntityKind::Sut, w.document()->suts().first().id);
    auto *test = w.sutEditor()->findChild<QPushButton *>(u"testConnection"_s);
    QCOMPARE(test->text(), u"&Test connection"_s);
    const QString treeGroup = w.treeModel()->data(w.treeModel()->index(0, 0)).toString();
    QVERIFY(treeGroup.startsWith(u"Systems under test"_s));

    w.setLanguage(u"zh_CN"_s);
    QCOMPARE(settings.language(), u"zh_CN"_s);
    // LanguageChange is delivered through the event queue.
    QTRY_COMPARE(w.runAction()->text(), u"运行(&R)"_s);
    QCOMPARE(w.tabs()->tabText(2), u"结果"_s);
    QCOMPARE(w.tabs()->tabText(4), u"比较"_s);
    QCOMPARE(w.menuBar()->actions().first()->text(), u"文件(&F)"_s);
    QCOMPARE(test->text(), u"测试连接(&T)"_s);
    QVERIFY(w.treeModel()->data(w.treeModel()->index(0, 0)).toString().startsWith(u"被测系统"_s));
    QVERIFY(w.windowTitle().contains(u"未命名项目"_s));
    // A validation message appears in the chosen language.
    LoadProfileEditor *pe = w.profileEditor();
    w.editEntity(EntityKind::Profile, w.document()->profiles().first().id);
    pe->findChild<QLineEdit *>(u"name"_s)->clear();
    QVERIFY(!pe->errorFor(u"name"_s).isEmpty());
    QVERIFY2(!pe->errorFor(u"name"_s).contains(u"Give"_s), qPrintable(pe->errorFor(u"name"_s)));
    QVERIFY(!w.runAction()->isEnabled());

    w.setLanguage(u"en"_s);
    QTRY_COMPARE(w.runAction()->text(), u"&Run"_s);
    QCOMPARE(test->text(), u"&Test connection"_s);
    QVERIFY(pe->errorFor(u"name"_s).contains(u"Give"_s));
}

void TestTranslations::systemLocaleResolves()
{
    QCOMPARE(LanguageSwitcher::resolve(u"zh_CN"_s), u"zh_CN"_s);
    QCOMPARE(LanguageSwitcher::resolve(u"en"_s), u"en"_s);
    const QString sys = LanguageSwitcher::resolve(QString());
    QVERIFY(LanguageSwitcher::availableLanguages().contains(sys));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
