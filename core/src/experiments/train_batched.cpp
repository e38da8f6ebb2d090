// Batched trainer (see train_batched.hpp): Trainer's iteration for K runs at once, structure of
// arrays with the run index innermost. Every loop below that touches per-run data has the run
// index as its innermost loop with unit stride, so it vectorizes across runs. The gradient goes
// block by block of kLanes runs: per block, each softmax unit is one fused pass (query, scores and
// argmax, softmax weights and contrasts, direction, loss) over block-local scratch that stays in
// L1, each phase a fixed-width loop over the block's lanes. The formulas are evaluateUnit's
// (model_unit.cpp) and Model::gradient's (gradient.cpp) with two reassociations that the single-run
// code cannot afford but a batch can:
//   b_t = a_t - a_alpha          instead of (x_t - x_alpha) . q  (same absolute error, eps |x||q|)
//   v . (x_t - x_alpha) = v.x_t - v.x_alpha, with v.x_t computed once (the head is fixed)
// so the head's contrasts cost nothing per step and the head output is f = v.x_alpha + mean.
// and the transcendental functions (exp, log, log1p of the unit pass; |x|^e of the mirror maps)
// are lane functions here, within 1-2 ulp of libm for exp/log, and a unit direction is scaled by
// one reciprocal instead of divided.
// The tests (tests/core/test_train_batched.cpp) hold the result to Trainer's within 1e-12 relative.
#include "attnsvm/experiments/train_batched.hpp"
#include "attnsvm/base/portable_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "attnsvm/base/errors.hpp"
#include "model/mirror_internal.hpp"
#include "model/model_internal.hpp"
#include "base/text.hpp"

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

bool perQueryUnits(AttentionKind kind) {
  return kind == AttentionKind::SeqToSeq || kind == AttentionKind::Causal;
}

// x <- e^x elementwise in a form the compiler vectorizes (std::exp is an opaque call per element):
// Cody-Waite reduction x = n ln2 + r, |r| <= ln2/2, Taylor polynomial of degree 13 (truncation
// below 1e-17 relative), 2^n assembled in the exponent bits. Within about 1 ulp of std::exp on
// [-708, 709]; below -708 (a softmax weight under 1e-307 beside a weight of 1) it returns 0, above
// 709 +inf; NaN stays NaN.
ATTNSVM_INLINE double expLane(double v) {
  constexpr double kShift = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  constexpr std::uint64_t kShiftBits = 0x4338000000000000ULL;
  {
    const double c = std::min(std::max(v, -708.0), 709.0);
    const double t = c * 1.4426950408889634 + kShift;
    const double n = t - kShift;
    const double r = (c - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
    double p = 1.0 / 6227020800.0;
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
    std::uint64_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits - kShiftBits + 1023) << 52;
    double scale;
    std::memcpy(&scale, &bits, sizeof scale);
    const double y = p * scale;
    return v < -708.0 ? 0.0 : (v > 709.0 ? std::numeric_limits<double>::infinity() : y);
  }
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
  for (; r + 4 <= rows; r += 4)
    laneDotsRows<L, 4>(out + r * so, so, A + r * ra, ra, sa, B, sb, count);
  for (; r < rows; ++r) laneDotsRows<L, 1>(out + r * so, so, A + r * ra, ra, sa, B, sb, count);
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
  for (int l = 0; l < L; ++l) expBeta[l] = expLane(beta[l]);
  for (int l = 0; l < L; ++l) {
    S[l] = expBeta[l] * wsum[l];
    s.prob[l] = 1.0 / (1.0 + S[l]);
    s.mean[l] = mean[l] * (expBeta[l] * s.prob[l]);
  }
  for (int l = 0; l < L; ++l) s.lambda[l] = beta[l] - log1pLane(S[l]);
}

// Direction of grad_q, g[j L + l] = sum_t c_t (x_t - x_alpha)_j with c_t = w_t (delta_t - mean),
// in one sweep over the tokens (the sum over t in increasing order, as evaluateUnit's).
ATTNSVM_INLINE void direction(const double* __restrict X, const double* __restrict xa,
                              const double* __restrict hv, const double* __restrict w,
                              std::ptrdiff_t K, int d, int tau, double* __restrict g,
                              const UnitLanes& s) {
  constexpr int L = UnitLanes::L;
  for (int j = 0; j < d * L; ++j) g[j] = 0.0;
  for (int t = 0; t < tau; ++t) {
    double c[L];
    for (int l = 0; l < L; ++l) c[l] = w[t * L + l] * ((hv[t * K + l] - s.hvA[l]) - s.mean[l]);
    for (int j = 0; j < d; ++j) {
      const double* __restrict x = X + (t * d + j) * K;
      for (int l = 0; l < L; ++l) g[j * L + l] += c[l] * (x[l] - xa[j * L + l]);
    }
  }
}

}  // namespace

std::string batchedUnsupported(const ModelSpec& spec, const TrainSettings& s) {
  if (spec.head != HeadKind::Linear) return "the batched trainer has the linear head only";
  if (s.trainHead) return "the batched trainer does not train the head";
  if (s.traceSoftmax) return "the batched trainer records no softmax trace";
  return "";
}

