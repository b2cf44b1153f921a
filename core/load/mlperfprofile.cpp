#include "mlperfprofile.h"

#include "config/runplan.h"

using namespace Qt::StringLiterals;

namespace sb {

bool mlperfConstraintsForProfile(const LoadProfile &p, MlperfConstraints *out, QString *error)
{
    MlperfConstraints c;
    c.percentile = p.scenario == Scenario::SingleStream ? 0.90 : 0.99;
    if (!p.mlperfPreset.isEmpty() && !mlperfPreset(p.mlperfPreset, &c)) {
        *error = u"--mlperf-preset '%1' is unknown; known presets: %2"_s.arg(
            p.mlperfPreset, mlperfPresetNames().join(u", "_s));
        return false;
    }
    if (p.sloPercentile > 0) {
        if (p.sloPercentile >= 100) {
            *error = u"--slo-percentile must be below 100"_s;
            return false;
        }
        c.percentile = p.sloPercentile / 100.0;
    }
    if (p.ttftSloMs >= 0)
        c.ttftBoundMs = p.ttftSloMs;
    if (p.tpotSloMs >= 0)
        c.tpotBoundMs = p.tpotSloMs;
    if (p.minQueryCount > 0)
        c.minQueryCount = p.minQueryCount;
    if (p.minDurationS > 0)
        c.minDurationS = p.minDurationS;
    *out = c;
    return true;
}

} // namespace sb
