#include "common/messagecatalogue_p.h"

#include <QtGlobal>

namespace sb {

namespace {

// The texts of the statistics a person reads (docs/statistics.md): verdicts of comparisons,
// why a test or an interval is not available, sample-size hints, the ranking with ties, the
// steady state, time slices, series and saturation as the reports and views show them. Kept
// apart from messagecatalogue.cpp so the statistics' texts live in one place. The templates
// of core/metrics' own reasons are here word for word, so Message::fromEnglish() finds them.
const MessageEntry kStatisticsEntries[] = {
    // --- verdicts (core/report/comparisonstats.cpp) ---
    QT_TRANSLATE_NOOP3("sb::Message", "better", "sig.verdict.better"),
    QT_TRANSLATE_NOOP3("sb::Message", "worse", "sig.verdict.worse"),
    QT_TRANSLATE_NOOP3("sb::Message", "no detectable difference at %1", "sig.verdict.none"),
    QT_TRANSLATE_NOOP3("sb::Message", "not available", "sig.verdict.na"),
    QT_TRANSLATE_NOOP3("sb::Message", "series %1 (%2 runs)", "sig.candidate.series"),
    // --- why a row has no verdict ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "not testable from one run: a run gives one value and no spread within "
                       "it; repeat the runs (--num-runs) on both sides to test it",
                       "sig.note.one_run"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "not testable: one side is a series of runs, the other a single run "
                       "(compare series with series over runs, or single runs per request)",
                       "sig.note.mixed"),
    QT_TRANSLATE_NOOP3("sb::Message", "not testable: %1 has no per-request results",
                       "sig.note.no_records"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "no interval: a test window's cost is one number, not a sample",
                       "sig.note.cost"),
    QT_TRANSLATE_NOOP3("sb::Message", "no value on one side", "sig.note.no_value"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "not tested: %1 inter-token gaps are too many for the clustered "
                       "bootstrap; TPOT, one value per request, is tested",
                       "sig.note.itl_too_large"),
    // --- sample-size hints ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "about %1 %2 per side would detect a %3 difference (%4 confidence, %5 "
                       "power)",
                       "sig.hint"),
    QT_TRANSLATE_NOOP3("sb::Message", "no estimate of the %1 needed to detect a %2 difference: %3",
                       "sig.hint.none"),
    QT_TRANSLATE_NOOP3("sb::Message", "requests", "sig.unit.requests"),
    QT_TRANSLATE_NOOP3("sb::Message", "requests (clustered)", "sig.unit.clustered"),
    QT_TRANSLATE_NOOP3("sb::Message", "runs", "sig.unit.runs"),
    QT_TRANSLATE_NOOP3("sb::Message", "pooled values", "sig.unit.pooled"),
    QT_TRANSLATE_NOOP3("sb::Message", "the comparison has no variance estimate",
                       "sig.hint.no_variance"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "the baseline estimate is 0, so a relative difference has no size",
                       "sig.hint.zero_baseline"),
    QT_TRANSLATE_NOOP3("sb::Message", "neither side varies, so any difference is detected at once",
                       "sig.hint.no_spread"),
    // --- ranking with ties ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "rank = 1 + the number of candidates significantly better (the pair's "
                       "interval excludes 0); candidates the data cannot separate may share a "
                       "rank",
                       "sig.rank.rule"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Tied: the data cannot separate %1 by %2 at %3; a tied rank is shared",
                       "sig.rank.ties"),
    QT_TRANSLATE_NOOP3("sb::Message", "Every candidate is separated from the others by %1 at %2",
                       "sig.rank.separated"),
    // --- the text block of `servebench-cli compare` ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Statistical tests at %1: each candidate against the baseline %2 "
                       "(difference [interval], relative difference [interval]: verdict)",
                       "sig.text.title"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "%1: compared over runs (the mean of its runs, %2 interval); %3",
                       "sig.text.series"),
    QT_TRANSLATE_NOOP3("sb::Message", "hint: %1", "sig.text.hint"),
    QT_TRANSLATE_NOOP3("sb::Message", "%1 (for the reason above)", "sig.text.as_above"),
    QT_TRANSLATE_NOOP3("sb::Message", "Ranking by %1 with ties (%2):", "sig.text.ranking"),
    QT_TRANSLATE_NOOP3("sb::Message", "tied with %1", "sig.text.tied_with"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "%1, pooled over its runs (the mean of the runs' values, %2 interval from "
                       "run-to-run variation):",
                       "sig.text.pooled"),
    QT_TRANSLATE_NOOP3("sb::Message", "(%1 runs)", "sig.text.pooled_runs"),
    // --- a series' cache state (core/run/runsession.cpp stores these words) ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cache-busted: every request of every run has a new random prefix",
                       "sig.cache.busted"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "not cache-busted: runs after the first may hit the server's prefix cache",
                       "sig.cache.not_busted"),
    QT_TRANSLATE_NOOP3("sb::Message", "cache state not recorded", "sig.cache.unknown"),

    // --- saturated points of the latency-versus-throughput curves (core/report/latencycurve.cpp)
    QT_TRANSLATE_NOOP3("sb::Message", "%1: stopped early as over-saturated — %2",
                       "curve.saturated.stopped"),
    QT_TRANSLATE_NOOP3("sb::Message", "%1: over-saturated, found in its records — %2",
                       "curve.saturated.detected"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Hollow points: runs that over-saturated the server; they measure the "
                       "queue, not the server.",
                       "curve.saturated.legend"),

    // --- core/metrics/significance.cpp's reasons, word for word ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "needs at least 2 %1 on each side (candidate %2, baseline %3)",
                       "sig.reason.few"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "p%1 needs at least %2 %3 a side for a %4 interval (candidate %5, baseline "
                       "%6)",
                       "sig.reason.percentile_few"),
    QT_TRANSLATE_NOOP3("sb::Message", "no distribution-free interval exists for %1",
                       "sig.reason.no_interval"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs at least 2 clusters a side", "sig.reason.clusters"),
    QT_TRANSLATE_NOOP3("sb::Message", "the baseline mean is 0", "sig.reason.zero_mean"),
    QT_TRANSLATE_NOOP3("sb::Message", "the baseline percentile is 0", "sig.reason.zero_percentile"),
    QT_TRANSLATE_NOOP3("sb::Message", "the baseline percentile is 0 in some resample",
                       "sig.reason.zero_resample"),
    QT_TRANSLATE_NOOP3("sb::Message", "the interval is not finite", "sig.reason.not_finite"),
    // --- core/metrics/confidence.cpp's reasons, word for word ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "p%1 needs at least %2 samples for a distribution-free %3 interval (has %4)",
                       "ci.reason.percentile_few"),
    QT_TRANSLATE_NOOP3("sb::Message", "no distribution-free interval exists for p%1",
                       "ci.reason.no_interval"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs at least 2 samples for a standard deviation (has %1)",
                       "ci.reason.mean_few"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs at least 2 clusters (has %1)", "ci.reason.clusters"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs at least 2 samples (has %1)", "ci.reason.samples"),
    // --- core/metrics/steadystate.cpp's reasons and rules, word for word ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "every request was sent at the same moment: there is no sending phase",
                       "steady.reason.one_moment"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "the warm-up lasted until the last send: the run never reached a steady "
                       "state (%1 s of sending, warm-up %2 s)",
                       "steady.reason.never"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "only %1 measured requests were sent in the steady window (at least %2 "
                       "needed)",
                       "steady.reason.few"),
    QT_TRANSLATE_NOOP3("sb::Message", "first completion", "steady.rule.completion"),
    QT_TRANSLATE_NOOP3("sb::Message", "in flight first reached %1", "steady.rule.level"),
    // --- the report's first page (core/report/decisionpage.cpp) ---
    QT_TRANSLATE_NOOP3("sb::Message", "The decision on one page", "report.p1.heading"),
    QT_TRANSLATE_NOOP3("sb::Message", "The question", "report.p1.question"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Do the candidates %1 differ, on the same workload, from the baseline %2?",
                       "report.p1.question_text"),
    QT_TRANSLATE_NOOP3("sb::Message", "Code", "report.p1.col.code"),
    QT_TRANSLATE_NOOP3("sb::Message", "Candidate", "report.p1.col.candidate"),
    QT_TRANSLATE_NOOP3("sb::Message", "Runs", "report.p1.col.runs"),
    QT_TRANSLATE_NOOP3("sb::Message", "baseline", "report.p1.baseline"),
    QT_TRANSLATE_NOOP3("sb::Message", "differs, see below", "report.p1.differs_below"),
    QT_TRANSLATE_NOOP3("sb::Message", "Verdict per key metric (%1 intervals)",
                       "report.p1.verdicts"),
    QT_TRANSLATE_NOOP3("sb::Message", "Baseline %1", "report.p1.col.baseline_value"),
    QT_TRANSLATE_NOOP3("sb::Message", "Value", "report.p1.col.value"),
    QT_TRANSLATE_NOOP3("sb::Message", "Difference [%1 interval]", "report.p1.col.difference"),
    QT_TRANSLATE_NOOP3("sb::Message", "Verdict", "report.p1.col.verdict"),
    QT_TRANSLATE_NOOP3("sb::Message", "Ranking by %1 (ties within %2 share a rank): %3",
                       "report.p1.ranking"),
    QT_TRANSLATE_NOOP3("sb::Message", "No value on either side, so no verdict: %1",
                       "report.p1.no_values"),
    QT_TRANSLATE_NOOP3("sb::Message", "Key metrics of the run (%1 intervals within it)",
                       "report.p1.key_metrics"),
    QT_TRANSLATE_NOOP3("sb::Message", "%1 interval", "report.p1.col.interval"),
    QT_TRANSLATE_NOOP3("sb::Message", "omitted: %1", "report.p1.omitted"),
    QT_TRANSLATE_NOOP3("sb::Message", "Cost", "report.p1.cost"),
    QT_TRANSLATE_NOOP3("sb::Message", "Test window", "report.p1.col.window"),
    QT_TRANSLATE_NOOP3("sb::Message", "%1 differs: %2", "report.p1.differs"),
    QT_TRANSLATE_NOOP3("sb::Message", "What was not comparable, not tested or not whole",
                       "report.p1.limits"),
    QT_TRANSLATE_NOOP3("sb::Message", "Nothing: the runs are comparable and complete.",
                       "report.p1.nothing"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Appendices: the details behind the first page. Runs are named by their "
                       "codes in narrow tables; the legend on the first page gives their full "
                       "names.",
                       "report.p1.appendices"),
    QT_TRANSLATE_NOOP3("sb::Message", "Appendix: the runs at a glance", "report.p1.appendix_runs"),
    // --- core/metrics/saturation.cpp's verdicts, word for word ---
    QT_TRANSLATE_NOOP3("sb::Message", "needs %1 s of data before judging (has %2 s)",
                       "sat.reason.early"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "over-saturated: in flight +%1/s and median TTFT +%2 ms/s over %3 s while "
                       "throughput did not grow",
                       "sat.reason.saturated"),
    QT_TRANSLATE_NOOP3("sb::Message", "not saturated: requests in flight are not rising materially",
                       "sat.reason.in_flight"),
    QT_TRANSLATE_NOOP3("sb::Message", "not saturated: TTFT is not rising materially",
                       "sat.reason.ttft"),
    QT_TRANSLATE_NOOP3("sb::Message", "not saturated: throughput is still growing",
                       "sat.reason.throughput"),
};

} // namespace

std::span<const MessageEntry> statisticsMessageCatalogue()
{
    return kStatisticsEntries;
}

} // namespace sb
