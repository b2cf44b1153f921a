#include "bundle.h"

#include "common/version.h"
#include "config/runplan.h"
#include "metrics/definitions.h"
#include "report/bundlewriter.h"
#include "report/htmlreport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

QString readme()
{
    return u"ServeBench acceptance bundle\n"
           "============================\n\n"
           "Check integrity:   sha256sum -c MANIFEST.sha256\n"
           "Read the report:   report/report.html (self-contained, opens offline) or "
           "report/report.pdf\n\n"
           "report/summary.csv             comparison table: metric, run, value, differences "
           "against the baseline\n"
           "report/report.json             comparison, comparability verdict, per-run results "
           "and costs\n"
           "definitions/                   the metric definitions the numbers follow\n"
           "runs/<id>/sut.json             SUT manifest (API keys are references, never values)\n"
           "runs/<id>/dataset.json         dataset version label, content hash and sampling "
           "parameters\n"
           "runs/<id>/command.txt          servebench-cli command line that reproduces the run "
           "(credentials redacted)\n"
           "runs/<id>/snapshot.json        the frozen run plan\n"
           "runs/<id>/result.json          vLLM-compatible result JSON with per-request arrays\n"
           "runs/<id>/requests.csv         raw per-request results\n"
           "runs/<id>/failed-requests.json every failed request with its class and message\n"
           "runs/<id>/server-metrics/      one file per scraped Prometheus target: its scrapes "
           "and series on the run's clock\n"
           "runs/<id>/managed-server.*     the managed server that served the run: its facts "
           "(.json) and captured output (.log)\n"
           "cost/                          bill items, their mapping to test windows, window "
           "breakdowns\n"
           "manifest.json                  tool version, runs and every file with size and "
           "sha256\n"_s;
}

} // namespace

QString scrubCommandLine(const QString &command)
{
    QString s = command;
    static const QRegularExpression bearer(u"(Bearer\\s+)[^\\s'\"{]+"_s,
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression skKey(u"\\bsk-[A-Za-z0-9_\\-]{6,}"_s);
    static const QRegularExpression keyFlag(
        u"(--(?:api-key|api_key|token|password)[= ])('[^']*'|\\S+)"_s);
    // `--header NAME:V`, `--header 'NAME: V'` and the inline `--header=NAME:V` forms.
    static const QRegularExpression header(
        u"(--header(?:\\s+'?|='?))([A-Za-z0-9_\\-]+)([:=])([^'\\s]*(?:\\s[^'\\s-][^'\\s]*)*)"_s);
    // A password in any URL's user info (a proxy or endpoint URL typed with credentials).
    static const QRegularExpression userInfo(
        u"([A-Za-z][A-Za-z0-9+.\\-]*://[^\\s:/@']+:)[^\\s@/']+@"_s);
    s.replace(userInfo, u"\\1<redacted>@"_s);
    s.replace(bearer, u"\\1<redacted>"_s);
    s.replace(skKey, u"<redacted>"_s);
    s.replace(keyFlag, u"\\1<redacted>"_s);
    QString out;
    qsizetype last = 0;
    auto it = header.globalMatch(s);
    while (it.hasNext()) {
        const auto m = it.next();
        out += s.mid(last, m.capturedStart() - last);
        if (looksLikeSecretHeader(m.captured(2)) && !isApiKeyReference(m.captured(4)) &&
            !m.captured(4).trimmed().endsWith("<redacted>"_L1))
            out += m.captured(1) + m.captured(2) + m.captured(3) + u"<redacted>"_s;
        else
            out += m.captured(0);
        last = m.capturedEnd();
    }
    out += s.mid(last);
    return out;
}

bool writeAcceptanceBundle(const QString &dir, const ReportContent &c, const QString &html,
                           const QByteArray &pdf, QStringList *files, QString *error)
{
    if (!bundleTargetIsFree(dir, error))
        return false;
    BundleWriter w(dir);
    w.write(u"README.txt"_s, readme().toUtf8());
    w.write(u"report/report.html"_s, html.toUtf8());
    if (!pdf.isEmpty())
        w.write(u"report/report.pdf"_s, pdf);
    w.write(u"report/summary.csv"_s, c.comparison.summaryCsv());
    w.write(u"report/report.json"_s, bundleJson(reportJson(c)));
    writeBundleDefinitions(w);

    QJsonArray runsJson;
    QList<qint64> runIds;
    for (const ReportRun &r : c.runs) {
        runsJson.append(writeBundleRun(w, r));
        runIds << r.id;
    }
    // Bill items and their mapping to each run's window.
    writeBundleCosts(w, runIds, c.costs);
    return finishBundle(w, dir,
                        QJsonObject{{u"format"_s, u"servebench-acceptance-bundle"_s},
                                    {u"format_version"_s, 1},
                                    {u"tool_version"_s, QString::fromLatin1(toolVersion())},
                                    {u"created_utc"_s, c.generatedUtc.toString(Qt::ISODate)},
                                    {u"title"_s, c.title},
                                    {u"metric_definitions_version"_s, kMetricDefinitionsVersion},
                                    {u"comparability"_s, c.comparison.comparability.verdict()},
                                    {u"runs"_s, runsJson}},
                        files, error);
}

bool verifyAcceptanceBundle(const QString &dir, QStringList *problems)
{
    QStringList out;
    QFile m(QDir(dir).filePath(u"MANIFEST.sha256"_s));
    if (!m.open(QIODevice::ReadOnly)) {
        if (problems)
            *problems = {u"MANIFEST.sha256: %1"_s.arg(m.errorString())};
        return false;
    }
    QSet<QString> listed;
    for (const QByteArray &line : m.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        const qsizetype sep = line.indexOf("  ");
        if (sep != 64) {
            out << u"MANIFEST.sha256: malformed line '%1'"_s.arg(QString::fromUtf8(line));
            continue;
        }
        const QString path = QString::fromUtf8(line.mid(sep + 2));
        listed.insert(path);
        QFile f(QDir(dir).filePath(path));
        if (!f.open(QIODevice::ReadOnly)) {
            out << u"%1: missing"_s.arg(path);
            continue;
        }
        if (QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex() !=
            line.left(64))
            out << u"%1: checksum differs"_s.arg(path);
    }
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString rel = QDir(dir).relativeFilePath(it.next());
        if (rel != "MANIFEST.sha256"_L1 && !listed.contains(rel))
            out << u"%1: not listed in MANIFEST.sha256"_s.arg(rel);
    }
    if (problems)
        *problems = out;
    return out.isEmpty();
}

} // namespace sb
