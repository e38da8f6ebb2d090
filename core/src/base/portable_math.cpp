// The portable logarithm and power (attnsvm/base/portable_math.hpp; docs/NUMERICS.md "Portable
// functions"): one table serves log, log1p and pow.
//
// log x: x = 2^k z with z in [0.6875, 1.375) read from the bits (the exponent of x is shifted by
// one when its mantissa is >= 1.375), z in one of 128 intervals (the top 7 bits of the shifted
// mantissa: width 2^-8 below 1, 2^-7 above), c_i ~ 1/center of the interval from the table (exactly
// 1 for the two intervals beside z = 1, so that log x near 1 is computed from z - 1 exactly). Then
//   log x = k ln2 + log(1/c_i) + log1p(r),  r = z c_i - 1 (exact as a double-double: Dekker's
//   product, |r| < 2^-7).
// pow (detail::logDD) sums log1p(r) = r - r^2/2 + r^3 (1/3 - r/4 + ... + r^8/11) in double-double
// (relative error below 2^-66), multiplies it by y in double-double and takes expCore of the
// result. log and log1p (logParts below), which round to one double, keep only k ln2_hi +
// log(1/c)_hi + r_hi exact and sum the rest in one double (about 3x faster: the single-run Trainer
// is latency-bound by them).
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
using detail::fromBits;
using detail::toBits;
using detail::twoProd;
using detail::twoSum;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// log x = hi + lo (|lo| < 2^-7 |hi| or so, not rounded into hi) for finite x > 0: the scalar
// logarithm of log and log1p, cheaper than logDD (pow's) for a result rounded to one double. The
// same reduction and table as logDD: x = 2^k z, r = z c - 1 = rh + rl exact (Dekker's product,
// rh = fl(z c) - 1 exact by Sterbenz), then
//   log x = k ln2 + log(1/c) + rh + (rl - rl rh) + P(rh) + O(rl rh^2),
//   P(r) = -r^2/2 + r^3/3 - ... + r^9/9 (truncation below 2^-63 |r|, |r| < 2^-7),
// with k ln2_hi + log(1/c)_hi + rh summed exactly (TwoSum) and the small terms in one double: the
// polynomial (Estrin's scheme: a short dependency chain, the function is latency-bound in the
// training loops) has relative rounding error ~2^-52 on a term below 2^-7 of the result, so the
// sum is off by well under 2^-6 ulp before its one rounding.
inline DD logParts(double x) {
  constexpr std::uint64_t kMantissa = 0x000fffffffffffffULL;
  std::uint64_t ix = toBits(x);
  std::uint64_t subnormal = 0;
  if (ix < 0x0010000000000000ULL) {  // subnormal: scaled by 2^54
    ix = toBits(x * 0x1p54);
    subnormal = 54;
  }
  const std::uint64_t m = ix & kMantissa;
  const std::uint64_t high = m >= 0x0006000000000000ULL ? 1 : 0;  // mantissa >= 1.375
  const std::uint64_t i = ((m - 0x0006000000000000ULL) & kMantissa) >> 45;
  const double z = fromBits(m | (0x3ff0000000000000ULL - (high << 52)));
  const double kd = static_cast<double>(static_cast<std::int64_t>((ix >> 52) + high) - 1023 -
                                        static_cast<std::int64_t>(subnormal));
  const double invc = detail::kLogInvC[i];
  const DD p = twoProd(z, invc);
  const double r = p.hi - 1.0;  // exact (Sterbenz: p.hi is within 2^-7 of 1)
  const double rl = p.lo;
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double q = ((-0.5 + r * (1.0 / 3.0)) + r2 * (-0.25 + r * 0.2)) +
                   r4 * ((-1.0 / 6.0 + r * (1.0 / 7.0)) + r2 * (-0.125 + r * (1.0 / 9.0)));
  const DD a = twoSum(kd * detail::kLn2Hi, detail::kLogCHi[i]);  // kd * kLn2Hi is exact
  const DD b = twoSum(a.hi, r);
  const double lo =
      ((a.lo + b.lo) + ((kd * detail::kLn2Lo + detail::kLogCLo[i]) + (rl - rl * r))) + r2 * q;
  return {b.hi, lo};
}

}  // namespace

double log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -kInf : kNaN;  // x < 0 or NaN
  if (x == kInf) return x;
  const DD l = logParts(x);
  return l.hi + l.lo;
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
  const DD l = logParts(u);
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
