#pragma once

#include "common/message.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

// A selection study (docs/study.md): one question, a fixed system boundary, the same scenarios
// run on every candidate, each cell repeated, in a seeded interleaved order, ending in one
// decision with costs. This is its definition as the plain JSON file holds it (for review and
// version control) and as the project file stores each version of it.

// Where a candidate's costs come from: its own imported bills, or a price per hour per resource
// (the study then records that price as a pricing-page rate for the candidate's SUT).
struct StudyCost
{
    enum class Source { Bills, PricePerHour };
    Source source = Source::Bills;
    QString pricePerHour; // decimal text, in `currency`, per resource
    QString currency;
    int resources = 1;
    QString category = QStringLiteral("gpu");
    // How a bill item that only partly overlaps one of the candidate's test windows counts:
    // "prorate" (by time, the default) or "whole". Windows of one candidate overlap in time by
    // design (its scenarios are interleaved), so a study needs a rule.
    QString overlapRule = QStringLiteral("prorate");
};

// One candidate: a SUT. Either the built-in simulator (simulator = true, with its timing knobs)
// or an endpoint (baseUrl, ...). `flags` are further run flags of the SUT side (--header,
// --endpoint, --backend, ...).
struct StudyCandidate
{
    QString name; // the SUT's name in the project; unique within the study
    bool simulator = false;
    double simTtftMs = -1; // < 0: the simulator's default
    double simItlMs = -1;
    QString baseUrl;
    QStringList flags;
    StudyCost cost;
};

// The figure of merit of a "server" scenario: the highest Server rate its cell's rate search
// found VALID (req/s, higher is better). Not a comparison row: it is a search's result, not one
// run's (docs/study.md, "Server scenarios").
inline constexpr char kStudyMaxValidRate[] = "max_valid_rate";

// One scenario: a load profile with its SLOs, run on every candidate. kind says what the
// scenario's figure of merit is (docs/study.md): "open-loop" (latency percentiles and goodput;
// default rank by P99 TTFT), "offline" (measured output throughput), "single-stream" (P90
// latency), "server" (each cell a search for the highest rate that stays VALID under the
// scenario's Server constraints, the same search as `run --find-max-valid-rate`).
struct StudyScenario
{
    QString name;
    QString kind = QStringLiteral("open-loop");
    QStringList flags; // the load profile as run flags: --request-rate, --num-prompts, ...
    QString rankBy;    // a comparison row key ("ttft.p99", "output_throughput"); empty: kind's
    double ttftSloMs = -1;
    double tpotSloMs = -1;
    double e2elSloMs = -1;

    QString figureOfMerit() const; // rankBy, or the kind's default
    bool isRateSearch() const;     // kind "server": every cell is a rate search
};

// The fixed system boundary: the same on every cell.
struct StudyBoundary
{
    QString model;
    QStringList datasetFlags; // --dataset-name, --random-input-len, --dataset-path, ...
    QString datasetSha256;    // expected dataset hash; empty: the first cell's, held to by all
    QStringList requestFlags; // --ignore-eos, --temperature, ...
    QString tokenizer;        // --tokenizer; empty: none
    QString connectionMode = QStringLiteral("warm");
    // "cache-bust" | "as-is" | "reset" (the engine's reset before every cell, verified) |
    // "restart" (every candidate a managed server, started afresh for every cell)
    QString cachePolicy = QStringLiteral("cache-bust");
};

struct StudyIssue
{
    QString field; // "candidates[1].cost.price_per_hour"
    Message message;
    QString text() const; // "<field>: <message>" in English
};

struct StudyDefinition
{
    QString name;
    QString question;
    StudyBoundary boundary;
    QList<StudyScenario> scenarios;
    int repeats = 3;
    quint64 seed = 0;
    QString baseline; // a candidate's name; empty: the first candidate
    QList<StudyCandidate> candidates;

    // Reads the JSON form; every problem found is appended to *issues (type errors included),
    // and validate()'s are added when the shape was readable.
    static StudyDefinition fromJson(const QJsonObject &o, QList<StudyIssue> *issues);
    static StudyDefinition fromFile(const QString &path, QList<StudyIssue> *issues);
    QJsonObject toJson() const;
    // The canonical JSON (compact, keys sorted by QJsonDocument) and its sha256: two
    // definitions with the same hash run the same cells.
    QByteArray canonicalJson() const;
    QString sha256() const;

    // Everything wrong, each naming its field; empty when the study can run.
    QList<StudyIssue> validate() const;
    int baselineIndex() const;
    int candidateIndex(const QString &name) const;
    int scenarioIndex(const QString &name) const;

    // The run flags of one cell: the boundary, the scenario's load, the candidate's SUT, the
    // study's seed and a run name; parsed by parseRunFlags like any `servebench-cli run`.
    QStringList cellFlags(int candidate, int scenario, int repeat) const;
};

} // namespace sb
