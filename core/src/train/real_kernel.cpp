// The real-images kernel (real_kernel.hpp): one softmax unit per image in the stable log-domain
// form of docs/NUMERICS.md (the formulas of model_unit.cpp and gradient.cpp), cross attention with
// a linear head and the logistic loss only, every reduction in an order fixed by the source and the
// portable exp/log/log1p, so that the bits do not depend on the platform or the vector width.
//
// Per unit (image i, query q = W z_i, alpha = argmax_t a_t, dx_t = x_t - x_alpha):
//   a_t = x_t . q;  b_t = dx_t . q;  beta = max_{t != alpha} b_t;  w_t = exp(b_t - beta) (w_alpha =
//   0) S = e^beta sum_t w_t;  lambda = beta - log1p(S);  s_alpha = 1 / (1 + S);  e^lambda = e^beta
//   s_alpha r = x_alpha + e^lambda sum_t w_t dx_t;  f = v . r;  loss = softplus(-Y f) delta_t =
//   dx_t . v;  m = e^lambda sum_t w_t delta_t;  ghat = sum_t w_t (delta_t - m) dx_t
// and grad_q l = sign exp(lambda + log|ghat|_inf + log|l'|) ghat / |ghat|_inf, sign = -sign(Y).
// Flops per unit (T tokens, d features): queries 2d^2, scores 2Td, differences Td, b and delta
// 4Td, exp ~25T, the two sums over tokens 4Td, the gradient's outer product 2d^2: about
// 11Td + 4d^2 + 25T (12.3 kflop at T = 49, d = 18).
#include "train/real_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attnsvm/base/portable_math.hpp"

// GCC on x86-64: the unit passes are compiled for AVX-512, AVX2 and the SSE2 baseline and the
// loader picks one; every width gives the same bits (each sum's order is in the source, and no
// multiply-add is fused: -ffp-contract=off here and in core/CMakeLists.txt).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__EMSCRIPTEN__) && \
    !defined(ATTNSVM_NO_TARGET_CLONES)
#pragma GCC optimize("fp-contract=off")
#define ATTNSVM_REAL_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ATTNSVM_REAL_CLONES
#endif

