// A secret planted in every place a user can give one — the OPENAI_API_KEY environment variable,
// --header values, a password in the base URL or in --proxy, a proxy password in the
// environment, a secret header in the SUT as the workbench stores it — appears in no artefact:
// not in the output of any command, the project file or its -wal, the result JSON, exports,
// reports (HTML, JSON, CSV) or the acceptance bundle.

#include "clirun.h"

#include "config/runplan.h"
#include "store/projectstore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;
using sb::test::CliResult;
using sb::test::runCli;

namespace {

const char *const kPlanted[] = {"PLANTED-ENV-KEY-1111",   "PLANTED-HEADER-2222",
                                "PLANTED-URL-PW-3333",    "PLANTED-PROXY-PW-4444",
                                "PLANTED-ENV-PROXY-5555", "PLANTED-SUT-HEADER-6666"};

// Every planted secret found in the bytes, by name.
QStringList leaks(const QByteArray &bytes)
{
    QStringList found;
    for (const char *s : kPlanted)
        if (bytes.contains(s))
            found << QString::fromLatin1(s);
    return found;
}

// Every file under dir (the project, its -wal, results, reports, the bundle), with its leaks.
QStringList leakingFiles(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QStringList l = leaks(f.readAll());
        if (!l.isEmpty())
            out << path + u": "_s + l.join(u", "_s);
    }
    return out;
}

} // namespace

class TestPlantedSecrets : public QObject
{
    Q_OBJECT
private slots:
    void noSecretInAnyArtefact()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = dir.filePath(u"p.sbproj"_s);
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(u"OPENAI_API_KEY"_s, u"sk-PLANTED-ENV-KEY-1111"_s);
        // A proxy from the environment, with a password: loopback targets do not use it, but
        // its description must not carry the password into the snapshot either.
        env.insert(u"http_proxy"_s, u"http://user:PLANTED-ENV-PROXY-5555@127.0.0.1:9"_s);
        QStringList outputs;
        const auto run = [&](const QStringList &args) {
            const CliResult r = runCli(args, 180000, env);
            outputs << r.out << r.err;
            return r;
        };
        const QStringList shortRun = {
            u"--num-prompts"_s,      u"6"_s, u"--request-rate"_s,      u"50"_s,
            u"--random-input-len"_s, u"8"_s, u"--random-output-len"_s, u"4"_s};

        // Refused before anything is written: a password in the base URL, in --proxy.
        CliResult r = run(QStringList{u"run"_s, u"--base-url"_s,
                                      u"http://alice:PLANTED-URL-PW-3333@127.0.0.1:8000"_s,
                                      u"--project"_s, project} +
                          shortRun);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"--base-url"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"keychain"_s) || r.err.contains(u"OPENAI_API_KEY"_s),
                 qPrintable(r.err)); // says where credentials belong
        r = run(QStringList{u"run"_s, u"--proxy"_s,
                            u"http://bob:PLANTED-PROXY-PW-4444@proxy:3128"_s, u"--project"_s,
                            project} +
                shortRun);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"--proxy"_s), qPrintable(r.err));
        QVERIFY(!QFile::exists(project));

        // A run with the key from the environment and secret headers, saved every way.
        r = run(QStringList{u"run"_s, u"--project"_s, project, u"--header"_s,
                            u"X-Api-Key: PLANTED-HEADER-2222"_s,
                            u"--header=Authorization:Bearer PLANTED-HEADER-2222"_s, u"--header"_s,
                            u"X-Gateway-Key: {api_key}"_s, u"--save-detailed"_s, u"--result-dir"_s,
                            dir.filePath(u"results"_s)} +
                shortRun);
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        // The workbench stores the SUT it ran; a SUT whose header holds a secret is stored with
        // the secret redacted.
        {
            ProjectStore store;
            QVERIFY(store.open(project));
            StoredSut sut;
            sut.config.name = u"gateway"_s;
            sut.config.baseUrl = u"https://gateway.example:443"_s;
            sut.config.extraHeaders = {{u"X-Api-Token"_s, u"PLANTED-SUT-HEADER-6666"_s}};
            QVERIFY(store.saveSut(sut) > 0);
        }
        run({u"runs"_s, u"--project"_s, project});
        run({u"show"_s, u"--project"_s, project, u"--run"_s, u"1"_s});
        run({u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"json"_s,
             u"--output"_s, dir.filePath(u"export.json"_s)});
        run({u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"csv"_s,
             u"--output"_s, dir.filePath(u"export.csv"_s)});
        r = run({u"report"_s, u"--project"_s, project, u"--runs"_s, u"1"_s, u"--html"_s,
                 dir.filePath(u"r.html"_s), u"--json"_s, dir.filePath(u"r.json"_s), u"--csv"_s,
                 dir.filePath(u"r.csv"_s), u"--bundle"_s, dir.filePath(u"bundle"_s)});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(QFileInfo(dir.filePath(u"bundle"_s)).isDir());

        // A killed run leaves its -wal: read that too.
        QProcess killed;
        killed.setProcessEnvironment(env);
        killed.start(QString::fromUtf8(SB_CLI),
                     {u"run"_s, u"--project"_s, project, u"--header"_s,
                      u"X-Api-Key: PLANTED-HEADER-2222"_s, u"--num-prompts"_s, u"100000"_s,
                      u"--request-rate"_s, u"200"_s, u"--random-input-len"_s, u"8"_s,
                      u"--random-output-len"_s, u"2"_s});
        QVERIFY(killed.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(project + u"-wal"_s).size() > 32 * 1024, 30000);
        killed.kill();
        killed.waitForFinished();
        outputs << QString::fromUtf8(killed.readAllStandardOutput())
                << QString::fromUtf8(killed.readAllStandardError());

        const QStringList files = leakingFiles(dir.path());
        QVERIFY2(files.isEmpty(), qPrintable(files.join(u'\n')));
        const QStringList printed = leaks(outputs.join(u'\n').toUtf8());
        QVERIFY2(printed.isEmpty(), qPrintable(printed.join(u", "_s)));
        // Not vacuous: the artefacts are there, and the headers' names are.
        QVERIFY(QFileInfo(project + u"-wal"_s).size() > 0);
        QFile html(dir.filePath(u"r.html"_s));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(html.readAll().contains("X-Api-Key"));
    }
};

QTEST_GUILESS_MAIN(TestPlantedSecrets)
#include "tst_plantedsecrets.moc"
