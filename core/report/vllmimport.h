#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "metrics/summary.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

// A `vllm bench serve --save-result` file (vllm/benchmarks/serve.py, or the older
// benchmarks/benchmark_serving.py) read as a ServeBench run.
//
// With --save-detailed the file holds per-request arrays (input_lens, output_lens, ttfts, itls,
// errors; seconds). They become RequestRecords on a synthetic monotonic time base: every
// request is sent at the same instant (the file has no send times, unless it carries
// ServeBench's own start_times), its first chunk at t_send + ttft and each later chunk one itl
// gap after the previous one, so E2EL = ttft + Σ itl — what vLLM's request functions measure.
// The run's end is stretched to the file's `duration`, so summarize() reproduces the file's
// throughputs and every TTFT / TPOT / ITL / E2EL statistic. What the time base cannot carry —
// schedule lag, client queue time, achieved rate, peak concurrency — is marked unavailable.
//
// Without the arrays only the file's summary exists: the run is stored with no request records
// and the snapshot says raw records are unavailable.
struct VllmImport
{
    QString path;
    QString sha256;   // of the file bytes
    QJsonObject file; // the result object (arrays included)
    bool detailed = false;
    RunPlan plan;         // what the file states: model, backend, rate, burstiness, concurrency
    QJsonObject snapshot; // plan JSON + "imported", "unknown_fields", "dataset_info", ...
    QList<RequestRecord> records; // detailed only, in file order
    RunSummary fileSummary;       // the file's own statistics
    QStringList notes;            // what could not be reproduced or had to be assumed
};

// Reads the result JSON. A file written with --append-result holds one object per line: `entry`
// picks one (0-based); the count is reported in *entries. Returns false with a reason for
// anything that is not a vLLM serving result.
bool parseVllmResult(const QByteArray &data, const QString &path, VllmImport *out, QString *error,
                     int entry = 0, int *entries = nullptr);
bool readVllmResultFile(const QString &path, VllmImport *out, QString *error, int entry = 0);

// The statistics of a vLLM result object as a RunSummary (only what the file has: counts,
// duration, token totals, throughputs, goodput and the mean / median / std / p<x> of TTFT,
// TPOT, ITL and E2EL; count is the number of completed requests where the file has the metric).
RunSummary runSummaryFromVllmJson(const QJsonObject &o);

// Marks what a vLLM import cannot tell (RunSummary::unavailable), with the reason: schedule lag,
// client queue time, achieved rate, the from-t_sched latencies and cached tokens always; for
// per-request records without send times also the peaks; for a summary-only import also ITL
// per token and goodput.
void markImportedUnavailable(RunSummary *summary, bool detailedWithoutSendTimes);
// The same for a stored run, from its snapshot's "imported" object. False for a run that was
// not imported (nothing marked).
bool markImportedUnavailable(const QJsonObject &snapshot, RunSummary *summary);

// A stored run imported without per-request results has no records to recompute from: its
// summary is the file's own (stored under "imported_file_summary" of the run's summary JSON).
// Fills *out and returns true for such a run; false for any other.
bool importedFileSummary(const QJsonObject &snapshot, const QJsonObject &storedSummary,
                         RunSummary *out);

// Every statistic in the file that `recomputed` does not reproduce within `toleranceMs`
// (counts exactly, throughputs relatively 1e-6): "mean_ttft_ms: file 12.5, recomputed 12.7".
QStringList compareWithVllmFile(const RunSummary &recomputed, const QJsonObject &file,
                                double toleranceMs = 1e-3);

// Guesses the error class from a vLLM error string (an HTTP reason, an exception text).
ErrorClass classifyVllmError(const QString &message);

// Writes the import into the project (created when missing) through RunWriter as a completed
// run named `name` (empty: from the file). Returns the run id, 0 with *error on failure.
qint64 storeVllmImport(const VllmImport &imp, const QString &projectPath, const QString &name,
                       QString *error);

} // namespace sb
