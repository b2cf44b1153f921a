#include "mlperfprofile.h"

#include "common/message.h"
#include "config/runplan.h"

using namespace Qt::StringLiterals;

namespace sb {

bool mlperfConstraintsForProfile(const LoadProfile &p, MlperfConstraints *out, QString *error)
{
    MlperfConstraints c;
    c.percentile = p.scenario == Scenario::SingleStream ? 0.90 : 0.99;
    if (!p.mlperfPreset.isEmpty() && !mlperfPreset(p.mlperfPreset, &c)) {
        *error =
            Message("mlperf.preset_unknown", {p.mlperfPreset, mlperfPresetNames().join(u", "_s)})
                .text();
        return false;
    }
    if (p.sloPercentile > 0) {
        if (p.sloPercentile >= 100) {
            *error = Message("mlperf.slo_percentile").text();
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
