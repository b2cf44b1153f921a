#include "studybundle.h"

#include "common/coretranslation.h"
#include "common/version.h"
#include "metrics/definitions.h"
#include "report/bundlewriter.h"
#include "report/reportcost.h"
#include "report/reportoutputs.h"
#include "report/reportrun.h"
#include "store/projectstore.h"
#include "study/studydecision.h"
#include "study/studyreport.h"
#include "study/studyscrub.h"
#include "study/studystore.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString readme(const QString &study, int version)
{
    return u"ServeBench acceptance bundle of study %1, version %2\n"
           "================================================\n\n"
           "Check integrity:   sha256sum -c MANIFEST.sha256\n"
           "Read the report:   study/report.html (self-contained, opens offline) or "
           "study/report.pdf\n\n"
           "study/definition.json          the study definition of this version as stored "
           "(credentials redacted)\n"
           "study/decision.json            the decision, as `servebench-cli study decide --json` "
           "writes it\n"
           "study/cells.csv                every cell and each of its attempts: state, run, the "
           "run's status (interrupted attempts too), reason\n"
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
           "runs/<id>/server-metrics/      one file per scraped Prometheus target\n"
           "runs/<id>/managed-server.*     the managed server that served the run: its facts "
           "and output\n"
           "study/managed-servers/         every start of a candidate's managed server, failed "
           "starts too: facts (.json) and output (.log)\n"
           "cost/                          bill items, their mapping to the study's test "
           "windows (one per candidate and scenario), window breakdowns\n"
           "manifest.json                  tool version, study, runs and every file with size "
           "and sha256\n"_s.arg(study)
               .arg(version);
}

// The decision's reason for a cell it left out (client saturated, cache state, ...), by
// 1-based position.
QHash<int, QString> leftOutReasons(const StudyDecision &d)
{
    QHash<int, QString> out;
    for (const StudyLeftOut &l : d.leftOut)
        out.insert(l.position, l.reason);
    return out;
}

QSet<qint64> pooledRuns(const StudyDecision &d)
{
    QSet<qint64> out;
    for (const StudyScenarioDecision &s : d.scenarios)
        for (const StudyCandidateResult &r : s.candidates)
            for (qint64 id : r.runIds)
                out.insert(id);
    return out;
}

// What cells.csv says of one run of a cell.
struct RunRow
{
    QString status;
    QString message;
};

// Every cell, one row per attempt: an interrupted attempt stays listed as such beside the
// attempt that completed the cell; a cell without a run (pending, or failed before its run
// began) has one row with no run.
QByteArray cellsCsv(const StudyStore &studies, const QList<StoredStudyCell> &cells,
                    const StudyDecision &d, const QHash<qint64, RunRow> &runs,
                    const QHash<qint64, int> &attemptOf)
{
    const QHash<int, QString> leftOut = leftOutReasons(d);
    const QSet<qint64> pooled = pooledRuns(d);
    QString csv =
        u"position,candidate,scenario,repeat,cell_state,attempt,run_id,run_status,pooled,reason\n"_s;
    const auto row = [&](const StoredStudyCell &c, int attempt, qint64 runId) {
        const bool current = runId == c.runId || runId <= 0;
        const RunRow r = runs.value(runId);
        QString reason = current ? c.reason : QString();
        if (reason.isEmpty() && current)
            reason = leftOut.value(c.position + 1);
        if (reason.isEmpty() && r.status != "completed"_L1)
            reason = r.message;
        if (reason.isEmpty() && r.status == "interrupted"_L1)
            reason = current ? u"interrupted: the cell runs again on resume"_s
                             : u"interrupted: the cell ran again"_s;
        csv += QStringList{QString::number(c.position + 1),
                           bundleCsvField(c.candidate),
                           bundleCsvField(c.scenario),
                           QString::number(c.repeat + 1),
                           c.state,
                           attempt > 0 ? QString::number(attempt) : QString(),
                           runId > 0 ? QString::number(runId) : QString(),
                           r.status,
                           runId > 0 && pooled.contains(runId) ? u"yes"_s : u"no"_s,
                           bundleCsvField(reason)}
                   .join(u',') +
               u'\n';
    };
    for (const StoredStudyCell &c : cells) {
        const QList<qint64> ids = studies.cellRuns(c.id);
        for (int i = 0; i < ids.size(); ++i)
            row(c, attemptOf.value(ids.at(i), i + 1), ids.at(i));
        // The last attempt made no run (its candidate could not prepare it), or none was made.
        if (c.runId <= 0 && (c.attempts > ids.size() || ids.isEmpty()))
            row(c, c.attempts > ids.size() ? c.attempts : 0, 0);
    }
    return csv.toUtf8();
}

} // namespace

