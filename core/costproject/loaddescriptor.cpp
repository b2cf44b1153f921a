#include "loaddescriptor.h"

#include "config/runplan.h"

#include <QFileInfo>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
QString number(double v)
{
    return QString::number(v, 'g', 10);
}
} // namespace

QString loadDescriptor(const LoadProfile &p)
{
    QStringList parts;
    if (p.scenario != Scenario::None)
        parts << QString::fromLatin1(scenarioName(p.scenario));
    if (!p.tracePath.isEmpty()) {
        QString t = u"trace replay "_s + QFileInfo(p.tracePath).fileName();
        if (p.traceTimeScale != 1.0)
            t += u" ×"_s + number(p.traceTimeScale);
        parts << t;
    } else if (p.rampUpStrategy != RampUpStrategy::None) {
        parts << u"%1 %2 ramp %3→%4 req/s"_s.arg(
            QString::fromLatin1(arrivalName(p.arrival)),
            QString::fromLatin1(rampUpStrategyName(p.rampUpStrategy)), number(p.rampUpStartRps),
            number(p.rampUpEndRps));
    } else if (p.unlimitedRate()) {
        parts << u"all at once (rate inf)"_s;
    } else {
        QString r = u"%1 %2 req/s"_s.arg(QString::fromLatin1(arrivalName(p.arrival)),
                                         number(p.requestRate));
        if (p.arrival == ArrivalProcess::Gamma)
            r += u" burstiness "_s + number(p.burstiness);
        parts << r;
    }
    if (p.closedLoopConcurrency > 0)
        parts << u"closed loop %1"_s.arg(p.closedLoopConcurrency);
    else if (p.maxConcurrency > 0)
        parts << u"max concurrency %1"_s.arg(p.maxConcurrency);
    else
        parts << u"unlimited concurrency"_s;
    return parts.join(u", "_s);
}

} // namespace sb