BatchedTrainer::BatchedTrainer(std::vector<Model> models, TrainSettings settings,
                               const std::vector<Params>& inits)
    : models_(std::move(models)), s_(std::move(settings)) {
  if (models_.empty()) throw InputError("batched trainer: no runs");
  if (inits.size() != models_.size())
    throw InputError("batched trainer: " + std::to_string(inits.size()) + " starts for " +
                     std::to_string(models_.size()) + " runs");
  const ModelSpec& spec0 = models_[0].spec();
  const std::string why = batchedUnsupported(spec0, s_);
  if (!why.empty()) throw InputError(why);
  // Trainer's checks of the settings and of the start (same messages), on the first run.
  (void)Trainer(models_[0], s_, inits[0]);
  const Dataset& d0 = models_[0].data();
  K_ = static_cast<int>(models_.size());
  KP_ = (K_ + kLanes - 1) / kLanes * kLanes;
  n_ = d0.n;
  T_ = d0.T;
  d_ = d0.d;
  param_ = spec0.param;
  lossKind_ = spec0.loss;
  m_ = param_ == Parameterization::KQ ? (spec0.m == 0 ? d_ : spec0.m) : 0;
  for (int r = 0; r < K_; ++r) {
    const Dataset& dr = models_[r].data();
    const ModelSpec& sr = models_[r].spec();
    if (dr.n != n_ || dr.T != T_ || dr.d != d_ || sr.attention != spec0.attention ||
        sr.param != param_ || sr.loss != lossKind_ || sr.head != spec0.head ||
        (param_ == Parameterization::KQ && sr.m != spec0.m) ||
        (param_ != Parameterization::Prompt && sr.attention == AttentionKind::Self &&
         dr.query != d0.query))
      throw InputError("batched trainer: run " + std::to_string(r) +
                       " differs in shape or model from run 0");
    (void)models_[r].loss(inits[r]);  // shape check of the start (InputError)
    const Params& p = inits[r];
    if (!p.W.allFinite() || !p.K.allFinite() || !p.Q.allFinite() || !p.p.allFinite() ||
        !p.v.allFinite())
      throw InputError("initial parameters of run " + std::to_string(r) + " contain NaN or Inf");
  }
  const AttentionKind kind = spec0.attention;
  const bool prompt = param_ == Parameterization::Prompt;
  units_ = perQueryUnits(kind) ? n_ * T_ : n_;
  logUnits_ = pmath::log(static_cast<double>(units_));
  unitSeq_.resize(units_);
  unitCount_.resize(units_);
  const std::size_t K = KP_, d = d_, T = T_, U = units_;
  tokens_.assign(static_cast<std::size_t>(n_) * T * d * K, 0.0);
  headDot_.assign(static_cast<std::size_t>(n_) * T * K, 0.0);
  label_.assign(U * K, 0.0);
  if (!prompt) queryIn_.assign(U * d * K, 0.0);
  if (prompt) keys_.assign(d * d * K, 0.0);
  for (int r = 0; r < K_; ++r) {
    const Dataset& dr = models_[r].data();
    const Vec& v = inits[r].v.size() ? inits[r].v : dr.v;
    for (int row = 0; row < n_ * T_; ++row) {
      for (int j = 0; j < d_; ++j) tokens_[(row * d + j) * K + r] = dr.X(row, j);
      headDot_[row * K + r] = dr.X.row(row).dot(v);
    }
    if (prompt)
      for (std::size_t e = 0; e < d * d; ++e) keys_[e * K + r] = models_[r].spec().Wk(e);
  }
  for (int u = 0; u < units_; ++u) {
    const bool perQuery = perQueryUnits(kind);
    const int i = perQuery ? u / T_ : u;
    const int k = perQuery ? u % T_ : 0;
    unitSeq_[u] = i;
    unitCount_[u] = kind == AttentionKind::Causal ? k + 1 : T_;
    for (int r = 0; r < K_; ++r) {
      const Dataset& dr = models_[r].data();
      label_[u * K + r] = dr.Y[i];
      if (prompt) continue;
      for (int j = 0; j < d_; ++j) {
        double z = 0.0;
        switch (kind) {
          case AttentionKind::Cross:
            z = dr.Z(i, j);
            break;
          case AttentionKind::Self:
            z = dr.X(i * T_ + dr.query, j);
            break;
          default:
            z = dr.X(i * T_ + k, j);
            break;
        }
        queryIn_[(u * d + j) * K + r] = z;
      }
    }
  }
  // Parameters, column-major per run.
  auto load = [&](std::vector<double>& dst, std::size_t size, auto get) {
    dst.assign(size * K, 0.0);
    for (int r = 0; r < K_; ++r)
      for (std::size_t e = 0; e < size; ++e) dst[e * K + r] = get(r, e);
  };
  const std::size_t dm = d * static_cast<std::size_t>(m_);
  switch (param_) {
    case Parameterization::W:
      load(W_, d * d, [&](int r, std::size_t e) { return inits[r].W(e); });
      nextW_ = W_;
      gW_.assign(d * d * K, 0.0);
      break;
    case Parameterization::KQ:
      load(K_m_, dm, [&](int r, std::size_t e) { return inits[r].K(e); });
      load(Q_, dm, [&](int r, std::size_t e) { return inits[r].Q(e); });
      nextK_ = K_m_;
      nextQ_ = Q_;
      gW_.assign(d * d * K, 0.0);
      gK_.assign(dm * K, 0.0);
      gQ_.assign(dm * K, 0.0);
      inner_.assign(U * m_ * K, 0.0);
      break;
    case Parameterization::Prompt:
      load(p_, d, [&](int r, std::size_t e) { return inits[r].p(e); });
      nextP_ = p_;
      gP_.assign(d * K, 0.0);
      break;
  }
  if (s_.optimizer == Optimizer::Adam) {  // moments of every entry of every block, zero at start
    const std::size_t entries = param_ == Parameterization::W    ? d * d
                                : param_ == Parameterization::KQ ? 2 * dm
                                                                 : d;
    adamM_.assign(entries * K, 0.0);
    adamS_.assign(entries * K, 0.0);
    adamCoef_.assign(4 * K, 0.0);
  }
  inits_ = inits;
  // Padding lanes (up to a multiple of kLanes) hold copies of run 0 and never commit a step.
  for (std::vector<double>* v :
       {&tokens_, &headDot_, &label_, &queryIn_, &keys_, &W_, &K_m_, &Q_, &p_})
    padLanes(*v);
  nextW_ = W_;
  nextK_ = K_m_;
  nextQ_ = Q_;
  nextP_ = p_;
  queries_.assign((prompt ? 1 : U) * d * K, 0.0);
  score_.assign(T * K, 0.0);
  w_.assign(T * K, 0.0);
  xa_.assign(d * K, 0.0);
  ghat_.assign(d * K, 0.0);
  dirs_.assign(U * d * K, 0.0);
  logQ_.assign(U * K, 0.0);
  sign_.assign(U * K, 0.0);
  prob_.assign(U * K, 0.0);
  alpha_.assign(U * K, 0);
  tmp_.assign(d * K, 0.0);
  tmp2_.assign(d * K, 0.0);
  coef_.assign(8 * K, 0.0);
  logScale_.assign(K, 0.0);
  loss_.assign(K, 0.0);
  active_.assign(K, 1);
  moved_.assign(K, 0);
  movedFirst_.assign(K, 0);
  iteration_.assign(K_, 0);
  stopReason_.assign(K_, std::string());
  evaluate();
  checkEvaluation();
}

