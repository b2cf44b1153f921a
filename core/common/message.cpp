#include "message.h"

#include "common/messagecatalogue_p.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

// The catalogue: identifier and English template. QT_TRANSLATE_NOOP3 marks each template for
// lupdate under the context "sb::Message" with the identifier as its disambiguation, so the
// translation catalogue (translations/servebench_core_*.ts) carries one entry per identifier.
// The run plan's texts are here; those of reports, metrics, MLPerf and costs are in
// messagecatalogue.cpp.
using Entry = MessageEntry;

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
    QT_TRANSLATE_NOOP3("sb::Message", "must be a fraction from 0 to below 1, e.g. 0.1",
                       "plan.max_error_rate.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1", "plan.num_runs.range"),
    // --- cancellation load (docs/metrics.md, "Cancelled by the load") ---
    QT_TRANSLATE_NOOP3("sb::Message", "must be a percentage from 0 to 100", "plan.cancel.rate"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be 0 or more seconds, at most %1",
                       "plan.cancel.delay"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1 token chunks",
                       "plan.cancel.tokens"),
    QT_TRANSLATE_NOOP3("sb::Message", "needs --request-cancellation-rate above 0",
                       "plan.cancel.needs_rate"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "excludes --request-cancellation-delay: a request is cancelled after a "
                       "delay or after tokens, not both",
                       "plan.cancel.both"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "does not apply to a session workload: a cancelled turn would cut its "
                       "conversation's history",
                       "plan.cancel.sessions"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cannot be combined with an MLPerf scenario: MLPerf judges every query's "
                       "latency, and a cancelled query has none",
                       "plan.cancel.mlperf"),
    // --- embeddings, rerank and images in prompts (docs/metrics.md, docs/datasets.md) ---
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1 items", "plan.batch.range"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "applies to embeddings and rerank endpoints only: a generation request "
                       "sends one prompt",
                       "plan.batch.not_pooling"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "does not apply to an embeddings or rerank endpoint: it has no "
                       "conversation to continue",
                       "plan.pooling.sessions"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "does not apply to an embeddings or rerank endpoint: its answer is not "
                       "streamed, no token arrives before it ends",
                       "plan.pooling.streamed"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cannot judge an embeddings or rerank run: MLPerf's bounds are on TTFT "
                       "and TPOT, which a non-streamed endpoint does not have",
                       "plan.pooling.mlperf"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "cannot split batches of more than one item between agents yet",
                       "plan.pooling.shard"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 0 and %1 images", "plan.images.count"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be between 1 and %1 pixels", "plan.images.size"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be png, got '%1'", "plan.images.format"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "needs a chat or Responses endpoint (openai-chat, openai-responses); %1 "
                       "takes no images",
                       "plan.images.flavour"),
    QT_TRANSLATE_NOOP3("sb::Message", "do not apply to a session workload yet",
                       "plan.images.sessions"),
    QT_TRANSLATE_NOOP3("sb::Message", "do not apply to a trace replay yet",
                       "plan.images.trace"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "would hold about %1 MiB of images in memory (%2 requests, %3 images of "
                       "%4x%5 each); at most %6 MiB: use fewer requests or smaller images",
                       "plan.images.memory"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be warm, per-request or lazy, got '%1'",
                       "plan.connection_mode.name"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be 0 (none) or more than 0 and at most %1 seconds",
                       "plan.idle_timeout.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be 0 (no cap) or between %1 and %2 bytes",
                       "plan.response_cap.range"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be at least 5 seconds", "plan.saturation_window.range"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "repeats one plan: it cannot be combined with a sweep or a rate search",
                       "plan.num_runs.single"),
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
                       "counts single requests: a session workload runs --num-sessions sessions "
                       "(or starts sessions until --duration ends)",
                       "plan.sessions.num_prompts"),
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
    // --- managed servers and cache policy (docs/managed-servers.md, docs/cache-audit.md) ---
    QT_TRANSLATE_NOOP3("sb::Message",
                       "needs an endpoint: the built-in simulator is started by ServeBench "
                       "itself (a managed server is started by its command and reached at the "
                       "base URL)",
                       "plan.managed.builtin"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be session or run, got '%1'",
                       "plan.managed.lifetime"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be more than 0 and at most %1 seconds",
                       "plan.managed.timeout"),
    QT_TRANSLATE_NOOP3("sb::Message", "must be refuse or bust, got '%1'", "plan.cache.fallback"),
    QT_TRANSLATE_NOOP3("sb::Message",
                       "writes out %1, which the project would store: write it as $VARIABLE and "
                       "set it in the environment",
                       "plan.managed.secret"),
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

