#pragma once

#include "client/transport.h"
#include "config/runplan.h"
#include "run/planvalidation.h"
#include "servermetrics/metricsscraper.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sb {

// Server metrics in the run pipeline (docs/server-metrics.md, "In runs"): the plan's settings
// checked, their one textual form (the CLI flags), and what a prepared run scrapes.
namespace metricslimits {
inline constexpr double kMinIntervalS = 0.05;
inline constexpr double kMaxIntervalS = 600;
inline constexpr int kMaxTargets = 16;
// The scrape timeout is this fraction of the interval, at most kMaxTimeoutMs: far enough below
// the interval that scrapes of one target never overlap.
inline constexpr double kTimeoutFraction = 0.6;
inline constexpr int kMaxTimeoutMs = 2000;
} // namespace metricslimits

// Adds the issues of the plan's server-metrics settings, keyed by their flags: "metrics" (auto,
// off or an http(s) URL without credentials), "metrics-target" (names unique and fit for file
// names, http(s) URLs without credentials, token references env:NAME or keychain:NAME, at most
// kMaxTargets) and "metrics-interval".
void validateServerMetrics(const RunPlan &plan, QList<PlanIssue> *issues);

// --metrics-target NAME=URL[,token-env=VARIABLE | ,token-keychain=ENTRY] and back.
bool parseMetricsTargetFlag(const QString &text, MetricsTarget *out, QString *error);
QString metricsTargetFlag(const MetricsTarget &target);

// What a prepared run scrapes: the targets with their headers (secrets in memory only) and the
// scraper's options; empty targets: nothing to scrape.
struct ScrapePlan
{
    QList<ScrapeTarget> targets;
    ScraperOptions options;
    QStringList notes; // for the user: what is scraped, tokens that could not be read

    bool enabled() const { return !targets.isEmpty(); }
};

// The target a scrape plan names itself for the SUT's own endpoint: a user's target may not take
// its name while it is scraped. (The simulator's GPU is kSimulatedGpuTargetName, metricsscraper.h.)
inline constexpr const char kSutTargetName[] = "sut";

// The URL "auto" scrapes for the SUT's own endpoint: its base URL's /metrics (the SUT editor
// shows it, so the rule lives here only).
QString sutMetricsUrl(const SutConfig &sut);

// The scraper's options for an interval: the timeout (see metricslimits) and the payload cap.
ScraperOptions scraperOptionsFor(double intervalS);

// Builds the scrape plan of a prepared plan (its base URL resolved: the simulator's port). The
// SUT's own endpoint carries the run's headers and API key and goes the run's route (proxy, CA
// file), as the requests do; "auto" makes it optional (switched off with a note when its first
// scrape fails), and for the built-in simulator adds its simulated GPU exporter (/dcgm/metrics,
// named kSimulatedGpuTargetName) the same way, when the plan names no target of its own. Extra
// targets carry a bearer token from `tokenRef`: env:NAME from `env`, keychain:NAME from `secrets`
// (what the front end read from the keychain).
ScrapePlan buildScrapePlan(const RunPlan &plan, const QByteArray &apiKey,
                           const TransportOptions &route, const QProcessEnvironment &env,
                           const QHash<QString, QByteArray> &secrets);

} // namespace sb