void BatchedTrainer::padLanes(std::vector<double>& v) const {
  const std::size_t K = KP_;
  for (std::size_t e = 0; e * K < v.size(); ++e)
    for (std::size_t k = K_; k < K; ++k) v[e * K + k] = v[e * K];
}

bool BatchedTrainer::allStopped() const {
  for (int r = 0; r < K_; ++r)
    if (stopReason_[r].empty()) return false;
  return true;
}

Params BatchedTrainer::params(int r) const {
  Params out = inits_.at(r);
  if (out.v.size() == 0) out.v = models_[r].data().v;
  const std::size_t K = KP_;
  auto unload = [&](const std::vector<double>& src, double* dst, std::size_t size) {
    for (std::size_t e = 0; e < size; ++e) dst[e] = src[e * K + r];
  };
  switch (param_) {
    case Parameterization::W:
      unload(W_, out.W.data(), out.W.size());
      break;
    case Parameterization::KQ:
      unload(K_m_, out.K.data(), out.K.size());
      unload(Q_, out.Q.data(), out.Q.size());
      break;
    case Parameterization::Prompt:
      unload(p_, out.p.data(), out.p.size());
      break;
  }
  return out;
}

Mat BatchedTrainer::weights(int r) const {
  return effectiveWeights(models_.at(r).spec(), params(r));
}

void BatchedTrainer::selectedProbability(int r, VecRef out) const {
  for (int u = 0; u < units_; ++u) out[u] = prob_[static_cast<std::size_t>(u) * KP_ + r];
}

// ---- gradient ----

ATTNSVM_LANES void BatchedTrainer::evaluate() {
  std::fill(loss_.begin(), loss_.end(), 0.0);
  // One block of kLanes runs at a time, every unit of the block before the next block: a unit's
  // query, scores, weights and direction stay in L1 (block-local scratch, stride kLanes) between
  // the phases, and each phase is a fixed-width loop over the block's lanes.
  for (int kb = 0; kb < KP_; kb += kLanes) {
    if (param_ == Parameterization::Prompt) queryBlock(0, kb);
    for (int u = 0; u < units_; ++u) {
      if (param_ != Parameterization::Prompt) queryBlock(u, kb);
      unitBlock(u, kb);
    }
  }
  for (int k = 0; k < KP_; ++k) loss_[k] /= units_;
  assemble();
}

// The query of unit u for the block's runs, q[a L + l]: W z_u; K (Q^T z_u); Wk^T p (shared).
ATTNSVM_LANES void BatchedTrainer::queryBlock(int u, int kb) {
  constexpr int L = kLanes;
  const int K = KP_, d = d_, m = m_;
  double* __restrict q = queries_.data();
  // The inputs z_u of the block's runs (W and (K,Q); prompts have no per-unit query, and their
  // queryIn_ is empty: no pointer is formed into it).
  auto z = [&] { return queryIn_.data() + u * d * K + kb; };
  switch (param_) {
    case Parameterization::W:
      // q(a) = sum_b W(a, b) z(b)
      laneDotsMany<L>(q, L, W_.data() + kb, K, d * K, z(), K, d, d);
      break;
    case Parameterization::KQ: {
      double* __restrict inner = inner_.data();
      // inner(c) = sum_b Q(b, c) z(b), q(a) = sum_c K(a, c) inner(c)
      laneDotsMany<L>(inner, L, Q_.data() + kb, d * K, K, z(), K, d, m);
      laneDotsMany<L>(q, L, K_m_.data() + kb, K, d * K, inner, L, m, d);
      break;
    }
    case Parameterization::Prompt:
      // (Wk^T p)(a) = sum_b Wk(b, a) p(b)
      laneDotsMany<L>(q, L, keys_.data() + kb, d * K, K, p_.data() + kb, K, d, d);
      break;
  }
}

// evaluateUnit (model_unit.cpp) for unit u of the block's runs, in three phases that share the
// per-lane state: scores and argmax (one sweep over the tokens), softmax weights, normalizer and
// head contrasts (one sweep over the scores), direction (one sweep over the tokens); then the
// loss and the log-magnitude.
ATTNSVM_LANES void BatchedTrainer::unitBlock(int u, int kb) {
  constexpr int L = kLanes;
  const int K = KP_, d = d_, tau = unitCount_[u];
  const std::size_t base = static_cast<std::size_t>(unitSeq_[u]) * T_;  // first token row
  const std::size_t uk = static_cast<std::size_t>(u) * K + kb;
  const double* X = tokens_.data() + base * d * K + kb;  // X(t, j)[l] at ((t d + j) K + l)
  const double* hv = headDot_.data() + base * K + kb;    // v.x_t [l] at (t K + l)
  UnitLanes s = {};
  static_assert(UnitLanes::L == kLanes, "one block is one register block");
  scoresAndArgmax(X, queries_.data(), K, d, tau, score_.data(), s);
  int* __restrict alpha = alpha_.data() + uk;
  for (int l = 0; l < L; ++l) alpha[l] = static_cast<int>(s.alphaD[l]);
  double* __restrict g = ghat_.data();  // the direction of grad_q, g[j L + l]
  if (tau > 1) {
    gatherSelected(X, hv, K, d, alpha, xa_.data(), s);
    softmaxAndContrasts(score_.data(), hv, K, tau, w_.data(), s);
    direction(X, xa_.data(), hv, w_.data(), K, d, tau, g, s);
  } else {
    for (int l = 0; l < L; ++l) {
      s.hvA[l] = hv[l];
      s.prob[l] = 1.0;
      s.lambda[l] = kNegInf;
      s.mean[l] = 0.0;
    }
    for (int j = 0; j < d * L; ++j) g[j] = 0.0;
  }
  double* __restrict probU = prob_.data() + uk;
  for (int l = 0; l < L; ++l) probU[l] = s.prob[l];
  lossAndScale(u, kb, tau > 1, s);
}

