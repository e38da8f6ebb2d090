// One softmax unit in the scaled log-domain form (docs/NUMERICS.md, "Stable gradient").
//
// With alpha = argmax_t a_t, dx_t = x_t - x_alpha and b_t = dx_t . q <= 0 (computed directly,
// not as a_t - a_alpha), beta = max_{t != alpha} b_t and w_t = exp(b_t - beta) in (0, 1]:
//   s_t      = w_t exp(lambda),  lambda = beta - log1p(exp(beta) sum_t w_t)     (t != alpha)
//   s_alpha  = exp(-log1p(exp(beta) sum_t w_t))                 (1 - s_alpha never formed)
//   r        = x_alpha + exp(lambda) sum_t w_t dx_t
//   grad_q f = sum_t s_t (delta_t - sum_u s_u delta_u) dx_t,  delta_t = dx_t . grad_r f
//            = exp(lambda) * sum_t w_t (delta_t - exp(lambda) sum_u w_u delta_u) dx_t
// The last sum has terms of size about 1 whatever ||q|| is; exp(lambda), which underflows once
// the softmax saturates, is kept as a logarithm. No difference of nearly equal numbers is formed.
#include <algorithm>
#include <cmath>
#include <limits>

#include "attnsvm/base/portable_math.hpp"
#include "model/model_internal.hpp"

