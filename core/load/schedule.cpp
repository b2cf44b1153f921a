#include "schedule.h"

#include "config/runplan.h"
#include "rng.h"

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
bool isFinitePositive(double v)
{
    return v > 0 && std::isfinite(v);
}
} // namespace

double scheduledRate(const LoadProfile &profile, int index, int n)
{
    const double progress = double(index) / double(std::max(n - 1, 1));
    switch (profile.rampUpStrategy) {
    case RampUpStrategy::Linear:
        return profile.rampUpStartRps + (profile.rampUpEndRps - profile.rampUpStartRps) * progress;
    case RampUpStrategy::Exponential:
        return profile.rampUpStartRps *
               std::pow(profile.rampUpEndRps / profile.rampUpStartRps, progress);
    case RampUpStrategy::None:
        break;
    }
    return profile.unlimitedRate() ? std::numeric_limits<double>::infinity() : profile.requestRate;
}

QString scheduleError(const LoadProfile &profile)
{
    if (!profile.tracePath.isEmpty())
        return u"the profile replays a trace; build its schedule with buildTraceSchedule()"_s;
    if (profile.arrival == ArrivalProcess::Gamma && !(profile.burstiness > 0))
        return u"burstiness must be > 0 (got %1)"_s.arg(profile.burstiness);
    switch (profile.rampUpStrategy) {
    case RampUpStrategy::None:
        break; // LoadProfile::unlimitedRate() already reads any rate <= 0 as "inf"
    case RampUpStrategy::Linear:
    case RampUpStrategy::Exponential: {
        const double r0 = profile.rampUpStartRps;
        const double r1 = profile.rampUpEndRps;
        if (!isFinitePositive(r0) || !isFinitePositive(r1))
            // vLLM accepts a linear ramp from 0 but then fails on its first request (rate 0).
            return u"ramp-up start and end rates must be finite and > 0 (got %1 -> %2)"_s.arg(r0)
                .arg(r1);
        if (r0 > r1)
            return u"ramp-up start rate %1 exceeds end rate %2"_s.arg(r0).arg(r1);
        break;
    }
    }
    return {};
}

namespace {
constexpr double kMaxScheduleSeconds = 100.0 * 365 * 86400;
} // namespace

QList<qint64> buildSchedule(const LoadProfile &profile, int n, quint64 seed)
{
    QList<qint64> out;
    if (n <= 0 || !scheduleError(profile).isEmpty())
        return out;
    out.reserve(n);
    Rng rng(deriveSeed(seed, kStreamArrivals));
    const bool constantGaps =
        profile.arrival == ArrivalProcess::Constant ||
        (profile.arrival == ArrivalProcess::Gamma && std::isinf(profile.burstiness));
    // Seconds in double: 2^53 ns is 104 days, far beyond any run, so summing in seconds and
    // rounding once per request loses nothing that matters.
    double t = 0;
    for (int i = 0; i < n; ++i) {
        const double rate = scheduledRate(profile, i, n);
        double gap = 0;
        if (std::isfinite(rate)) {
            if (constantGaps)
                gap = 1.0 / rate;
            else if (profile.arrival == ArrivalProcess::Poisson)
                gap = rng.exponential(rate);
            else
                gap = rng.gamma(profile.burstiness, 1.0 / (rate * profile.burstiness));
        }
        t += gap;
        // A schedule beyond ~100 years cannot be a run; and llround of a value past 2^63 ns
        // would be undefined. Refuse it whole rather than send at wrapped-around times (the
        // plan's validation refuses such rates first; this guards every other caller).
        if (!(t < kMaxScheduleSeconds))
            return {};
        out.append(qint64(std::llround(t * 1e9)));
    }
    return out;
}

} // namespace sb