// The unit's loss term, log|l'| and log-magnitude logQ, and its direction scaled to max-abs 1
// (zero where the direction is zero or not finite), for the block's runs.
ATTNSVM_LANES void BatchedTrainer::lossAndScale(int u, int kb, bool several, const UnitLanes& s) {
  constexpr int L = kLanes;
  const int K = KP_, d = d_;
  const std::size_t uk = static_cast<std::size_t>(u) * K + kb;
  const double* __restrict g = ghat_.data();
  const double* __restrict y = label_.data() + uk;
  double* __restrict logQ = logQ_.data() + uk;
  double* __restrict sign = sign_.data() + uk;
  double* __restrict loss = loss_.data() + kb;
  double* __restrict dir = dirs_.data() + static_cast<std::size_t>(u) * d * K + kb;
  double norm[L], margin[L], expAbs[L], logNorm[L], ok[L];
  for (int l = 0; l < L; ++l) norm[l] = 0.0;
  for (int j = 0; j < d; ++j)
    for (int l = 0; l < L; ++l) {
      const double v = std::abs(g[j * L + l]);
      norm[l] = norm[l] < v ? v : norm[l];  // std::max(norm, v)
    }
  // Logistic: l(u) = softplus(-u) and log|l'(u)| = -softplus(u) share e^{-|u|} (one vector exp).
  const bool logistic = lossKind_ == LossKind::Logistic;
  // (One lane function per loop: the loops vectorize.)
  for (int l = 0; l < L; ++l) {
    margin[l] = y[l] * (s.hvA[l] + s.mean[l]);
    expAbs[l] = -std::abs(margin[l]);
  }
  if (logistic) {
    for (int l = 0; l < L; ++l) expAbs[l] = expLane(expAbs[l]);
    for (int l = 0; l < L; ++l) expAbs[l] = log1pLane(expAbs[l]);  // log1p(e^{-|u|})
  }
  for (int l = 0; l < L; ++l) logNorm[l] = logLane(norm[l]);
  for (int l = 0; l < L; ++l) {
    const double uu = margin[l];
    double term, logDeriv;
    if (logistic) {
      const double soft = expAbs[l];  // softplus(x) = max(x, 0) + log1p(e^{-|x|})
      term = std::max(-uu, 0.0) + soft;
      logDeriv = uu >= 0.0 ? -(uu + term) : -(std::max(uu, 0.0) + soft);
    } else {
      term = lossValue(lossKind_, uu);
      logDeriv = logAbsLossDerivative(lossKind_, uu);
    }
    loss[l] += term;
    if (std::abs(y[l]) != 1.0) logDeriv += pmath::log(std::abs(y[l]));
    sign[l] = y[l] > 0 ? -1.0 : 1.0;
    // A NaN anywhere in the direction makes the max-abs NaN-free; check the sum as Eigen's
    // lpNorm<Infinity> would propagate it.
    if (several && norm[l] > 0.0 && std::isfinite(norm[l]))
      logQ[l] = s.lambda[l] + logNorm[l] + logDeriv;
    else if (several && !std::isfinite(norm[l]))
      logQ[l] = std::numeric_limits<double>::quiet_NaN();
    else
      logQ[l] = kNegInf;
    // Divisor 1 (and the direction set to 0) where the direction is zero or not finite.
    ok[l] = logQ[l] == kNegInf || std::isnan(logQ[l]) ? 0.0 : 1.0;
    norm[l] = ok[l] == 0.0 ? 1.0 : 1.0 / norm[l];  // now the reciprocal: one division per run
  }
  for (int j = 0; j < d; ++j)
    for (int l = 0; l < L; ++l) {
      const double v = g[j * L + l] * norm[l];
      dir[j * K + l] = ok[l] != 0.0 ? v : 0.0;
    }
}

// Model::gradient's assembly: rescale the unit directions by sign exp(mu - max mu) (logScale_ =
// max mu - log U), sum them into the parameter blocks, add the (K,Q) balance term.
void BatchedTrainer::assemble() {
  rescaleUnits();
  gradientBlocks();
  if (param_ == Parameterization::KQ && s_.balance > 0.0) addBalance();
}

ATTNSVM_LANES void BatchedTrainer::rescaleUnits() {
  const int K = KP_, d = d_, U = units_;
  double* __restrict top = coef_.data();
  double* __restrict nan = top + K;
  for (int k = 0; k < K; ++k) {
    top[k] = kNegInf;
    nan[k] = 0.0;
  }
  for (int u = 0; u < U; ++u) {
    const double* __restrict mu = logQ_.data() + u * K;
    for (int k = 0; k < K; ++k) {
      const bool isNan = mu[k] != mu[k];
      nan[k] = isNan ? 1.0 : nan[k];
      top[k] = isNan ? top[k] : std::max(top[k], mu[k]);
    }
  }
  for (int u = 0; u < U; ++u) {
    const double* __restrict mu = logQ_.data() + u * K;
    const double* __restrict sg = sign_.data() + u * K;
    double* __restrict c = tmp_.data();
    for (int k = 0; k < K; ++k) c[k] = mu[k] - top[k];
    expLanes(c, K);
    for (int k = 0; k < K; ++k)
      c[k] = (nan[k] != 0.0 || top[k] == kNegInf || mu[k] == kNegInf) ? 0.0 : sg[k] * c[k];
    for (int j = 0; j < d; ++j) {
      double* __restrict dj = dirs_.data() + (u * d + j) * K;
      for (int k = 0; k < K; ++k) dj[k] *= c[k];
    }
  }
  for (int k = 0; k < K; ++k)
    logScale_[k] = nan[k] != 0.0 ? std::numeric_limits<double>::quiet_NaN() : top[k] - logUnits_;
}

