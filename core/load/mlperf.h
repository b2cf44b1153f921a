#pragma once

#include "common/message.h"
#include "earlystopping.h"
#include "metrics/recordset.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <limits>

namespace sb {

enum class Scenario;

// What a scenario is judged against. A bound or minimum that is < 0 (bounds) or 0 (minimums) is
// not checked.
struct MlperfConstraints
{
    QString preset;           // the preset it came from, "" for a custom set
    double percentile = 0.99; // Server 0.99; SingleStream 0.90 (LoadGen's defaults)
    double confidence = 0.99; // early-stopping confidence
    double ttftBoundMs = -1;  // Server: TTFT p-th percentile bound
    double tpotBoundMs = -1;  // Server: TPOT p-th percentile bound
    qint64 minQueryCount = 0; // Server/SingleStream: queries; Offline: samples
    double minDurationS = 0;  // MLPerf: 600

    QJsonObject toJson() const;
};

// Presets (mlperf.conf of MLPerf Inference v5.x; bounds are p99 in ms):
//   llama2-70b-server        TTFT 2000 / TPOT 200
//   llama2-70b-interactive   TTFT  450 / TPOT  40
//   llama3.1-8b-server       TTFT 2000 / TPOT 100
//   llama3.1-8b-interactive  TTFT  500 / TPOT  30
//   llama3.1-405b-server     TTFT 6000 / TPOT 175
// all with min duration 600 s and min query count 100 (mlperf.conf sets no Server
// min_query_count for the LLMs, so LoadGen's default of 100 applies, as the published
// llama2-70b Server summaries show), and
//   llama2-70b-offline 24576, llama3.1-8b-offline 13368, llama3.1-405b-offline 8313 samples
//   (mlperf.conf <model>.Offline.min_query_count), min duration 600 s;
//   single-stream: p90, min duration 600 s, min query count 100.
QStringList mlperfPresetNames();
bool mlperfPreset(const QString &name, MlperfConstraints *out);

struct MlperfJudgement
{
    Scenario scenario{};
    MlperfConstraints constraints;
    bool valid = false;
    QStringList failedConstraints; // e.g. "TTFT p99 2345.1 ms > 2000 ms", "early stopping (TTFT)"
    // The same reasons for display in the reader's language (failedConstraints = their text(),
    // what the JSON and the LoadGen-style block keep).
    QList<Message> failedConstraintMessages;

    qint64 queries = 0; // measured (non-warm-up) requests, failed included
    qint64 failedQueries = 0;
    double durationS = 0; // Server: last t_sched - first t_sched; SingleStream: last t_send -
                          // first t_sched; Offline: last completion - first t_sched
    bool minQueryCountMet = true;
    bool minDurationMet = true;
    bool perfConstraintsMet = true; // Server only

    // Server: LoadGen's sorted[floor(N p)] over successful requests, latencies from t_sched.
    bool ttftChecked = false;
    bool tpotChecked = false;
    double ttftPercentileMs = std::numeric_limits<double>::quiet_NaN();
    double tpotPercentileMs = std::numeric_limits<double>::quiet_NaN();
    EarlyStoppingResult ttftEarlyStopping;
    EarlyStoppingResult tpotEarlyStopping;

    // SingleStream: the result is e2elEarlyStopping.estimateMs (E2E latency from t_sched).
    EarlyStoppingResult e2elEarlyStopping;

    // Offline.
    double samplesPerSecond = 0;
    double tokensPerSecond = 0; // output tokens of successful requests / duration

    bool earlyStoppingMet() const;
    QJsonObject toJson() const;
    QString formatMlperfBlock() const;
};

// Judges the measured (non-warm-up) records of one run the way LoadGen judges a scenario.
// Latencies are measured from t_sched (LoadGen's rule; t_send when t_sched is 0):
//   TTFT = t_first - t_sched, E2EL = t_last - t_sched, TPOT = (t_last - t_first)/(n_out - 1)
//   (TPOT 0 when n_out <= 1, like LoadGen's per-sample TPOT array that must have one entry per
//   query, and vLLM's goodput).
// Failed requests (MLPerf has none): Server counts each as a query over both bounds in early
// stopping (they stay out of the percentile statistic, like every latency statistic);
// SingleStream gives them an infinite latency; Offline, where every sample must be processed,
// is INVALID with any failed request.
MlperfJudgement judgeScenario(Scenario scenario, const RecordSet &records,
                              const MlperfConstraints &constraints);

// LoadGen's percentile: sorted[size_t(N * p)] of an ascending list (N > 0), index clamped to N-1.
double loadgenPercentile(const QList<double> &sortedAscending, double p);

} // namespace sb
