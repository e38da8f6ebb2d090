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
// This file: the gradient and the steps, the hot loops (~600 lines: they stay together because
// every function with ATTNSVM_LANES inlines the lane kernels and is cloned per vector width); the
// lane kernels are in train_batched_lanes.hpp, the structure-of-arrays layout (constructor,
// parameters in and out) in train_batched_layout.cpp, runTrainingBatched in train_batched_run.cpp.
#include "attnsvm/train/train_batched.hpp"
#include "attnsvm/base/portable_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "attnsvm/base/errors.hpp"
#include "base/text.hpp"
#include "model/mirror_internal.hpp"
#include "model/model_internal.hpp"
#include "train/train_batched_lanes.hpp"
#include "train/train_internal.hpp"

namespace attnsvm {

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
  // norm = max_j |g_j| per run (std::max from 0; max(|g|, |g|) = |g|): in registers, where the
  // loop of std::max was scalar compare-and-move code.
  laneMaxAbs2<L>(norm, g, g, L, d);
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
  // The loss term and log|l'| per lane: the logistic loss in a loop of its own (branch-free, it
  // vectorizes), the other losses through their functions; labels other than +-1 (rare) add
  // log|y| after.
  double term[L], logDeriv[L];
  if (logistic) {
    for (int l = 0; l < L; ++l) {
      const double uu = margin[l];
      const double soft = expAbs[l];  // softplus(x) = max(x, 0) + log1p(e^{-|x|})
      term[l] = std::max(-uu, 0.0) + soft;
      logDeriv[l] = uu >= 0.0 ? -(uu + term[l]) : -(std::max(uu, 0.0) + soft);
    }
  } else {
    for (int l = 0; l < L; ++l) {
      term[l] = lossValue(lossKind_, margin[l]);
      logDeriv[l] = logAbsLossDerivative(lossKind_, margin[l]);
    }
  }
  bool unitLabels = true;
  for (int l = 0; l < L; ++l) unitLabels = unitLabels && std::abs(y[l]) == 1.0;
  if (!unitLabels)
    for (int l = 0; l < L; ++l)
      if (std::abs(y[l]) != 1.0) logDeriv[l] += pmath::log(std::abs(y[l]));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int l = 0; l < L; ++l) {
    loss[l] += term[l];
    sign[l] = y[l] > 0 ? -1.0 : 1.0;
    // A NaN anywhere in the direction makes the max-abs NaN-free; check the sum as Eigen's
    // lpNorm<Infinity> would propagate it.
    const bool finite = std::isfinite(norm[l]);
    const double q = several && norm[l] > 0.0 && finite ? s.lambda[l] + logNorm[l] + logDeriv[l]
                     : several && !finite               ? nan
                                                        : kNegInf;
    logQ[l] = q;
    // Divisor 1 (and the direction set to 0) where the direction is zero or not finite.
    ok[l] = q == kNegInf || q != q ? 0.0 : 1.0;
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
  for (int kb = 0; kb < K; kb += kLanes)
    laneMaxAbs2<kLanes>(size + kb, K_m_.data() + kb, Q_.data() + kb, K, static_cast<int>(dm));
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
      // p = 3: q = 3/2, t^{3/2} = t sqrt(t) (one rounding more than pow); else powLane. Two
      // loops, not one with `threeHalves ? ... : ...`: clang (wasm) if-converts that select and
      // computes powLane for p = 3 too (a third of md-convergence's p = 3 time in wasm).
      const bool threeHalves = qexp == 1.5;
      if (threeHalves) {
        for (int e = 0; e < size; ++e)
          for (int k = 0; k < K; ++k) {
            const bool ok = topv[k] > 0.0 && std::isfinite(topv[k]);
            const double t = std::abs(dir[e * K + k]) / topv[k];
            nrm[k] += ok ? t * std::sqrt(t) : 0.0;
          }
      } else {
        for (int e = 0; e < size; ++e)
          for (int k = 0; k < K; ++k) {
            const bool ok = topv[k] > 0.0 && std::isfinite(topv[k]);
            const double t = std::abs(dir[e * K + k]) / topv[k];
            nrm[k] += ok ? powLane(t, qexp) : 0.0;
          }
      }
      for (int k = 0; k < K; ++k)
        nrm[k] = (topv[k] > 0.0 && std::isfinite(topv[k]))
                     ? topv[k] * pmath::pow(nrm[k], 1.0 / qexp)
                     : topv[k];
    } else {
      for (int kb = 0; kb < K; kb += kLanes) laneSquareSums<kLanes>(nrm + kb, dir + kb, K, size);
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
  if (mirror && s_.p == 3.0) {
    // p = 3 (the maps' exponents 2 and 1/2): the general branch's operations entry by entry in one
    // pass, the same bits, instead of five passes over next (wasm: p = 3 is three quarters of
    // md-convergence, and the passes' loads and stores were most of this step).
    for (int e = 0; e < size; ++e)
      for (int k = 0; k < K; ++k) {
        const double v = x[e * K + k];
        const double u = v * std::abs(v) - coef[k] * dir[e * K + k];
        const double w = moved_[k] ? std::copysign(std::sqrt(std::abs(u)), u) : v;
        next[e * K + k] = w;
        bad[k] += w * 0.0;
      }
  } else if (mirror) {
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
    for (int kb = 0; kb < K; kb += kLanes)
      laneStep<kLanes>(next + kb, x + kb, dir + kb, coef + kb, bad + kb, K, size);
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
  // The runs that take the step (active_) get the candidate, the others keep their state; the
  // squared Frobenius norm of the result per run ((K,Q): of K and of Q) in the same pass.
  double* __restrict sqA = coef_.data();
  double* __restrict sqB = coef_.data() + K;
  auto commit = [&](std::vector<double>& x, const std::vector<double>& next, double* out) {
    const int size = static_cast<int>(x.size() / static_cast<std::size_t>(K));
    for (int kb = 0; kb < K; kb += kLanes)
      laneCommit<kLanes>(x.data() + kb, next.data() + kb, active_.data() + kb, out + kb, K, size);
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

}  // namespace attnsvm
