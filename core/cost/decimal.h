#pragma once

#include <QString>
#include <QStringView>
#include <compare>
#include <optional>

namespace sb {

// A fixed-point decimal with 9 fractional digits held in one qint64 ("nano-units"): money,
// rates and conversion factors. Binary floating point cannot hold 0.10 exactly, and summing
// many bill lines in double drifts; integers do not. 9 digits keep per-token prices such as
// 0.00000015 USD exact; the range is ±9,223,372,036.854775807, far beyond any bill.
//
// Arithmetic is checked: every operation that can leave the range returns std::nullopt.
// Operations that are not exact at 1e-9 (mulDiv) round half to even once, at the end.
// Presentation rounding (toString(decimals)) is half to even as well and never changes
// the stored value.
class Decimal
{
public:
    static constexpr int kFractionDigits = 9;
    static constexpr qint64 kOne = 1000000000; // 1.0 in units

    constexpr Decimal() = default;
    static constexpr Decimal fromUnits(qint64 units)
    {
        Decimal d;
        d.m_units = units;
        return d;
    }
    // Whole numbers; int keeps the result inside the range by construction.
    static constexpr Decimal fromInt(int whole) { return fromUnits(qint64(whole) * kOne); }

    // Strict parser: optional '-', digits, optionally '.' followed by 1..9 digits (more digits
    // are accepted only when the extra ones are zeros). Rejected with a reason in *error:
    // thousands separators or decimal commas ("1,234.50" is ambiguous between locales),
    // spaces inside, '+', exponents, currency symbols, ".5" / "5.", empty text, out of range.
    // Leading and trailing whitespace is ignored.
    static std::optional<Decimal> parse(QStringView text, QString *error = nullptr);

    qint64 units() const { return m_units; }
    bool isZero() const { return m_units == 0; }
    bool isNegative() const { return m_units < 0; }
    bool isPositive() const { return m_units > 0; }
    // For charts and sorting only; never feed it back into money arithmetic.
    double toDouble() const { return double(m_units) / double(kOne); }

    // Exact, shortest form: "12.34", "0.000125", "-3", "0".
    QString toString() const;
    // Rounded half to even to `decimals` places (0..9), always exactly that many places:
    // toString(2) of 0.125 is "0.12", of 0.135 is "0.14".
    QString toString(int decimals) const;

    std::optional<Decimal> plus(Decimal other) const;
    std::optional<Decimal> minus(Decimal other) const;
    // this × other, rounded half to even to 1e-9.
    std::optional<Decimal> times(Decimal other) const;
    // this × num / den as an exact rational, rounded half to even to 1e-9; nullopt when
    // den <= 0 or the result is out of range. num may be negative.
    std::optional<Decimal> mulDiv(qint64 num, qint64 den) const;
    // this × num1 × num2 / den (the 128-bit product is checked for overflow).
    std::optional<Decimal> mulDiv(qint64 num1, qint64 num2, qint64 den) const;

    friend constexpr bool operator==(Decimal a, Decimal b) = default;
    friend constexpr auto operator<=>(Decimal a, Decimal b) = default;

private:
    qint64 m_units = 0;
};

} // namespace sb
