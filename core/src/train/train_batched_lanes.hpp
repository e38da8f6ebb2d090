// The batched trainer's lane kernels (private to core/src/train/train_batched.cpp, the only
// file that includes it): exp, log, log1p, pow and sqrt as lane functions the compiler vectorizes,
// the register-blocked dot products over a block of runs, and the phases of one softmax unit's
// fused pass (scores and argmax, gather, softmax and contrasts, direction). Everything here is
// inline and must be compiled inside the functions of train_batched.cpp that carry ATTNSVM_LANES
// (GCC's target_clones compiles each at its own vector width), which is why it is a header and not
// a file of its own. Anonymous namespace: one includer.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/train/train_batched.hpp"

// x86-64 (GCC): the lane loops are compiled three times, for AVX-512 (one 8-run block per vector),
// AVX2 (4 doubles per vector) and the portable baseline (SSE2, 2 per vector), and the loader picks
// one for the CPU. All give the same bits: each run's arithmetic is the same sequence of
// operations at any vector width, and with fp-contract off no multiply-add is fused.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__EMSCRIPTEN__)
// GCC contracts a * b + c into a fused multiply-add in C++ whenever the target has FMA (the avx512f
// clone does), which would make the bits depend on the CPU: no contraction in this file.
#pragma GCC optimize("fp-contract=off")
#define ATTNSVM_LANES __attribute__((target_clones("avx512f", "avx2", "default")))
#define ATTNSVM_SSE2_SQRT 1
#include <emmintrin.h>
#else
#define ATTNSVM_LANES
#endif
// The lane kernels below are inlined into each clone (compiled at its vector width).
#if defined(__GNUC__)
#define ATTNSVM_INLINE inline __attribute__((always_inline))
#else
#define ATTNSVM_INLINE inline
#endif

