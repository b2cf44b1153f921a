#include "decimal.h"

#include "exactarith.h"

using namespace Qt::StringLiterals;

namespace sb {

namespace {

using exact::Int128;

void setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
}

// Digits of a non-negative 128-bit value.
QString digitsOf(Int128 v)
{
    if (v == 0)
        return u"0"_s;
    QString s;
    while (v > 0) {
        s.prepend(QChar(u'0' + int(v % 10)));
        v /= 10;
    }
    return s;
}

// Formats a value given in units of 10^-decimals.
QString formatScaled(Int128 scaled, int decimals)
{
    const bool negative = scaled < 0;
    QString digits = digitsOf(exact::abs128(scaled));
    if (decimals > 0) {
        if (digits.size() <= decimals)
            digits = QString(decimals - digits.size() + 1, u'0') + digits;
        digits.insert(digits.size() - decimals, u'.');
    }
    if (negative)
        digits.prepend(u'-');
    return digits;
}

Int128 pow10(int n)
{
    Int128 p = 1;
    for (int i = 0; i < n; ++i)
        p *= 10;
    return p;
}

} // namespace

std::optional<Decimal> Decimal::parse(QStringView text, QString *error)
{
    const QStringView t = text.trimmed();
    if (t.isEmpty()) {
        setError(error, u"empty amount"_s);
        return std::nullopt;
    }
    qsizetype i = 0;
    bool negative = false;
    if (t[0] == u'-') {
        negative = true;
        ++i;
    } else if (t[0] == u'+') {
        setError(error, u"'%1': write the number without '+'"_s.arg(t));
        return std::nullopt;
    }
    Int128 whole = 0;
    Int128 frac = 0;
    int wholeDigits = 0;
    int fracDigits = 0;
    bool point = false;
    for (; i < t.size(); ++i) {
        const QChar c = t[i];
        if (c >= u'0' && c <= u'9') {
            const int d = c.unicode() - u'0';
            if (!point) {
                whole = whole * 10 + d;
                ++wholeDigits;
                if (whole > Int128(std::numeric_limits<qint64>::max() / kOne) + 1) {
                    setError(error, u"'%1' is out of range"_s.arg(t));
                    return std::nullopt;
                }
            } else if (fracDigits < kFractionDigits) {
                frac = frac * 10 + d;
                ++fracDigits;
            } else if (d != 0) {
                setError(error,
                         u"'%1' has more than %2 decimal places"_s.arg(t).arg(kFractionDigits));
                return std::nullopt;
            }
            continue;
        }
        if (c == u'.' && !point) {
            point = true;
            continue;
        }
        if (c == u',') {
            setError(error, u"'%1': use '.' as the decimal point and no thousands separator "
                            "(a comma is ambiguous between locales)"_s.arg(t));
        } else if (c == u'e' || c == u'E') {
            setError(error, u"'%1': exponent notation is not accepted"_s.arg(t));
        } else if (c.isSpace()) {
            setError(error, u"'%1': spaces inside a number are not accepted"_s.arg(t));
        } else {
            setError(error, u"'%1' is not a decimal number (unexpected '%2')"_s.arg(t, QString(c)));
        }
        return std::nullopt;
    }
    if (wholeDigits == 0 || (point && fracDigits == 0)) {
        setError(error,
                 u"'%1' is not a decimal number (write digits on both sides of '.')"_s.arg(t));
        return std::nullopt;
    }
    const Int128 units = whole * kOne + frac * pow10(kFractionDigits - fracDigits);
    const auto narrowed = exact::narrow(negative ? -units : units);
    if (!narrowed) {
        setError(error, u"'%1' is out of range"_s.arg(t));
        return std::nullopt;
    }
    return fromUnits(*narrowed);
}

QString Decimal::toString() const
{
    QString s = formatScaled(m_units, kFractionDigits);
    while (s.endsWith(u'0'))
        s.chop(1);
    if (s.endsWith(u'.'))
        s.chop(1);
    return s;
}

QString Decimal::toString(int decimals) const
{
    decimals = qBound(0, decimals, kFractionDigits);
    const Int128 scaled = exact::divHalfEven(m_units, pow10(kFractionDigits - decimals));
    return formatScaled(scaled, decimals);
}

std::optional<Decimal> Decimal::plus(Decimal other) const
{
    qint64 r;
    if (__builtin_add_overflow(m_units, other.m_units, &r))
        return std::nullopt;
    return fromUnits(r);
}

std::optional<Decimal> Decimal::minus(Decimal other) const
{
    qint64 r;
    if (__builtin_sub_overflow(m_units, other.m_units, &r))
        return std::nullopt;
    return fromUnits(r);
}

std::optional<Decimal> Decimal::times(Decimal other) const
{
    return mulDiv(other.m_units, kOne);
}

std::optional<Decimal> Decimal::mulDiv(qint64 num, qint64 den) const
{
    return mulDiv(num, 1, den);
}

std::optional<Decimal> Decimal::mulDiv(qint64 num1, qint64 num2, qint64 den) const
{
    if (den <= 0)
        return std::nullopt;
    Int128 p;
    if (!exact::mul(m_units, num1, &p) || !exact::mul(p, num2, &p))
        return std::nullopt;
    const auto r = exact::narrow(exact::divHalfEven(p, den));
    if (!r)
        return std::nullopt;
    return fromUnits(*r);
}

} // namespace sb
