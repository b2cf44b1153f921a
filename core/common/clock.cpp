#include "clock.h"
// Header-only today; the unit keeps the module archive non-empty and is the place for a
// calibrated wall-clock/monotonic mapping when agents on several hosts are merged.
