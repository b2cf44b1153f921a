#include "bundlewriter.h"

#include "config/runplan.h"
#include "metrics/definitions.h"
#include "report/bundle.h"
#include "report/htmlreport.h"
#include "report/serverreport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

QByteArray sha256Hex(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
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

bool BundleWriter::write(const QString &relative, const QByteArray &data)
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

bool bundleTargetIsFree(const QString &dir, QString *error)
{
    const QDir target(dir);
    if (target.exists() &&
        !target.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)) {
        if (error)
            *error =
                u"%1 exists and is not empty: a bundle is written into a new folder"_s.arg(dir);
        return false;
    }
    return true;
}

QString bundleCsvField(const QString &s)
{
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u"\""_s, u"\"\""_s);
    return u'"' + q + u'"';
}

QByteArray bundleJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

void writeBundleDefinitions(BundleWriter &w)
{
    w.write(u"definitions/metric-definitions.json"_s, bundleJson(metricDefinitionsJson()));
    w.write(u"definitions/metric-definitions.txt"_s, metricDefinitionsText().toUtf8());
}

QJsonObject writeBundleRun(BundleWriter &w, const ReportRun &r)
{
    const QString base = u"runs/%1/"_s.arg(r.id);
    const QJsonObject snapshot = scrubSecrets(r.info.snapshot);
    QJsonObject sut = snapshot.value(u"sut"_s).toObject();
    w.write(base + u"sut.json"_s, bundleJson(sut));
    QJsonObject dataset{
        {u"spec"_s, snapshot.value(u"dataset"_s).toObject()},
        {u"info"_s, snapshot.value(u"dataset_info"_s).toObject()},
        {u"sha256"_s, r.input.datasetHash},
        {u"version_label"_s, r.input.datasetInfo.value(u"version_label"_s).toString()}};
    w.write(base + u"dataset.json"_s, bundleJson(dataset));
    const QString command = scrubCommandLine(snapshot.value(u"command"_s).toString());
    QString commandText;
    if (command.isEmpty())
        commandText =
            r.imported ? u"# imported from %1: the tool did not record its command "
                         "line\n"_s.arg(
                             snapshot.value(u"imported"_s).toObject().value(u"tool"_s).toString())
                       : u"# the run did not record its command line\n"_s;
    else
        commandText = u"# tool version %1\n%2\n"_s.arg(
            snapshot.value(u"tool_version"_s).toString(r.info.toolVersion), command);
    w.write(base + u"command.txt"_s, commandText.toUtf8());
    w.write(base + u"snapshot.json"_s, bundleJson(snapshot));
    if (r.rawRecords) {
        w.write(base + u"result.json"_s, bundleJson(runResultJson(r.input, r.derived, true)));
        w.write(base + u"requests.csv"_s, requestsCsv(r.input));
    } else {
        w.write(base + u"result.json"_s, bundleJson(r.info.summary));
    }
    // Server metrics (docs/server-metrics.md): a file per target, named by its place and name.
    for (qsizetype i = 0; i < r.input.serverMetrics.size(); ++i) {
        const MetricSeriesStore &m = r.input.serverMetrics.at(i);
        // The name comes from the project file: only file-name characters reach the path.
        QString name = m.targetName();
        name.replace(QRegularExpression(u"[^A-Za-z0-9._-]"_s), u"_"_s);
        w.write(base + u"server-metrics/%1-%2.json"_s.arg(i).arg(name),
                bundleJson(serverMetricsFileJson(m, r.input.runStartNs)));
    }
    // A managed server's facts and captured output (docs/managed-servers.md).
    if (r.serverLog) {
        w.write(base + u"managed-server.json"_s, bundleJson(r.serverLog->info));
        w.write(base + u"managed-server.log"_s, r.serverLog->output);
    }
    QJsonArray failed;
    for (const RequestRecord &rec : r.input.records)
        if (rec.failed()) // not those the cancellation load closed (docs/metrics.md)
            failed.append(recordJson(rec));
    QJsonObject byClass;
    for (auto it = r.summary.failedByClass.cbegin(); it != r.summary.failedByClass.cend(); ++it)
        byClass.insert(it.key(), it.value());
    w.write(base + u"failed-requests.json"_s,
            bundleJson(QJsonObject{{u"run_id"_s, r.id},
                                   {u"raw_records"_s, r.rawRecords},
                                   {u"failed"_s, r.summary.failed},
                                   {u"failed_by_class"_s, byClass},
                                   {u"requests"_s, failed}}));
    return QJsonObject{{u"id"_s, r.id},
                       {u"label"_s, r.label},
                       {u"sut"_s, r.sutName()},
                       {u"status"_s, r.input.status},
                       {u"dataset_sha256"_s, r.input.datasetHash},
                       {u"tool_version"_s, r.info.toolVersion},
                       {u"imported"_s, r.imported},
                       {u"command"_s, command}};
}

void writeBundleCosts(BundleWriter &w, const QList<qint64> &runIds, const QList<RunCost> &costs)
{
    QJsonArray items, windows;
    QSet<QString> seenItems;
    QSet<qint64> seenWindows;
    QString mapping = u"run_id,window,item_id,category,provider,resource_id,start,end,currency,"
                      "item_total,mapping,counted,why\n"_s;
    for (qsizetype i = 0; i < costs.size() && i < runIds.size(); ++i) {
        const RunCost &rc = costs.at(i);
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
                mapping += QStringList{QString::number(runIds.at(i)),
                                       bundleCsvField(rc.windowName),
                                       bundleCsvField(a.item.id),
                                       QString::fromLatin1(billCategoryName(a.item.category)),
                                       bundleCsvField(a.item.provider),
                                       bundleCsvField(a.item.resourceId),
                                       formatUtcTimestamp(a.item.start),
                                       formatUtcTimestamp(a.item.end),
                                       a.item.currency,
                                       a.itemTotal.toString(),
                                       QString::fromLatin1(itemAttributionName(a.attribution)),
                                       a.counted.toString(),
                                       bundleCsvField(a.why)}
                               .join(u',') +
                           u'\n';
        };
        add(rc.breakdown.included);
        add(rc.breakdown.overlapping);
        add(rc.breakdown.undecided);
        add(rc.breakdown.excluded);
    }
    w.write(u"cost/bill-items.json"_s, bundleJson(QJsonObject{{u"items"_s, items}}));
    w.write(u"cost/windows.json"_s, bundleJson(QJsonObject{{u"windows"_s, windows}}));
    w.write(u"cost/bill-mapping.csv"_s, mapping.toUtf8());
}

bool finishBundle(BundleWriter &w, const QString &dir, QJsonObject manifest, QStringList *files,
                  QString *error)
{
    // manifest.json lists every file written so far; MANIFEST.sha256 covers it too.
    QJsonArray list;
    for (const auto &e : w.files())
        list.append(QJsonObject{{u"path"_s, e.path},
                                {u"sha256"_s, QString::fromLatin1(e.sha256)},
                                {u"bytes"_s, e.size}});
    manifest.insert(u"files"_s, list);
    w.write(u"manifest.json"_s, bundleJson(manifest));
    QByteArray sums;
    for (const auto &e : w.files())
        sums += e.sha256 + "  " + e.path.toUtf8() + '\n';
    if (!w.error().isEmpty() || !BundleWriter(dir).write(u"MANIFEST.sha256"_s, sums)) {
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

} // namespace sb
