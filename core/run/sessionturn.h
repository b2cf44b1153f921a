#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

struct SessionItem;

// What one turn of a session sends: the conversation so far and the new user message.
struct TurnInput
{
    QJsonArray messages; // chat: system, then user / assistant pairs, then the new user message
    QString prompt;      // completions: the same contents joined by blank lines
    qint32 historyTokens = 0; // system prompt + earlier user messages + earlier answers
    qint32 inputTokens = 0;   // historyTokens + the new user message
};

// The request of turn `turn` of `session` (docs/sessions.md). `answers` holds the answers of
// the turns before it, in order — what the server streamed (HistoryMode::Served) or the
// dataset's reference answers (HistoryMode::Reference): the caller chooses — and answerTokens
// their token counts (the server's usage for a served answer, the dataset's count for a
// reference). bustPrefix (may be empty) goes in front of the first message, the same for every
// turn of a session, so a cache-busted session still reuses its own history.
//
// Token counts are the dataset's (approxTokenCount, or the drawn synthetic lengths), so
// historyTokens is the client's measure of what the turn resends; the server's usage says what
// the model saw, template tokens included.
TurnInput buildTurnInput(const SessionItem &session, int turn, const QStringList &answers,
                         const QList<qint32> &answerTokens, const QString &bustPrefix = {});

} // namespace sb
