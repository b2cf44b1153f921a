#include "scraperecord.h"

namespace sb {

namespace {
constexpr const char *kNames[ScrapeOutcomeCount] = {
    "ok", "unreachable", "http-status", "not-prometheus", "oversize", "timeout"};
}

const char *scrapeOutcomeName(ScrapeOutcome outcome)
{
    const int i = int(outcome);
    return i >= 0 && i < ScrapeOutcomeCount ? kNames[i] : "unknown";
}

bool scrapeOutcomeFromName(const QString &name, ScrapeOutcome *out)
{
    for (int i = 0; i < ScrapeOutcomeCount; ++i) {
        if (name == QLatin1StringView(kNames[i])) {
            *out = ScrapeOutcome(i);
            return true;
        }
    }
    return false;
}

} // namespace sb
