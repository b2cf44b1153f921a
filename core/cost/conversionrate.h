#pragma once

#include "cost/decimal.h"

#include <QString>

namespace sb {

// A user-given exchange rate: 1 `from` = `rate` `to`. Stored as a Decimal and shown in every
// breakdown that used it; the tool never looks a rate up on its own.
struct ConversionRate
{
    QString from; // ISO 4217
    QString to;   // ISO 4217
    Decimal rate;
    QString source; // where the rate came from, e.g. "ECB reference rate 2024-05-01"

    friend bool operator==(const ConversionRate &, const ConversionRate &) = default;
};

} // namespace sb
