// Portable exp, log, log1p and pow (SPEC section 6.4): the functions of training computed by the
// core's own code from IEEE-754 additions, multiplications, divisions and bit operations only, so
// that they return the same bits on every platform (natively, where glibc would be called, and in
// WebAssembly, where Emscripten's musl would be). Together with the hand-ordered reductions of the
// real-images kernel and -ffp-contract=off (core/CMakeLists.txt) they make a training run give the
// same bits natively and in the browser. docs/NUMERICS.md "Portable functions" has the algorithms
// and the measured accuracy; tests/core/test_portable_math.cpp checks it against long double:
//   exp:        < 1 ulp (table-driven, 2^(j/128) and a degree-5 polynomial; 0.52 ulp for normal
//               results, the rest from a subnormal result's second rounding)
//   log, log1p: < 0.5 + 2^-6 ulp (table-driven: r = z c - 1 exact, the rest in one double)
//   pow:        < 1 ulp for x >= 0 (double-double log times y, then fdlibm's exp (expCore) of the
//               double-double)
// Special values follow C99 (exp(-inf) = 0, log(0) = -inf, log(-1) = NaN, pow(x, 0) = 1, ...),
// except that pow is defined for x >= 0 only (x < 0 gives NaN): the core raises |x| to a power and
// restores the sign itself.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "attnsvm/base/portable_math_detail.hpp"

namespace attnsvm::pmath {

namespace detail {

// e^(hi + lo) for |lo| <= 2^-40 |hi| + 2^-60 or so (the double-double argument of pow; lo = 0 for
// exp). Branch-free, so that loops over it vectorize: x = k ln2 + r with k = rint(x / ln2), the
// reduction x - k ln2_hi exact (ln2_hi has 32 significant bits), e^r = 1 + r + r c / (2 - c) with
// c = r - r^2 P(r^2) (fdlibm's minimax P of degree 5), the k ln2_lo and lo terms kept apart from r
// until the last addition; 2^k applied as two exact powers of two 2^(k/2) 2^(k - k/2), so that a
// subnormal result is rounded once and an overflow gives inf. Arguments outside [-746, 710] are
// clamped (e^-746 rounds to 0, e^710 overflows); NaN stays NaN. F: double or V4 (per lane).
template <class F>
ATTNSVM_PMATH_INLINE F expCore(F hi, F lo) {
  using L = Lanes<F>;
  using U = typename L::U;
  constexpr double kInvLn2 = 1.44269504088896338700e+00;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln2 - kLn2Hi
  constexpr double kShift = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  constexpr double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03,
                   P3 = 6.61375632143793436117e-05, P4 = -1.65339022054652515390e-06,
                   P5 = 4.13813679705723846039e-08;
  // clamped as min(hi, 710) then max(., -746) (NaN passes both unchanged); lo needs no clamping:
  // beyond the clamps the result is 0 or inf whatever it is (it is finite: pow's |y log x| < 2^74)
  const F big = F{} + 710.0, small = F{} - 746.0;
  const F high = select(L::less(big, hi), big, hi);
  const F x = select(L::less(high, small), small, high);
  const F t = x * kInvLn2 + kShift;
  const F kd = t - kShift;
  // k + 2048 in [972, 3074] from t's low bits (no signed shifts or conversions: they vectorize)
  const U kBiased = bitsOf(t) - 0x4338000000000000ULL + 2048;
  const F rHi = x - kd * kLn2Hi;   // exact
  const F rLo = kd * kLn2Lo - lo;  // small
  const F r = rHi - rLo;
  const F r2 = r * r;
  const F c = r - r2 * (P1 + r2 * (P2 + r2 * (P3 + r2 * (P4 + r2 * P5))));
  const F y = 1.0 - ((rLo - (r * c) / (2.0 - c)) - rHi);
  // 2^k = 2^k1 2^k2 with k1 = floor(k / 2), k2 = k - k1 (|k1|, |k2| <= 539: both normal)
  const U k1Biased = kBiased >> 1;                   // k1 + 1024
  const U k2Biased = kBiased - k1Biased;             // k2 + 1024
  const F s1 = fromBitsOf<F>((k1Biased - 1) << 52);  // exponent field k1 + 1023
  const F s2 = fromBitsOf<F>((k2Biased - 1) << 52);
  return (y * s1) * s2;
}

// x^y for finite x > 0 and |y| <= 2^64, branch-free (pow() handles the rest): the double-double
// log x times y (Dekker's product), then expCore of the double-double. F: double or V4.
template <class F>
ATTNSVM_PMATH_INLINE F powCore(F x, F y) {
  const DDT<F> l = logDD(x);
  DDT<F> p = twoProd(y, l.hi);
  p.lo += y * l.lo;
  const DDT<F> z = fastTwoSum(p.hi, p.lo);
  return expCore(z.hi, z.lo);
}
}  // namespace detail

// e^x, < 1 ulp (0.52 ulp for normal results). Inline: table-driven, no division (detail::expScalar;
// pow's vectorizable expCore is a different, slower algorithm with other bits).
inline double exp(double x) { return detail::expScalar(x); }

// Natural logarithm, < 0.5 + 2^-6 ulp; log(0) = -inf, log(x < 0) = NaN, log(inf) = inf.
double log(double x);
// log(1 + x), < 0.5 + 2^-6 ulp; log1p(-1) = -inf, log1p(x < -1) = NaN.
double log1p(double x);
// x^y for x >= 0 (x < 0: NaN), < 1 ulp. pow(x, 0) = 1 and pow(1, y) = 1 (also for NaN); pow(0, y)
// = 0 for y > 0 and inf for y < 0; pow(inf, y) = inf for y > 0 and 0 for y < 0; pow(x, +-inf) as
// C99.
double pow(double x, double y);

}  // namespace attnsvm::pmath
