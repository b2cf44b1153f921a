#include "sessiondataset.h"

#include "customjsonlreader.h"
#include "dataset.h"
#include "datasetsampling.h"
#include "filehasher.h"
#include "mappedfile.h"
#include "seededrng.h"
#include "sharegptreader.h"
#include "syntheticprompt.h"
#include "tokencount.h"
#include "tokencounter.h"

#include "config/runplan.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Independent streams of one synthetic load: the lengths, the words of the prompts.
constexpr quint64 kSessionWordStream = 0xD1B54A32D192ED03ULL;

qint32 outputLength(const DatasetSpec &spec, bool hasReference, qint32 referenceTokens,
                    qint32 lineDefault)
{
    if (spec.sharegptOutputLen > 0)
        return spec.sharegptOutputLen;
    if (hasReference)
        return std::max<qint32>(1, referenceTokens);
    return lineDefault > 0 ? lineDefault : qint32(kCustomDefaultOutputLen);
}

bool blank(const QString &s)
{
    return s.trimmed().isEmpty();
}

// --- ShareGPT ---------------------------------------------------------------------------------

struct SpanTurn
{
    SourceSpan user;
    qint32 userTokens = 0;
    SourceSpan reply;
    qint32 replyTokens = 0;
    bool hasReply = false;
};

struct SpanSession
{
    qint32 index = 0;
    bool hasSystem = false;
    SourceSpan system;
    qint32 systemTokens = 0;
    QList<SpanTurn> turns;
};

// Checks one conversation's order and text; returns the skip reason or "" when usable.
QString shapeShareGpt(const MappedFile &file, const ShareGptConversation &c,
                      const DatasetSpec &spec, const TokenCounter &counter, QString *text,
                      qint64 *replaced, SpanSession *out)
{
    out->index = c.index;
    qsizetype i = 0;
    if (i < c.allTurns.size() && c.allTurns.at(i).role == ShareGptRole::System) {
        ShareGptReader::decode(file.data(), c.allTurns.at(i).value, text, replaced);
        if (blank(*text))
            return u"empty_message"_s;
        out->hasSystem = true;
        out->system = c.allTurns.at(i).value;
        out->systemTokens = counter.countPart(*text);
        ++i;
    }
    bool sawUser = false;
    for (; i < c.allTurns.size(); ++i) {
        const ShareGptTurn &t = c.allTurns.at(i);
        const bool expectUser = out->turns.isEmpty() || out->turns.constLast().hasReply;
        const ShareGptRole want = expectUser ? ShareGptRole::Human : ShareGptRole::Assistant;
        if (t.role != want)
            return u"roles_out_of_order"_s;
        ShareGptReader::decode(file.data(), t.value, text, replaced);
        if (blank(*text))
            return u"empty_message"_s;
        if (expectUser) {
            sawUser = true;
            SpanTurn turn;
            turn.user = t.value;
            turn.userTokens = counter.countPart(*text);
            out->turns.append(turn);
        } else {
            SpanTurn &turn = out->turns.last();
            turn.reply = t.value;
            turn.replyTokens = counter.countPart(*text);
            turn.hasReply = true;
        }
    }
    if (!sawUser)
        return u"no_user_turn"_s;
    // A trailing question without an answer has no output length of its own.
    if (!out->turns.constLast().hasReply && spec.sharegptOutputLen <= 0)
        out->turns.removeLast();
    if (out->turns.isEmpty())
        return u"no_assistant_reply"_s;
    if (spec.maxTurns > 0 && out->turns.size() > spec.maxTurns)
        out->turns.resize(spec.maxTurns);
    return {};
}

