#pragma once

// A finished run with its server scraped, as the workbench holds one (docs/server-metrics.md,
// "In a run"): a short run against the built-in simulator (a queue forms: 8 concurrent requests
// on 4 slots), scraped by the targets the run pipeline's buildScrapePlan() gives. With the GPU:
// "auto", the simulator's /metrics and its simulated DCGM exporter (dcgm-simulated). Without:
// the SUT's /metrics given as a URL, as for a vLLM server on a host without a DCGM exporter, so
// the run has no GPU power, energy or memory.

#include "../uiviews/uiviewstestutil.h"

#include "run/metricsplan.h"

#include <QProcessEnvironment>

namespace serverrun {

struct Run
{
    sb::RunPlan plan;
    QList<sb::RequestRecord> records;
    QList<sb::MetricSeriesStore> serverMetrics;
};

inline bool make(bool withGpu, Run *out, QString *error)
{
    using namespace sb;
    SimConfig cfg;
    cfg.ttftMs = 20;
    cfg.itlMs = 4;
    cfg.capacity = 4;
    Simulator sim(cfg);
    if (!sim.start()) {
        *error = QStringLiteral("the simulator did not start");
        return false;
    }
    RunPlan plan = uitest::simPlan(sim, 60, 8, 0);
    plan.name = QStringLiteral("sim-scraped");
    plan.profile.metricsIntervalS = 0.1;
    plan.sut.serverMetrics.sut =
        withGpu ? QStringLiteral("auto") : sim.baseUrl().toString() + QStringLiteral("/metrics");
    const ScrapePlan scrape =
        buildScrapePlan(plan, {}, {}, QProcessEnvironment::systemEnvironment(), {});
    if (scrape.targets.size() != (withGpu ? 2 : 1)) {
        *error = QStringLiteral("unexpected scrape plan: %1 target(s)").arg(scrape.targets.size());
        return false;
    }
    RunController controller;
    controller.configure(plan, uitest::promptItems(10, 24), {});
    MetricsScraper scraper;
    scraper.setTargets(scrape.targets);
    scraper.setOptions(scrape.options);
    controller.setMetricsScraper(&scraper);
    QSignalSpy finished(&controller, &RunController::finished);
    if (!scraper.start(error) || !controller.start(error))
        return false;
    if (!finished.wait(60000)) {
        *error = QStringLiteral("the run did not finish");
        return false;
    }
    scraper.stop(); // the "after" scrape
    out->plan = plan;
    out->records = controller.records();
    out->serverMetrics = scraper.stores();
    return true;
}

} // namespace serverrun
