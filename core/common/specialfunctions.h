#pragma once

namespace sb {

// ln Γ(x) for x > 0 by the Stirling series after shifting x up to 15; NaN for x <= 0. Written
// out because std::lgamma writes the global signgam and so races between threads.
double logGamma(double x);

// The regularized incomplete beta function I_x(a, b) by its continued fraction (Lentz's method,
// Numerical Recipes' betacf), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) on the side where
// the fraction converges slowly. Shared by LoadGen's early stopping and Student's t.
double regularizedIncompleteBetaCf(double x, double a, double b);

} // namespace sb
