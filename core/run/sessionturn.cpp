#include "sessionturn.h"

#include "data/sessiondataset.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sb {

TurnInput buildTurnInput(const SessionItem &session, int turn, const QStringList &answers,
                         const QList<qint32> &answerTokens, const QString &bustPrefix)
{
    TurnInput in;
    QStringList contents;
    const auto add = [&](const QString &role, const QString &text) {
        const QString content = contents.isEmpty() ? bustPrefix + text : text;
        in.messages.append(QJsonObject{{u"role"_s, role}, {u"content"_s, content}});
        contents.append(content);
    };
    qint64 history = 0;
    if (!session.system.isEmpty()) {
        add(u"system"_s, session.system);
        history += session.systemTokens;
    }
    for (int k = 0; k < turn && k < session.turns.size(); ++k) {
        add(u"user"_s, session.turns.at(k).user);
        history += session.turns.at(k).userTokens;
        add(u"assistant"_s, k < answers.size() ? answers.at(k) : QString());
        history += k < answerTokens.size() ? answerTokens.at(k) : 0;
    }
    add(u"user"_s, session.turns.at(turn).user);
    in.prompt = contents.join(u"\n\n"_s);
    in.historyTokens = qint32(std::min<qint64>(history, std::numeric_limits<qint32>::max()));
    in.inputTokens = qint32(std::min<qint64>(history + session.turns.at(turn).userTokens,
                                             std::numeric_limits<qint32>::max()));
    return in;
}

} // namespace sb
