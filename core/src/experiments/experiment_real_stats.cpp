// Student's t quantile for the study's confidence intervals (attnsvm/experiments/real_study.hpp),
// with the portable exp/log only, so that the CLI and the page print the same interval bounds.
//
// P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t^2) (the regularized incomplete beta function,
// evaluated by its continued fraction, modified Lentz); the 97.5% quantile solves
// I_x(df/2, 1/2) = 0.05 for x by bisection (I_x is increasing in x). ln Gamma by Lanczos' series
// (g = 7, 9 terms: relative error below 1e-15 for the half-integer arguments used here).
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/experiments/real_study.hpp"

namespace attnsvm {

namespace {

double lnGamma(double x) {  // x >= 1/2 (the arguments here: df/2, 1/2, (df + 1)/2)
  static const double c[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                              771.32342877765313,   -176.61502916214059,   12.507343278686905,
                              -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  const double z = x - 1.0;
  double a = c[0];
  const double t = z + 7.5;
  for (int i = 1; i < 9; ++i) a += c[i] / (z + i);
  return 0.91893853320467274178 + (z + 0.5) * pmath::log(t) - t + pmath::log(a);  // ln sqrt(2 pi)
}

// Continued fraction of the incomplete beta function (modified Lentz).
double betaFraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  return h;
}

// I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1.
double incompleteBeta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double lnFront =
      lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * pmath::log(x) + b * pmath::log1p(-x);
  const double front = pmath::exp(lnFront);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * betaFraction(a, b, x) / a;
  return 1.0 - front * betaFraction(b, a, 1.0 - x) / b;
}

}  // namespace

double studentT975(int df) {
  if (df < 1) throw InputError("studentT975: df = " + std::to_string(df) + " must be >= 1");
  const double a = 0.5 * df, b = 0.5;
  // Two-sided tail P(|T| > t) = I_x(a, b), x = df / (df + t^2): find x with I_x = 0.05.
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 200 && hi - lo > 0.0; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    if (incompleteBeta(a, b, mid) < 0.05)
      lo = mid;
    else
      hi = mid;
  }
  const double x = 0.5 * (lo + hi);
  return std::sqrt(df * (1.0 - x) / x);
}

}  // namespace attnsvm
