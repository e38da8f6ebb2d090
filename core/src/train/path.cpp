// Regularization path W(R) = argmin_{||W|| <= R} L(W) by Frank-Wolfe (SPEC section 2).
// The linear minimization oracle depends only on the direction of the gradient, so the scaled
// gradient serves even when the true gradient underflows. Steps are chosen by backtracking on
// the loss, starting from the classic 2/(k+2), so a warm start is never thrown away.
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/train/train.hpp"
#include "base/svd.hpp"
#include "cold.hpp"
#include "model/mirror_internal.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  // S = argmin_{||S|| <= R} <G, S> for the chosen ball (closed forms of SPEC section 2).
  void linearMinimizer(const Mat& G, double R, const PathSettings& s, Mat& S) {
    switch (s.norm) {
      case BallNorm::Frobenius:
        S = (-R / G.norm()) * G;
        break;
      case BallNorm::Nuclear: {
        if (G.cols() == 1) {  // a vector: the nuclear norm is the l2 norm
          S = (-R / G.norm()) * G;
          break;
        }
        Vec sig;
        Mat U, V;
        detail::thinSvd(G, sig, &U, &V);
        S = -R * U.col(0) * V.col(0).transpose();
        break;
      }
      case BallNorm::Lp: {
        // Dual exponent q = p/(p-1): S = -R sign(G)|G|^{q-1} / ||G||_q^{q-1}.
        const double q = s.p / (s.p - 1.0);
        const double top = G.cwiseAbs().maxCoeff();
        S.resize(G.rows(), G.cols());
        for (Index c = 0; c < G.cols(); ++c)
          for (Index r = 0; r < G.rows(); ++r)
            S(r, c) = std::copysign(std::pow(std::abs(G(r, c)) / top, q - 1.0), G(r, c));
        S *= -R / lpNorm(S, s.p);  // ||sign|G|^{q-1}||_p = ||G||_q^{q-1}
        break;
      }
    }
  }

  }  // namespace

  std::vector<Mat> regularizationPath(const Model& model, const std::vector<double>& radii,
                                      const PathSettings& settings) {
    const ModelSpec& spec = model.spec();
    if (spec.param == Parameterization::KQ)
      throw InputError(
          "regularization path: use the W (or prompt) parameterization; the nuclear ball "
          "over W is the (K,Q) counterpart");
    if (settings.norm == BallNorm::Lp) requireMirrorExponent(settings.p, "path p");
    if (settings.iterationsPerRadius < 1)
      throw InputError("iterationsPerRadius = " + std::to_string(settings.iterationsPerRadius) +
                       ": must be >= 1");
    for (std::size_t k = 0; k < radii.size(); ++k) {
      if (!(radii[k] > 0.0) || !std::isfinite(radii[k]))
        throw InputError("radii[" + std::to_string(k) + "] = " + std::to_string(radii[k]) +
                         ": must be finite and > 0");
      if (k > 0 && radii[k] < radii[k - 1])
        throw InputError("radii[" + std::to_string(k) + "] < radii[" + std::to_string(k - 1) +
                         "]: radii must not decrease");
    }
    const bool prompt = spec.param == Parameterization::Prompt;
    Params params = model.zeroParams();
    Mat x = prompt ? Mat(params.p) : params.W;  // the iterate as a matrix (prompt: d x 1)
    auto load = [&](const Mat& m) {
      if (prompt)
        params.p = m.col(0);
      else
        params.W = m;
    };
    std::vector<Mat> path;
    path.reserve(radii.size());
    Gradient g;
    Mat S, candidate;
    for (double R : radii) {
      double current = model.loss(params);
      for (int k = 0; k < settings.iterationsPerRadius; ++k) {
        model.gradient(params, g);
        const Mat G = prompt ? Mat(g.p) : g.W;  // (a copy: the path is not an inner loop)
        if (!(G.norm() > 0.0) || !std::isfinite(g.logScale)) break;  // stationary
        linearMinimizer(G, R, settings, S);
        double gamma = 2.0 / (k + 2.0);
        bool accepted = false;
        for (int halving = 0; halving < 40; ++halving, gamma *= 0.5) {
          candidate = (1.0 - gamma) * x + gamma * S;
          load(candidate);
          const double trial = model.loss(params);
          if (trial < current) {
            current = trial;
            x = candidate;
            accepted = true;
            break;
          }
        }
        load(x);
        if (!accepted) break;  // no descent along the Frank-Wolfe direction: optimal to rounding
      }
      path.push_back(x);
    }
    return path;
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
