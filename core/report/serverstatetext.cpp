#include "serverstatetext.h"

using namespace Qt::StringLiterals;

namespace sb {

QString cachePolicyLine(const QJsonObject &block)
{
    if (block.isEmpty())
        return {};
    const QJsonObject reset = block.value(u"reset"_s).toObject();
    if (!reset.value(u"done"_s).toBool())
        return u"Prefix cache: not reset (%1); %2"_s.arg(
            reset.value(u"detail"_s).toString(), block.value(u"state_at_start"_s).toString());
    QString line = u"Prefix cache: reset by POST %1 (HTTP %2, %3 ms)"_s.arg(
        reset.value(u"endpoint"_s).toString(), QString::number(reset.value(u"http_status"_s).toInt()),
        QString::number(reset.value(u"ms"_s).toDouble(), 'f', 1));
    const QJsonObject v = block.value(u"verification"_s).toObject();
    if (v.isEmpty())
        return line;
    const QString verdict = v.value(u"verdict"_s).toString();
    const qint64 n = v.value(u"first_requests"_s).toInteger();
    if (v.contains(u"queries"_s))
        line += u"; %1 over the first %2 requests: %3 of %4 looked-up tokens hit (engine counters)"_s
                    .arg(verdict == "cold"_L1 ? u"verified cold"_s
                         : verdict == "warm"_L1 ? u"NOT cold"_s
                                                : u"unverified"_s)
                    .arg(n)
                    .arg(qint64(v.value(u"hits"_s).toDouble()))
                    .arg(qint64(v.value(u"queries"_s).toDouble()));
    else if (v.contains(u"cached_tokens_reported"_s))
        line += u"; %1 over the first %2 requests: %3 cached tokens in their usage (no engine "
                "counters)"_s
                    .arg(verdict == "cold"_L1 ? u"verified cold"_s : u"NOT cold"_s)
                    .arg(n)
                    .arg(v.value(u"cached_tokens_reported"_s).toInteger());
    else
        line += u"; unverified: %1"_s.arg(v.value(u"why_no_counters"_s).toString());
    return line;
}

QString managedServerLine(const QJsonObject &block)
{
    if (block.isEmpty())
        return {};
    return u"Managed server: healthy %1 ms after its start command (instance %2); its output is "
           "in the project (server_logs)"_s
        .arg(block.value(u"startup_ms"_s).toInteger())
        .arg(block.value(u"instance"_s).toString());
}

} // namespace sb