bool loadShareGptSessions(const DatasetSpec &spec, int numSessions, quint64 seed,
                          const TokenCounter &counter, QList<SessionItem> *out, DatasetInfo *info,
                          QString *error)
{
    MappedFile file;
    if (!file.open(spec.path, error))
        return false;
    FileHasher hasher;
    hasher.start(spec.path);
    ShareGptReader reader(&file, spec.path);
    reader.setCollectTurns(true);
    QList<SpanSession> candidates;
    QString text;
    const bool ok = reader.read(
        [&](const ShareGptConversation &c) {
            ++info->sourceItems;
            SpanSession s;
            const QString why =
                shapeShareGpt(file, c, spec, counter, &text, &info->replacedSurrogates, &s);
            if (!why.isEmpty()) {
                ++info->skipped;
                ++info->skipReasons[why];
                return;
            }
            candidates.append(std::move(s));
        },
        error);
    if (!ok)
        return false;
    if (info->sourceItems == 0) {
        *error = u"%1: the dataset holds no conversations (an empty array)"_s.arg(spec.path);
        return false;
    }
    if (candidates.isEmpty()) {
        *error =
            u"%1: no usable conversations for sessions: all %2 were skipped (%3)"_s.arg(spec.path)
                .arg(info->sourceItems)
                .arg(describeSkips(info->skipReasons));
        return false;
    }
    info->itemCount = candidates.size();
    if (!hasher.result(&info->sourceSha256, error))
        return false;
    info->sourceBytes = file.size();

    SeededRng rng(seed);
    QList<qint32> picks;
    if (!sampleIndices(candidates.size(), numSessions, spec.withReplacement, rng, &picks,
                       &info->oversampled, error, spec.path, u"sessions"_s))
        return false;
    qint64 replacedAgain = 0;
    QList<SessionItem> sessions;
    sessions.reserve(picks.size());
    for (qint32 k : picks) {
        const SpanSession &c = candidates.at(k);
        SessionItem item;
        item.sourceIndex = c.index;
        if (c.hasSystem) {
            ShareGptReader::decode(file.data(), c.system, &item.system, &replacedAgain);
            item.systemTokens = c.systemTokens;
        }
        for (const SpanTurn &t : c.turns) {
            SessionTurn turn;
            ShareGptReader::decode(file.data(), t.user, &turn.user, &replacedAgain);
            turn.userTokens = t.userTokens;
            if (t.hasReply) {
                ShareGptReader::decode(file.data(), t.reply, &turn.reference, &replacedAgain);
                turn.referenceTokens = t.replyTokens;
            }
            turn.outputTokens = outputLength(spec, t.hasReply, t.replyTokens, 0);
            item.turns.append(turn);
        }
        sessions.append(std::move(item));
    }
    *out = std::move(sessions);
    return true;
}

// --- custom JSONL -----------------------------------------------------------------------------

