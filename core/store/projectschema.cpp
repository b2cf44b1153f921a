#include "projectschema.h"

#include "common/version.h"

#include <QDateTime>

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Times: wall-clock columns (*_utc) are ISO 8601 UTC text with milliseconds
// ("2025-01-02T03:04:05.678Z"): fixed width, so text order is time order, and readable in the
// sqlite3 shell. Monotonic columns (*_mono_ns, t_*) are CLOCK_MONOTONIC nanoseconds. JSON columns
// hold config snapshots scrubbed of secrets; no column is meant for a credential.
const char *const kVersion1[] = {
    // Facts about the file itself (who created it, with which version).
    R"(CREATE TABLE project_info(
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL))",
    R"(CREATE TABLE suts(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        model TEXT NOT NULL DEFAULT '',
        engine TEXT NOT NULL DEFAULT '',
        gpu_model TEXT NOT NULL DEFAULT '',
        gpu_count INTEGER NOT NULL DEFAULT 0,
        base_url TEXT NOT NULL DEFAULT '',
        config_json TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        updated_utc TEXT NOT NULL))",
    R"(CREATE TABLE datasets(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        content_hash TEXT NOT NULL DEFAULT '',
        version_label TEXT NOT NULL DEFAULT '',
        spec_json TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        updated_utc TEXT NOT NULL))",
    R"(CREATE TABLE load_profiles(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        scenario TEXT NOT NULL,
        arrival TEXT NOT NULL,
        profile_json TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        updated_utc TEXT NOT NULL))",
    R"(CREATE TABLE sweeps(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        config_json TEXT NOT NULL,
        created_utc TEXT NOT NULL))",
    R"(CREATE TABLE runs(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        sut_id INTEGER REFERENCES suts(id) ON DELETE SET NULL,
        dataset_id INTEGER REFERENCES datasets(id) ON DELETE SET NULL,
        profile_id INTEGER REFERENCES load_profiles(id) ON DELETE SET NULL,
        sweep_id INTEGER REFERENCES sweeps(id) ON DELETE SET NULL,
        sweep_position INTEGER,
        status TEXT NOT NULL
            CHECK (status IN ('running', 'completed', 'interrupted', 'failed')),
        status_message TEXT NOT NULL DEFAULT '',
        snapshot_json TEXT NOT NULL,
        summary_json TEXT,
        tool_version TEXT NOT NULL,
        host TEXT NOT NULL,
        metric_definitions_version TEXT NOT NULL,
        started_utc TEXT NOT NULL,
        ended_utc TEXT,
        started_mono_ns INTEGER NOT NULL,
        ended_mono_ns INTEGER,
        request_count INTEGER NOT NULL DEFAULT 0,
        last_commit_utc TEXT,
        writer_pid INTEGER))",
    // One row per request; chunk times and token counts are one blob per row (chunkcodec.h).
    R"(CREATE TABLE requests(
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        dataset_item INTEGER NOT NULL,
        warmup INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        t_sched INTEGER NOT NULL,
        t_queued INTEGER NOT NULL,
        t_dispatch INTEGER NOT NULL,
        t_send INTEGER NOT NULL,
        t_first INTEGER NOT NULL,
        t_last INTEGER NOT NULL,
        t_end INTEGER NOT NULL,
        chunk_count INTEGER NOT NULL,
        chunks BLOB,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        input_source TEXT NOT NULL,
        output_source TEXT NOT NULL,
        expected_input_tokens INTEGER NOT NULL,
        expected_output_tokens INTEGER NOT NULL,
        http_status INTEGER NOT NULL,
        finish_reason TEXT NOT NULL,
        error_class TEXT NOT NULL,
        error_message TEXT NOT NULL,
        output_chars INTEGER NOT NULL))",
    // Unique: a record stored twice is an engine bug, and failing loudly beats double counting.
    "CREATE UNIQUE INDEX requests_by_run ON requests(run_id, idx)",
    R"(CREATE TABLE bill_items(
        id INTEGER PRIMARY KEY,
        category TEXT NOT NULL
            CHECK (category IN ('gpu', 'cpu', 'storage', 'network', 'platform', 'other')),
        provider TEXT NOT NULL DEFAULT '',
        resource_id TEXT NOT NULL DEFAULT '',
        start_utc TEXT NOT NULL,
        end_utc TEXT NOT NULL,
        amount_minor INTEGER NOT NULL,
        amount_scale INTEGER NOT NULL DEFAULT 2,
        amount_kind TEXT NOT NULL DEFAULT 'total' CHECK (amount_kind IN ('total', 'rate')),
        currency TEXT NOT NULL,
        billing_unit TEXT NOT NULL DEFAULT '',
        min_increment_s INTEGER NOT NULL DEFAULT 0,
        notes TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        reference TEXT NOT NULL DEFAULT '',
        confirmed INTEGER NOT NULL DEFAULT 0,
        item_json TEXT NOT NULL DEFAULT '{}'))",
    R"(CREATE TABLE test_windows(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        sut_id INTEGER REFERENCES suts(id) ON DELETE SET NULL,
        start_utc TEXT NOT NULL,
        end_utc TEXT NOT NULL))",
    R"(CREATE TABLE window_runs(
        window_id INTEGER NOT NULL REFERENCES test_windows(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        PRIMARY KEY (window_id, run_id)) WITHOUT ROWID)",
    R"(CREATE TABLE window_bill_rules(
        window_id INTEGER NOT NULL REFERENCES test_windows(id) ON DELETE CASCADE,
        bill_item_id INTEGER NOT NULL REFERENCES bill_items(id) ON DELETE CASCADE,
        rule TEXT NOT NULL CHECK (rule IN ('undecided', 'prorate', 'whole')),
        PRIMARY KEY (window_id, bill_item_id)) WITHOUT ROWID)",
};

