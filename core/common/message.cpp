#include "message.h"

#include <QCoreApplication>
#include <QHash>

namespace sb {

namespace {

// The catalogue: identifier and English template. QT_TRANSLATE_NOOP3 marks each template for
// lupdate under the context "sb::Message" with the identifier as its disambiguation, so the
// translation catalogue (translations/*.ts) carries one entry per identifier.
struct Entry
{
    const char *text;
    const char *id;
};

const Entry kCatalogue[] = {
    // --- run plan validation (core/run/planvalidation.cpp); the front end names the field ---
    QT_TRANSLATE_NOOP3("sb::Message", "is required", "plan.url.missing"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be an http:// or https:// URL, got '%1'",
                       "plan.url.invalid"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "must not hold a user name or password (it would be stored with the run and shown in "
        "reports): give an API key through the keychain or the OPENAI_API_KEY environment "
        "variable instead",
        "plan.url.credentials"),
    QT_TRANSLATE_NOOP3("sb::Message", "must not contain spaces or control characters",
                       "plan.url.control"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a path without spaces or control characters",
                       "plan.endpoint.control"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs a header name before the value",
                       "plan.header.empty_name"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "'%1' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)",
                       "plan.header.bad_name"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "the value of '%1' holds a carriage return, line feed or NUL character, which would "
        "start a header of its own",
        "plan.header.bad_value"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "must not hold a password (it would be stored with the run and shown in reports); "
        "put the proxy URL with its credentials in the https_proxy / http_proxy environment "
        "variable instead",
        "plan.proxy.password"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1", "plan.num_prompts.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1 seconds", "plan.duration.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must not be negative", "plan.not_negative"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be shorter than the run's duration",
                       "plan.warmup_seconds.whole_run"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "needs a finite request rate or a closed loop (with an unlimited rate every request "
        "is sent at t = 0)",
        "plan.warmup_seconds.unlimited_rate"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be more than 0 and at most %1 seconds",
                       "plan.timeout.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a finite rate", "plan.rate.finite"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between %1 and %2 requests per second",
                       "plan.rate.range"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be between %1 and %2 requests per second, or inf (unlimited)",
                       "plan.rate.range_or_inf"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "%1 requests at %2 per second would take longer than %3 days; raise the rate or send "
        "fewer requests",
        "plan.rate.span"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between %1 and %2", "plan.burstiness.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be at least the start rate: a ramp-up climbs",
                       "plan.ramp.down"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1", "plan.concurrency.range"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "and a concurrency cap exclude each other: choose a closed loop (keep C in flight) or "
        "a cap on an open loop, not both",
        "plan.concurrency.both"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1", "plan.trace_time_scale.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "replays its own arrival times: a ramp-up cannot apply",
                       "plan.trace.with_ramp"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "with an unlimited rate needs a concurrency cap or a closed loop",
                       "plan.duration.unlimited_rate"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be finite for the Server scenario",
                       "plan.server.finite_rate"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be poisson: the MLPerf Server scenario uses Poisson arrivals",
                       "plan.server.poisson"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "does not apply to the Server scenario, whose arrivals are an open Poisson process",
        "plan.server.closed_loop"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be unlimited (inf): the Offline scenario issues every request at once",
                       "plan.offline.rate"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be 1 or unset: SingleStream sends one query at a time",
                       "plan.single_stream.concurrency"),
    QT_TRANSLATE_NOOP3("sb::Message", "'%1' is not a known MLPerf preset", "plan.mlperf.preset"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be above 0 and below 100", "plan.slo_percentile.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be numbers from 0 to 100, got %1",
                       "plan.percentile.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "knows ttft, tpot, itl and e2el, got '%1'",
                       "plan.percentile_metrics.unknown"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be a finite number of milliseconds",
                       "plan.goodput.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "is required for a %1 dataset", "plan.dataset.path_missing"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1 tokens", "plan.tokens.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be at least 0 and below 1", "plan.range_ratio.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and 100", "plan.temperature.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1 rates", "plan.sweep.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be above 0 and below 1", "plan.rate_tolerance.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "searches Server rates: the scenario must be server",
                       "plan.search.server"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "needs latency bounds: a TTFT or TPOT bound or an "
                       "MLPerf preset",
                       "plan.search.bounds"),
    QT_TRANSLATE_NOOP3("sb::Message", "runs one plan: sweeps and rate searches are not sharded",
                       "plan.shard.single"),
    QT_TRANSLATE_NOOP3(
        "sb::Message",
        "needs an endpoint all agents share (a base URL): each agent would otherwise "
        "benchmark its own built-in simulator",
        "plan.shard.simulator"),
    // --- sessions (docs/sessions.md) ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be none for a session workload: MLPerf scenarios are single-request "
                       "(each query stands alone), so a multi-turn run cannot be judged as one",
                       "plan.sessions.mlperf"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "does not apply to a session workload: sweeps and rate searches vary a "
                       "request rate, and sessions arrive at a session rate",
                       "plan.sessions.search"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cannot replay sessions: a trace's rows are single requests at their own "
                       "times (leave out --multi-turn)",
                       "plan.sessions.trace"),
    QT_TRANSLATE_NOOP3("sb::Message", "does not apply to a session workload", "plan.sessions.ramp"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "applies to single requests: sessions arrive at --session-rate (sessions "
                       "per second) or run as --users concurrent users",
                       "plan.sessions.request_rate"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "keeps requests in flight: a closed loop of sessions is --users (each "
                       "user runs one session after another)",
                       "plan.sessions.concurrency"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "is not supported for sessions: every turn of every session is measured",
                       "plan.sessions.warmup"),
    QT_TRANSLATE_NOOP3("sb::Message", "does not split a session workload between agents",
                       "plan.sessions.shard"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "and a session rate exclude each other: choose a closed loop of users or "
                       "an open loop of arriving sessions, not both",
                       "plan.sessions.users_and_rate"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "with sessions all starting at once needs a finite --session-rate or "
                       "--users",
                       "plan.sessions.duration"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1 turns", "plan.sessions.turns"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 (all) and %1 turns",
                       "plan.sessions.max_turns"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1 milliseconds",
                       "plan.think_time.range"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "must be above 0: it is the mean of the exponential think time",
                       "plan.think_time.mean"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cannot be taken from a %1 dataset: only custom JSONL sessions give think "
                       "times (think_time_ms on a user message)",
                       "plan.think_time.dataset"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "applies only to session workloads (--multi-turn); this plan sends single "
                       "requests",
                       "plan.sessions.not_sessions"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "configures the built-in simulator: give no endpoint to run against it",
                       "plan.sim.not_builtin"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1 milliseconds per token",
                       "plan.sim.prefill"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1 blocks", "plan.sim.cache_blocks"),
    // --- run preparation (core/run/runpreparation.cpp) ---
    QT_TRANSLATE_NOOP3("sb::Message", "%1", "prepare.detail"),
    QT_TRANSLATE_NOOP3("sb::Message", "could not start the built-in simulator: %1",
                       "prepare.simulator.start"),
    QT_TRANSLATE_NOOP3("sb::Message", "cannot reach %1: %2", "prepare.unreachable"),
    QT_TRANSLATE_NOOP3("sb::Message", "cannot reach %1 through proxy %2: %3",
                       "prepare.unreachable.proxy"),
    QT_TRANSLATE_NOOP3("sb::Message", "is required: %1", "prepare.model.none"),
    QT_TRANSLATE_NOOP3("sb::Message", "%1 has no rows", "prepare.trace.empty"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "spans %1 days after scaling; at most %2 days can be replayed",
                       "prepare.trace.span"),
    QT_TRANSLATE_NOOP3("sb::Message", "cancelled before the run started", "prepare.cancelled"),

    // --- the prefix-cache audit (core/run/cacheauditrun.cpp) ---
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 2 and %1 (the interval needs two pairs)",
                       "audit.num_prompts"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 2 and %1 tokens (a prefix and a body)",
                       "audit.input_len"),
};

const QHash<QByteArray, const char *> &index()
{
    static const QHash<QByteArray, const char *> h = [] {
        QHash<QByteArray, const char *> m;
        for (const Entry &e : kCatalogue)
            m.insert(QByteArray(e.id), e.text);
        return m;
    }();
    return h;
}

QString fill(QString s, const QStringList &args)
{
    // Substitutes %1..%n in one pass, so an argument holding "%2" is never expanded again.
    QString out;
    out.reserve(s.size() + 32);
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s.at(i) == u'%' && i + 1 < s.size() && s.at(i + 1).isDigit()) {
            const int n = s.at(i + 1).digitValue();
            if (n >= 1 && n <= args.size()) {
                out += args.at(n - 1);
                ++i;
                continue;
            }
        }
        out += s.at(i);
    }
    return out;
}

} // namespace

Message::Message(const char *id, const QStringList &args) : m_id(id), m_args(args)
{
    Q_ASSERT_X(known(id), "sb::Message", id);
}

bool Message::known(const char *id)
{
    return id && index().contains(QByteArray(id));
}

QString Message::text() const
{
    if (!m_id)
        return {};
    const char *t = index().value(QByteArray(m_id));
    return t ? fill(QString::fromUtf8(t), m_args) : QString::fromLatin1(m_id);
}

QString Message::translated() const
{
    if (!m_id)
        return {};
    const char *t = index().value(QByteArray(m_id));
    if (!t)
        return QString::fromLatin1(m_id);
    return fill(QCoreApplication::translate(kContext, t, m_id), m_args);
}

QList<QPair<const char *, const char *>> Message::catalogue()
{
    QList<QPair<const char *, const char *>> out;
    for (const Entry &e : kCatalogue)
        out.append(qMakePair(e.id, e.text));
    return out;
}

} // namespace sb
