// The portable exp, log, log1p and pow (attnsvm/base/portable_math.hpp) against a long-double
// reference (x87's 64-bit mantissa natively: its own error is below 2^-11 of a double ulp) over
// wide random and edge inputs, with the bounds the header states; special values as C99; and, on
// every platform, against the platform's libm in double (within the bound plus libm's own error).
// The native run compares 200000 random arguments per function (about 1 s under ASan); the report
// test (disabled) runs 10^7 and prints the largest errors for docs/NUMERICS.md:
//   attnsvm_tests --gtest_also_run_disabled_tests --gtest_filter='PortableMath.DISABLED_Report'
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/base/portable_math_array.hpp"
#include "attnsvm/base/rng.hpp"

namespace attnsvm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double fromBits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// Error of `got` in ulps of the double nearest to `ref` (subnormal ulp 2^-1074). Both infinite
// and equal, or both NaN: 0.
double ulpError(double got, long double ref) {
  if (std::isnan(got) && std::isnan(ref)) return 0.0;
  if (std::isinf(got) || std::isinf(ref)) {
    if (got == ref) return 0.0;
    // A finite reference rounds to inf from DBL_MAX + half an ulp (2^1024 - 2^970) on; below,
    // inf is an error of (reference - DBL_MAX) / ulp + 1 ulps at least: report that.
    const long double big = static_cast<long double>(DBL_MAX);
    const long double halfUlp = std::ldexp(1.0L, 970);
    if (std::isinf(got) && std::fabs(ref) >= big + halfUlp) return 0.0;
    if (std::isinf(got) && std::fabs(ref) > big)
      return static_cast<double>((std::fabs(ref) - big) / (2 * halfUlp)) + 0.5;
    return kInf;
  }
  const long double r = std::fabs(ref);
  int e = 0;
  std::frexp(static_cast<double>(r), &e);  // r in [2^(e-1), 2^e)
  const long double ulp =
      r < static_cast<long double>(DBL_MIN) ? std::ldexp(1.0L, -1074) : std::ldexp(1.0L, e - 53);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

// Long double has more precision than double here (x87 natively; not in wasm, where long double's
// functions are musl's double ones).
bool haveExtendedReference() { return LDBL_MANT_DIG == 64; }

struct Worst {
  double ulps = 0.0;
  double x = 0.0, y = 0.0;
  void add(double e, double a, double b = 0.0) {
    if (e > ulps) {
      ulps = e;
      x = a;
      y = b;
    }
  }
};

// Arguments: uniform in [lo, hi].
std::vector<double> uniform(Rng& rng, int count, double lo, double hi) {
  std::vector<double> out(count);
  for (double& x : out) x = lo + (hi - lo) * rng.uniform();
  return out;
}
// Positive doubles with uniformly random bit patterns in [minBits, maxBits] (every binade alike).
std::vector<double> bitPatterns(Rng& rng, int count, std::uint64_t minBits, std::uint64_t maxBits) {
  std::vector<double> out(count);
  for (double& x : out) x = fromBits(minBits + rng.nextU64() % (maxBits - minBits + 1));
  return out;
}

Worst worstExp(Rng& rng, int count) {
  Worst w;
  std::vector<double> xs = uniform(rng, count / 2, -745.2, 709.8);
  for (double x : uniform(rng, count / 4, -2.0, 2.0)) xs.push_back(x);
  for (double x : bitPatterns(rng, count / 4, 0x0000000000000001ULL, 0x3ff0000000000000ULL))
    xs.push_back(rng.uniform() < 0.5 ? x : -x);  // tiny to 1, both signs
  for (double x : xs) w.add(ulpError(pmath::exp(x), std::exp(static_cast<long double>(x))), x);
  return w;
}
Worst worstLog(Rng& rng, int count) {
  Worst w;
  std::vector<double> xs = bitPatterns(rng, count / 2, 1, 0x7fefffffffffffffULL);
  for (double x : uniform(rng, count / 4, 0.5, 2.0)) xs.push_back(x);
  for (double x : uniform(rng, count / 4, -0x1p-20, 0x1p-20)) xs.push_back(1.0 + x);
  for (double x : xs) w.add(ulpError(pmath::log(x), std::log(static_cast<long double>(x))), x);
  return w;
}
Worst worstLog1p(Rng& rng, int count) {
  Worst w;
  std::vector<double> xs = bitPatterns(rng, count / 2, 1, 0x7fefffffffffffffULL);
  for (double x : bitPatterns(rng, count / 4, 1, 0x3fefffffffffffffULL)) xs.push_back(-x);
  for (double x : uniform(rng, count / 4, -1.0, 4.0)) xs.push_back(x);
  for (double x : xs) w.add(ulpError(pmath::log1p(x), std::log1p(static_cast<long double>(x))), x);
  return w;
}
// pow(x, y) for x >= 0: random x over every binade with y such that |y log x| <= 745 (x near 1
// with large y included), the mirror maps' exponents, and integer y.
Worst worstPow(Rng& rng, int count) {
  Worst w;
  auto check = [&](double x, double y) {
    w.add(ulpError(pmath::pow(x, y),
                   std::pow(static_cast<long double>(x), static_cast<long double>(y))),
          x, y);
  };
  const std::vector<double> xs = bitPatterns(rng, count / 2, 1, 0x7fefffffffffffffULL);
  for (double x : xs) {
    const double lx = std::log(x);
    const double range = lx == 0.0 ? 1e3 : 745.0 / std::fabs(lx);
    check(x, (2.0 * rng.uniform() - 1.0) * range);
  }
  const double exponents[] = {
      0.1, 1.0 / 0.1, 0.10000000000000009, 9.999999999999991, 0.5, 2.0, 1.5, 3.0, 1.0 / 3.0, 11.0};
  for (double x : bitPatterns(rng, count / 4, 0x2000000000000000ULL, 0x5fe0000000000000ULL))
    check(x, exponents[rng.nextU64() % 10]);
  for (double x : uniform(rng, count / 8, -0x1p-30, 0x1p-30)) check(1.0 + x, 1e9 * rng.uniform());
  for (double x : uniform(rng, count / 8, 0.0, 10.0))
    check(x, static_cast<double>(rng.nextU64() % 200) - 100.0);
  return w;
}

// The bounds of portable_math.hpp.
constexpr double kExpBound = 1.0, kLogBound = 0.5 + 1.0 / 64.0, kPowBound = 1.0;

TEST(PortableMath, ExpWithinOneUlpOfLongDouble) {
  if (!haveExtendedReference()) GTEST_SKIP() << "long double is not more precise than double here";
  Rng rng(1);
  const Worst w = worstExp(rng, 200000);
  EXPECT_LT(w.ulps, kExpBound) << "exp(" << w.x << ")";
}
TEST(PortableMath, LogWithinHalfUlpOfLongDouble) {
  if (!haveExtendedReference()) GTEST_SKIP() << "long double is not more precise than double here";
  Rng rng(2);
  const Worst w = worstLog(rng, 200000);
  EXPECT_LT(w.ulps, kLogBound) << "log(" << w.x << ")";
}
TEST(PortableMath, Log1pWithinHalfUlpOfLongDouble) {
  if (!haveExtendedReference()) GTEST_SKIP() << "long double is not more precise than double here";
  Rng rng(3);
  const Worst w = worstLog1p(rng, 200000);
  EXPECT_LT(w.ulps, kLogBound) << "log1p(" << w.x << ")";
}
TEST(PortableMath, PowWithinOneUlpOfLongDouble) {
  if (!haveExtendedReference()) GTEST_SKIP() << "long double is not more precise than double here";
  Rng rng(4);
  const Worst w = worstPow(rng, 200000);
  EXPECT_LT(w.ulps, kPowBound) << "pow(" << w.x << ", " << w.y << ")";
}

// On every platform (wasm included): within the bound plus 1 ulp (libm's own error) of the
// platform's double functions.
TEST(PortableMath, AgreesWithLibm) {
  Rng rng(5);
  int differ = 0, total = 0;
  double worst = 0.0;
  auto check = [&](double got, double libm, double bound) {
    ++total;
    if (got == libm || (std::isnan(got) && std::isnan(libm))) return;
    ++differ;
    const double e = ulpError(got, static_cast<long double>(libm));
    worst = std::max(worst, e);
    EXPECT_LE(e, bound + 1.0);
  };
  for (double x : uniform(rng, 20000, -745.0, 709.0)) check(pmath::exp(x), std::exp(x), kExpBound);
  for (double x : bitPatterns(rng, 20000, 1, 0x7fefffffffffffffULL)) {
    check(pmath::log(x), std::log(x), kLogBound);
    check(pmath::log1p(x), std::log1p(x), kLogBound);
  }
  for (double x : uniform(rng, 20000, 0.0, 100.0)) {
    const double y = 10.0 * rng.uniform() - 5.0;
    check(pmath::pow(x, y), std::pow(x, y), kPowBound);
  }
  EXPECT_LT(differ, total / 4) << "differ from libm in " << differ << " of " << total;
  std::printf("portable vs libm: %d of %d results differ, by at most %.3f ulp\n", differ, total,
              worst);
}

TEST(PortableMath, SpecialValues) {
  const double dmin = std::numeric_limits<double>::denorm_min();
  // exp
  EXPECT_EQ(pmath::exp(0.0), 1.0);
  EXPECT_EQ(pmath::exp(-0.0), 1.0);
  EXPECT_EQ(pmath::exp(kInf), kInf);
  EXPECT_EQ(pmath::exp(-kInf), 0.0);
  EXPECT_TRUE(std::isnan(pmath::exp(kNaN)));
  EXPECT_EQ(pmath::exp(709.79), kInf);  // e^709.79 > DBL_MAX
  EXPECT_EQ(pmath::exp(1e308), kInf);
  EXPECT_EQ(pmath::exp(-1e308), 0.0);
  EXPECT_EQ(pmath::exp(-745.2), 0.0);
  EXPECT_EQ(pmath::exp(-745.13), dmin);  // e^-745.13 = 0.5000x * 2^-1074 rounds up
  EXPECT_GT(pmath::exp(709.78), 1.79e308);
  EXPECT_LT(pmath::exp(-708.5), DBL_MIN);  // subnormal result
  EXPECT_GT(pmath::exp(-708.5), 0.0);
  EXPECT_EQ(pmath::exp(1e-300), 1.0);
  // log
  EXPECT_EQ(pmath::log(1.0), 0.0);
  EXPECT_EQ(pmath::log(0.0), -kInf);
  EXPECT_EQ(pmath::log(-0.0), -kInf);
  EXPECT_TRUE(std::isnan(pmath::log(-1.0)));
  EXPECT_TRUE(std::isnan(pmath::log(-kInf)));
  EXPECT_TRUE(std::isnan(pmath::log(kNaN)));
  EXPECT_EQ(pmath::log(kInf), kInf);
  EXPECT_EQ(pmath::log(dmin), std::log(dmin));  // -744.44..., correctly rounded by both
  EXPECT_EQ(pmath::log(2.0), 0.6931471805599453);
  // log1p
  EXPECT_EQ(pmath::log1p(0.0), 0.0);
  EXPECT_TRUE(std::signbit(pmath::log1p(-0.0)));
  EXPECT_EQ(pmath::log1p(-1.0), -kInf);
  EXPECT_TRUE(std::isnan(pmath::log1p(-1.5)));
  EXPECT_TRUE(std::isnan(pmath::log1p(kNaN)));
  EXPECT_EQ(pmath::log1p(kInf), kInf);
  EXPECT_EQ(pmath::log1p(1e-300), 1e-300);
  EXPECT_EQ(pmath::log1p(dmin), dmin);
  EXPECT_EQ(pmath::log1p(DBL_MAX), std::log(DBL_MAX));
  // pow, x >= 0
  EXPECT_EQ(pmath::pow(kNaN, 0.0), 1.0);
  EXPECT_EQ(pmath::pow(1.0, kNaN), 1.0);
  EXPECT_TRUE(std::isnan(pmath::pow(kNaN, 2.0)));
  EXPECT_TRUE(std::isnan(pmath::pow(2.0, kNaN)));
  EXPECT_TRUE(std::isnan(pmath::pow(-2.0, 2.0)));  // defined for x >= 0 only
  EXPECT_EQ(pmath::pow(0.0, 2.5), 0.0);
  EXPECT_EQ(pmath::pow(0.0, -2.5), kInf);
  EXPECT_EQ(pmath::pow(kInf, 0.1), kInf);
  EXPECT_EQ(pmath::pow(kInf, -0.1), 0.0);
  EXPECT_EQ(pmath::pow(0.5, kInf), 0.0);
  EXPECT_EQ(pmath::pow(0.5, -kInf), kInf);
  EXPECT_EQ(pmath::pow(2.0, kInf), kInf);
  EXPECT_EQ(pmath::pow(2.0, -kInf), 0.0);
  EXPECT_EQ(pmath::pow(1.0000001, 1e30), kInf);
  EXPECT_EQ(pmath::pow(0.9999999, 1e30), 0.0);
  EXPECT_EQ(pmath::pow(2.0, 1024.0), kInf);
  EXPECT_EQ(pmath::pow(2.0, -1074.0), dmin);
  EXPECT_EQ(pmath::pow(2.0, -1080.0), 0.0);
  EXPECT_EQ(pmath::pow(dmin, 0.5), std::sqrt(dmin));
  EXPECT_EQ(pmath::pow(4.0, 0.5), 2.0);
  EXPECT_EQ(pmath::pow(10.0, 2.0), 100.0);
  EXPECT_EQ(pmath::pow(3.0, 1.0), 3.0);
}

// pmath::powInPlace (four entries at a time through pow's vector core, for the experiments'
// divergences) gives the scalar pow's bits: random entries over every binade and near 1, the
// entries pow treats apart (0, -0, 1, inf, NaN, negatives, subnormals) in every lane position, the
// md-convergence exponents and the ones pow treats apart (0, +-inf, NaN, |e| > 2^64), lengths 0 to
// 11 (the scalar tail).
TEST(PortableMath, PowInPlaceGivesThePowBits) {
  const double dmin = std::numeric_limits<double>::denorm_min();
  const double special[] = {0.0,
                            -0.0,
                            1.0,
                            kInf,
                            kNaN,
                            -2.0,
                            dmin,
                            3e-310,
                            DBL_MIN,
                            DBL_MAX,
                            1.0 + DBL_EPSILON,
                            1.0 - DBL_EPSILON / 2,
                            2.0};
  const double exponents[] = {1.75, 0.75,      1.0 / 0.75, 7.0 / 3.0, 3.0,    2.0,  0.5,
                              1.5,  1.0 / 3.0, 1.1,        0.1,       -2.5,   1.0,  0.0,
                              -0.0, kInf,      -kInf,      kNaN,      0x1p65, 300.0};
  Rng rng(5);
  std::vector<double> xs = bitPatterns(rng, 3000, 1, 0x7fefffffffffffffULL);
  for (double x : uniform(rng, 1000, 0.0, 4.0)) xs.push_back(x);
  for (double x : uniform(rng, 500, -0x1p-30, 0x1p-30)) xs.push_back(1.0 + x);
  for (int k = 0; k < 13 * 4; ++k) {  // every special value in every lane of a group of four
    xs.push_back(special[k % 13]);
    for (int l = 0; l < 3; ++l) xs.push_back(rng.uniform());
  }
  auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (double e : exponents) {
    std::vector<double> v = xs;
    pmath::powInPlace(v.data(), v.size(), e);
    for (std::size_t i = 0; i < xs.size(); ++i)
      ASSERT_TRUE(same(v[i], pmath::pow(xs[i], e)) || (std::isnan(v[i]) && std::isnan(xs[i])))
          << "pow(" << xs[i] << ", " << e << "): " << v[i] << " vs " << pmath::pow(xs[i], e);
    for (std::size_t n = 0; n <= 11; ++n) {  // short arrays: the tail alone, one group and a tail
      std::vector<double> w(xs.begin() + 13 * 4 + n, xs.begin() + 13 * 4 + 2 * n);
      const std::vector<double> in = w;
      pmath::powInPlace(w.data(), n, e);
      for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(same(w[i], pmath::pow(in[i], e)));
    }
  }
}

// The numbers of docs/NUMERICS.md "Portable functions" (10^7 arguments per function).
TEST(PortableMath, DISABLED_Report) {
  if (!haveExtendedReference()) GTEST_SKIP();
  Rng rng(42);
  const int n = 10000000;
  const Worst e = worstExp(rng, n), l = worstLog(rng, n), l1 = worstLog1p(rng, n),
              p = worstPow(rng, n);
  std::printf("exp   max %.4f ulp at x = %.17g\n", e.ulps, e.x);
  std::printf("log   max %.4f ulp at x = %.17g\n", l.ulps, l.x);
  std::printf("log1p max %.4f ulp at x = %.17g\n", l1.ulps, l1.x);
  std::printf("pow   max %.4f ulp at x = %.17g, y = %.17g\n", p.ulps, p.x, p.y);
}

}  // namespace
}  // namespace attnsvm
