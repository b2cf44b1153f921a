#pragma once

#include "metrics/requestrecord.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

// The raw request records of a sharded run in its result JSON ("raw_records"), lossless: times
// are integers in ns relative to `baseNs` (the agent's ClockAnchor::monoNs) so they stay well
// inside a double's 53 bits; 0 ("did not happen") stays 0; chunk times and tokens are the
// project file's chunk blob (store/chunkcodec.h) in base64, so a record read back is
// bit-for-bit the record the agent had.
QJsonArray rawRecordsJson(const QList<RequestRecord> &records, qint64 baseNs);
bool rawRecordsFromJson(const QJsonArray &array, qint64 baseNs, QList<RequestRecord> *out,
                        QString *error);

// One agent's run as merge reads it, from a result JSON or a project file.
struct ShardRun
{
    QString source;               // "file.json" or "project.sbproj#run 3"
    QJsonObject snapshot;         // the agent's snapshot: its own plan plus the "shard" block
    QList<RequestRecord> records; // as recorded: local indices, the agent's monotonic ns
    QString status;               // completed | interrupted | failed
    QString host;

    QJsonObject shard() const;
};

// Reads every sharded run in `path`: a result JSON written by `run --shard … --save-detailed`,
// or a project file (SQLite, recognised by its header) whose runs carry a shard block. A file
// with no sharded run is an error that says how to produce one.
bool loadShardRuns(const QString &path, QList<ShardRun> *out, QString *error);

} // namespace sb
