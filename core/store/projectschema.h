#pragma once

#include <QtGlobal>

class QSqlDatabase;
class QString;

namespace sb {

// The project file's schema: an ordered list of forward-only migrations, each taking the file
// from version N-1 to N inside one transaction that also sets PRAGMA user_version. A released
// step is never edited; a change is a new step at the end, tested from a file of the previous
// version (tests/store keeps a real one).
class ProjectSchema
{
public:
    // PRAGMA application_id of every ServeBench project ("SBPJ").
    static constexpr qint32 applicationId = 0x5342504A;

    // The version that added the requests table's connection-phase columns (t_connect_start …
    // connection); a read-only view of an older file reads them as "not seen".
    static constexpr int connectionPhasesVersion = 3;

    static int currentVersion();
    // The oldest version whose tables a read-only open can read without migrating.
    static int minimumReadableVersion();
    // The first version whose requests table has the session columns; an older file opened
    // read-only is read without them (every request outside a session).
    static int sessionColumnsVersion();
    // The first version whose requests table has the reasoning and client-count columns
    // (t_first_reasoning … client_output_tokens); an older file reads them as not recorded.
    static int reasoningColumnsVersion();
    // The first version with the run_metrics table (server metrics); an older file opened
    // read-only reads as having none.
    static int serverMetricsVersion();
    // The first version with the study tables (docs/study.md); an older file opened read-only
    // reads as having no study.
    static int studiesVersion();
    // The first version with the server_logs table (managed servers' output); an older file
    // opened read-only reads as having none.
    static int serverLogsVersion();
    // The first version whose requests table has cache_creation_tokens; an older file reads it
    // as not reported (-1).
    static int cacheCreationVersion();
    // The first version whose requests table has batch_items, result_items and image_bytes; an
    // older file reads them as a generation request without images (0, -1, 0).
    static int poolingColumnsVersion();

    // Brings a file at version `from` (0 = new, no tables) up to `to`. Stamps application_id on
    // a new file. Each step commits separately, so a failure leaves a consistent older version.
    static bool migrate(QSqlDatabase &db, int from, int to, QString *error);
};

} // namespace sb
