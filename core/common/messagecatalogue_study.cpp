#include "common/messagecatalogue_p.h"

#include <QtGlobal>

namespace sb {

namespace {

// The texts of selection studies (docs/study.md): the definition's validation, the order, the
// decision's text and the reasons a cell is left out. The executor's reasons are stored in
// English; their templates are here word for word, so Message::fromEnglish() finds them.
const MessageEntry kStudyEntries[] = {
    QT_TRANSLATE_NOOP3("sb::Message", "is required", "study.required"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a string", "study.type.string"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a number", "study.type.number"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be an array of strings", "study.type.strings"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be an object", "study.type.object"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be an array", "study.type.array"),
    QT_TRANSLATE_NOOP3("sb::Message", "cannot be read: %1", "study.file.unreadable"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "%1 carries a credential written out, which the project file would keep: "
                       "give the key in the environment or the keychain and write {api_key} "
                       "where it goes",
                       "study.literal_secret"),
    QT_TRANSLATE_NOOP3("sb::Message", "is not a study definition: %1", "study.file.json"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and 100, got %1", "study.repeats"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be cache-bust, as-is, reset or restart, got '%1'",
                       "study.cache_policy"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "restart needs every candidate to be a managed server (--server-start-cmd "
                       "in its flags); %1 is not",
                       "study.cache_policy.restart"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be warm, per-request or lazy, got '%1'",
                       "study.connection_mode"),
    QT_TRANSLATE_NOOP3("sb::Message", "%1 is set by the study itself and may not be given here",
                       "study.flags.reserved"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs at least one scenario", "study.scenarios.none"),
    QT_TRANSLATE_NOOP3("sb::Message", "'%1' is used twice: names must be unique",
                       "study.name.duplicate"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be open-loop, offline, single-stream or server, got '%1'",
                       "study.scenario.kind"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs at least two candidates", "study.candidates.few"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "is required unless the candidate is the built-in simulator (\"simulator\": {})",
        "study.candidate.where"),
    QT_TRANSLATE_NOOP3("sb::Message", "must not be given for the built-in simulator",
                       "study.candidate.both"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be bills or price_per_hour, got '%1'",
                       "study.cost.source"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be prorate or whole, got '%1'", "study.cost.overlap"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a positive decimal amount, got '%1'",
                       "study.cost.price"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a three-letter currency code (ISO 4217), got '%1'",
                       "study.cost.currency"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be at least 1, got %1", "study.cost.resources"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be gpu, cpu, storage, network, platform or other, got '%1'",
                       "study.cost.category"),
    QT_TRANSLATE_NOOP3("sb::Message", "names no candidate: '%1'", "study.baseline.unknown"),
    QT_TRANSLATE_NOOP3("sb::Message", "the cell's run flags are not a valid run: %1",
                       "study.flags.invalid"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Order: %1 repeat blocks; within each, every scenario on every candidate, "
                       "the candidates in a Latin-square rotation seeded with %2 (%3), so that "
                       "drift in the environment falls on every candidate alike.",
                       "study.order"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and 600000 milliseconds",
                       "plan.sim.timing"),
    QT_TRANSLATE_NOOP3("sb::Message", "baseline", "study.verdict.baseline"),
    QT_TRANSLATE_NOOP3("sb::Message", "tied with the baseline (intervals overlap)",
                       "study.verdict.tied"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Ranking with ties: each figure is the mean over the repeats with its %1 "
                       "interval (Student t over the repeats' run-level values, so it reflects "
                       "run-to-run variation); two candidates are separated only when their "
                       "intervals do not overlap, otherwise they are tied and share a rank.",
                       "study.rank.rule"),
    QT_TRANSLATE_NOOP3("sb::Message", "Study %1, version %2 (definition sha256 %3…)",
                       "study.text.title"),
    QT_TRANSLATE_NOOP3("sb::Message", "Question: %1", "study.text.question"),
    QT_TRANSLATE_NOOP3("sb::Message", "Cells completed: %1 of %2", "study.text.cells"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Scenario %1 (%2): ranked by %3, lower is better; mean over the repeats "
                       "with its %4 interval",
                       "study.text.scenario.lower"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Scenario %1 (%2): ranked by %3, higher is better; mean over the repeats "
                       "with its %4 interval",
                       "study.text.scenario.higher"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Cost per successful request and per 1M output tokens (the candidate's test "
                       "window for this scenario):",
                       "study.text.cost"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Other metrics (mean [interval] over the repeats):", "study.text.other"),
    QT_TRANSLATE_NOOP3("sb::Message", "Left out of the decision: %1 cell(s)",
                       "study.text.left_out"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "Missing: no completed cell of %1; the decision is between the other candidates.",
        "study.text.missing"),
    QT_TRANSLATE_NOOP3("sb::Message", "Note: %1", "study.text.note"),
    QT_TRANSLATE_NOOP3("sb::Message", "every request failed (%1 failed, none completed)",
                       "study.reason.all_failed"),
    QT_TRANSLATE_NOOP3("sb::Message", "different dataset hash (%1, the study's is %2)",
                       "study.reason.dataset"),
    QT_TRANSLATE_NOOP3("sb::Message", "not run yet", "study.reason.not_run"),
    QT_TRANSLATE_NOOP3("sb::Message", "running, or interrupted", "study.reason.running"),
    QT_TRANSLATE_NOOP3("sb::Message", "no test window (no completed cell)",
                       "study.reason.no_window"),
    QT_TRANSLATE_NOOP3("sb::Message", "the run ended %1", "study.reason.ended"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "Boundary: model %1 · dataset %2 · request %3 · connection %4 · cache %5",
                       "study.report.boundary"),
    QT_TRANSLATE_NOOP3("sb::Message", "candidate", "study.report.candidate"),
    QT_TRANSLATE_NOOP3("sb::Message", "runs", "study.report.runs"),
    QT_TRANSLATE_NOOP3("sb::Message", "verdict", "study.report.verdict"),
    QT_TRANSLATE_NOOP3("sb::Message", "cost per successful request", "study.report.cost_request"),
    QT_TRANSLATE_NOOP3("sb::Message", "cost per 1M output tokens", "study.report.cost_tokens"),
    QT_TRANSLATE_NOOP3("sb::Message", "Method", "study.report.method"),
    QT_TRANSLATE_NOOP3("sb::Message", "scenario", "study.report.scenario"),
    QT_TRANSLATE_NOOP3("sb::Message", "kind", "study.report.kind"),
    QT_TRANSLATE_NOOP3("sb::Message", "load", "study.report.load"),
    QT_TRANSLATE_NOOP3("sb::Message", "Repeats per cell: %1 · order seed: %2 · baseline: %3",
                       "study.report.repeats"),
    QT_TRANSLATE_NOOP3("sb::Message", "metric", "study.report.metric"),
    QT_TRANSLATE_NOOP3("sb::Message", "test window", "study.report.window"),
    QT_TRANSLATE_NOOP3("sb::Message", "Cost source: %1", "study.report.cost_source"),
    QT_TRANSLATE_NOOP3("sb::Message", "client saturated: %1", "study.reason.client"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "completed, but left out of the decision: the client, not the candidate, "
                       "was measured (%1)",
                       "study.reason.client_left_out"),
    QT_TRANSLATE_NOOP3("sb::Message", "cache state not as the study says (%1)",
                       "study.reason.cache"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cell #%1 %2 · %3 · r%4 kept: its client sent late (lateness p99 %5 ms, "
                       "above %6 ms) but met the offered rate, and TTFT counts from the send",
                       "study.note.late_kept"),
    // Server scenarios: each cell a search for the highest rate that stays VALID.
    QT_TRANSLATE_NOOP3("sb::Message",
                       "max_valid_rate is the figure of merit of a server scenario (a rate "
                       "search), not of a %1 one",
                       "study.rank_by.search"),
    QT_TRANSLATE_NOOP3("sb::Message", "Highest valid Server rate", "study.merit.max_valid_rate"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "no valid rate: none of its %1 searches found a VALID Server rate",
                       "study.merit.none_valid"),
    QT_TRANSLATE_NOOP3("sb::Message", "highest VALID Server rate %1 req/s (%2 rates tried)",
                       "study.reason.search_valid"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "no Server rate tried was VALID (lowest tried %1 req/s): the search's result is 0",
        "study.reason.search_none"),
};

} // namespace

std::span<const MessageEntry> studyMessageCatalogue()
{
    return kStudyEntries;
}

} // namespace sb