// The rescaled unit directions summed into the parameter blocks: grad_W = sum_u dir_u z_u^T
// (grad_K = grad_W Q, grad_Q = grad_W^T K), or grad_p = Wk sum_u dir_u.
ATTNSVM_LANES void BatchedTrainer::gradientBlocks() {
  const int K = KP_, d = d_, m = m_, U = units_;
  if (param_ == Parameterization::Prompt) {
    // grad_p = Wk sum_u dirs_u
    double* __restrict sum = tmp2_.data();
    for (int j = 0; j < d * K; ++j) sum[j] = 0.0;
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < d * K; ++j) sum[j] += dirs_[u * d * K + j];
    for (int a = 0; a < d; ++a) {
      double* __restrict out = gP_.data() + a * K;
      for (int k = 0; k < K; ++k) out[k] = 0.0;
      for (int b = 0; b < d; ++b) {
        const double* __restrict wk = keys_.data() + (a + b * d) * K;
        const double* __restrict sb = sum + b * K;
        for (int k = 0; k < K; ++k) out[k] += wk[k] * sb[k];
      }
    }
    return;
  }
  // Per block of runs, the rows a of a column at once (laneDotsMany: independent sums in flight).
  constexpr int L = kLanes;
  for (int kb = 0; kb < K; kb += L)  // gradW(a, b) = sum_u dirs_u(a) z_u(b)
    for (int b = 0; b < d; ++b)
      laneDotsMany<L>(gW_.data() + b * d * K + kb, K, dirs_.data() + kb, K, d * K,
                      queryIn_.data() + b * K + kb, d * K, U, d);
  if (param_ != Parameterization::KQ) return;
  // grad_K = gradW Q (grad_K(a, c) = sum_b gradW(a, b) Q(b, c)), grad_Q = gradW^T K
  for (int kb = 0; kb < K; kb += L)
    for (int c = 0; c < m; ++c) {
      laneDotsMany<L>(gK_.data() + c * d * K + kb, K, gW_.data() + kb, K, d * K,
                      Q_.data() + c * d * K + kb, K, d, d);
      laneDotsMany<L>(gQ_.data() + c * d * K + kb, K, gW_.data() + kb, d * K, K,
                      K_m_.data() + c * d * K + kb, K, d, d);
    }
}

// (K,Q): the balance term 2 balance F, combined with the data part in the log domain
// (gradient.cpp's addBalance per run).
ATTNSVM_LANES void BatchedTrainer::addBalance() {
  const int K = KP_, d = d_, m = m_;
  const double balance = s_.balance;
  const std::size_t dm = static_cast<std::size_t>(d) * m;
  double* __restrict size = tmp2_.data();
  for (int k = 0; k < K; ++k) size[k] = 0.0;
  for (std::size_t e = 0; e < dm; ++e) {
    const double* __restrict ke = K_m_.data() + e * K;
    const double* __restrict qe = Q_.data() + e * K;
    for (int k = 0; k < K; ++k)
      size[k] = std::max(size[k], std::max(std::abs(ke[k]), std::abs(qe[k])));
  }
  double* __restrict dataCoef = tmp_.data();
  double* __restrict regCoef = coef_.data() + 2 * K;
  // gradient.cpp's addBalance per run: logReg = log(2 balance) + log(size), t = max(logData,
  // logReg).
  double* __restrict logReg = coef_.data() + 3 * K;
  double* __restrict top2 = coef_.data() + 4 * K;
  std::copy(size, size + K, logReg);
  logLanes(logReg, K);
  const double logTwiceBalance = pmath::log(2.0 * balance);
  for (int k = 0; k < K; ++k) {
    logReg[k] = logTwiceBalance + logReg[k];
    top2[k] = std::max(logScale_[k], logReg[k]);
    dataCoef[k] = logScale_[k] - top2[k];
    regCoef[k] = logReg[k] - top2[k];
  }
  expLanes(dataCoef, K);
  expLanes(regCoef, K);
  for (int k = 0; k < K; ++k) {
    const bool some = size[k] > 0.0;
    dataCoef[k] = !some ? 1.0 : (logScale_[k] == kNegInf ? 0.0 : dataCoef[k]);
    regCoef[k] = !some ? 0.0 : regCoef[k] / size[k];
    logScale_[k] = some ? top2[k] : logScale_[k];
  }
  for (std::size_t e = 0; e < dm; ++e) {
    double* __restrict gk = gK_.data() + e * K;
    double* __restrict gq = gQ_.data() + e * K;
    const double* __restrict ke = K_m_.data() + e * K;
    const double* __restrict qe = Q_.data() + e * K;
    for (int k = 0; k < K; ++k) {
      gk[k] = dataCoef[k] == 0.0 ? regCoef[k] * ke[k] : dataCoef[k] * gk[k] + regCoef[k] * ke[k];
      gq[k] = dataCoef[k] == 0.0 ? regCoef[k] * qe[k] : dataCoef[k] * gq[k] + regCoef[k] * qe[k];
    }
  }
}

void BatchedTrainer::checkEvaluation() {
  for (int k = 0; k < K_; ++k) {
    if (!stopReason_[k].empty()) continue;
    if (!std::isfinite(loss_[k]))
      stopReason_[k] = "loss is not finite at iteration " + std::to_string(iteration_[k]);
    else if (std::isnan(logScale_[k]))
      stopReason_[k] = "gradient is not finite at iteration " + std::to_string(iteration_[k]);
  }
}

// ---- step ----