bool shapeCustomLine(const DatasetSpec &spec, const TokenCounter &counter, const CustomLine &line,
                     const QString &path, SessionItem *out, QString *error)
{
    const QString where = u"%1:%2"_s.arg(path).arg(line.line);
    if (line.messages.isEmpty()) {
        *error = u"%1: field \"messages\" is missing: a session needs its turns as messages "
                 "[{role, content}, …], not a single \"prompt\""_s.arg(where);
        return false;
    }
    out->sourceIndex = qint32(line.line);
    const QJsonArray &arr = line.messages;
    qsizetype i = 0;
    const auto role = [&](qsizetype k) {
        return arr.at(k).toObject().value(u"role"_s).toString();
    };
    const auto content = [&](qsizetype k) {
        return arr.at(k).toObject().value(u"content"_s).toString();
    };
    const auto emptyAt = [&](qsizetype k) {
        *error =
            u"%1: field \"messages[%2].content\" is empty: every message needs text"_s.arg(where)
                .arg(k);
        return false;
    };
    if (role(0) == "system"_L1) {
        if (blank(content(0)))
            return emptyAt(0);
        out->system = content(0);
        out->systemTokens = counter.countPart(out->system);
        i = 1;
    }
    bool expectUser = true;
    for (; i < arr.size(); ++i) {
        const QString r = role(i);
        const QString want = expectUser ? u"user"_s : u"assistant"_s;
        if (r != want) {
            const QString why =
                r == "system"_L1 ? u"a \"system\" message may only come first"_s
                : r != "user"_L1 && r != "assistant"_L1
                    ? u"expected \"%1\", found the unknown role \"%2\" (roles: system, user, "
                      "assistant)"_s.arg(want, r)
                : out->turns.isEmpty()
                    ? u"expected \"user\": a session starts with a user message (after an "
                      "optional system message), found \"%1\""_s.arg(r)
                    : u"expected \"%1\" after a %2 message, found \"%3\": user and assistant "
                      "messages must alternate"_s.arg(want, expectUser ? u"assistant"_s : u"user"_s,
                                                      r);
            *error = u"%1: field \"messages[%2].role\": %3"_s.arg(where).arg(i).arg(why);
            return false;
        }
        const QString text = content(i);
        if (blank(text))
            return emptyAt(i);
        if (expectUser) {
            SessionTurn t;
            t.user = text;
            t.userTokens = counter.countPart(text);
            const QJsonValue think = arr.at(i).toObject().value(u"think_time_ms"_s);
            if (!think.isUndefined() && !think.isNull()) {
                const double v = think.toDouble(-1);
                if (!think.isDouble() || !(v >= 0) || !std::isfinite(v)) {
                    *error = u"%1: field \"messages[%2].think_time_ms\" must be a number of "
                             "milliseconds >= 0"_s.arg(where)
                                 .arg(i);
                    return false;
                }
                t.thinkTimeMs = v;
            }
            out->turns.append(t);
        } else {
            SessionTurn &t = out->turns.last();
            t.reference = text;
            t.referenceTokens = counter.countPart(text);
        }
        expectUser = !expectUser;
    }
    if (out->turns.isEmpty()) {
        *error = u"%1: field \"messages\" holds no user message: a session needs at least one "
                 "user turn"_s.arg(where);
        return false;
    }
    for (SessionTurn &t : out->turns)
        t.outputTokens =
            outputLength(spec, !t.reference.isEmpty(), t.referenceTokens, line.outputTokens);
    if (spec.maxTurns > 0 && out->turns.size() > spec.maxTurns)
        out->turns.resize(spec.maxTurns);
    return true;
}

bool loadCustomSessions(const DatasetSpec &spec, int numSessions, quint64 seed,
                        const TokenCounter &counter, QList<SessionItem> *out, DatasetInfo *info,
                        QString *error)
{
    MappedFile file;
    if (!file.open(spec.path, error))
        return false;
    FileHasher hasher;
    hasher.start(spec.path);
    CustomJsonlReader reader(&file, spec.path);
    QList<SessionItem> all;
    QString shapeError;
    const bool ok = reader.read(
        [&](const CustomLine &l) {
            ++info->sourceItems;
            if (!shapeError.isEmpty())
                return;
            SessionItem item;
            if (shapeCustomLine(spec, counter, l, spec.path, &item, &shapeError))
                all.append(std::move(item));
        },
        error);
    if (!ok)
        return false;
    if (!shapeError.isEmpty()) {
        *error = shapeError;
        return false;
    }
    if (all.isEmpty()) {
        *error = u"%1: the dataset holds no sessions (only blank lines)"_s.arg(spec.path);
        return false;
    }
    info->itemCount = all.size();
    if (!hasher.result(&info->sourceSha256, error))
        return false;
    info->sourceBytes = file.size();
    SeededRng rng(seed);
    QList<qint32> picks;
    if (!sampleIndices(all.size(), numSessions, spec.withReplacement, rng, &picks,
                       &info->oversampled, error, spec.path, u"sessions"_s))
        return false;
    QList<SessionItem> sessions;
    sessions.reserve(picks.size());
    for (qint32 k : picks)
        sessions.append(all.at(k));
    *out = std::move(sessions);
    return true;
}

// --- synthetic --------------------------------------------------------------------------------

