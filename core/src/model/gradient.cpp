// Assembly of the scaled gradient from the per-unit contributions (docs/NUMERICS.md).
// Each unit u contributes sign_u * exp(mu_u) * ghat_u to grad_q (|ghat_u|_inf = 1); the sum is
// rescaled by the largest mu before it is formed, so contributions whose true size underflows
// double precision still give an accurate direction. Cost O(units (T d) + units d^2).
#include <cmath>
#include <limits>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "model/model_internal.hpp"

namespace attnsvm {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Scales column u of cols by sign_u exp(mu_u - max mu) in place; returns max mu (-inf if none).
// A NaN log-magnitude (non-finite contribution) makes the result NaN for the caller to report.
double rescaleColumns(Mat& cols, const Vec& mu, const Vec& sign, int units) {
  double top = kNegInf;
  bool nan = false;
  for (int u = 0; u < units; ++u) {
    if (std::isnan(mu[u]))
      nan = true;
    else
      top = std::max(top, mu[u]);
  }
  if (nan) return std::numeric_limits<double>::quiet_NaN();
  for (int u = 0; u < units; ++u) {
    const double c = (top == kNegInf || mu[u] == kNegInf) ? 0.0 : sign[u] * pmath::exp(mu[u] - top);
    cols.col(u) *= c;
  }
  return top;
}

// Adds the balance term 2 * balance * F to a factor's scaled data gradient exp(logData) * G,
// returning the common log-scale. Both (K,Q) share one scale (Gradient has one logScale).
double addBalance(Mat& gK, Mat& gQ, double logData, const Mat& K, const Mat& Q, double balance) {
  const double size = std::max(K.lpNorm<Eigen::Infinity>(), Q.lpNorm<Eigen::Infinity>());
  if (!(balance > 0.0) || !(size > 0.0)) return logData;
  // True gradient: exp(logData) G + exp(logReg) (F / size), logReg = log(2 balance size).
  const double logReg = pmath::log(2.0 * balance) + pmath::log(size);
  const double top = std::max(logData, logReg);
  const double dataCoef = logData == kNegInf ? 0.0 : pmath::exp(logData - top);
  const double regCoef = pmath::exp(logReg - top) / size;
  if (dataCoef == 0.0) {
    gK = regCoef * K;
    gQ = regCoef * Q;
  } else {
    gK = dataCoef * gK + regCoef * K;
    gQ = dataCoef * gQ + regCoef * Q;
  }
  return top;
}

}  // namespace

void Model::gradient(const Params& params, Gradient& out, bool withHead) const {
  checkParams(*impl_, spec_, params);
  const Impl& impl = *impl_;
  Scratch& s = *scratch_.ptr;
  computeQueries(impl, spec_, params, s);
  const HeadView head{spec_.head, &headVector(data_, params), &spec_.V};
  const int d = impl.d;
  if (static_cast<int>(out.selected.size()) != units_) out.selected.resize(units_);
  if (out.selectedProbability.size() != units_) out.selectedProbability.resize(units_);

  double total = 0.0;
  for (int u = 0; u < units_; ++u) {
    const UnitOutcome o = evaluateUnit(unitTokens(impl, u), unitQuery(spec_, s, u), impl.label[u],
                                       head, spec_.loss, s, true, withHead, nullptr);
    total += o.lossTerm;
    out.selected[u] = o.alpha;
    out.selectedProbability[u] = o.probability;
    s.sign[u] = o.sign;
    s.muQ[u] = o.logQ;
    s.dirs.col(u) = s.ghat;
    if (withHead) {
      s.muHead[u] = o.logHead;
      s.feats.col(u) = s.feat;
    }
  }
  out.loss = total / units_;

  // Attention parameters: the 1/units of the mean goes into the log-scale.
  const double top = rescaleColumns(s.dirs, s.muQ, s.sign, units_);
  out.logScale = top - impl.logUnits;
  switch (spec_.param) {
    case Parameterization::W:
      if (out.W.rows() != d || out.W.cols() != d) out.W.resize(d, d);
      smallOrLargeProduct(out.W, s.dirs, impl.queryInputsT.transpose());
      break;
    case Parameterization::KQ: {
      const int m = impl.m;
      smallOrLargeProduct(s.gradW, s.dirs, impl.queryInputsT.transpose());
      if (out.W.rows() != d || out.W.cols() != d) out.W.resize(d, d);
      out.W = s.gradW;  // the gradient w.r.t. the effective W = K Q^T, same scale
      if (out.K.rows() != d || out.K.cols() != m) out.K.resize(d, m);
      if (out.Q.rows() != d || out.Q.cols() != m) out.Q.resize(d, m);
      smallOrLargeProduct(out.K, s.gradW, params.Q);              // grad_K = grad_W Q
      smallOrLargeProduct(out.Q, s.gradW.transpose(), params.K);  // grad_Q = grad_W^T K
      break;
    }
    case Parameterization::Prompt:
      if (out.p.size() != d) out.p.resize(d);
      s.sum.noalias() = s.dirs.rowwise().sum();
      out.p.noalias() = spec_.Wk * s.sum;  // grad_p = Wk sum_u grad_q
      break;
  }
  if (out.logScale == kNegInf) {
    // Exactly zero: keep the directions zero (they are) and the scale -inf.
  }

  if (withHead) {
    const double topHead = rescaleColumns(s.feats, s.muHead, s.sign, units_);
    out.logScaleHead = topHead - impl.logUnits;
    if (out.v.size() != d) out.v.resize(d);
    out.v.noalias() = s.feats.rowwise().sum();
  }
}

// The balance term is part of the (K,Q) objective of training, not of the model's loss: the
// trainer adds it (see train.cpp) through this helper.
double addBalanceTerm(Gradient& g, const Params& params, double balance) {
  g.logScale = addBalance(g.K, g.Q, g.logScale, params.K, params.Q, balance);
  return g.logScale;
}

}  // namespace attnsvm
