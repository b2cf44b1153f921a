#include "bundle.h"

#include "common/version.h"
#include "config/runplan.h"
#include "metrics/definitions.h"
#include "report/htmlreport.h"
#include "report/serverreport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

QString csvField(const QString &s)
{
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u"\""_s, u"\"\""_s);
    return u'"' + q + u'"';
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QByteArray sha256Hex(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

class Writer
{
public:
    explicit Writer(const QString &root) : m_root(root) {}

    bool write(const QString &relative, const QByteArray &data)
    {
        if (!m_error.isEmpty())
            return false;
        const QString path = QDir(m_root).filePath(relative);
        if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
            m_error = u"%1: cannot create the folder"_s.arg(QFileInfo(path).absolutePath());
            return false;
        }
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
            m_error = u"%1: %2"_s.arg(path, f.errorString());
            return false;
        }
        m_files.append({relative, sha256Hex(data), data.size()});
        return true;
    }

    struct Entry
    {
        QString path;
        QByteArray sha256;
        qint64 size = 0;
    };
    QList<Entry> files() const { return m_files; }
    QString error() const { return m_error; }

private:
    QString m_root;
    QList<Entry> m_files;
    QString m_error;
};

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
           "cost/                          bill items, their mapping to test windows, window "
           "breakdowns\n"
           "manifest.json                  tool version, runs and every file with size and "
           "sha256\n"_s;
}