namespace attnsvm {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// x <- e^x elementwise in a form the compiler vectorizes (std::exp is an opaque call per element):
// Cody-Waite reduction x = n ln2 + r, |r| <= ln2/2, Taylor polynomial of degree 13 (truncation
// below 1e-17 relative), 2^n assembled in the exponent bits. Within about 1 ulp of std::exp on
// [-708, 709]; below -708 (a softmax weight under 1e-307 beside a weight of 1) it returns 0, above
// 709 +inf; NaN stays NaN.
// The above for c already in [-708, 709], on a double or on a vector of them (F; U: its bits as
// unsigned integers): expLane and expBlock share it (the same operations, the same bits).
template <class F, class U>
ATTNSVM_INLINE F expOfClamped(F c) {
  constexpr double kShift = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  constexpr unsigned long long kShiftBits = 0x4338000000000000ULL;
  const F t = c * 1.4426950408889634 + kShift;
  const F n = t - kShift;
  const F r = (c - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
  F p = F{} + 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  U bits;
  std::memcpy(&bits, &t, sizeof bits);
  bits = (bits - kShiftBits + 1023) << 52;
  F scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

ATTNSVM_INLINE double expLane(double v) {
  const double y = expOfClamped<double, std::uint64_t>(std::min(std::max(v, -708.0), 709.0));
  return v < -708.0 ? 0.0 : (v > 709.0 ? std::numeric_limits<double>::infinity() : y);
}
ATTNSVM_INLINE void expLanes(double* __restrict x, int count) {
  for (int i = 0; i < count; ++i) x[i] = expLane(x[i]);
}

// x <- sqrt(x) elementwise. std::sqrt keeps errno semantics (a guarded library call per element),
// which GCC does not vectorize even when the loop has nothing else in it, and it pulls the loop
// around it into scalar code too; SSE2's sqrtpd (any x86-64) is the same correctly rounded IEEE
// square root, two at a time.
ATTNSVM_INLINE void sqrtLanes(double* __restrict x, int count) {
  int i = 0;
#ifdef ATTNSVM_SSE2_SQRT
  for (; i + 1 < count; i += 2) _mm_storeu_pd(x + i, _mm_sqrt_pd(_mm_loadu_pd(x + i)));
#endif
  for (; i < count; ++i) x[i] = std::sqrt(x[i]);
}

// log u for positive normal u, inlined into vectorizable loops: u = m 2^e with m in [sqrt(1/2),
// sqrt(2)), log m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.172, series to s^21 (truncation below
// 1e-17 relative); exponent and mantissa read from the bits. Within 2 ulp of std::log.
ATTNSVM_INLINE double logNormal(double u) {
  std::uint64_t bits;
  std::memcpy(&bits, &u, sizeof bits);
  const std::uint64_t ebits =
      (bits >> 52) | 0x4330000000000000ULL;  // the double 2^52 + biased exponent
  double e;
  std::memcpy(&e, &ebits, sizeof e);
  e -= 4503599627370496.0 + 1023.0;
  const std::uint64_t mbits =
      (bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL;  // mantissa in [1, 2)
  double m;
  std::memcpy(&m, &mbits, sizeof m);
  const bool big = m > 1.4142135623730951;
  m = big ? 0.5 * m : m;
  e = big ? e + 1.0 : e;
  const double s = (m - 1.0) / (m + 1.0), z = s * s;
  double p = 1.0 / 21.0;
  p = p * z + 1.0 / 19.0;
  p = p * z + 1.0 / 17.0;
  p = p * z + 1.0 / 15.0;
  p = p * z + 1.0 / 13.0;
  p = p * z + 1.0 / 11.0;
  p = p * z + 1.0 / 9.0;
  p = p * z + 1.0 / 7.0;
  p = p * z + 1.0 / 5.0;
  p = p * z + 1.0 / 3.0;
  return e * 6.93147180369123816490e-01 +
         (2.0 * s + 2.0 * s * z * p + e * 1.90821492927058770002e-10);
}

// x <- log1p(x) for x >= 0, +inf and NaN (the softmax normalizer S, the logistic loss's e^{-|u|}):
// log(1 + x) plus the rounding of 1 + x put back, (x - ((1 + x) - 1)) / (1 + x). Within 2 ulp of
// std::log1p.
ATTNSVM_INLINE double log1pLane(double v) {
  const double u = 1.0 + v;
  const double r = logNormal(u) + (v - (u - 1.0)) / u;
  return (v != v || v == std::numeric_limits<double>::infinity()) ? v : r;
}

// x <- log(x) for x >= 0, +inf and NaN (the max-abs of a unit's direction): 0 -> -inf; subnormal
// inputs scaled by 2^54 first.
ATTNSVM_INLINE double logLane(double v) {
  const bool tiny = v < std::numeric_limits<double>::min();
  const double r =
      tiny ? logNormal(v * 18014398509481984.0) - 54.0 * 0.69314718055994530942 : logNormal(v);
  return (v != v || v == std::numeric_limits<double>::infinity()) ? v
         : v == 0.0 ? -std::numeric_limits<double>::infinity()
                    : r;
}
ATTNSVM_INLINE void logLanes(double* __restrict x, int count) {
  for (int i = 0; i < count; ++i) x[i] = logLane(x[i]);
}

// x^e for x >= 0, +inf and NaN as e^{e log x} with the lane functions, for the moderate exponents
// of the mirror maps and dual norms (1/3 to 3): within a few ulp of std::pow where |e log x| is
// moderate (the error grows with it: |e log x| eps), 0 -> 0, +inf -> +inf; vectorizes.
ATTNSVM_INLINE double powLane(double x, double e) { return expLane(e * logLane(x)); }

// sign(x)|x|^e, elementwise (mirror.cpp's signedPower on a flat array; identity for e = 1). The
// mirror maps of p = 3 (e = 2 and 1/2) without pow: |x|^2 and sqrt|x| are what pow rounds them to
// (both correctly rounded); other exponents through powLane. These loops vectorize where pow is a
// call per element.
ATTNSVM_INLINE void signedPower(double* __restrict x, std::size_t size, double e) {
  if (e == 1.0) return;
  if (e == 2.0) {
    for (std::size_t i = 0; i < size; ++i) x[i] = x[i] * std::abs(x[i]);
  } else if (e == 0.5) {
    for (std::size_t i = 0; i < size; ++i) x[i] = std::copysign(std::sqrt(std::abs(x[i])), x[i]);
  } else {
    for (std::size_t i = 0; i < size; ++i) x[i] = std::copysign(powLane(std::abs(x[i]), e), x[i]);
  }
}

// out[k] = sum_{j < count} a[j sa + k] b[j sb + k] for every lane k < lanes (a multiple of L): the
// sums of kLanes runs accumulate in registers, not in memory.
template <int L>
ATTNSVM_INLINE void laneDots(double* __restrict out, const double* __restrict a, std::ptrdiff_t sa,
                             const double* __restrict b, std::ptrdiff_t sb, int count, int lanes) {
  for (int kb = 0; kb < lanes; kb += L) {
    double acc[L] = {};
    for (int j = 0; j < count; ++j) {
      const double* __restrict x = a + j * sa + kb;
      const double* __restrict y = b + j * sb + kb;
      for (int l = 0; l < L; ++l) acc[l] += x[l] * y[l];
    }
    for (int l = 0; l < L; ++l) out[kb + l] = acc[l];
  }
}

// out[r so + l] = sum_{j < count} A[r ra + j sa + l] B[j sb + l] for rows r < rows and the L lanes
// of one block: R rows at a time, so that R independent sums are in flight instead of one chain
// of count dependent additions (each sum in increasing j, as laneDots).
template <int L, int R>
ATTNSVM_INLINE void laneDotsRows(double* __restrict out, std::ptrdiff_t so,
                                 const double* __restrict A, std::ptrdiff_t ra, std::ptrdiff_t sa,
                                 const double* __restrict B, std::ptrdiff_t sb, int count) {
#if defined(__GNUC__)
  // A vector of the block's L lanes (GCC / Clang vector extension, lowered to the target's width):
  // the R sums stay in registers, which arrays of doubles do not.
  typedef double Lanes __attribute__((vector_size(L * sizeof(double))));
  Lanes acc[R] = {};
  for (int j = 0; j < count; ++j) {
    Lanes b;
    std::memcpy(&b, B + j * sb, sizeof b);
    for (int r = 0; r < R; ++r) {
      Lanes a;
      std::memcpy(&a, A + r * ra + j * sa, sizeof a);
      acc[r] += a * b;
    }
  }
  for (int r = 0; r < R; ++r) std::memcpy(out + r * so, &acc[r], sizeof acc[r]);
#else
  double acc[R][L] = {};
  for (int j = 0; j < count; ++j) {
    const double* __restrict b = B + j * sb;
    for (int r = 0; r < R; ++r) {
      const double* __restrict a = A + r * ra + j * sa;
      for (int l = 0; l < L; ++l) acc[r][l] += a[l] * b[l];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int l = 0; l < L; ++l) out[r * so + l] = acc[r][l];
#endif
}
template <int L>
ATTNSVM_INLINE void laneDotsMany(double* __restrict out, std::ptrdiff_t so,
                                 const double* __restrict A, std::ptrdiff_t ra, std::ptrdiff_t sa,
                                 const double* __restrict B, std::ptrdiff_t sb, int count,
                                 int rows) {
  int r = 0;
#if defined(__wasm_simd128__)
  // wasm SIMD128 holds 2 of a block's 8 lanes per register: 4 rows' sums are 16 registers, with the
  // shared and the row operands more than V8 has on x86-64 (16 xmm), and they spill. One row at a
  // time (4 sums, 8 operand registers) ran local-convergence's seeds in 0.92x and md-convergence's
  // p = 3 seeds in 0.91x the time of 4 rows in wasm (2 rows at a time: 0.92x, and 1.05x one row's
  // time on p = 3); each sum keeps its order: the same bits.
  for (; r < rows; ++r) laneDotsRows<L, 1>(out + r * so, so, A + r * ra, ra, sa, B, sb, count);
#endif
  for (; r + 4 <= rows; r += 4)
    laneDotsRows<L, 4>(out + r * so, so, A + r * ra, ra, sa, B, sb, count);
  for (; r < rows; ++r) laneDotsRows<L, 1>(out + r * so, so, A + r * ra, ra, sa, B, sb, count);
}

// The step's per-run reductions over a parameter block (x[e K + k], e < size): the running sums
// of a block's L lanes in one vector register, e in increasing order as before. As a loop over e
// with the K lanes innermost they were sums kept in memory, each e's addition waiting for the
// previous e's store: a chain of store-to-load forwarding through the whole block.
#if defined(__GNUC__)
#define ATTNSVM_LANE_VECTORS 1
#endif

#ifdef ATTNSVM_LANE_VECTORS
// A block's L lanes as one vector V, its lane masks B (all ones or zero per lane), and m ? a : b
// lane by lane on their bits.
template <int L>
struct LaneTypes {
  typedef double V __attribute__((vector_size(L * sizeof(double))));
  typedef long long B __attribute__((vector_size(L * sizeof(double))));
};
template <int L>
ATTNSVM_INLINE typename LaneTypes<L>::V lanePick(typename LaneTypes<L>::B m,
                                                 typename LaneTypes<L>::V a,
                                                 typename LaneTypes<L>::V b) {
  typename LaneTypes<L>::B ab, bb;
  std::memcpy(&ab, &a, sizeof ab);
  std::memcpy(&bb, &b, sizeof bb);
  const typename LaneTypes<L>::B r = (ab & m) | (bb & ~m);
  typename LaneTypes<L>::V out;
  std::memcpy(&out, &r, sizeof out);
  return out;
}
#endif

// out[l] = sum_e a[e K + l]^2 for the L lanes of one block.
template <int L>
ATTNSVM_INLINE void laneSquareSums(double* __restrict out, const double* __restrict a,
                                   std::ptrdiff_t K, int size) {
#ifdef ATTNSVM_LANE_VECTORS
  typedef double Lanes __attribute__((vector_size(L * sizeof(double))));
  Lanes acc = {};
  for (int e = 0; e < size; ++e) {
    Lanes v;
    std::memcpy(&v, a + e * K, sizeof v);
    acc += v * v;
  }
  std::memcpy(out, &acc, sizeof acc);
#else
  for (int l = 0; l < L; ++l) out[l] = 0.0;
  for (int e = 0; e < size; ++e)
    for (int l = 0; l < L; ++l) out[l] += a[e * K + l] * a[e * K + l];
#endif
}

// next[e K + l] = x[e K + l] - coef[l] dir[e K + l] for the L lanes of one block, and bad[l] +=
// next * 0 (NaN where an entry is not finite).
template <int L>
ATTNSVM_INLINE void laneStep(double* __restrict next, const double* __restrict x,
                             const double* __restrict dir, const double* __restrict coef,
                             double* __restrict bad, std::ptrdiff_t K, int size) {
#ifdef ATTNSVM_LANE_VECTORS
  typedef double Lanes __attribute__((vector_size(L * sizeof(double))));
  Lanes c, b;
  std::memcpy(&c, coef, sizeof c);
  std::memcpy(&b, bad, sizeof b);
  for (int e = 0; e < size; ++e) {
    Lanes xe, de;
    std::memcpy(&xe, x + e * K, sizeof xe);
    std::memcpy(&de, dir + e * K, sizeof de);
    const Lanes ne = xe - c * de;
    std::memcpy(next + e * K, &ne, sizeof ne);
    b += ne * 0.0;
  }
  std::memcpy(bad, &b, sizeof b);
#else
  for (int e = 0; e < size; ++e)
    for (int l = 0; l < L; ++l) {
      const double v = x[e * K + l] - coef[l] * dir[e * K + l];
      next[e * K + l] = v;
      bad[l] += v * 0.0;
    }
#endif
}

// The commit of one block of L lanes: x <- next where active[l], and sq[l] = sum_e x^2 of the
// result.
template <int L>
ATTNSVM_INLINE void laneCommit(double* __restrict x, const double* __restrict next,
                               const unsigned char* __restrict active, double* __restrict sq,
                               std::ptrdiff_t K, int size) {
#ifdef ATTNSVM_LANE_VECTORS
  typedef double Lanes __attribute__((vector_size(L * sizeof(double))));
  typedef long long Bits __attribute__((vector_size(L * sizeof(double))));
  long long mask[L];
  bool all = true;
  for (int l = 0; l < L; ++l) {
    mask[l] = active[l] ? -1 : 0;
    all = all && active[l];
  }
  Bits take;
  std::memcpy(&take, mask, sizeof take);
  Lanes acc = {};
  if (all) {  // the common case: every run of the block takes its step
    for (int e = 0; e < size; ++e) {
      Lanes v;
      std::memcpy(&v, next + e * K, sizeof v);
      std::memcpy(x + e * K, &v, sizeof v);
      acc += v * v;
    }
  } else {
    for (int e = 0; e < size; ++e) {
      Bits n, o;
      std::memcpy(&n, next + e * K, sizeof n);
      std::memcpy(&o, x + e * K, sizeof o);
      const Bits pick = (n & take) | (o & ~take);
      Lanes v;
      std::memcpy(&v, &pick, sizeof v);
      std::memcpy(x + e * K, &v, sizeof v);
      acc += v * v;
    }
  }
  std::memcpy(sq, &acc, sizeof acc);
#else
  for (int l = 0; l < L; ++l) sq[l] = 0.0;
  for (int e = 0; e < size; ++e)
    for (int l = 0; l < L; ++l) {
      const double v = active[l] ? next[e * K + l] : x[e * K + l];
      x[e * K + l] = v;
      sq[l] += v * v;
    }
#endif
}

// out[l] = max over e of max(|a[e K + l]|, |b[e K + l]|), from 0, as the loop of std::max
// (std::max(p, q) = p < q ? q : p, so a NaN entry is skipped where it is the second argument),
// the running maxima of the block in registers.
template <int L>
ATTNSVM_INLINE void laneMaxAbs2(double* __restrict out, const double* __restrict a,
                                const double* __restrict b, std::ptrdiff_t K, int size) {
#ifdef ATTNSVM_LANE_VECTORS
  using V = typename LaneTypes<L>::V;
  using B = typename LaneTypes<L>::B;
  const auto absOf = [](V v) {  // |v|: the sign bit cleared, as std::abs
    B bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= 0x7fffffffffffffffLL;
    V o;
    std::memcpy(&o, &bits, sizeof o);
    return o;
  };
  // Four running maxima (e mod 4), combined at the end: a NaN never enters one (it is only ever
  // the second argument) and |x| is never -0, so the maximum of the rest does not depend on the
  // order; four chains of compare-and-select instead of one.
  V acc[4] = {};
  int e = 0;
  const auto step = [&](V& r, int at) {
    V p, q;
    std::memcpy(&p, a + at * K, sizeof p);
    std::memcpy(&q, b + at * K, sizeof q);
    p = absOf(p);
    q = absOf(q);
    const V m = lanePick<L>(p < q, q, p);
    r = lanePick<L>(r < m, m, r);
  };
  for (; e + 4 <= size; e += 4)
    for (int i = 0; i < 4; ++i) step(acc[i], e + i);
  for (; e < size; ++e) step(acc[0], e);
  for (int i = 1; i < 4; ++i) acc[0] = lanePick<L>(acc[0] < acc[i], acc[i], acc[0]);
  std::memcpy(out, &acc[0], sizeof acc[0]);
#else
  for (int l = 0; l < L; ++l) out[l] = 0.0;
  for (int e = 0; e < size; ++e)
    for (int l = 0; l < L; ++l)
      out[l] = std::max(out[l], std::max(std::abs(a[e * K + l]), std::abs(b[e * K + l])));
#endif
}

// x <- e^x for the L lanes of one block: expLane's operations on a vector (the same bits). For a
// loop of exactly one block GCC's cost model keeps expLane scalar, with branches.
template <int L>
ATTNSVM_INLINE void expBlock(double* __restrict x) {
#ifdef ATTNSVM_LANE_VECTORS
  using V = typename LaneTypes<L>::V;
  typedef unsigned long long U __attribute__((vector_size(L * sizeof(double))));
  const V lo = V{} - 708.0, hi = V{} + 709.0;
  V v;
  std::memcpy(&v, x, sizeof v);
  const V m1 = lanePick<L>(v < lo, lo, v);   // std::max(v, -708)
  const V c = lanePick<L>(hi < m1, hi, m1);  // std::min(., 709)
  const V y = expOfClamped<V, U>(c);
  const V inf = V{} + std::numeric_limits<double>::infinity();
  const V out = lanePick<L>(v < lo, V{}, lanePick<L>(v > hi, inf, y));
  std::memcpy(x, &out, sizeof out);
#else
  for (int l = 0; l < L; ++l) x[l] = expLane(x[l]);
#endif
}

// g_j = sum_t c[t L + l] (x_tj - xa_j) for R features j of one block (X at feature j's first
// token, xa and g at feature j): the R sums in registers, t in increasing order.
template <int L, int R>
ATTNSVM_INLINE void directionRows(double* __restrict g, const double* __restrict X,
                                  const double* __restrict xa, const double* __restrict c,
                                  std::ptrdiff_t K, int d, int tau) {
#ifdef ATTNSVM_LANE_VECTORS
  typedef double V __attribute__((vector_size(L * sizeof(double))));
  V acc[R] = {}, a[R];
  for (int r = 0; r < R; ++r) std::memcpy(&a[r], xa + r * L, sizeof a[r]);
  for (int t = 0; t < tau; ++t) {
    V ct;
    std::memcpy(&ct, c + t * L, sizeof ct);
    for (int r = 0; r < R; ++r) {
      V x;
      std::memcpy(&x, X + (t * d + r) * K, sizeof x);
      acc[r] += ct * (x - a[r]);
    }
  }
  for (int r = 0; r < R; ++r) std::memcpy(g + r * L, &acc[r], sizeof acc[r]);
#else
  for (int r = 0; r < R; ++r)
    for (int l = 0; l < L; ++l) g[r * L + l] = 0.0;
  for (int t = 0; t < tau; ++t)
    for (int r = 0; r < R; ++r)
      for (int l = 0; l < L; ++l)
        g[r * L + l] += c[t * L + l] * (X[(t * d + r) * K + l] - xa[r * L + l]);
#endif
}

// Per-lane state of one softmax unit for one block of L runs, shared by the unit pass's phases.
}  // namespace

namespace detail {
struct UnitLanes {
  static constexpr int L = 8;
  double best[L], alphaD[L];  // first maximum of the scores and its token (as a double)
  double hvA[L];              // v . x_alpha
  double prob[L];             // softmax probability of alpha
  double lambda[L];           // log of the softmax mass off alpha
  double mean[L];             // softmax mean of the head contrasts v.x_t - v.x_alpha
};
}  // namespace detail

namespace {
using detail::UnitLanes;

// Scores a[t L + l] = x_t . q (X(t, j)[l] at ((t d + j) K + l), q[j L + l]) and their first
// maximum, in one sweep over the tokens.
ATTNSVM_INLINE void scoresAndArgmax(const double* __restrict X, const double* __restrict q,
                                    std::ptrdiff_t K, int d, int tau, double* __restrict a,
                                    UnitLanes& s) {
  constexpr int L = UnitLanes::L;
  laneDotsMany<L>(a, L, X, d * K, K, q, L, d, tau);
  for (int t = 0; t < tau; ++t)
    for (int l = 0; l < L; ++l) {
      const double at = a[t * L + l];
      const bool more = t == 0 || at > s.best[l];
      s.best[l] = more ? at : s.best[l];
      s.alphaD[l] = more ? static_cast<double>(t) : s.alphaD[l];
    }
}

// x_alpha (xa[j L + l]) and v . x_alpha of each lane's own selected token (a gather).
ATTNSVM_INLINE void gatherSelected(const double* __restrict X, const double* __restrict hv,
                                   std::ptrdiff_t K, int d, const int* __restrict alpha,
                                   double* __restrict xa, UnitLanes& s) {
  constexpr int L = UnitLanes::L;
  std::ptrdiff_t row[L];  // offset of lane l's x_alpha (j = 0) in X
  for (int l = 0; l < L; ++l) {
    row[l] = alpha[l] * d * K + l;
    s.hvA[l] = hv[alpha[l] * K + l];
  }
  for (int j = 0; j < d; ++j)
    for (int l = 0; l < L; ++l) xa[j * L + l] = X[row[l] + j * K];
}

// Softmax off alpha: w_t = e^{b_t - beta} with b_t = a_t - a_alpha (-inf at alpha, so w_alpha = 0)
// and beta = max over t != alpha; the normalizer S = e^beta sum w, prob = 1 / (1 + S), lambda =
// beta - log1p(S); the softmax mean of the head contrasts (times e^{-lambda}).
ATTNSVM_INLINE void softmaxAndContrasts(const double* __restrict a, const double* __restrict hv,
                                        std::ptrdiff_t K, int tau, double* __restrict w,
                                        UnitLanes& s) {
  constexpr int L = UnitLanes::L;
  double beta[L], wsum[L] = {}, mean[L] = {};
  for (int l = 0; l < L; ++l) beta[l] = kNegInf;
  for (int t = 0; t < tau; ++t)
    for (int l = 0; l < L; ++l) {
      const double b = s.alphaD[l] == static_cast<double>(t) ? kNegInf : a[t * L + l] - s.best[l];
      w[t * L + l] = b;
      beta[l] = std::max(beta[l], b);
    }
  for (int t = 0; t < tau; ++t)
    for (int l = 0; l < L; ++l) {
      const double wt = expLane(w[t * L + l] - beta[l]);
      w[t * L + l] = wt;
      wsum[l] += wt;
      mean[l] += wt * (hv[t * K + l] - s.hvA[l]);
    }
  double expBeta[L], S[L];
  for (int l = 0; l < L; ++l) expBeta[l] = beta[l];
  expBlock<L>(expBeta);
  for (int l = 0; l < L; ++l) {
    S[l] = expBeta[l] * wsum[l];
    s.prob[l] = 1.0 / (1.0 + S[l]);
    s.mean[l] = mean[l] * (expBeta[l] * s.prob[l]);
  }
  for (int l = 0; l < L; ++l) s.lambda[l] = beta[l] - log1pLane(S[l]);
}

// Direction of grad_q, g[j L + l] = sum_t c_t (x_t - x_alpha)_j with c_t = w_t (delta_t - mean)
// (the sum over t in increasing order, as evaluateUnit's): the c_t first, in place of the weights,
// then four features at a time with their sums in registers (directionRows).
ATTNSVM_INLINE void direction(const double* __restrict X, const double* __restrict xa,
                              const double* __restrict hv, double* __restrict w, std::ptrdiff_t K,
                              int d, int tau, double* __restrict g, const UnitLanes& s) {
  constexpr int L = UnitLanes::L;
  for (int t = 0; t < tau; ++t)
    for (int l = 0; l < L; ++l)
      w[t * L + l] = w[t * L + l] * ((hv[t * K + l] - s.hvA[l]) - s.mean[l]);
  int j = 0;
  for (; j + 4 <= d; j += 4) directionRows<L, 4>(g + j * L, X + j * K, xa + j * L, w, K, d, tau);
  for (; j + 2 <= d; j += 2) directionRows<L, 2>(g + j * L, X + j * K, xa + j * L, w, K, d, tau);
  for (; j < d; ++j) directionRows<L, 1>(g + j * L, X + j * K, xa + j * L, w, K, d, tau);
}

}  // namespace

}  // namespace attnsvm
