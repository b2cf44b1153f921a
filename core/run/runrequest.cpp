#include "runrequest.h"

using namespace Qt::StringLiterals;

namespace sb {

const char *runModeName(RunMode m)
{
    switch (m) {
    case RunMode::Single:
        return "single";
    case RunMode::Sweep:
        return "sweep";
    case RunMode::MaxValidRate:
        return "find-max-valid-rate";
    }
    return "single";
}

bool runModeFromName(const QString &name, RunMode *out)
{
    for (RunMode m : {RunMode::Single, RunMode::Sweep, RunMode::MaxValidRate})
        if (name == QLatin1StringView(runModeName(m))) {
            *out = m;
            return true;
        }
    return false;
}

QJsonObject RunExecution::toJson() const
{
    return {{u"mode"_s, QString::fromLatin1(runModeName(mode))},
            {u"sweep_rates"_s, sweepRates},
            {u"rate_tolerance"_s, rateTolerance},
            {u"transport"_s, QString::fromLatin1(transportKindName(transport))},
            {u"num_runs"_s, numRuns}};
}

RunExecution RunExecution::fromJson(const QJsonObject &o)
{
    RunExecution e;
    runModeFromName(o.value(u"mode"_s).toString(), &e.mode);
    e.sweepRates = o.value(u"sweep_rates"_s).toInt(e.sweepRates);
    e.rateTolerance = o.value(u"rate_tolerance"_s).toDouble(e.rateTolerance);
    transportKindFromName(o.value(u"transport"_s).toString(), &e.transport);
    e.numRuns = o.value(u"num_runs"_s).toInt(1);
    return e;
}

void RunRequest::setExecution(const RunExecution &e)
{
    mode = e.mode;
    sweepRates = e.sweepRates;
    rateTolerance = e.rateTolerance;
    transport = e.transport;
    numRuns = e.numRuns;
}

} // namespace sb