// Trainer's stepBlock for every run: next = x - coef dir (through the mirror map for MD with
// p != 2); moved_[k] = 0 where the normalized step is undefined (then next = x). bad[k] becomes
// NaN where the candidate has an entry that is not finite (x * 0 is 0 for finite x, else NaN).
ATTNSVM_LANES void BatchedTrainer::stepBlock(const double* x, const double* dir, int size,
                                             double* next, double* __restrict bad) {
  const int K = KP_;
  const Optimizer opt = s_.optimizer;
  const bool normalized = isNormalizedOptimizer(opt);
  const bool mirror = isMirrorOptimizer(opt) && s_.p != 2.0;
  double* __restrict coef = tmp_.data();
  if (normalized) {
    double* __restrict nrm = tmp2_.data();
    for (int k = 0; k < K; ++k) nrm[k] = 0.0;
    if (opt == Optimizer::NMD && s_.p != 2.0) {
      // Dual norm ||dir||_q, 1/p + 1/q = 1, scaled by the largest entry (as lpNorm).
      const double qexp = s_.p / (s_.p - 1.0);
      double* __restrict topv = coef;
      for (int k = 0; k < K; ++k) topv[k] = 0.0;
      for (int e = 0; e < size; ++e)
        for (int k = 0; k < K; ++k) topv[k] = std::max(topv[k], std::abs(dir[e * K + k]));
      // p = 3: q = 3/2, t^{3/2} = t sqrt(t) (one rounding more than pow); else powLane.
      const bool threeHalves = qexp == 1.5;
      for (int e = 0; e < size; ++e)
        for (int k = 0; k < K; ++k) {
          const bool ok = topv[k] > 0.0 && std::isfinite(topv[k]);
          const double t = std::abs(dir[e * K + k]) / topv[k];
          const double term = threeHalves ? t * std::sqrt(t) : powLane(t, qexp);
          nrm[k] += ok ? term : 0.0;
        }
      for (int k = 0; k < K; ++k)
        nrm[k] = (topv[k] > 0.0 && std::isfinite(topv[k]))
                     ? topv[k] * pmath::pow(nrm[k], 1.0 / qexp)
                     : topv[k];
    } else {
      for (int e = 0; e < size; ++e) {
        const double* __restrict de = dir + e * K;
        for (int k = 0; k < K; ++k) nrm[k] += de[k] * de[k];
      }
      for (int k = 0; k < K; ++k) nrm[k] = std::sqrt(nrm[k]);
    }
    constexpr double eps = std::numeric_limits<double>::epsilon();
    for (int k = 0; k < K; ++k) {
      const bool ok = nrm[k] > 0.0 && logScale_[k] != kNegInf;
      moved_[k] = ok;
      if (!ok) coef[k] = 0.0;
      // NMD: lr g / (||g||_q + eps) with g = exp(logScale) dir, i.e. lr dir / (||dir||_q + eps
      // exp(-logScale)).
      else if (opt == Optimizer::NMD)
        coef[k] = s_.lr / (nrm[k] + eps * pmath::exp(-logScale_[k]));
      else
        coef[k] = s_.lr / nrm[k];
    }
  } else {
    for (int k = 0; k < K; ++k) {
      moved_[k] = 1;
      coef[k] = logScale_[k] == kNegInf ? 0.0 : s_.lr * pmath::exp(logScale_[k]);
    }
  }
  if (mirror) {
    std::copy(x, x + static_cast<std::size_t>(size) * K, next);
    signedPower(next, static_cast<std::size_t>(size) * K, s_.p - 1.0);
    for (int e = 0; e < size; ++e)
      for (int k = 0; k < K; ++k) next[e * K + k] -= coef[k] * dir[e * K + k];
    signedPower(next, static_cast<std::size_t>(size) * K, 1.0 / (s_.p - 1.0));
    // A run whose step is undefined keeps x exactly (the round trip through the map may not).
    for (int e = 0; e < size; ++e)
      for (int k = 0; k < K; ++k) {
        const double v = moved_[k] ? next[e * K + k] : x[e * K + k];
        next[e * K + k] = v;
        bad[k] += v * 0.0;
      }
  } else {
    for (int e = 0; e < size; ++e) {
      const double* __restrict xe = x + e * K;
      const double* __restrict de = dir + e * K;
      double* __restrict ne = next + e * K;
      for (int k = 0; k < K; ++k) {
        ne[k] = xe[k] - coef[k] * de[k];
        bad[k] += ne[k] * 0.0;
      }
    }
  }
}

// ---- Adam ----
// Trainer's adamStep (train.cpp) for every run, each operation in Trainer's order so that the bits
// match (IEEE division and square root are correctly rounded at any vector width; the scalar
// per-run factors use the portable exp and pow as Trainer does): on the true gradient
// g = exp(logScale) dir, with logScale capped at Trainer's kAdamMaxLogScale,
//   m = b1 m + ((1 - b1) scale) dir,   sq = b2 sq + ((1 - b2) scale scale) dir^2,
//   next = x - (lr / c1) (m / (sqrt(sq / c2) + eps)),   c1 = 1 - b1^k, c2 = 1 - b2^k,
// k the run's iteration + 1. Adam has no undefined step: every run moves (a zero gradient is a zero
// step), as in Trainer::update.
constexpr double kAdamMaxLogScale = 300.0;  // = train.cpp's (the cap that keeps g^2 finite)

void BatchedTrainer::adamCoefficients() {
  const int K = KP_;
  const double b1 = s_.adamBeta1, b2 = s_.adamBeta2;
  double* a1 = adamCoef_.data();  // (1 - b1) scale
  double* a2 = a1 + K;            // (1 - b2) scale scale
  double* lrc = a2 + K;           // lr / c1
  double* c2 = lrc + K;
  // The runs of a batch are mostly at one iteration: the bias corrections (two pow calls,
  // a good part of the step's cost) are computed once per distinct iteration in a row.
  double lastIt = 0.0, lastLrc = 0.0, lastC2 = 0.0;
  for (int k = 0; k < K; ++k) {
    const double ls = logScale_[k];
    const double scale = ls == kNegInf ? 0.0 : pmath::exp(std::min(ls, kAdamMaxLogScale));
    const double it = k < K_ ? iteration_[k] + 1.0 : 1.0;  // padding lanes: any k >= 1
    if (it != lastIt) {
      lastIt = it;
      lastLrc = s_.lr / (1.0 - pmath::pow(b1, it));
      lastC2 = 1.0 - pmath::pow(b2, it);
    }
    a1[k] = (1.0 - b1) * scale;
    a2[k] = (1.0 - b2) * scale * scale;
    lrc[k] = lastLrc;
    c2[k] = lastC2;
  }
}

