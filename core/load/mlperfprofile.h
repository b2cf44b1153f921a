#pragma once

#include "load/mlperf.h"

namespace sb {

struct LoadProfile;

// The scenario constraints a profile asks for: its preset (if any) with the profile's own
// values on top. The percentile defaults to the scenario's (Server 99, SingleStream 90).
bool mlperfConstraintsForProfile(const LoadProfile &profile, MlperfConstraints *out,
                                 QString *error);

} // namespace sb