namespace attnsvm {
namespace real {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// softplus(x) = log(1 + e^x) = max(x, 0) + log1p(e^{-|x|}).
inline double softplus(double x) {
  return std::max(x, 0.0) + pmath::log1p(pmath::exp(-std::abs(x)));
}

// Vectors of the GCC/Clang vector extension: every operation on them is the IEEE operation of each
// lane, so code written with them has the same bits as the scalar code of the same order, at any
// hardware width (the compiler splits a V8 into SSE2, AVX2, AVX-512 or wasm SIMD128 registers).
using V4 = double __attribute__((vector_size(32)));
using V8 = double __attribute__((vector_size(64)));
// (Loaded and stored through references: vectors passed or returned by value would change the
// calling convention with the target's vector width, which the compilers warn about.)
template <class V>
inline void load(V& v, const double* p) {
  std::memcpy(&v, p, sizeof v);
}
template <class V>
inline void store(double* p, const V& v) {
  std::memcpy(p, &v, sizeof v);
}

// sum_t a[t] b[t]: four interleaved partial sums (t mod 4) combined as (s0 + s1) + (s2 + s3), then
// the tail in order.
inline double dotFixed(const double* a, const double* b, int n) {
  V4 acc = {0.0, 0.0, 0.0, 0.0}, x, y;
  int t = 0;
  for (; t + 3 < n; t += 4) {
    load(x, a + t);
    load(y, b + t);
    acc += x * y;
  }
  double s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; t < n; ++t) s += a[t] * b[t];
  return s;
}

// Two dots with one row x: (sum_t a[t] x[t], sum_t b[t] x[t]) in dotFixed's order.
inline void dotPair(const double* a, const double* b, const double* x, int n, double& sa,
                    double& sb) {
  V4 accA = {0.0, 0.0, 0.0, 0.0}, accB = {0.0, 0.0, 0.0, 0.0}, xt, at, bt;
  int t = 0;
  for (; t + 3 < n; t += 4) {
    load(xt, x + t);
    load(at, a + t);
    load(bt, b + t);
    accA += at * xt;
    accB += bt * xt;
  }
  sa = (accA[0] + accA[1]) + (accA[2] + accA[3]);
  sb = (accB[0] + accB[1]) + (accB[2] + accB[3]);
  for (; t < n; ++t) {
    sa += a[t] * x[t];
    sb += b[t] * x[t];
  }
}

// w_t = e^{b_t - beta} for every token and their sum in token order (the sum's additions one after
// the other, as the scalar loop; the exponentials of the next four tokens overlap them).
inline double softmaxWeights(const double* b, double beta, int T, double* w) {
  double wsum = 0.0;
  int t = 0;
  for (; t + 4 <= T; t += 4) {
    V4 x;
    load(x, b + t);
    x -= beta;
    // pmath::exp's operations on four lanes (the same bits as four calls): as scalar calls the 49
    // exponentials per image were a latency-bound fifth of the unit pass
    const V4 e = pmath::detail::expOf(x);
    store(w + t, e);
    wsum = (((wsum + e[0]) + e[1]) + e[2]) + e[3];
  }
  for (; t < T; ++t) {
    w[t] = pmath::exp(b[t] - beta);
    wsum += w[t];
  }
  return wsum;
}

// The first t with a[t] = max a (as `if (a[t] > a[best]) best = t` from t = 0): eight running
// maxima (t mod 8) each keep their first maximum, then the smallest t among the lanes that hold the
// largest value. The same token as the sequential scan unless a score is NaN (then the gradient is
// NaN and the run stops either way).
inline int firstArgmax(const double* a, int T) {
  if (T < 16) {
    int alpha = 0;
    for (int t = 1; t < T; ++t)
      if (a[t] > a[alpha]) alpha = t;
    return alpha;
  }
  double best[8];
  int at[8];
  for (int l = 0; l < 8; ++l) {
    best[l] = a[l];
    at[l] = l;
  }
  int t0 = 8;
  for (; t0 + 8 <= T; t0 += 8)
    for (int l = 0; l < 8; ++l) {
      const bool more = a[t0 + l] > best[l];
      best[l] = more ? a[t0 + l] : best[l];
      at[l] = more ? t0 + l : at[l];
    }
  int alpha = at[0];
  double top = best[0];
  for (int l = 1; l < 8; ++l)
    if (best[l] > top || (best[l] == top && at[l] < alpha)) {
      top = best[l];
      alpha = at[l];
    }
  for (; t0 < T; ++t0)
    if (a[t0] > top) {
      top = a[t0];
      alpha = t0;
    }
  return alpha;
}

// max_t b_t (NaN entries skipped, as std::max(beta, b_t) from -inf skips them): four running
// maxima, then combined. The value of the sequential scan (a max does not round); only the sign
// of a zero maximum could differ, and e^{b - beta}, e^beta are the same for +0 and -0.
inline double maxOf(const double* b, int T) {
  double m[4] = {kNegInf, kNegInf, kNegInf, kNegInf};
  int t = 0;
  for (; t + 4 <= T; t += 4)
    for (int l = 0; l < 4; ++l) m[l] = std::max(m[l], b[t + l]);
  double beta = std::max(std::max(m[0], m[1]), std::max(m[2], m[3]));
  for (; t < T; ++t) beta = std::max(beta, b[t]);
  return beta;
}

// max_j |x_j| from 0, as the loop of std::max(m, |x_j|) (a NaN skipped; |x| is never -0, so the
// maximum does not depend on the order): four running maxima instead of one chain.
inline double maxAbs(const double* x, int n) {
  double m[4] = {0.0, 0.0, 0.0, 0.0};
  int j = 0;
  for (; j + 4 <= n; j += 4)
    for (int l = 0; l < 4; ++l) m[l] = std::max(m[l], std::abs(x[j + l]));
  double top = std::max(std::max(m[0], m[1]), std::max(m[2], m[3]));
  for (; j < n; ++j) top = std::max(top, std::abs(x[j]));
  return top;
}

// The passes over tokens run over blocks of 8 tokens whose sums stay in registers while the
// features are added in order (each a_t is sum_j q_j x_tj for j = 0, 1, ...: the same order for
// the block and the scalar tail).

// a_t = sum_j q_j x_jt.
inline void scores(const double* X, const double* q, int T, int d, double* a) {
  int t0 = 0;
  for (; t0 + 8 <= T; t0 += 8) {
    V8 acc = {}, x;
    for (int j = 0; j < d; ++j) {
      load(x, X + static_cast<std::size_t>(j) * T + t0);
      acc += q[j] * x;
    }
    store(a + t0, acc);
  }
  for (; t0 < T; ++t0) {
    double acc = 0.0;
    for (int j = 0; j < d; ++j) acc += q[j] * X[static_cast<std::size_t>(j) * T + t0];
    a[t0] = acc;
  }
}

// dx_jt = x_jt - xa_j, b_t = sum_j q_j dx_jt and delta_t = sum_j v_j dx_jt.
inline void differences(const double* X, const double* xa, const double* q, const double* v, int T,
                        int d, double* dx, double* b, double* delta) {
  int t0 = 0;
  for (; t0 + 8 <= T; t0 += 8) {
    V8 accB = {}, accD = {}, e;
    for (int j = 0; j < d; ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * T + t0;
      load(e, X + at);
      e -= xa[j];
      store(dx + at, e);
      accB += q[j] * e;
      accD += v[j] * e;
    }
    store(b + t0, accB);
    store(delta + t0, accD);
  }
  for (; t0 < T; ++t0) {
    double accB = 0.0, accD = 0.0;
    for (int j = 0; j < d; ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * T + t0;
      const double e = X[at] - xa[j];
      dx[at] = e;
      accB += q[j] * e;
      accD += v[j] * e;
    }
    b[t0] = accB;
    delta[t0] = accD;
  }
}

}  // namespace

