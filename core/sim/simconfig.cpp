#include "simconfig.h"

using namespace Qt::StringLiterals;

namespace sb {

const char *simFaultName(SimFault f)
{
    switch (f) {
    case SimFault::None:
        return "none";
    case SimFault::Http429:
        return "http429";
    case SimFault::Http500:
        return "http500";
    case SimFault::ResetMidStream:
        return "reset";
    case SimFault::MalformedJson:
        return "malformed";
    case SimFault::ErrorEvent:
        return "error-event";
    case SimFault::Stall:
        return "stall";
    }
    return "none";
}

bool simFaultFromName(const QString &name, SimFault *out)
{
    struct Alias
    {
        const char *name;
        SimFault fault;
    };
    static const Alias aliases[] = {
        {"none", SimFault::None},
        {"http429", SimFault::Http429},
        {"429", SimFault::Http429},
        {"http500", SimFault::Http500},
        {"500", SimFault::Http500},
        {"reset", SimFault::ResetMidStream},
        {"reset-mid-stream", SimFault::ResetMidStream},
        {"resetmidstream", SimFault::ResetMidStream},
        {"malformed", SimFault::MalformedJson},
        {"malformed-json", SimFault::MalformedJson},
        {"malformedjson", SimFault::MalformedJson},
        {"error-event", SimFault::ErrorEvent},
        {"errorevent", SimFault::ErrorEvent},
        {"error", SimFault::ErrorEvent},
        {"stall", SimFault::Stall},
    };
    const QString n = name.trimmed().toLower();
    for (const Alias &a : aliases) {
        if (n == QLatin1StringView(a.name)) {
            if (out)
                *out = a.fault;
            return true;
        }
    }
    return false;
}

QList<SimFault> allSimFaults()
{
    return {SimFault::Http429,       SimFault::Http500,    SimFault::ResetMidStream,
            SimFault::MalformedJson, SimFault::ErrorEvent, SimFault::Stall};
}

bool SimConfig::setFaultRateFromSpec(const QString &spec, QString *error)
{
    const qsizetype eq = spec.indexOf(u'=');
    SimFault f = SimFault::None;
    if (eq <= 0 || !simFaultFromName(spec.left(eq), &f) || f == SimFault::None) {
        if (error)
            *error = u"expected KIND=RATE with KIND one of http429, http500, reset, malformed, "
                     "error-event, stall; got '%1'"_s.arg(spec);
        return false;
    }
    bool ok = false;
    const double rate = spec.mid(eq + 1).toDouble(&ok);
    if (!ok || rate < 0.0 || rate > 1.0) {
        if (error)
            *error = u"fault rate must be a number in [0, 1]; got '%1'"_s.arg(spec.mid(eq + 1));
        return false;
    }
    setFaultRate(f, rate);
    return true;
}

} // namespace sb