namespace attnsvm {

double softplus(double x) {
  // log(1 + e^x) without overflow for large x and without losing small values for x << 0.
  return std::max(x, 0.0) + pmath::log1p(pmath::exp(-std::abs(x)));
}

double lossValue(LossKind kind, double u) {
  switch (kind) {
    case LossKind::Logistic:
      return softplus(-u);
    case LossKind::Exponential:
      return pmath::exp(-u);
    case LossKind::Correlation:
      return -u;
  }
  return 0.0;
}

double logAbsLossDerivative(LossKind kind, double u) {
  switch (kind) {
    case LossKind::Logistic:
      return -softplus(u);  // |l'(u)| = 1 / (1 + e^u)
    case LossKind::Exponential:
      return -u;  // |l'(u)| = e^{-u}
    case LossKind::Correlation:
      return 0.0;  // |l'(u)| = 1
  }
  return 0.0;
}

namespace {

// Head output f(r) and its gradient h = grad_r f (into s.h); relu pre-activations in s.hidden.
double applyHead(const HeadView& head, const Vec& r, Model::Scratch& s, bool wantGradient) {
  const Vec& v = *head.v;
  if (head.kind == HeadKind::Linear) {
    if (wantGradient) s.h = v;
    return v.dot(r);
  }
  const Mat& V = *head.V;
  s.hidden.noalias() = V * r;
  double f = 0.0;
  for (Index j = 0; j < s.hidden.size(); ++j)
    if (s.hidden[j] > 0.0) f += v[j] * s.hidden[j];
  if (wantGradient) {
    // h = V^T (v .* 1[V r > 0]); the kink (V r)_j = 0 takes the zero branch.
    s.h.setZero();
    for (Index j = 0; j < s.hidden.size(); ++j)
      if (s.hidden[j] > 0.0) s.h.noalias() += v[j] * V.row(j).transpose();
  }
  return f;
}

}  // namespace

UnitOutcome evaluateUnit(const Eigen::Ref<const Mat>& X, const Eigen::Ref<const Vec>& q, double y,
                         const HeadView& head, LossKind loss, Model::Scratch& s, bool wantQ,
                         bool wantHead, double* softmax) {
  const Index tau = X.cols();
  UnitOutcome out;
  auto a = s.a.head(tau);
  auto w = s.w.head(tau);
  a.noalias() = X.transpose() * q;
  Index alpha = 0;
  a.maxCoeff(&alpha);  // first maximum
  out.alpha = static_cast<int>(alpha);
  const auto xa = X.col(alpha);

  // b_t = (x_t - x_alpha) . q directly: its error is relative to |dx_t||q|, not to |a_t|.
  double beta = -std::numeric_limits<double>::infinity();
  for (Index t = 0; t < tau; ++t) {
    if (t == alpha) continue;
    w[t] = (X.col(t) - xa).dot(q);
    beta = std::max(beta, w[t]);
  }
  double lambda = -std::numeric_limits<double>::infinity();
  double expLambda = 0.0;  // exp(lambda) = s_t / w_t (may underflow; lambda itself is kept)
  out.probability = 1.0;
  s.r = xa;
  if (tau > 1) {
    double wsum = 0.0;
    s.ghat.setZero();  // used here as sum_t w_t dx_t
    for (Index t = 0; t < tau; ++t) {
      if (t == alpha) {
        w[t] = 0.0;
        continue;
      }
      w[t] = pmath::exp(w[t] - beta);
      wsum += w[t];
      s.ghat.noalias() += w[t] * (X.col(t) - xa);
    }
    const double expBeta = pmath::exp(beta);  // <= 1: beta <= 0 up to rounding
    const double S = expBeta * wsum;          // sum_{t != alpha} exp(b_t) <= tau - 1
    lambda = beta - pmath::log1p(S);
    out.probability = 1.0 / (1.0 + S);  // s_alpha
    expLambda = expBeta * out.probability;
    s.r.noalias() += expLambda * s.ghat;
  } else {
    w[0] = 0.0;
  }
  if (softmax)
    for (Index t = 0; t < tau; ++t) softmax[t] = (t == alpha) ? out.probability : w[t] * expLambda;

  const bool needH = wantQ && tau > 1;
  out.f = applyHead(head, s.r, s, needH);
  const double u = y * out.f;
  double logDeriv;
  if (loss == LossKind::Logistic) {
    // l(u) = softplus(-u) and log|l'(u)| = -softplus(u) share log1p(e^{-|u|}): computed once (the
    // same bits as the two softplus calls). softplus(u) = u + softplus(-u): no cancellation for
    // u >= 0.
    const double l = pmath::log1p(pmath::exp(-std::abs(u)));
    out.lossTerm = std::max(-u, 0.0) + l;
    logDeriv = u >= 0.0 ? -(u + out.lossTerm) : -(std::max(u, 0.0) + l);
  } else {
    out.lossTerm = lossValue(loss, u);
    logDeriv = logAbsLossDerivative(loss, u);
  }
  if (std::abs(y) != 1.0) logDeriv += pmath::log(std::abs(y));
  out.sign = y > 0 ? -1.0 : 1.0;  // l' < 0 for every loss here, times sign(Y)

  if (needH) {
    auto delta = s.delta.head(tau);
    double mean = 0.0;  // exp(-lambda) * sum_u s_u delta_u
    for (Index t = 0; t < tau; ++t) {
      delta[t] = (t == alpha) ? 0.0 : (X.col(t) - xa).dot(s.h);
      mean += w[t] * delta[t];
    }
    mean *= expLambda;
    s.ghat.setZero();
    for (Index t = 0; t < tau; ++t) {
      if (t == alpha) continue;
      s.ghat.noalias() += (w[t] * (delta[t] - mean)) * (X.col(t) - xa);
    }
    const double norm = s.ghat.lpNorm<Eigen::Infinity>();
    if (norm > 0.0 && std::isfinite(norm)) {
      s.ghat /= norm;
      out.logQ = lambda + pmath::log(norm) + logDeriv;
    } else if (!std::isfinite(norm)) {
      out.logQ = std::numeric_limits<double>::quiet_NaN();  // reported by the caller
    }
  } else if (wantQ) {
    s.ghat.setZero();
  }

  if (wantHead) {
    if (head.kind == HeadKind::Linear) {
      s.feat = s.r;
    } else {
      s.feat = s.hidden.cwiseMax(0.0);
    }
    const double norm = s.feat.lpNorm<Eigen::Infinity>();
    if (norm > 0.0 && std::isfinite(norm)) {
      s.feat /= norm;
      out.logHead = pmath::log(norm) + logDeriv;
    } else if (!std::isfinite(norm)) {
      out.logHead = std::numeric_limits<double>::quiet_NaN();
    }
  }
  return out;
}

}  // namespace attnsvm