double dot(const double* a, const double* b, int n) { return dotFixed(a, b, n); }

void Scratch::reserve(int T, int d) {
  if (static_cast<int>(b.size()) != T) {
    b.assign(T, 0.0);
    w.assign(T, 0.0);
    delta.assign(T, 0.0);
    c.assign(T, 0.0);
  }
  if (static_cast<int>(q.size()) != d) {
    q.assign(d, 0.0);
    xa.assign(d, 0.0);
    r.assign(d, 0.0);
    ghat.assign(d, 0.0);
  }
  if (dx.size() != static_cast<std::size_t>(d) * T) dx.assign(static_cast<std::size_t>(d) * T, 0.0);
}

ATTNSVM_REAL_CLONES
UnitOutcome unit(const RealData& data, int i, const double* W, const double* v, Scratch& s,
                 bool gradient) {
  const int T = data.T, d = data.d;
  const double* X = data.image(i);
  const double* z = data.query(i);
  double* __restrict q = s.q.data();
  double* __restrict a = s.b.data();  // the scores a_t first, then b_t
  UnitOutcome out;

  // q = W z (W column-major): q_r = sum_c W_rc z_c in the order c = 0..d-1, eight rows at a
  // time with their sums in a register (as a loop over c with q in memory, every c's additions
  // waited for the previous c's stores).
  int r0 = 0;
  for (; r0 + 8 <= d; r0 += 8) {
    V8 acc = {}, w;
    for (int c = 0; c < d; ++c) {
      load(w, W + static_cast<std::size_t>(c) * d + r0);
      acc += w * z[c];
    }
    store(q + r0, acc);
  }
  for (; r0 < d; ++r0) {
    double acc = 0.0;
    for (int c = 0; c < d; ++c) acc += W[static_cast<std::size_t>(c) * d + r0] * z[c];
    q[r0] = acc;
  }
  // a_t = x_t . q, summed over features in order; alpha = first maximum.
  scores(X, q, T, d, a);
  const int alpha = firstArgmax(a, T);
  out.alpha = alpha;

  // dx_t = x_t - x_alpha; b_t = dx_t . q (directly: its error is relative to |dx||q|) and
  // delta_t = dx_t . v in the same pass.
  double* __restrict dx = s.dx.data();
  double* __restrict xa = s.xa.data();
  double* __restrict b = s.b.data();
  double* __restrict delta = s.delta.data();
  for (int j = 0; j < d; ++j) xa[j] = X[static_cast<std::size_t>(j) * T + alpha];
  differences(X, xa, q, v, T, d, dx, b, delta);
  // beta = max_{t != alpha} b_t; w_t = exp(b_t - beta), w_alpha = exp(-inf) = 0.
  b[alpha] = kNegInf;
  const double beta = maxOf(b, T);
  double* __restrict w = s.w.data();
  const double wsum = softmaxWeights(b, beta, T, w);
  double lambda = kNegInf, expLambda = 0.0;
  out.probability = 1.0;
  if (T > 1) {
    const double expBeta = pmath::exp(beta);  // <= 1 up to rounding
    const double S = expBeta * wsum;          // sum_{t != alpha} e^{b_t}
    lambda = beta - pmath::log1p(S);
    out.probability = 1.0 / (1.0 + S);
    expLambda = expBeta * out.probability;
  }
  out.expLambda = expLambda;
  const double y = data.labels[i];
  double* __restrict r = s.r.data();
  double* __restrict ghat = s.ghat.data();
  if (!gradient) {
    // r = x_alpha + e^lambda sum_t w_t dx_t; the token scores' order: gamma_t - gamma_alpha =
    // Y delta_t, gamma_alpha = Y v . x_alpha.
    for (int j = 0; j < d; ++j)
      r[j] = xa[j] + expLambda * dotFixed(w, dx + static_cast<std::size_t>(j) * T, T);
    double most = 0.0;  // max_t Y delta_t (0 at t = alpha)
    for (int t = 0; t < T; ++t) most = std::max(most, y * delta[t]);
    out.gammaOptimal = most <= 0.0;
    out.maxGamma = y * dotFixed(v, xa, d) + most;
    out.f = dotFixed(v, r, d);
    out.loss = softplus(-y * out.f);
    return out;
  }
  // m = e^lambda sum_t w_t delta_t; c_t = w_t (delta_t - m).
  const double mean = expLambda * dotFixed(w, delta, T);
  double* __restrict c = s.c.data();
  for (int t = 0; t < T; ++t) c[t] = w[t] * (delta[t] - mean);
  // r = x_alpha + e^lambda sum_t w_t dx_t and ghat = sum_t c_t dx_t, one pass over dx.
  for (int j = 0; j < d; ++j) {
    double sw, sg;
    dotPair(w, c, dx + static_cast<std::size_t>(j) * T, T, sw, sg);
    r[j] = xa[j] + expLambda * sw;
    ghat[j] = sg;
  }
  out.f = dotFixed(v, r, d);
  const double u = y * out.f;
  // l(u) = softplus(-u) and log|l'(u)| = -softplus(u) share log1p(e^{-|u|}), computed once (the
  // same bits as two softplus calls); -softplus(u) = -(u + softplus(-u)) for u >= 0 (no
  // cancellation).
  const double l1p = pmath::log1p(pmath::exp(-std::abs(u)));
  out.loss = std::max(-u, 0.0) + l1p;
  const double logDeriv = u >= 0.0 ? -(u + out.loss) : -(std::max(u, 0.0) + l1p);
  out.sign = y > 0 ? -1.0 : 1.0;
  const double norm = maxAbs(ghat, d);
  if (T > 1 && norm > 0.0 && std::isfinite(norm)) {
    for (int j = 0; j < d; ++j) ghat[j] /= norm;
    out.logQ = lambda + pmath::log(norm) + logDeriv;
  } else if (!std::isfinite(norm)) {
    out.logQ = std::numeric_limits<double>::quiet_NaN();
  } else {
    for (int j = 0; j < d; ++j) ghat[j] = 0.0;
  }
  const double normHead = maxAbs(r, d);
  if (normHead > 0.0 && std::isfinite(normHead)) {
    for (int j = 0; j < d; ++j) r[j] /= normHead;
    out.logHead = pmath::log(normHead) + logDeriv;
  } else if (!std::isfinite(normHead)) {
    out.logHead = std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

namespace {

// Asks for image i's tokens while the current image is computed (a minibatch visits the images in
// a random order, which the hardware prefetcher cannot guess; about a third of a full-batch step
// at n = 1000 was waiting for memory without it).
inline void prefetchImage(const RealData& data, int i) {
#if defined(__GNUC__)
  const char* p = reinterpret_cast<const char*>(data.image(i));
  const std::size_t bytes = static_cast<std::size_t>(data.d) * data.T * sizeof(double);
  for (std::size_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
#else
  (void)data;
  (void)i;
#endif
}

// max of mu (NaN if any is NaN); -inf when all are -inf.
double maxLog(const std::vector<double>& mu, int count) {
  double top = kNegInf;
  for (int u = 0; u < count; ++u) {
    if (std::isnan(mu[u])) return std::numeric_limits<double>::quiet_NaN();
    top = std::max(top, mu[u]);
  }
  return top;
}

// The coefficient of unit u in the rescaled sum: sign exp(mu - top), 0 for a zero contribution.
inline double coefficient(double mu, double top, double sign) {
  return (top == kNegInf || mu == kNegInf) ? 0.0 : sign * pmath::exp(mu - top);
}

}  // namespace

ATTNSVM_REAL_CLONES
void batchGradient(const RealData& data, const int* batch, int count, const double* W,
                   const double* v, bool wantHead, Scratch& s, BatchGradient& out) {
  const int d = data.d;
  s.reserve(data.T, d);
  const std::size_t dd = static_cast<std::size_t>(d) * d;
  if (out.GW.size() != dd) out.GW.assign(dd, 0.0);
  if (static_cast<int>(out.Gv.size()) != d) out.Gv.assign(d, 0.0);
  if (out.logQ.size() < static_cast<std::size_t>(count)) {
    out.dirs.resize(static_cast<std::size_t>(d) * count);
    out.feats.resize(static_cast<std::size_t>(d) * count);
    out.logQ.resize(count);
    out.logHead.resize(count);
    out.sign.resize(count);
  }
  double lossSum = 0.0;
  int correct = 0;
  for (int k = 0; k < count; ++k) {
    if (k + 1 < count) prefetchImage(data, batch[k + 1]);
    const UnitOutcome o = unit(data, batch[k], W, v, s, true);
    lossSum += o.loss;
    correct += data.labels[batch[k]] * o.f > 0.0 ? 1 : 0;
    out.logQ[k] = o.logQ;
    out.logHead[k] = o.logHead;
    out.sign[k] = o.sign;
    std::copy(s.ghat.begin(), s.ghat.end(), out.dirs.begin() + static_cast<std::ptrdiff_t>(k) * d);
    std::copy(s.r.begin(), s.r.end(), out.feats.begin() + static_cast<std::ptrdiff_t>(k) * d);
  }
  out.lossSum = lossSum;
  out.correct = correct;
  const double logCount = pmath::log(static_cast<double>(count));

  // grad_W = sum_k coef_k ghat_k z_k^T, summed over the batch in order (each entry).
  const double top = maxLog(out.logQ, count);
  out.logScale = top - logCount;
  std::fill(out.GW.begin(), out.GW.end(), 0.0);
  if (!std::isnan(top)) {
    double* __restrict g = s.q.data();  // the scaled direction of unit k
    for (int k = 0; k < count; ++k) {
      const double coef = coefficient(out.logQ[k], top, out.sign[k]);
      if (coef == 0.0) continue;  // adds exact zeros only
      const double* dir = out.dirs.data() + static_cast<std::size_t>(k) * d;
      for (int r = 0; r < d; ++r) g[r] = coef * dir[r];
      const double* z = data.query(batch[k]);
      for (int c = 0; c < d; ++c) {
        const double zc = z[c];
        double* __restrict Gc = out.GW.data() + static_cast<std::size_t>(c) * d;
        for (int r = 0; r < d; ++r) Gc[r] += g[r] * zc;
      }
    }
  }
  if (!wantHead) return;
  const double topHead = maxLog(out.logHead, count);
  out.logScaleHead = topHead - logCount;
  std::fill(out.Gv.begin(), out.Gv.end(), 0.0);
  if (std::isnan(topHead)) return;
  for (int k = 0; k < count; ++k) {
    const double coef = coefficient(out.logHead[k], topHead, out.sign[k]);
    if (coef == 0.0) continue;
    const double* feat = out.feats.data() + static_cast<std::size_t>(k) * d;
    for (int j = 0; j < d; ++j) out.Gv[j] += coef * feat[j];
  }
}

}  // namespace real
}  // namespace attnsvm
