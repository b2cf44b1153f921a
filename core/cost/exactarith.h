#pragma once

#include <QtGlobal>
#include <limits>
#include <optional>

// Internal to core/cost: exact integer arithmetic for money. Products of two 64-bit values
// (amount × rate, amount × milliseconds) need 128 bits before the one final division, so a
// prorated or converted amount is computed as an exact rational and rounded once.
namespace sb::exact {

__extension__ typedef __int128 Int128;

inline Int128 abs128(Int128 v)
{
    return v < 0 ? -v : v;
}

// num / den rounded half to even (banker's rounding); den > 0.
inline Int128 divHalfEven(Int128 num, Int128 den)
{
    Int128 q = num / den; // truncates toward zero
    const Int128 r = abs128(num % den);
    if (r == 0)
        return q;
    // r < den, so den - r cannot overflow; comparing r with den - r avoids computing 2r.
    const Int128 rest = den - r;
    const bool up = r > rest || (r == rest && (q % 2 != 0));
    if (up)
        q += num < 0 ? -1 : 1;
    return q;
}

// ceil(num / den) for num >= 0, den > 0.
inline Int128 divCeil(Int128 num, Int128 den)
{
    return num / den + ((num % den) != 0 ? 1 : 0);
}

inline bool mul(Int128 a, Int128 b, Int128 *out)
{
    return !__builtin_mul_overflow(a, b, out);
}
inline bool add(Int128 a, Int128 b, Int128 *out)
{
    return !__builtin_add_overflow(a, b, out);
}

inline std::optional<qint64> narrow(Int128 v)
{
    if (v > Int128(std::numeric_limits<qint64>::max()) ||
        v < Int128(std::numeric_limits<qint64>::min()))
        return std::nullopt;
    return qint64(v);
}

} // namespace sb::exact