QJsonObject recordJson(const RequestRecord &r)
{
    return QJsonObject{{u"index"_s, r.index},
                       {u"request_id"_s, r.requestId},
                       {u"dataset_item"_s, r.datasetItem},
                       {u"warmup"_s, r.warmup},
                       {u"error_class"_s, QString::fromLatin1(errorClassName(r.error))},
                       {u"http_status"_s, r.httpStatus},
                       {u"message"_s, r.errorMessage},
                       {u"finish_reason"_s, r.finishReason},
                       {u"chunks"_s, r.chunkTimes.size()},
                       {u"t_sched_ns"_s, QString::number(r.tSched)},
                       {u"t_send_ns"_s, QString::number(r.tSend)},
                       {u"t_first_ns"_s, QString::number(r.tFirst)},
                       {u"t_end_ns"_s, QString::number(r.tEnd)}};
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
    const QDir target(dir);
    if (target.exists() &&
        !target.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)) {
        if (error)
            *error =
                u"%1 exists and is not empty: a bundle is written into a new folder"_s.arg(dir);
        return false;
    }
    Writer w(dir);
    w.write(u"README.txt"_s, readme().toUtf8());
    w.write(u"report/report.html"_s, html.toUtf8());
    if (!pdf.isEmpty())
        w.write(u"report/report.pdf"_s, pdf);
    w.write(u"report/summary.csv"_s, c.comparison.summaryCsv());
    w.write(u"report/report.json"_s, json(reportJson(c)));
    w.write(u"definitions/metric-definitions.json"_s, json(metricDefinitionsJson()));
    w.write(u"definitions/metric-definitions.txt"_s, metricDefinitionsText().toUtf8());

    QJsonArray runsJson;
    for (const ReportRun &r : c.runs) {
        const QString base = u"runs/%1/"_s.arg(r.id);
        const QJsonObject snapshot = scrubSecrets(r.info.snapshot);
        QJsonObject sut = snapshot.value(u"sut"_s).toObject();
        w.write(base + u"sut.json"_s, json(sut));
        QJsonObject dataset{
            {u"spec"_s, snapshot.value(u"dataset"_s).toObject()},
            {u"info"_s, snapshot.value(u"dataset_info"_s).toObject()},
            {u"sha256"_s, r.input.datasetHash},
            {u"version_label"_s, r.input.datasetInfo.value(u"version_label"_s).toString()}};
        w.write(base + u"dataset.json"_s, json(dataset));
        const QString command = scrubCommandLine(snapshot.value(u"command"_s).toString());
        QString commandText;
        if (command.isEmpty())
            commandText =
                r.imported
                    ? u"# imported from %1: the tool did not record its command "
                      "line\n"_s.arg(
                          snapshot.value(u"imported"_s).toObject().value(u"tool"_s).toString())
                    : u"# the run did not record its command line\n"_s;
        else
            commandText = u"# tool version %1\n%2\n"_s.arg(
                snapshot.value(u"tool_version"_s).toString(r.info.toolVersion), command);
        w.write(base + u"command.txt"_s, commandText.toUtf8());
        w.write(base + u"snapshot.json"_s, json(snapshot));
        if (r.rawRecords) {
            w.write(base + u"result.json"_s, json(runResultJson(r.input, r.derived, true)));
            w.write(base + u"requests.csv"_s, requestsCsv(r.input));
        } else {
            w.write(base + u"result.json"_s, json(r.info.summary));
        }
        // Server metrics (docs/server-metrics.md): a file per target, named by its place and name.
        for (qsizetype i = 0; i < r.input.serverMetrics.size(); ++i) {
            const MetricSeriesStore &m = r.input.serverMetrics.at(i);
            // The name comes from the project file: only file-name characters reach the path.
            QString name = m.targetName();
            name.replace(QRegularExpression(u"[^A-Za-z0-9._-]"_s), u"_"_s);
            w.write(base + u"server-metrics/%1-%2.json"_s.arg(i).arg(name),
                    json(serverMetricsFileJson(m, r.input.runStartNs)));
        }
        QJsonArray failed;
        for (const RequestRecord &rec : r.input.records)
            if (!rec.ok())
                failed.append(recordJson(rec));
        w.write(base + u"failed-requests.json"_s,
                json(QJsonObject{{u"run_id"_s, r.id},
                                 {u"raw_records"_s, r.rawRecords},
                                 {u"failed"_s, r.summary.failed},
                                 {u"failed_by_class"_s,
                                  [&r] {
                                      QJsonObject o;
                                      for (auto it = r.summary.failedByClass.cbegin();
                                           it != r.summary.failedByClass.cend(); ++it)
                                          o.insert(it.key(), it.value());
                                      return o;
                                  }()},
                                 {u"requests"_s, failed}}));
        runsJson.append(QJsonObject{{u"id"_s, r.id},
                                    {u"label"_s, r.label},
                                    {u"sut"_s, r.sutName()},
                                    {u"status"_s, r.input.status},
                                    {u"dataset_sha256"_s, r.input.datasetHash},
                                    {u"tool_version"_s, r.info.toolVersion},
                                    {u"imported"_s, r.imported},
                                    {u"command"_s, command}});
    }

    // Bill items and their mapping to each run's window.
    QJsonArray items, windows;
    QSet<QString> seenItems;
    QSet<qint64> seenWindows;
    QString mapping = u"run_id,window,item_id,category,provider,resource_id,start,end,currency,"
                      "item_total,mapping,counted,why\n"_s;
    for (int i = 0; i < c.costs.size(); ++i) {
        const RunCost &rc = c.costs.at(i);
        if (!rc.covered)
            continue;
        for (const BillItem &b : rc.items)
            if (!seenItems.contains(b.id)) {
                seenItems.insert(b.id);
                items.append(b.toJson());
            }
        if (!seenWindows.contains(rc.windowId)) {
            seenWindows.insert(rc.windowId);
            windows.append(rc.breakdown.toJson());
        }
        const auto add = [&](const QList<AttributedItem> &list) {
            for (const AttributedItem &a : list)
                mapping += QStringList{QString::number(c.runs.at(i).id),
                                       csvField(rc.windowName),
                                       csvField(a.item.id),
                                       QString::fromLatin1(billCategoryName(a.item.category)),
                                       csvField(a.item.provider),
                                       csvField(a.item.resourceId),
                                       formatUtcTimestamp(a.item.start),
                                       formatUtcTimestamp(a.item.end),
                                       a.item.currency,
                                       a.itemTotal.toString(),
                                       QString::fromLatin1(itemAttributionName(a.attribution)),
                                       a.counted.toString(),
                                       csvField(a.why)}
                               .join(u',') +
                           u'\n';
        };
        add(rc.breakdown.included);
        add(rc.breakdown.overlapping);
        add(rc.breakdown.undecided);
        add(rc.breakdown.excluded);
    }
    w.write(u"cost/bill-items.json"_s, json(QJsonObject{{u"items"_s, items}}));
    w.write(u"cost/windows.json"_s, json(QJsonObject{{u"windows"_s, windows}}));
    w.write(u"cost/bill-mapping.csv"_s, mapping.toUtf8());

    // manifest.json lists every file written so far; MANIFEST.sha256 covers it too.
    QJsonArray list;
    for (const auto &e : w.files())
        list.append(QJsonObject{{u"path"_s, e.path},
                                {u"sha256"_s, QString::fromLatin1(e.sha256)},
                                {u"bytes"_s, e.size}});
    w.write(u"manifest.json"_s,
            json(QJsonObject{{u"format"_s, u"servebench-acceptance-bundle"_s},
                             {u"format_version"_s, 1},
                             {u"tool_version"_s, QString::fromLatin1(toolVersion())},
                             {u"created_utc"_s, c.generatedUtc.toString(Qt::ISODate)},
                             {u"title"_s, c.title},
                             {u"metric_definitions_version"_s, kMetricDefinitionsVersion},
                             {u"comparability"_s, c.comparison.comparability.verdict()},
                             {u"runs"_s, runsJson},
                             {u"files"_s, list}}));
    QByteArray sums;
    for (const auto &e : w.files())
        sums += e.sha256 + "  " + e.path.toUtf8() + '\n';
    if (!w.error().isEmpty() || !Writer(dir).write(u"MANIFEST.sha256"_s, sums)) {
        if (error)
            *error =
                w.error().isEmpty() ? u"%1: cannot write MANIFEST.sha256"_s.arg(dir) : w.error();
        return false;
    }
    if (files) {
        files->clear();
        for (const auto &e : w.files())
            files->append(e.path);
        files->append(u"MANIFEST.sha256"_s);
    }
    return true;
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
        if (sha256Hex(f.readAll()) != line.left(64))
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
