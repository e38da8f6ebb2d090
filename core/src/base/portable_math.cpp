// The portable logarithm and power (attnsvm/base/portable_math.hpp; docs/NUMERICS.md "Portable
// functions"): one double-double logarithm serves log, log1p and pow.
//
// log x: x = 2^k z with z in [0.6875, 1.375) read from the bits (the exponent of x is shifted by
// one when its mantissa is >= 1.375), z in one of 128 intervals (the top 7 bits of the shifted
// mantissa: width 2^-8 below 1, 2^-7 above), c_i ~ 1/center of the interval from the table (exactly
// 1 for the two intervals beside z = 1, so that log x near 1 is computed from z - 1 exactly). Then
//   log x = k ln2 + log(1/c_i) + log1p(r),  r = z c_i - 1 (exact as a double-double: Dekker's
//   product, |r| < 2^-7),
//   log1p(r) = r - r^2/2 + r^3 (1/3 - r/4 + ... + r^8/11)   (truncation below 2^-80 relative),
// summed in double-double with error-free transformations (relative error below 2^-66 everywhere:
// the largest is the rounding of the r^3 tail for x near 1). log and log1p round that once; pow
// multiplies it by y in double-double and takes expCore of the result.
//
// Every operation is an IEEE-754 addition, multiplication or division of doubles or an integer
// operation on their bits, in an order fixed by the source (the core is compiled with
// -ffp-contract=off), so the results are the same bits on every conforming platform.
#include "attnsvm/base/portable_math.hpp"

#include <cmath>
#include <limits>

namespace attnsvm::pmath {

namespace {

using detail::DD;
using detail::fastTwoSum;
using detail::logDD;
using detail::twoProd;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -kInf : kNaN;  // x < 0 or NaN
  if (x == kInf) return x;
  return logDD(x).hi;  // hi = lo + hi rounded: fastTwoSum's sum
}

double log1p(double x) {
  if (!(x > -1.0)) return x == -1.0 ? -kInf : kNaN;  // x < -1 or NaN
  if (x == kInf) return x;
  if (std::abs(x) < 0x1p-20) {
    // x + x^2 (-1/2 + x/3 - x^2/4 + x^3/5): truncation below 2^-100 relative, and the correction is
    // below 2^-21 |x|, so one rounding of x + correction decides (1 + x and its rounding error
    // below would be comparable to x itself here).
    const double poly = ((x * (1.0 / 5.0) - 1.0 / 4.0) * x + 1.0 / 3.0) * x - 0.5;
    return x + (x * x) * poly;
  }
  const double u = 1.0 + x;
  // The rounding error c of 1 + x (exact: Sterbenz; beyond 2^53 too, where 1 + x may round up to
  // x + 2), then log1p(x) = log u + c / u to first order (c / u < 2^-53).
  const double c = u >= 2.0 ? 1.0 - (u - x) : x - (u - 1.0);
  const DD l = logDD(u);
  return l.hi + (l.lo + c / u);
}

double pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;  // NaN
  if (x < 0.0) return kNaN;
  if (x == 0.0) return y > 0.0 ? 0.0 : kInf;
  if (x == kInf) return y > 0.0 ? kInf : 0.0;
  // |y| > 2^64 (or inf): |y log x| > 2^10 for every x != 1, so the result over- or underflows.
  if (!(std::abs(y) <= 0x1p64)) return (x < 1.0) == (y > 0.0) ? 0.0 : kInf;
  return detail::powCore(x, y);
}

}  // namespace attnsvm::pmath