// Version 2: indexes for listing the runs of a SUT or a sweep and the windows a run is in.
const char *const kVersion2[] = {
    "CREATE INDEX runs_by_sut ON runs(sut_id, started_utc)",
    "CREATE INDEX runs_by_sweep ON runs(sweep_id, sweep_position)",
    "CREATE INDEX window_runs_by_run ON window_runs(run_id)",
};

// Version 3: how each request's connection came about (RequestRecord's connection phases; 0 =
// did not happen, 'unknown' = not seen). Rows written before it read as "not seen".
const char *const kVersion3[] = {
    "ALTER TABLE requests ADD COLUMN t_connect_start INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN t_connected INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN t_tls_done INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN t_request_written INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN t_head_received INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN connection TEXT NOT NULL DEFAULT 'unknown'",
};

// Sessions (docs/sessions.md): which session and turn a request belongs to, the turns its
// session was planned to have, the history it resent and the think time drawn before it. -1 for
// the requests of single-request runs. Kept a step of its own so it can be renumbered when
// other steps land before it.
const char *const kVersionSessions[] = {
    "ALTER TABLE requests ADD COLUMN session_id INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE requests ADD COLUMN turn_index INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE requests ADD COLUMN session_turns INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE requests ADD COLUMN history_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE requests ADD COLUMN think_ns INTEGER NOT NULL DEFAULT -1",
};

// Reasoning-aware latency and the client's token count (docs/metrics.md): when the first
// reasoning and the first content chunk arrived, the reasoning tokens and where their count came
// from, and the tokenizer's count of the output beside the server's. Rows written before it read
// as "not recorded" (0, -1, 'unknown'). A step of its own, like the session columns, so it can be
// renumbered when other steps land before it.
const char *const kVersionReasoning[] = {
    "ALTER TABLE requests ADD COLUMN t_first_reasoning INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN t_first_content INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE requests ADD COLUMN reasoning_source TEXT NOT NULL DEFAULT 'unknown'",
    "ALTER TABLE requests ADD COLUMN client_output_tokens INTEGER NOT NULL DEFAULT -1",
};

// Server metrics (docs/server-metrics.md): per run, one row per scraped target, its identity
// (name, URL without credentials, detected engine) and its scrapes as one blob
// (servermetrics/seriescodec.h: delta-encoded like the chunk times). Kept a step of its own so
// it can be renumbered when other steps land before it.
const char *const kVersionServerMetrics[] = {
    R"(CREATE TABLE run_metrics(
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        target TEXT NOT NULL,
        url TEXT NOT NULL,
        engine TEXT NOT NULL,
        scrapes INTEGER NOT NULL,
        blob BLOB NOT NULL,
        PRIMARY KEY (run_id, position)) WITHOUT ROWID)",
};

// Selection studies (docs/study.md): a study, its versions (the definition JSON and its sha256;
// editing a definition after cells have run makes a new version), the cells of each version in
// their running order with their state, and every run a cell made (an interrupted attempt
// included), linked to its study, version and cell. Kept a step of its own so it can be
// renumbered when other steps land before it.
const char *const kVersionStudies[] = {
    R"(CREATE TABLE studies(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_utc TEXT NOT NULL))",
    R"(CREATE TABLE study_versions(
        id INTEGER PRIMARY KEY,
        study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        definition_json TEXT NOT NULL,
        definition_sha256 TEXT NOT NULL,
        plan_json TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        UNIQUE (study_id, version)))",
    R"(CREATE TABLE study_cells(
        id INTEGER PRIMARY KEY,
        version_id INTEGER NOT NULL REFERENCES study_versions(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        candidate TEXT NOT NULL,
        scenario TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        state TEXT NOT NULL
            CHECK (state IN ('pending', 'running', 'completed', 'failed')),
        reason TEXT NOT NULL DEFAULT '',
        run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        UNIQUE (version_id, position)))",
    R"(CREATE TABLE study_runs(
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        version_id INTEGER NOT NULL REFERENCES study_versions(id) ON DELETE CASCADE,
        cell_id INTEGER NOT NULL REFERENCES study_cells(id) ON DELETE CASCADE))",
    "CREATE INDEX study_runs_by_cell ON study_runs(cell_id)",
};

