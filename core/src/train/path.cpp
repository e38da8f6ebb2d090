// Regularization path W(R) = argmin_{||W|| <= R} L(W) by Frank-Wolfe, with a certificate per
// radius (SPEC sections 2 and 5.3; attnsvm/train/path.hpp).
//
// Everything the iteration decides is taken from the model's scaled gradient
// grad L = exp(logScale) * D (model.hpp): the linear minimization oracle depends only on the
// direction of D and the Frank-Wolfe gap relative to R ||grad L||_dual is scale-free, so neither
// is hurt when the true gradient underflows. The line search must compare losses, whose plain
// difference falls below rounding long before that (the softmax saturates at R of a few tens over
// the margin): it compares them in a split form (lossDifference) that keeps the part that still
// changes.
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/train/path.hpp"
#include "base/svd.hpp"
#include "cold.hpp"
#include "model/mirror_internal.hpp"
#include "model/model_internal.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  // S = argmin_{||S|| <= R} <G, S> for the chosen ball (closed forms of SPEC section 2); returns
  // ||G||_dual, so that <G, S> = -R ||G||_dual.
  double linearMinimizer(const Mat& G, double R, const PathSettings& s, Mat& S) {
    switch (s.norm) {
      case BallNorm::Frobenius: {
        const double dual = G.norm();
        S = (-R / dual) * G;
        return dual;
      }
      case BallNorm::Nuclear: {
        if (G.cols() == 1) {  // a vector: the nuclear norm is the l2 norm
          const double dual = G.norm();
          S = (-R / dual) * G;
          return dual;
        }
        Vec sig;
        Mat U, V;
        detail::thinSvd(G, sig, &U, &V);
        S = -R * U.col(0) * V.col(0).transpose();
        return sig[0];  // the dual of the nuclear norm is the spectral norm
      }
      case BallNorm::Lp: {
        // Dual exponent q = p/(p-1): S = -R sign(G)|G|^{q-1} / ||G||_q^{q-1}.
        const double q = s.p / (s.p - 1.0);
        const double top = G.cwiseAbs().maxCoeff();
        S.resize(G.rows(), G.cols());
        for (Index c = 0; c < G.cols(); ++c)
          for (Index r = 0; r < G.rows(); ++r)
            S(r, c) = std::copysign(pmath::pow(std::abs(G(r, c)) / top, q - 1.0), G(r, c));
        S *= -R / lpNorm(S, s.p);  // ||sign|G|^{q-1}||_p = ||G||_q^{q-1}
        return lpNorm(G, q);
      }
    }
    return 0.0;
  }

  double ballNorm(const Mat& W, const PathSettings& s) {
    switch (s.norm) {
      case BallNorm::Frobenius:
        return W.norm();
      case BallNorm::Nuclear: {
        if (W.cols() == 1) return W.norm();
        Vec sig;
        detail::thinSvd(W, sig, nullptr, nullptr);
        return sig.sum();
      }
      case BallNorm::Lp:
        return lpNorm(W, s.p);
    }
    return 0.0;
  }

  // The iterate as a matrix (prompt: d x 1) and back.
  struct Iterate {
    bool prompt;
    Params params;
    const Mat& direction(const Gradient& g, Mat& buf) const {
      if (!prompt) return g.W;
      buf = g.p;
      return buf;
    }
    void load(const Mat& m) {
      if (prompt)
        params.p = m.col(0);
      else
        params.W = m;
    }
  };

  // The loss near saturation, split so that two nearby points can be compared after the loss
  // itself stops resolving them. Per unit (a sequence of cross / self attention or a prompt, linear
  // head) Y f = base + delta with base = Y gamma_alpha (gamma_t = v^T x_t, alpha the selected
  // token) and delta = Y sum_{t != alpha} s_t (gamma_t - gamma_alpha) = exp(lambda) r, kept as
  // (lambda, r) in the log domain of model_unit.cpp: s_t = exp(b_t - beta + lambda), b_t =
  // (x_t - x_alpha) . q, beta = max_{t != alpha} b_t, lambda = beta - log1p(sum e^{b_t}).
  struct Decomposition {
    bool split = false;  // false: compare plain losses (other attention kinds, relu head)
    std::vector<int> selected;
    Vec base, lambda, r;
    double loss = 0.0;
  };

  Decomposition decompose(const Model& model, const Params& params) {
    const ModelSpec& spec = model.spec();
    const Dataset& data = model.data();
    Decomposition out;
    out.split = spec.head == HeadKind::Linear && spec.param != Parameterization::KQ &&
                (spec.param == Parameterization::Prompt || spec.attention == AttentionKind::Cross ||
                 spec.attention == AttentionKind::Self);
    if (!out.split) {
      out.loss = model.loss(params);
      return out;
    }
    const int n = data.n, T = data.T;
    out.selected.resize(n);
    out.base.resize(n);
    out.lambda.resize(n);
    out.r.resize(n);
    const Vec gamma = data.X * data.v;  // token (i, t) at i T + t
    Vec q(data.d), b(T);
    double total = 0.0;
    for (int i = 0; i < n; ++i) {
      if (spec.param == Parameterization::Prompt)
        q.noalias() = spec.Wk.transpose() * params.p;
      else if (spec.attention == AttentionKind::Cross)
        q.noalias() = params.W * data.Z.row(i).transpose();
      else
        q.noalias() = params.W * data.X.row(i * T + data.query).transpose();
      const auto Xi = data.X.middleRows(i * T, T);
      Index a = 0;
      (Xi * q).maxCoeff(&a);
      double beta = -std::numeric_limits<double>::infinity();
      for (int t = 0; t < T; ++t) {
        b[t] = t == a ? 0.0 : (Xi.row(t) - Xi.row(a)).dot(q);
        if (t != a) beta = std::max(beta, b[t]);
      }
      double wsum = 0.0, r = 0.0;
      const double ga = gamma[i * T + a];
      for (int t = 0; t < T; ++t) {
        if (t == a) continue;
        const double w = pmath::exp(b[t] - beta);
        wsum += w;
        r += w * (gamma[i * T + t] - ga);
      }
      const double y = data.Y[i];
      out.selected[i] = static_cast<int>(a);
      out.base[i] = y * ga;
      out.lambda[i] = T > 1 ? beta - pmath::log1p(pmath::exp(beta) * wsum) : -INFINITY;
      out.r[i] = y * r;
      total += lossValue(spec.loss, out.base[i] + pmath::exp(out.lambda[i]) * out.r[i]);
    }
    out.loss = total / n;
    return out;
  }

  // e^x - 1 without cancellation for small |x| (the portable exp elsewhere: native = wasm).
  double expm1Portable(double x) {
    if (std::abs(x) < 1e-5) return x * (1.0 + x * (0.5 + x / 6.0));
    return pmath::exp(x) - 1.0;
  }

  // l(base + to) - l(base + from) without cancellation, for the loss of the spec.
  double unitDifference(LossKind kind, double base, double from, double to) {
    const double a = base + from, shift = from - to;  // b - a = -shift; shift exact to rounding
    switch (kind) {
      case LossKind::Logistic: {
        // softplus(-b) - softplus(-a) = log1p(expm1(a - b) sigmoid(-a))
        const double sig =
            a > 0 ? pmath::exp(-a) / (1.0 + pmath::exp(-a)) : 1.0 / (1.0 + pmath::exp(a));
        return pmath::log1p(expm1Portable(shift) * sig);
      }
      case LossKind::Exponential:
        return pmath::exp(-a) * expm1Portable(shift);
      case LossKind::Correlation:
        return shift;
    }
    return 0.0;
  }

  // |l'(u)| for the losses here (l' < 0).
  double lossSlope(LossKind kind, double u) {
    switch (kind) {
      case LossKind::Logistic:
        return u > 0 ? pmath::exp(-u) / (1.0 + pmath::exp(-u)) : 1.0 / (1.0 + pmath::exp(u));
      case LossKind::Exponential:
        return pmath::exp(-u);
      case LossKind::Correlation:
        return 1.0;
    }
    return 0.0;
  }

  // A number with the sign of L(to) - L(from) (its value where it is representable): exact in
  // the split form while the deltas are representable, to first order in the deltas (scaled by
  // the largest exp(lambda)) once they underflow; the difference of the losses where the split
  // does not apply or the selections differ.
  double lossDifference(LossKind kind, const Decomposition& from, const Decomposition& to) {
    if (!from.split || !to.split || from.selected != to.selected) return to.loss - from.loss;
    const Index n = from.base.size();
    const double top = std::max(from.lambda.maxCoeff(), to.lambda.maxCoeff());
    double sum = 0.0;
    if (top > -600.0) {  // exp(lambda) r representable with room to spare
      for (Index u = 0; u < n; ++u)
        sum += unitDifference(kind, from.base[u], pmath::exp(from.lambda[u]) * from.r[u],
                              pmath::exp(to.lambda[u]) * to.r[u]);
    } else {  // l(base + delta) - l(base) = -|l'(base)| delta to far below rounding
      for (Index u = 0; u < n; ++u)
        sum -= lossSlope(kind, from.base[u]) * (pmath::exp(to.lambda[u] - top) * to.r[u] -
                                                pmath::exp(from.lambda[u] - top) * from.r[u]);
    }
    return sum / static_cast<double>(n);
  }

  // Backtracking along dir from gamma0: the first of gamma0, gamma0/2, ... that lowers the loss
  // (by lossDifference); 0 when none of 60 halvings does. `at` becomes the accepted point's.
  double lineSearch(const Model& model, Iterate& it, const Mat& x, const Mat& dir, double gamma0,
                    Decomposition& at) {
    const LossKind kind = model.spec().loss;
    double gamma = gamma0;
    for (int halving = 0; halving < 60; ++halving, gamma *= 0.5) {
      it.load(x + gamma * dir);
      Decomposition trial = decompose(model, it.params);
      if (lossDifference(kind, at, trial) < 0.0) {
        at = std::move(trial);
        return gamma;
      }
    }
    return 0.0;
  }

  // Euclidean projection onto the nuclear ball of radius R: the singular values projected onto
  // the l1 ball (soft-thresholded by the theta with sum max(s - theta, 0) = R).
  Mat projectNuclear(const Mat& Y, double R) {
    Vec sig;
    Mat U, V;
    detail::thinSvd(Y, sig, &U, &V);
    if (sig.sum() <= R) return Y;
    // sig is descending: theta from the largest k with sig_k > (sum_{j<=k} sig_j - R) / k.
    double cum = 0.0, theta = 0.0;
    for (Index k = 0; k < sig.size(); ++k) {
      cum += sig[k];
      const double t = (cum - R) / static_cast<double>(k + 1);
      if (sig[k] > t) theta = t;
    }
    for (Index k = 0; k < sig.size(); ++k) sig[k] = std::max(sig[k] - theta, 0.0);
    return U * sig.asDiagonal() * V.transpose();
  }

  // One projected-gradient step on the nuclear ball (Frank-Wolfe's atoms are rank one, and it
  // crawls when W(R) has rank above one): W <- P(W - eta R D / ||D||_F), eta by backtracking on
  // lossDifference from eta0. Returns the step taken (0: none lowered the loss).
  double projectedStep(const Model& model, Iterate& it, Mat& x, const Mat& D, double R, double eta0,
                       Decomposition& at) {
    const LossKind kind = model.spec().loss;
    const Mat unit = (R / D.norm()) * D;
    double eta = eta0;
    for (int halving = 0; halving < 60; ++halving, eta *= 0.5) {
      Mat y = projectNuclear(x - eta * unit, R);
      it.load(y);
      Decomposition trial = decompose(model, it.params);
      if (lossDifference(kind, at, trial) < 0.0) {
        at = std::move(trial);
        x = std::move(y);
        return eta;
      }
    }
    return 0.0;
  }

  }  // namespace

  std::vector<double> geometricRadii(double r0, double r1, int count) {
    if (!(r0 > 0.0) || !std::isfinite(r0) || !(r1 >= r0) || !std::isfinite(r1))
      throw InputError("radii: need 0 < r0 <= r1 (finite); got r0 = " + std::to_string(r0) +
                       ", r1 = " + std::to_string(r1));
    if (count < 1 || count > 10000)
      throw InputError("radii: count = " + std::to_string(count) + " must be in 1..10000");
    std::vector<double> radii(count, r0);
    for (int k = 1; k < count; ++k)
      radii[k] = r0 * pmath::pow(r1 / r0, static_cast<double>(k) / (count - 1));
    if (count > 1) radii.back() = r1;
    return radii;
  }

  std::vector<PathPoint> regularizationPathPoints(
      const Model& model, const std::vector<double>& radii, const PathSettings& settings,
      double gapTolerance, const std::vector<Mat>* warmStarts) {
    const ModelSpec& spec = model.spec();
    if (spec.param == Parameterization::KQ)
      throw InputError(
          "regularization path: use the W (or prompt) parameterization; the nuclear ball "
          "over W is the (K,Q) counterpart");
    if (settings.norm == BallNorm::Lp) requireMirrorExponent(settings.p, "path p");
    if (settings.iterationsPerRadius < 1)
      throw InputError("iterationsPerRadius = " + std::to_string(settings.iterationsPerRadius) +
                       ": must be >= 1");
    if (!(gapTolerance > 0.0) || !(gapTolerance < 2.0))
      throw InputError("gapTolerance = " + std::to_string(gapTolerance) + ": must be in (0, 2)");
    for (std::size_t k = 0; k < radii.size(); ++k) {
      if (!(radii[k] > 0.0) || !std::isfinite(radii[k]))
        throw InputError("radii[" + std::to_string(k) + "] = " + std::to_string(radii[k]) +
                         ": must be finite and > 0");
      if (k > 0 && radii[k] < radii[k - 1])
        throw InputError("radii[" + std::to_string(k) + "] < radii[" + std::to_string(k - 1) +
                         "]: radii must not decrease");
    }
    Iterate it{spec.param == Parameterization::Prompt, model.zeroParams()};
    Mat x = it.prompt ? Mat(it.params.p) : it.params.W;
    if (warmStarts && !warmStarts->empty()) {
      if (warmStarts->size() != radii.size())
        throw InputError("warmStart: " + std::to_string(warmStarts->size()) + " matrices for " +
                         std::to_string(radii.size()) + " radii");
      for (std::size_t k = 0; k < warmStarts->size(); ++k) {
        const Mat& w = (*warmStarts)[k];
        if (w.rows() != x.rows() || w.cols() != x.cols() || !w.allFinite())
          throw InputError("warmStart[" + std::to_string(k) + "]: a finite " +
                           std::to_string(x.rows()) + " x " + std::to_string(x.cols()) +
                           " matrix expected, got " + std::to_string(w.rows()) + " x " +
                           std::to_string(w.cols()));
      }
    }
    std::vector<PathPoint> path;
    path.reserve(radii.size());
    Gradient g;
    Mat S, dir, buf, D;
    constexpr double kNegInf = -std::numeric_limits<double>::infinity();
    double previousR = 0.0, gamma0 = 1.0, eta0 = 1.0;
    for (std::size_t ri = 0; ri < radii.size(); ++ri) {
      const double R = radii[ri];
      PathPoint pt;
      pt.radius = R;
      it.load(x);
      Decomposition at = decompose(model, it.params);
      // Warm start: W(R_prev), or W(R_prev) scaled onto the new sphere when that is lower (the
      // direction W(R)/R converges, so the scaled point is usually nearly optimal already).
      if (previousR > 0.0 && R > previousR) {
        it.load((R / previousR) * x);
        Decomposition scaled = decompose(model, it.params);
        if (lossDifference(spec.loss, at, scaled) < 0.0) {
          x *= R / previousR;
          at = std::move(scaled);
        }
      }
      previousR = R;
      // The caller's guess of W(R) (a nearby problem's), into the ball, when its loss is lower.
      if (warmStarts && !warmStarts->empty()) {
        Mat guess = (*warmStarts)[ri];
        const double gn = ballNorm(guess, settings);
        if (gn > R) guess *= R / gn;
        it.load(guess);
        Decomposition g0 = decompose(model, it.params);
        if (lossDifference(spec.loss, at, g0) < 0.0) {
          x = std::move(guess);
          at = std::move(g0);
        }
      }
      double dual = 0.0, relGap = 0.0, logScale = kNegInf;
      for (int k = 0;; ++k) {
        it.load(x);
        model.gradient(it.params, g);
        logScale = g.logScale;
        if (!std::isfinite(logScale) && logScale != kNegInf)
          throw NumericalError("regularization path: non-finite gradient at R = " +
                               std::to_string(R));
        D = it.direction(g, buf);
        dual = logScale == kNegInf ? 0.0 : linearMinimizer(D, R, settings, S);
        // Exactly stationary (zero gradient): the gap is 0.
        relGap = dual > 0.0 ? (R * dual + (D.array() * x.array()).sum()) / (R * dual) : 0.0;
        relGap = std::max(relGap, 0.0);  // >= 0 in exact arithmetic; rounding may dip below
        if (relGap <= gapTolerance || k >= settings.iterationsPerRadius) break;
        if (settings.norm == BallNorm::Nuclear && x.cols() > 1) {
          // Projected gradient instead of the rank-one Frank-Wolfe step (the gap is the same).
          const double eta = projectedStep(model, it, x, D, R, std::min(1.0, 2.0 * eta0), at);
          if (!(eta > 0.0)) break;
          eta0 = eta;
        } else {
          dir = S - x;
          const double gamma = lineSearch(model, it, x, dir, std::min(1.0, 2.0 * gamma0), at);
          if (!(gamma > 0.0)) break;  // no descent at any step: stationary to rounding
          gamma0 = gamma;
          x += gamma * dir;
        }
        pt.iterations = k + 1;
      }
      it.load(x);
      pt.W = x;
      pt.loss = g.loss;  // the gradient's by-product at x
      pt.selection = g.selected;
      pt.relativeGap = relGap;
      pt.logGradDual = dual > 0.0 ? logScale + pmath::log(dual) : kNegInf;
      pt.gap = R * relGap * pmath::exp(pt.logGradDual);
      pt.norm = ballNorm(x, settings);
      pt.certified = relGap <= gapTolerance;
      // The loss can change by at most about R ||grad L||_dual inside the ball (to first order).
      pt.lossResolved =
          pmath::log(R) + pt.logGradDual >=
          pmath::log(std::numeric_limits<double>::epsilon() * std::max(std::abs(pt.loss), 1e-300));
      path.push_back(std::move(pt));
    }
    return path;
  }

  std::vector<Mat> regularizationPath(const Model& model, const std::vector<double>& radii,
                                      const PathSettings& settings) {
    std::vector<Mat> out;
    for (PathPoint& p : regularizationPathPoints(model, radii, settings, kPathGapTolerance))
      out.push_back(std::move(p.W));
    return out;
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