ATTNSVM_LANES void BatchedTrainer::adamBlock(const double* x, const double* dir, int size,
                                             double* m, double* sq, double* next,
                                             double* __restrict bad) {
  const int K = KP_;
  const double b1 = s_.adamBeta1, b2 = s_.adamBeta2, eps = s_.adamEps;
  const double* __restrict a1 = adamCoef_.data();
  const double* __restrict a2 = a1 + K;
  const double* __restrict lrc = a2 + K;
  const double* __restrict c2 = lrc + K;
  // Three passes over the block, the square root alone in the middle one (sqrtLanes) so that the
  // others vectorize; next holds sq / c2 and then its root in between.
  for (int e = 0; e < size; ++e) {
    const double* __restrict de = dir + e * K;
    double* __restrict me = m + e * K;
    double* __restrict se = sq + e * K;
    double* __restrict ne = next + e * K;
    for (int k = 0; k < K; ++k) me[k] = b1 * me[k] + a1[k] * de[k];
    for (int k = 0; k < K; ++k) {
      const double sk = b2 * se[k] + a2[k] * (de[k] * de[k]);
      se[k] = sk;
      ne[k] = sk / c2[k];
    }
  }
  sqrtLanes(next, size * K);
  for (int e = 0; e < size; ++e) {
    const double* __restrict xe = x + e * K;
    const double* __restrict me = m + e * K;
    double* __restrict ne = next + e * K;
    for (int k = 0; k < K; ++k) {
      ne[k] = xe[k] - lrc[k] * (me[k] / (ne[k] + eps));
      bad[k] += ne[k] * 0.0;
    }
  }
}

// One step of every active run, in phases: the candidates (and their finiteness), which runs take
// the step (Trainer's stop reasons), the commit with the squared norms, the maxNorm check.
void BatchedTrainer::update() {
  double* bad = coef_.data() + 2 * KP_;
  stepParams(bad);
  takeOrStop(bad);
  commitAndCheckNorm();
}

ATTNSVM_LANES void BatchedTrainer::stepParams(double* __restrict bad) {
  const int K = KP_;
  const int dm = d_ * m_;
  for (int k = 0; k < K; ++k) bad[k] = 0.0;
  if (s_.optimizer == Optimizer::Adam) {
    adamCoefficients();
    const std::size_t second = static_cast<std::size_t>(dm) * K;  // (K,Q): Q's moments follow K's
    switch (param_) {
      case Parameterization::W:
        adamBlock(W_.data(), gW_.data(), d_ * d_, adamM_.data(), adamS_.data(), nextW_.data(), bad);
        break;
      case Parameterization::KQ:
        adamBlock(K_m_.data(), gK_.data(), dm, adamM_.data(), adamS_.data(), nextK_.data(), bad);
        adamBlock(Q_.data(), gQ_.data(), dm, adamM_.data() + second, adamS_.data() + second,
                  nextQ_.data(), bad);
        break;
      case Parameterization::Prompt:
        adamBlock(p_.data(), gP_.data(), d_, adamM_.data(), adamS_.data(), nextP_.data(), bad);
        break;
    }
    for (int k = 0; k < K; ++k) moved_[k] = 1;
    return;
  }
  switch (param_) {
    case Parameterization::W:
      stepBlock(W_.data(), gW_.data(), d_ * d_, nextW_.data(), bad);
      break;
    case Parameterization::KQ:
      // Each factor separately; the run moves if either factor does (Trainer::update).
      stepBlock(K_m_.data(), gK_.data(), dm, nextK_.data(), bad);
      std::copy(moved_.begin(), moved_.end(), movedFirst_.begin());
      stepBlock(Q_.data(), gQ_.data(), dm, nextQ_.data(), bad);
      for (int k = 0; k < K; ++k) moved_[k] = moved_[k] || movedFirst_[k];
      break;
    case Parameterization::Prompt:
      stepBlock(p_.data(), gP_.data(), d_, nextP_.data(), bad);
      break;
  }
}

void BatchedTrainer::takeOrStop(const double* bad) {
  for (int k = 0; k < KP_; ++k) active_[k] = 0;  // the padding lanes never move
  for (int k = 0; k < K_; ++k) {
    if (!stopReason_[k].empty()) continue;
    if (!moved_[k]) {
      stopReason_[k] = "zero gradient direction at iteration " + std::to_string(iteration_[k]) +
                       ": the normalized step is undefined (the loss is stationary)";
      continue;
    }
    if (bad[k] != 0.0) {
      stopReason_[k] = "parameters are not finite after iteration " +
                       std::to_string(iteration_[k] + 1) +
                       " (divergent run; the step was not taken)";
      continue;
    }
    active_[k] = 1;
  }
}