// Prompt-cache writes (Anthropic's cache_creation_input_tokens; docs/metrics.md, "Fields per
// API"). Rows written before it read as "not reported" (-1). A step of its own so it can be
// renumbered when other steps land before it.
const char *const kVersionCacheCreation[] = {
    "ALTER TABLE requests ADD COLUMN cache_creation_tokens INTEGER NOT NULL DEFAULT -1",
};

// Managed servers (docs/managed-servers.md): one row per start of a server ServeBench ran itself,
// keyed by the instance id the runs it served carry in their snapshot (managed_server.instance);
// its facts (commands as written, health URL, start-up time, how it stopped) as JSON and its
// captured output. Kept a step of its own so it can be renumbered when other steps land before it.
const char *const kVersionServerLogs[] = {
    R"(CREATE TABLE server_logs(
        instance TEXT PRIMARY KEY,
        sut TEXT NOT NULL,
        started_utc TEXT NOT NULL,
        info_json TEXT NOT NULL,
        output BLOB NOT NULL))",
};

// Non-streamed endpoints and images in prompts (docs/metrics.md, "Embeddings and rerank";
// docs/datasets.md, "Images in prompts"): the inputs a request carried, the results its answer
// held, and the bytes of the images in its prompt. Rows written before it read as a generation
// request without images (0, -1, 0). A step of its own so it can be renumbered when other steps
// land before it.
const char *const kVersionPooling[] = {
    "ALTER TABLE requests ADD COLUMN batch_items INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE requests ADD COLUMN result_items INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE requests ADD COLUMN image_bytes INTEGER NOT NULL DEFAULT 0",
};

struct Migration
{
    const char *const *statements;
    int count;
};

template <int N> constexpr Migration step(const char *const (&s)[N])
{
    return {s, N};
}

// Index i takes a file from version i to i + 1. Append only.
const Migration kMigrations[] = {step(kVersion1),         step(kVersion2),
                                 step(kVersion3),         step(kVersionSessions),
                                 step(kVersionReasoning), step(kVersionServerMetrics),
                                 step(kVersionStudies),   step(kVersionCacheCreation),
                                 step(kVersionPooling),   step(kVersionServerLogs)};

int versionAfter(const char *const *statements)
{
    // The version a step takes a file to: its index in kMigrations, plus one.
    for (int i = 0; i < int(std::size(kMigrations)); ++i)
        if (kMigrations[i].statements == statements)
            return i + 1;
    return int(std::size(kMigrations)) + 1;
}

bool exec(QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery q(db);
    if (q.exec(sql))
        return true;
    if (error)
        *error = q.lastError().text() + u" ["_s + sql.simplified().left(80) + u"]"_s;
    return false;
}

} // namespace

int ProjectSchema::currentVersion()
{
    return int(std::size(kMigrations));
}

int ProjectSchema::sessionColumnsVersion()
{
    return versionAfter(kVersionSessions);
}

int ProjectSchema::reasoningColumnsVersion()
{
    return versionAfter(kVersionReasoning);
}

int ProjectSchema::serverMetricsVersion()
{
    return versionAfter(kVersionServerMetrics);
}

int ProjectSchema::studiesVersion()
{
    return versionAfter(kVersionStudies);
}

int ProjectSchema::cacheCreationVersion()
{
    return versionAfter(kVersionCacheCreation);
}

int ProjectSchema::serverLogsVersion()
{
    return versionAfter(kVersionServerLogs);
}

int ProjectSchema::poolingColumnsVersion()
{
    return versionAfter(kVersionPooling);
}

int ProjectSchema::minimumReadableVersion()
{
    return 1;
}

bool ProjectSchema::migrate(QSqlDatabase &db, int from, int to, QString *error)
{
    if (from < 0 || to > currentVersion() || from > to) {
        if (error)
            *error = u"no migration from schema version %1 to %2"_s.arg(from).arg(to);
        return false;
    }
    for (int v = from; v < to; ++v) {
        if (!db.transaction()) {
            if (error)
                *error = db.lastError().text();
            return false;
        }
        bool ok = true;
        if (v == 0)
            ok = exec(db, u"PRAGMA application_id = %1"_s.arg(applicationId), error);
        const Migration &m = kMigrations[v];
        for (int i = 0; ok && i < m.count; ++i)
            ok = exec(db, QString::fromLatin1(m.statements[i]), error);
        if (ok && v == 0) {
            QSqlQuery q(db);
            q.prepare(u"INSERT INTO project_info (name, value) VALUES ('created_by', ?), "
                      "('created_utc', ?)"_s);
            q.addBindValue(u"ServeBench "_s + QString::fromLatin1(toolVersion()));
            q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
            ok = q.exec();
            if (!ok && error)
                *error = q.lastError().text();
        }
        if (ok)
            ok = exec(db, u"PRAGMA user_version = %1"_s.arg(v + 1), error);
        if (!ok || !db.commit()) {
            if (ok && error)
                *error = db.lastError().text();
            db.rollback();
            return false;
        }
    }
    return true;
}

} // namespace sb
