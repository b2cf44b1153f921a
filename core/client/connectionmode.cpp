#include "connectionmode.h"

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

} // namespace sb