const QList<Entry> &entries()
{
    static const QList<Entry> all = [] {
        QList<Entry> out;
        for (const Entry &e : kCatalogue)
            out.append(e);
        for (const Entry &e : extendedMessageCatalogue())
            out.append(e);
        for (const Entry &e : statisticsMessageCatalogue())
            out.append(e);
        for (const Entry &e : serverMessageCatalogue())
            out.append(e);
        for (const Entry &e : studyMessageCatalogue())
            out.append(e);
        return out;
    }();
    return all;
}

const QHash<QByteArray, Entry> &index()
{
    static const QHash<QByteArray, Entry> h = [] {
        QHash<QByteArray, Entry> m;
        for (const Entry &e : entries()) {
            Q_ASSERT_X(!m.contains(QByteArray(e.id)), "sb::Message duplicate id", e.id);
            m.insert(QByteArray(e.id), e);
        }
        return m;
    }();
    return h;
}

// The catalogue's own copy of an identifier, so a Message built from an id assembled at run
// time ("cmp.field." + key) never points at a temporary.
const char *canonicalId(const char *id)
{
    if (!id)
        return nullptr;
    const auto it = index().constFind(QByteArray(id));
    return it == index().cend() ? id : it->id;
}

const char *templateOf(const char *id)
{
    const auto it = index().constFind(QByteArray(id));
    return it == index().cend() ? nullptr : it->text;
}

QString fill(const QString &s, const QStringList &args)
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

// A template as a pattern that recovers its arguments: literal parts escaped, the first %n a
// lazy group, a repeated %n the same text again.
struct Pattern
{
    QRegularExpression re;
    QList<int> groupArg; // capture group k (1-based) holds argument groupArg[k-1]
    int argCount = 0;
    int literalLength = 0;
    const char *id = nullptr;
};

const QList<Pattern> &patterns()
{
    static const QList<Pattern> all = [] {
        QList<Pattern> out;
        for (const Entry &e : entries()) {
            const QString t = QString::fromUtf8(e.text);
            Pattern p;
            p.id = e.id;
            QString re = u"^"_s;
            QString literal;
            QHash<int, int> groupOf;
            for (qsizetype i = 0; i < t.size(); ++i) {
                if (t.at(i) == u'%' && i + 1 < t.size() && t.at(i + 1).isDigit() &&
                    t.at(i + 1) != u'0') {
                    re += QRegularExpression::escape(literal);
                    p.literalLength += int(literal.size());
                    literal.clear();
                    const int n = t.at(i + 1).digitValue();
                    if (groupOf.contains(n)) {
                        re += u"\\%1"_s.arg(groupOf.value(n));
                    } else {
                        p.groupArg.append(n);
                        groupOf.insert(n, int(p.groupArg.size()));
                        re += u"(.*?)"_s;
                    }
                    p.argCount = std::max(p.argCount, n);
                    ++i;
                    continue;
                }
                literal += t.at(i);
            }
            re += QRegularExpression::escape(literal) + u"$"_s;
            p.literalLength += int(literal.size());
            // A template of placeholders alone ("%1") would claim every text.
            if (p.literalLength < 2)
                continue;
            p.re = QRegularExpression(re, QRegularExpression::DotMatchesEverythingOption);
            // Compiled here, once, under the static's initialisation: worker threads (a
            // comparison built off the GUI thread) then only match.
            p.re.optimize();
            out.append(p);
        }
        // The most specific template first: "%1 requests" must not take "%1 requests at %2".
        std::stable_sort(out.begin(), out.end(), [](const Pattern &a, const Pattern &b) {
            return a.literalLength > b.literalLength;
        });
        return out;
    }();
    return all;
}

