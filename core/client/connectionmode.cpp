#include "connectionmode.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

const char *connectionModeName(ConnectionMode mode)
{
    switch (mode) {
    case ConnectionMode::PerRequest:
        return "per-request";
    case ConnectionMode::Lazy:
        return "lazy";
    case ConnectionMode::Warm:
        break;
    }
    return "warm";
}

bool connectionModeFromName(const QString &name, ConnectionMode *out)
{
    QString n = name.trimmed().toLower();
    n.replace(u'_', u'-');
    for (auto m : {ConnectionMode::Warm, ConnectionMode::PerRequest, ConnectionMode::Lazy}) {
        if (n == QLatin1StringView(connectionModeName(m))) {
            *out = m;
            return true;
        }
    }
    return false;
}

int warmConnectionCount(int cap, bool capped, const QList<qint64> &scheduleOffsetsNs)
{
    if (capped || scheduleOffsetsNs.isEmpty())
        return cap;
    constexpr qint64 kFirstSecondNs = 1'000'000'000;
    int due = 0;
    for (qint64 offset : scheduleOffsetsNs)
        due += offset < kFirstSecondNs ? 1 : 0;
    return std::clamp(due, 1, std::max(1, cap));
}

} // namespace sb