bool writeStudyBundle(ProjectStore *store, const QString &studyName, int version,
                      const QString &dir, bool translate, const ReportRenderer *renderer,
                      QStringList *files, QString *error)
{
    if (!bundleTargetIsFree(dir, error))
        return false;
    // The decision is the one `study decide` derives (never a second derivation).
    StudyDecision d;
    if (!buildStudyDecision(store, studyName, version, &d, error))
        return false;
    StudyStore studies(store);
    const auto v = studies.version(studies.studyId(d.name), d.version);
    if (!v) {
        *error = studies.lastError();
        return false;
    }
    const QList<StoredStudyCell> cells = studies.cells(v->id);
    const QString html = studyReportHtml(d, translate);
    QByteArray pdf;
    if (renderer) {
        QString why;
        pdf = renderer->pdf(html, d.name, &why);
        if (pdf.isEmpty()) {
            *error = u"PDF: "_s + why;
            return false;
        }
    }

    BundleWriter w(dir);
    w.write(u"README.txt"_s, readme(d.name, d.version).toUtf8());
    w.write(u"study/definition.json"_s, bundleJson(scrubStudyDefinition(v->definition)));
    w.write(u"study/decision.json"_s, QJsonDocument(d.toJson()).toJson());
    w.write(u"study/report.html"_s, html.toUtf8());
    if (!pdf.isEmpty())
        w.write(u"study/report.pdf"_s, pdf);
    writeBundleDefinitions(w);

    // Every run a cell made, one at a time (a run's records can be large); a completed cell's
    // run with its candidate x scenario window for the cost files.
    QHash<QPair<QString, QString>, QString> windowOf;
    for (const StudyScenarioDecision &s : d.scenarios)
        for (const StudyCandidateResult &r : s.candidates)
            windowOf.insert({r.candidate, s.scenario}, r.window);
    QHash<QString, RunCost> windowCosts;
    QList<qint64> costRuns;
    QList<RunCost> costs;
    QHash<qint64, RunRow> runRows;
    QHash<qint64, int> attemptOf;
    QJsonArray runsJson;
    for (const StoredStudyCell &c : cells) {
        const QList<qint64> ids = studies.cellRuns(c.id);
        // A run is an attempt of its own, except the points of a rate search (a server
        // scenario's cell): those share their sweep row and are one attempt.
        int attempt = 0;
        qint64 sweep = 0;
        for (int i = 0; i < ids.size(); ++i) {
            ReportRun r;
            if (!loadReportRun(*store, ids.at(i), &r, error))
                return false;
            if (r.info.sweepId <= 0 || r.info.sweepId != sweep)
                ++attempt;
            sweep = r.info.sweepId;
            attemptOf.insert(r.id, attempt);
            runRows.insert(r.id, {r.input.status, r.input.statusMessage});
            QJsonObject entry = writeBundleRun(w, r);
            entry.insert(u"cell"_s, c.position + 1);
            entry.insert(u"attempt"_s, attempt);
            runsJson.append(entry);
            const QString window = windowOf.value({c.candidate, c.scenario});
            if (c.state != "completed"_L1 || r.id != c.runId || window.isEmpty())
                continue;
            if (!windowCosts.contains(window))
                windowCosts.insert(window, windowCost(*store, window));
            costRuns << r.id;
            costs << windowCosts.value(window);
        }
    }
    w.write(u"study/cells.csv"_s, cellsCsv(studies, cells, d, runRows, attemptOf));
    // Every start of a candidate's managed server since this version was defined, those that
    // never became healthy too (a failed cell's reason quotes their last lines;
    // docs/managed-servers.md).
    QSet<QString> candidates;
    for (const StoredStudyCell &c : cells)
        candidates.insert(c.candidate);
    const QString since = v->createdUtc.toString(Qt::ISODateWithMs);
    for (const StoredServerLog &brief : store->listServerLogs()) {
        if (!candidates.contains(brief.sut) || brief.startedUtc < since)
            continue;
        const auto log = store->loadServerLog(brief.instance);
        if (!log)
            continue;
        QString name = log->sut + u'-' + log->instance;
        name.replace(QRegularExpression(u"[^A-Za-z0-9._-]"_s), u"_"_s);
        w.write(u"study/managed-servers/%1.json"_s.arg(name), bundleJson(log->info));
        w.write(u"study/managed-servers/%1.log"_s.arg(name), log->output);
    }
    writeBundleCosts(w, costRuns, costs);
    return finishBundle(
        w, dir,
        QJsonObject{{u"format"_s, u"servebench-acceptance-bundle"_s},
                    {u"format_version"_s, 1},
                    {u"kind"_s, u"study"_s},
                    {u"tool_version"_s, QString::fromLatin1(toolVersion())},
                    {u"created_utc"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                    {u"title"_s, u"study %1 v%2"_s.arg(d.name).arg(d.version)},
                    {u"study"_s, d.name},
                    {u"version"_s, d.version},
                    {u"definition_sha256"_s, d.sha256},
                    {u"cells"_s, d.cells},
                    {u"completed_cells"_s, d.completedCells},
                    {u"report_language"_s, translate ? coreTranslationLanguage() : u"en"_s},
                    {u"metric_definitions_version"_s, kMetricDefinitionsVersion},
                    {u"runs"_s, runsJson}},
        files, error);
}

} // namespace sb
