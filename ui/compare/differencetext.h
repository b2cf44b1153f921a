#pragma once

#include <QColor>
#include <QString>

#include <cmath>

namespace sb {

// How the Compare tab's tables colour and write a difference from the baseline (the comparison
// table and the Significance tab alike).
inline const QColor kDifferenceBetter(0x1b, 0x7f, 0x3b);
inline const QColor kDifferenceWorse(0xb0, 0x00, 0x20);

// "+1.25", "-0.50", never "-0.00". A zero reads "+0.00" with plusOnZero (a difference column,
// where every cell carries a sign), "0.00" otherwise (an interval's end).
inline QString signedNumber(double v, int decimals, bool plusOnZero = false)
{
    if (std::abs(v) < 0.5 * std::pow(10.0, -decimals))
        v = 0;
    const QString s = QString::number(v, 'f', decimals);
    return v > 0 || (plusOnZero && v == 0) ? QLatin1Char('+') + s : s;
}

} // namespace sb