bool loadSyntheticSessions(const DatasetSpec &spec, int numSessions, quint64 seed,
                           const SyntheticVocabulary &vocab, QList<SessionItem> *out,
                           DatasetInfo *info, QString *error)
{
    if (numSessions <= 0) {
        *error = u"synthetic sessions: the number of sessions must be positive (got %1)"_s.arg(
            numSessions);
        return false;
    }
    if (spec.sessionTurns < 1) {
        *error = u"synthetic sessions: session_turns must be at least 1 (got %1)"_s.arg(
            spec.sessionTurns);
        return false;
    }
    if (spec.randomInputLen < 1 || spec.randomOutputLen < 1 || spec.randomPrefixLen < 0 ||
        spec.sessionPrefixLen < 0 || !(spec.tokensPerWord > 0) ||
        !std::isfinite(spec.tokensPerWord)) {
        *error = u"synthetic sessions: per-turn input and output lengths must be at least 1, "
                 "the system prompt length not negative and tokens_per_word positive"_s;
        return false;
    }
    SeededRng lengths(seed);
    SeededRng words(seed ^ kSessionWordStream);
    // With a tokenizer every word of the vocabulary is one token (checked), so a message of n
    // words is n tokens; the calibration is then not used.
    const double tpw = vocab.tokenizer() ? 1.0 : spec.tokensPerWord;
    // One system prompt shared by every session: the part of each prompt any prefix cache
    // can serve across sessions (the prefix-share ratio, docs/sessions.md).
    QString system;
    vocab.appendWords(&system, wordsForTokens(spec.randomPrefixLen, tpw), words);
    QList<SessionItem> sessions;
    sessions.reserve(numSessions);
    for (int s = 0; s < numSessions; ++s) {
        SessionItem item;
        item.sourceIndex = s;
        item.system = system;
        item.systemTokens = system.isEmpty() ? 0 : spec.randomPrefixLen;
        for (int t = 0; t < spec.sessionTurns; ++t) {
            SessionTurn turn;
            turn.userTokens = drawLength(lengths, spec, spec.randomInputLen, spec.randomInputStdev,
                                         spec.randomInputMin, spec.randomInputMax);
            if (t == 0 && spec.sessionPrefixLen > 0) {
                // The session's own context: only its later turns can reuse it.
                vocab.appendWords(&turn.user, wordsForTokens(spec.sessionPrefixLen, tpw), words);
                turn.userTokens += spec.sessionPrefixLen;
            }
            turn.outputTokens =
                drawLength(lengths, spec, spec.randomOutputLen, spec.randomOutputStdev,
                           spec.randomOutputMin, spec.randomOutputMax);
            vocab.appendWords(
                &turn.user,
                wordsForTokens(turn.userTokens - (t == 0 ? spec.sessionPrefixLen : 0), tpw), words);
            // A reference answer of the requested length, for the reproducible history mode.
            vocab.appendWords(&turn.reference, wordsForTokens(turn.outputTokens, tpw), words);
            turn.referenceTokens = turn.outputTokens;
            item.turns.append(turn);
        }
        sessions.append(std::move(item));
    }
    info->itemCount = numSessions;
    *out = std::move(sessions);
    return true;
}

} // namespace

bool loadSessions(const DatasetSpec &spec, int numSessions, quint64 seed, QList<SessionItem> *out,
                  DatasetInfo *info, QString *error, const TokenCounter &counter,
                  const SyntheticVocabulary &vocab)
{
    switch (spec.kind) {
    case DatasetKind::ShareGpt:
        return loadShareGptSessions(spec, numSessions, seed, counter, out, info, error);
    case DatasetKind::Custom:
        return loadCustomSessions(spec, numSessions, seed, counter, out, info, error);
    case DatasetKind::Random:
        return loadSyntheticSessions(spec, numSessions, seed, vocab, out, info, error);
    }
    *error = u"unknown dataset kind"_s;
    return false;
}

} // namespace sb
