#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

struct ReportRun;
struct RunCost;

// The parts every acceptance bundle shares (bundle.h for a comparison, study/studybundle.h for a
// study; docs/reports.md and docs/study.md): the file writer that keeps each file's sha256, a
// run's folder, the cost files, the metric definitions and the manifest. One copy, so a run's
// folder and the manifest read the same whichever bundle holds them.
class BundleWriter
{
public:
    explicit BundleWriter(const QString &root) : m_root(root) {}

    // Writes root/relative (creating its folders) and records its size and sha256. After the
    // first failure every write is refused and error() names it.
    bool write(const QString &relative, const QByteArray &data);

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

// False with a reason when `dir` exists and is not empty: a bundle is never mixed with older
// files.
bool bundleTargetIsFree(const QString &dir, QString *error);

// A CSV field, quoted when it holds a comma, quote or line break.
QString bundleCsvField(const QString &s);
// Indented JSON, as every JSON file of a bundle is written.
QByteArray bundleJson(const QJsonObject &o);

// definitions/metric-definitions.json and .txt.
void writeBundleDefinitions(BundleWriter &w);

// runs/<id>/: sut.json, dataset.json, command.txt (scrubbed), snapshot.json, result.json,
// requests.csv, failed-requests.json and server-metrics/. Returns the run's entry of the
// manifest's "runs".
QJsonObject writeBundleRun(BundleWriter &w, const ReportRun &run);

// cost/bill-items.json, cost/windows.json and cost/bill-mapping.csv: the window of each run that
// one covers (costs[i] belongs to runIds[i]), each item and window once, a mapping row per run.
void writeBundleCosts(BundleWriter &w, const QList<qint64> &runIds, const QList<RunCost> &costs);

// manifest.json (`manifest` plus "files": every file written so far with its size and sha256),
// then MANIFEST.sha256 in `sha256sum -c` form over every other file. *files: every path written.
bool finishBundle(BundleWriter &w, const QString &dir, QJsonObject manifest, QStringList *files,
                  QString *error);

} // namespace sb