ATTNSVM_LANES void BatchedTrainer::commitAndCheckNorm() {
  const int K = KP_;
  const std::size_t K1 = K;
  // The runs that take the step (active_) get the candidate, the others keep their state; the
  // squared Frobenius norm of the result per run ((K,Q): of K and of Q) in the same pass.
  double* __restrict sqA = coef_.data();
  double* __restrict sqB = coef_.data() + K;
  for (int k = 0; k < K; ++k) sqA[k] = sqB[k] = 0.0;
  auto commit = [&](std::vector<double>& x, const std::vector<double>& next, double* out) {
    const std::size_t size = x.size() / K1;
    for (std::size_t e = 0; e < size; ++e) {
      double* __restrict xe = x.data() + e * K1;
      const double* __restrict ne = next.data() + e * K1;
      for (int k = 0; k < K; ++k) {
        const double v = active_[k] ? ne[k] : xe[k];
        xe[k] = v;
        out[k] += v * v;
      }
    }
  };
  switch (param_) {
    case Parameterization::W:
      commit(W_, nextW_, sqA);
      break;
    case Parameterization::KQ:
      commit(K_m_, nextK_, sqA);
      commit(Q_, nextQ_, sqB);
      break;
    case Parameterization::Prompt:
      commit(p_, nextP_, sqA);
      break;
  }
  // ||effective W||_F against maxNorm (Trainer's check after the step, safeNorm's fast path).
  for (int k = 0; k < K_; ++k) {
    if (!active_[k]) continue;
    ++iteration_[k];
    double norm = std::numeric_limits<double>::quiet_NaN();
    if (param_ == Parameterization::KQ) {
      // ||K Q^T||_F <= ||K||_F ||Q||_F: form the product only when the bound is not conclusive.
      const double bound = std::sqrt(sqA[k]) * std::sqrt(sqB[k]);
      if (std::isfinite(bound) && bound * (1.0 + 1e-12) <= s_.maxNorm) continue;
    } else if (std::isfinite(sqA[k]) && sqA[k] > 1e-280) {
      norm = std::sqrt(sqA[k]);
    }
    if (std::isnan(norm)) {  // rare: (K,Q) near the bound, or a norm outside the fast path
      const Mat weff = weights(k);
      const double sq = weff.squaredNorm();
      if (std::isfinite(sq) && sq > 1e-280)
        norm = std::sqrt(sq);
      else {
        const double top = weff.cwiseAbs().maxCoeff();
        norm = (!(top > 0.0) || !std::isfinite(top)) ? top : top * (weff / top).norm();
      }
    }
    if (!std::isfinite(norm) || norm > s_.maxNorm) {
      detail::Text why;
      why << "||W||_F = " << norm << " exceeds maxNorm = " << s_.maxNorm << " at iteration "
          << iteration_[k];
      stopReason_[k] = why.str();
    }
  }
}

void BatchedTrainer::step(int k) {
  if (k < 0) throw InputError("step(" + std::to_string(k) + "): the count must be >= 0");
  for (int it = 0; it < k; ++it) {
    if (allStopped()) return;
    update();
    evaluate();
    checkEvaluation();
  }
}

// ---- many runs with snapshots (runTraining's loop, experiment_util.cpp) ----

std::vector<RunRecord> runTrainingBatched(const std::vector<const Dataset*>& data,
                                          const ModelSpec& spec, const TrainSettings& settingsIn,
                                          const std::vector<Params>& inits, int iters, int every) {
  if (data.size() != inits.size())
    throw InputError("runTrainingBatched: " + std::to_string(data.size()) + " data sets for " +
                     std::to_string(inits.size()) + " starts");
  std::vector<RunRecord> recs(data.size());
  if (data.empty()) return recs;
  TrainSettings settings = settingsIn;
  settings.traceEvery = std::max(1, iters);
  settings.traceSoftmax = false;
  if (!batchedUnsupported(spec, settings).empty()) {
    for (std::size_t r = 0; r < data.size(); ++r)
      recs[r] = runTraining(*data[r], spec, settingsIn, inits[r], iters, every);
    return recs;
  }
  std::vector<Model> models;
  models.reserve(data.size());
  for (const Dataset* d : data) models.emplace_back(*d, spec);
  BatchedTrainer bt(std::move(models), settings, inits);
  const int K = bt.runs();
  const int units = bt.model(0).units();
  Vec prob(units);
  auto snap = [&](int r) {
    RunRecord& rec = recs[r];
    bt.selectedProbability(r, prob);
    rec.iteration.push_back(bt.iteration(r));
    rec.weights.push_back(bt.weights(r));
    rec.meanProb.push_back(prob.mean());
    rec.minProb.push_back(prob.minCoeff());
  };
  every = std::max(1, every);
  const bool snapshots = every < iters;
  std::vector<unsigned char> done(K, 0);
  if (snapshots)
    for (int r = 0; r < K; ++r) {
      const std::size_t planned = static_cast<std::size_t>(iters / every) + 2;
      recs[r].iteration.reserve(planned);
      recs[r].weights.reserve(planned);
      recs[r].meanProb.reserve(planned);
      recs[r].minProb.reserve(planned);
      snap(r);
    }
  // All runs advance in chunks of `every`; a run that stops inside a chunk leaves the loop there
  // (runTraining's break) and gets its final snapshot below.
  int reached = 0;
  while (reached < iters) {
    bool any = false;
    for (int r = 0; r < K; ++r) any = any || (!done[r] && !bt.stopped(r));
    if (!any) break;
    const int want = std::min(iters, reached + every) - reached;
    std::vector<int> before(K);
    for (int r = 0; r < K; ++r) before[r] = bt.iteration(r);
    bt.step(want);
    reached += want;
    for (int r = 0; r < K; ++r) {
      if (done[r]) continue;
      if (bt.stopped(r) && bt.iteration(r) - before[r] < want) {
        done[r] = 1;
        continue;
      }
      if (snapshots) snap(r);
      if (bt.stopped(r)) done[r] = 1;
    }
  }
  for (int r = 0; r < K; ++r) {
    RunRecord& rec = recs[r];
    if (!snapshots) snap(r);
    if (rec.iteration.back() != bt.iteration(r)) snap(r);
    const Params final = bt.params(r);
    const Forward fw = bt.model(r).forward(final);
    rec.finalSelection = fw.selected;
    rec.finalProb = fw.selectedProbability;
    rec.finalSoftmax = fw.softmax;
    rec.finalLoss = fw.loss;
    rec.finalParams = final;
    rec.stopReason = bt.stopReason(r);
  }
  return recs;
}

}  // namespace attnsvm
