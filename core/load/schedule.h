#pragma once

#include <QList>
#include <QString>

namespace sb {

struct LoadProfile;

// Arrival schedules: when each request of a run is due, as offsets in nanoseconds from the run's
// start. A schedule is a pure function of (profile, n, seed) so a stored seed reproduces it.
//
// Gap k (k = 0..n-1) is drawn for the rate r_k that applies to request k, and request k is due at
// gap_0 + ... + gap_k. Like vLLM's get_request(), the first request waits one gap too: a Poisson
// process started at t = 0 has its first arrival after an exponential gap.
//   constant : gap = 1/r
//   poisson  : gap ~ Exp(r)
//   gamma    : gap ~ Gamma(shape b, scale 1/(r b))  -> mean 1/r, CV 1/sqrt(b); b = 1 is Poisson,
//              b = inf is constant
// r_k is profile.requestRate, or with a ramp-up (vLLM's --ramp-up-strategy), with
// progress x = k / max(n - 1, 1):
//   linear      : r_k = r0 + (r1 - r0) x
//   exponential : r_k = r0 (r1 / r0)^x
// An unlimited rate (inf) gives all zeros.
//
// Unlike vLLM (>= 0.10) we do not rescale the gaps so that the last arrival lands exactly at
// n/rate: that would make the process no longer a renewal process and would make the first k
// arrivals depend on n. Without a ramp-up, the schedule for n is a prefix of the one for m > n.
//
// Gaps come from Rng(deriveSeed(seed, kStreamArrivals)) (see rng.h).
QList<qint64> buildSchedule(const LoadProfile &profile, int n, quint64 seed);

// Why buildSchedule() would refuse the profile (it then returns an empty list); empty when fine.
// Trace replay (profile.tracePath) is not buildSchedule()'s job: see tracereplay.h.
QString scheduleError(const LoadProfile &profile);

// The rate that applies to request `index` of `n` (req/s; inf when unlimited).
double scheduledRate(const LoadProfile &profile, int index, int n);

} // namespace sb
