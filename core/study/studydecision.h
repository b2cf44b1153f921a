#pragma once

#include "common/message.h"
#include "metrics/series.h"
#include "metrics/significance.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sb {

class ProjectStore;

// One metric of one candidate in one scenario: the run-level value of each completed repeat and
// their mean with its interval (Student's t over the repeats: the interval reflects run-to-run
// variation, not only the samples within a run).
struct StudyFigure
{
    QString key; // a comparison row key: "ttft.p99", "output_throughput", ...
    QList<double> values;
    SeriesStats stats;
};

// One rate search of a server scenario's cell (docs/study.md, "Server scenarios"): its points
// and the highest rate among them whose run is VALID (recomputed from the runs' records).
struct StudySearch
{
    qint64 runId = 0;       // the cell's run: the highest VALID point, else the lowest tried
    QList<qint64> points;   // every run of the search, oldest first
    double validRate = 0;   // req/s; 0 when no point was VALID
    double lowestTried = 0; // the lowest rate found INVALID (0: none)
};

struct StudyCandidateResult
{
    QString candidate;
    QList<qint64> runIds;        // the completed repeats pooled
    StudyFigure merit;           // the scenario's figure of merit
    Message meritNote;           // why the merit is not available (n/a), when it is not
    QList<StudySearch> searches; // a server scenario: each pooled repeat's search
    QList<StudyFigure> figures;
    bool baseline = false;
    int rank = 0; // 1 = best; 0 = unranked (no completed repeat)
    bool tied = false;
    QStringList tiedWith;
    Verdict verdict = Verdict::NotAvailable; // against the baseline, on the figure of merit
    // Unit costs from the candidate's test window for this scenario (its bills or its price).
    QString window;
    QString currency;
    std::optional<double> costPerRequest;
    std::optional<double> costPerMillionOutputTokens;
    // Their 95 % intervals carried from the throughput's over the repeats: over a window the
    // cost is fixed and the unit cost goes as 1 / throughput, so [cost x mean / hi, cost x
    // mean / lo] of the request (output token) throughput's interval. Empty without one.
    std::optional<std::pair<double, double>> costPerRequestInterval;
    std::optional<std::pair<double, double>> costPerMillionOutputTokensInterval;
    QString costNote; // why a cost is not available
};

struct StudyScenarioDecision
{
    QString scenario;
    QString kind;
    QString meritKey;
    Message meritLabel;
    QString unit;
    bool lowerIsBetter = true;
    int decimals = 2;
    QList<StudyCandidateResult> candidates; // in definition order
    QList<int> order;                       // candidate indexes, best first (unranked last)
};

// A cell left out of the decision, with its reason.
struct StudyLeftOut
{
    int position = 0; // 1-based
    QString candidate;
    QString scenario;
    int repeat = 0; // 1-based
    QString state;
    QString reason;
};

// The decision of a study (docs/study.md, "Decision"), derived once from the project and shown
// the same by every front end: per scenario and candidate the figure of merit pooled over the
// repeats with its 95 % interval, the ranking with ties (separated only when the intervals do not
// overlap), each candidate's verdict against the baseline, the unit costs of its test window,
// and every cell left out with its reason. Runs of other versions of the definition are never
// pooled in.
struct StudyDecision
{
    QString name;
    QString question;
    int version = 0;
    QString sha256;
    QJsonObject definition; // as stored, credentials redacted (scrubStudyDefinition)
    Message orderNote;
    QString baseline;
    double confidence = 0.95;
    int cells = 0;
    int completedCells = 0;
    QList<StudyScenarioDecision> scenarios;
    QList<StudyLeftOut> leftOut;
    QStringList notes;

    // Candidates with no completed cell at all.
    QStringList missingCandidates() const;
    QJsonObject toJson() const;
    // English unless `translate`: then in the installed language.
    QString formatText(bool translate = false) const;
};

// Loads the study's version (0: the latest) from an open project and derives its decision.
// Makes the test windows first when the project is writable (ensureStudyWindows).
bool buildStudyDecision(ProjectStore *store, const QString &studyName, int version,
                        StudyDecision *out, QString *error);

// The label, unit, direction and decimals of a row key as the study shows it.
struct StudyMetricInfo
{
    Message label;
    QString unit;
    bool lowerIsBetter = true;
    int decimals = 2;
};
StudyMetricInfo studyMetricInfo(const QString &key);

// "50.33 [50.27, 50.38]": a pooled figure with its interval as the decision's text and the
// report print it ("n/a" without a completed repeat).
QString studyIntervalText(const SeriesStats &s, int decimals);

// "0.000100 [0.000098, 0.000103]" (the interval when there is one), "n/a" without a value.
QString studyCostText(const std::optional<double> &value,
                      const std::optional<std::pair<double, double>> &interval, int decimals);

} // namespace sb
