#pragma once

#include <QString>

namespace sb {

struct LoadProfile;

// The load a run was driven with, as one line for a test window's "different loads" check and
// for people: "server, poisson 8 req/s, max concurrency 64". Two runs get the same text exactly
// when scenario, arrival process, rate (or ramp / trace) and concurrency limit agree.
QString loadDescriptor(const LoadProfile &profile);

} // namespace sb
