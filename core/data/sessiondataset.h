#pragma once

#include "syntheticvocabulary.h"
#include "tokencounter.h"

#include <QList>
#include <QString>

namespace sb {

struct DatasetSpec;
struct DatasetInfo;
class SeededRng;

// One user turn of a session: the new user message, and what the dataset says the answer was.
struct SessionTurn
{
    QString user;          // the new user message
    qint32 userTokens = 0; // TokenCounter::countPart() (synthetic: the drawn length)
    QString reference;     // the dataset's answer ("" when it has none: the session's end)
    qint32 referenceTokens = 0;
    qint32 outputTokens = 0; // max tokens requested for this turn
    double thinkTimeMs = -1; // think time before this turn given by the dataset; -1: none
};

// A conversation to replay turn by turn: an optional system prompt and its user turns.
struct SessionItem
{
    QString system; // "" = none
    qint32 systemTokens = 0;
    QList<SessionTurn> turns;
    qint32 sourceIndex = 0; // ShareGPT: 0-based item; JSONL: 1-based line; synthetic: i
};

// Loads the sessions of a multi-turn dataset (spec.multiTurn; docs/sessions.md) and samples
// numSessions of them with SeededRng(seed), as loadDataset() samples prompts (numSessions <= 0:
// all, shuffled; more than there are needs spec.withReplacement). Fills *info's counts
// (sourceItems, itemCount, skipped, skipReasons, oversampled, sourceSha256, sourceBytes); the
// caller adds the identity hash and length statistics.
//
// ShareGPT: an optional leading "system" turn is the system prompt; then turns must alternate
// user, assistant, user, … A conversation that breaks this is skipped and counted, as vLLM's
// loader skips unusable items: "no_user_turn", "roles_out_of_order" (a turn in the wrong place
// or of an unknown role), "empty_message" (a turn that is blank), "no_assistant_reply" (a user
// turn without an answer and no fixed output length). A trailing user turn without an answer is
// kept only with a fixed output length (sharegptOutputLen > 0).
//
// Custom JSONL: one session per line, {"messages": [{role, content}, …]} with the same order
// rules; here a break is an error naming the file, the line and the field (messages[i].role,
// messages[i].content): a hand-written file is wrong, not noisy. A user message may carry
// "think_time_ms" (a number >= 0): the think time before it (ThinkTimeModel::Dataset). The
// line's "output_tokens" is the output length of a trailing user turn without an answer.
//
// Random: synthetic sessions of spec.sessionTurns turns; every session shares one system prompt
// of spec.randomPrefixLen tokens; each turn draws its input and output length as a random
// prompt does, and its reference answer is as many synthetic words; a session's first user
// message starts with spec.sessionPrefixLen tokens of its own.
//
// Turns: at most spec.maxTurns user turns per session (0 = all). Output length of a turn:
// spec.sharegptOutputLen when > 0, else the reference answer's token count (at least 1), else
// kCustomDefaultOutputLen. Returns false with *error and leaves *out untouched on any failure.
//
// Counts: message texts with counter.countPart() (the model's tokenizer when given); synthetic
// messages are words of vocab, one token each under its tokenizer.
bool loadSessions(const DatasetSpec &spec, int numSessions, quint64 seed, QList<SessionItem> *out,
                  DatasetInfo *info, QString *error, const TokenCounter &counter = TokenCounter(),
                  const SyntheticVocabulary &vocab = SyntheticVocabulary());

} // namespace sb