Message recognise(const QString &english, int depth)
{
    if (english.isEmpty() || depth > 3)
        return Message::literal(english);
    for (const Pattern &p : patterns()) {
        const QRegularExpressionMatch m = p.re.match(english);
        if (!m.hasMatch())
            continue;
        QList<Message> args(p.argCount);
        for (qsizetype g = 0; g < p.groupArg.size(); ++g)
            args[p.groupArg.at(g) - 1] = recognise(m.captured(int(g) + 1), depth + 1);
        for (Message &a : args)
            if (a.isEmpty())
                a = Message::literal(QString());
        return Message(p.id, args);
    }
    return Message::literal(english);
}

} // namespace

Message::Message(const char *id, const QStringList &args)
    : m_kind(Kind::Catalogue), m_id(canonicalId(id)), m_args(literals(args))
{
    Q_ASSERT_X(known(id), "sb::Message", id);
}

Message::Message(const char *id, const QList<Message> &args)
    : m_kind(Kind::Catalogue), m_id(canonicalId(id)), m_args(args)
{
    Q_ASSERT_X(known(id), "sb::Message", id);
}

Message::~Message() = default;
Message::Message(const Message &) = default;
Message::Message(Message &&) noexcept = default;
Message &Message::operator=(const Message &) = default;
Message &Message::operator=(Message &&) noexcept = default;

Message Message::literal(const QString &text)
{
    Message m;
    m.m_kind = Kind::Literal;
    m.m_literal = text;
    return m;
}

Message Message::join(const QList<Message> &parts, const QString &separator)
{
    Message m;
    m.m_kind = Kind::Join;
    m.m_literal = separator;
    m.m_args = parts;
    return m;
}

QList<Message> Message::literals(const QStringList &texts)
{
    QList<Message> out;
    out.reserve(texts.size());
    for (const QString &t : texts)
        out.append(literal(t));
    return out;
}

Message Message::fromEnglish(const QString &english)
{
    return recognise(english, 0);
}

void Message::prepareRecognition()
{
    for (const Pattern &p : patterns())
        p.re.optimize();
}

bool Message::known(const char *id)
{
    return id && index().contains(QByteArray(id));
}

QStringList Message::args() const
{
    return messageTexts(m_args);
}

QString Message::text() const
{
    switch (m_kind) {
    case Kind::None:
        return {};
    case Kind::Literal:
        return m_literal;
    case Kind::Join:
        return messageTexts(m_args).join(m_literal);
    case Kind::Catalogue:
        break;
    }
    const char *t = templateOf(m_id);
    return t ? fill(QString::fromUtf8(t), messageTexts(m_args)) : QString::fromLatin1(m_id);
}

QString Message::translated() const
{
    switch (m_kind) {
    case Kind::None:
        return {};
    case Kind::Literal:
        return m_literal;
    case Kind::Join:
        return translatedTexts(m_args).join(m_literal);
    case Kind::Catalogue:
        break;
    }
    const char *t = templateOf(m_id);
    if (!t)
        return QString::fromLatin1(m_id);
    return fill(QCoreApplication::translate(kContext, t, m_id), translatedTexts(m_args));
}

bool Message::operator==(const Message &o) const
{
    if (m_kind != o.m_kind || m_literal != o.m_literal || m_args != o.m_args)
        return false;
    return m_kind != Kind::Catalogue || qstrcmp(m_id, o.m_id) == 0;
}

QList<QPair<const char *, const char *>> Message::catalogue()
{
    QList<QPair<const char *, const char *>> out;
    for (const Entry &e : entries())
        out.append(qMakePair(e.id, e.text));
    return out;
}

QStringList messageTexts(const QList<Message> &messages)
{
    QStringList out;
    out.reserve(messages.size());
    for (const Message &m : messages)
        out.append(m.text());
    return out;
}

QStringList translatedTexts(const QList<Message> &messages)
{
    QStringList out;
    out.reserve(messages.size());
    for (const Message &m : messages)
        out.append(m.translated());
    return out;
}

} // namespace sb
