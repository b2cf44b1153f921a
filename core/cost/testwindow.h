#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>

class QJsonObject;

namespace sb {

// What to do with a bill item that only partly overlaps a test window. There is no default:
// an undecided item is reported as "needs a decision" and left out of the totals.
enum class OverlapRule { Undecided, Prorate, IncludeWhole };
const char *overlapRuleName(OverlapRule r); // "undecided" | "prorate" | "whole"
bool overlapRuleFromName(QStringView name, OverlapRule *out);

// One run inside a test window, with the counts the unit costs divide by.
struct WindowRun
{
    QString runId;
    QDateTime start; // UTC wall clock of the run's first send
    QDateTime end;   // UTC wall clock of its last completion
    qint64 successfulRequests = 0;
    qint64 outputTokens = 0; // of successful requests
    // Describes the run's load ("poisson 8 req/s, max concurrency 64"); runs whose descriptors
    // differ make the breakdown carry a "different loads" warning.
    QString load;
    // The GPU energy the run's server metrics measured over its window (joules: the energy
    // counter's increase, or the integral of the power; docs/server-metrics.md); NaN when the
    // run measured none.
    double energyJ = std::numeric_limits<double>::quiet_NaN();

    QJsonObject toJson() const;
    static WindowRun fromJson(const QJsonObject &o);
};

// A named interval [start, end) on one SUT over which bill items are attributed to runs.
struct TestWindow
{
    QString id;
    QString name;
    QString sut;     // the SUT's name; the caller passes that SUT's bill items
    QDateTime start; // UTC
    QDateTime end;   // UTC, exclusive
    QList<WindowRun> runs;
    // Per bill item id: the user's choice for an item that only overlaps this window.
    QHash<QString, OverlapRule> overlapRules;

    // The window spanning the runs exactly: [earliest start, latest end).
    static TestWindow fromRuns(const QString &name, const QString &sut,
                               const QList<WindowRun> &runs);

    qint64 startMs() const { return start.toMSecsSinceEpoch(); }
    qint64 endMs() const { return end.toMSecsSinceEpoch(); }
    qint64 successfulRequests() const;
    qint64 outputTokens() const;
    // The energy its runs measured, added up; NaN when a run measured none (or there is none).
    double energyJ() const;
    // The runs that measured no energy, by id.
    QStringList runsWithoutEnergy() const;
    // The distinct load descriptors of the runs, in run order ("" shown as "not stated").
    QStringList distinctLoads() const;
    OverlapRule ruleFor(const QString &itemId) const
    {
        return overlapRules.value(itemId, OverlapRule::Undecided);
    }

    // Everything wrong with the window: invalid or empty interval, a run outside the window or
    // with end before start, duplicate run ids, negative counts.
    QStringList validate() const;

    QJsonObject toJson() const;
    static TestWindow fromJson(const QJsonObject &o);
};

} // namespace sb
