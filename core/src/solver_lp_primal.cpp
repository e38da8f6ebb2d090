// Primal-dual interior point on the entrywise l_p primal, p > 2 (docs/SOLVERS.md):
//     min f(W) = (1/p)||W||_p^p   s.t.  <A_j, W> - b_j = s_j >= 0.
// Why: the dual of this problem, (1/q)||M||_q^q with q -> 1 as p grows, is nearly an l_1 norm and
// its Newton model overshoots by a factor ~p on small entries of M (p = 10: ~100 damped steps at
// step 1/4). Here W and lambda are separate unknowns, coupled only through the linearized
// stationarity  g(W) = sign(W)|W|^{p-1} = M(lambda) = sum_j lambda_j A_j,  whose Newton step in W
// undershoots instead (|w|^{p-1} is convex in |w|). The Newton system
//     H dW - A^T dl = -r_d,   A dW - ds = -r_p,   S dl + L ds = sigma mu - L s (- dl_a ds_a),
// H = (p-1)|W|^{p-2}, r_d = g - M, r_p = A W - b - s, is solved in the m-dimensional space through
//     (A H^{-1} A^T + S L^{-1}) dl = (sigma mu - L s - dl_a ds_a) / l - r_p + A H^{-1} r_d,
// the same grouped rank-one Gram matrix as the dual Hessian (groupedGram with D = H^{-1}), so an
// iteration costs what a dual one does. H is floored at 1e-12 max H (entries of W near 0).
// Mehrotra predictor-corrector; one step length for all variables (fraction 0.99 to the boundary),
// halved while the residual norm of the perturbed KKT system grows by more than a factor 2.
// Every iterate's W is scaled up to exact feasibility and certified with its lambda >= 0 (SPEC 3),
// so whatever this returns is a proven bound. Stops at the certified gap stopGap, after 8 steps
// without a better certificate, or after 80 steps; the best certified iterate is returned.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#ifdef ATTNSVM_LP_TRACE
#include <cstdio>
#endif

#include "solvers_internal.hpp"

namespace attnsvm {
namespace detail {

// Backtracking accepts a residual growth up to this factor: requiring a decrease (1.0) was tried
// and is 10x slower on the test instances (short steps, 180 of 729 solves fell back to the dual).
constexpr double kGrow = 2.0;

bool lpPrimalDual(const MarginProblem& pb, double p, const Vec& lambda0, double stopGap, MarginSolution& sol) {
  const Index m = pb.b.size();
  for (Index j = 0; j < m; ++j)
    if (!pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)]) return false;  // not handled
  if (m == 0 || !(p > 2.0) || !(lambda0.minCoeff() > 0.0)) return false;
  const double q = p / (p - 1.0);
  const std::vector<LpGroup> groups = groupByW(pb);
  auto gradient = [&](const Mat& X) { return Mat((X.array().sign() * X.array().abs().pow(p - 1.0)).matrix()); };

  // Start consistent with the dual (r_d = 0): W = grad phi*(M(lambda0)); slacks floored.
  Vec lambda = lambda0;
  Mat M = combine(pb, lambda);
  Mat W = (M.array().sign() * M.array().abs().pow(q - 1.0)).matrix();
  Vec c = constraintValues(pb, W);
  Vec s = (c - pb.b).cwiseMax(1e-2 * pb.b.cwiseAbs().cwiseMax(1.0));
  Mat g = gradient(W);

  Mat K(m, m);
  Eigen::LLT<Mat> llt(m);
  double bestGap = std::numeric_limits<double>::infinity();
  MarginSolution best;
  auto residual = [&](const Mat& gX, const Mat& MX, const Vec& cX, const Vec& sX, const Vec& lX, double target) {
    const double rd = (gX - MX).squaredNorm() / std::max(MX.squaredNorm(), 1e-300);
    const double rp = (cX - pb.b - sX).squaredNorm() / std::max(pb.b.squaredNorm(), 1e-300);
    const double rc = (lX.cwiseProduct(sX).array() - target).matrix().squaredNorm() /
                      std::max(lX.dot(sX) * lX.dot(sX) / static_cast<double>(m), 1e-300);
    return std::sqrt(rd + rp + rc);
  };
  int it = 0;
  for (; it < 80; ++it) {
    // Certificate of this iterate: W scaled to feasibility, lower bound from lambda (> 0).
    double scale = 0.0;
    bool scalable = true;
    for (Index j = 0; j < m && scalable; ++j) {
      if (pb.b(j) <= 0.0) continue;
      if (!(c(j) > 0.0)) scalable = false;
      else scale = std::max(scale, pb.b(j) / c(j));
    }
    if (scalable && scale > 0.0) {
      const double objective = scale * matrixNorm(W, NormKind::Lp, p);
      const double den = dualNorm(M, NormKind::Lp, p);
      const double lower = den > 0.0 ? lambda.dot(pb.b) / den : 0.0;
      const double gap = (objective - lower) / objective;
      if (gap < bestGap) {
        bestGap = gap;
        best.W = scale * W;
        best.lambda = lambda;
        best.objective = objective;
        best.lowerBound = lower;
        best.gap = gap;
        best.iterations = it;
      }
    }
#ifdef ATTNSVM_LP_TRACE
    std::fprintf(stderr, "pd %2d mu %.3e feasible %d best gap %.3e\n", it, lambda.dot(s) / static_cast<double>(m),
                 static_cast<int>(scalable), bestGap);
#endif
    if (bestGap <= stopGap || it - best.iterations > 8) break;  // done, or no progress for 8 steps

    const double mu = lambda.dot(s) / static_cast<double>(m);
    Mat h = (p - 1.0) * W.array().abs().pow(p - 2.0).matrix();
    h = h.cwiseMax(1e-12 * std::max(h.maxCoeff(), 1e-300));
    const Mat hinv = h.cwiseInverse();
    const Mat rd = g - M;
    const Vec rp = c - pb.b - s;
    const Vec t = constraintValues(pb, hinv.cwiseProduct(rd));
    groupedGram(groups, hinv, K);
    K.diagonal() += s.cwiseQuotient(lambda);
    llt.compute(K);
    if (llt.info() != Eigen::Success) break;
    // Predictor (affine scaling, sigma = 0).
    const Vec dla = llt.solve(Vec(-s - rp + t));
    const Vec dsa = -s - s.cwiseQuotient(lambda).cwiseProduct(dla);
    auto toBoundary = [&](const Vec& dl, const Vec& ds, double frac) {
      double a = 1.0;
      for (Index j = 0; j < m; ++j) {
        if (dl(j) < 0.0) a = std::min(a, -frac * lambda(j) / dl(j));
        if (ds(j) < 0.0) a = std::min(a, -frac * s(j) / ds(j));
      }
      return a;
    };
    const double aa = toBoundary(dla, dsa, 1.0);
    const double muAff = (lambda + aa * dla).dot(s + aa * dsa) / static_cast<double>(m);
    const double sigma = std::min(1.0, std::pow(muAff / mu, 3.0));
    // Corrector.
    const Vec comp = (sigma * mu - lambda.cwiseProduct(s).array() - dla.cwiseProduct(dsa).array()).matrix();
    const Vec dl = llt.solve(Vec(comp.cwiseQuotient(lambda) - rp + t));
    if (!dl.allFinite()) break;
    const Vec ds = (comp - s.cwiseProduct(dl)).cwiseQuotient(lambda);
    const Mat dW = hinv.cwiseProduct(combine(pb, dl) - rd);
    double alpha = toBoundary(dl, ds, 0.99);
    const double r0 = residual(g, M, c, s, lambda, sigma * mu);
    Mat Wt, gt, Mt;
    Vec ct, st, lt;
    for (int ls = 0; ls < 30; ++ls, alpha *= 0.5) {
      Wt = W + alpha * dW;
      lt = lambda + alpha * dl;
      st = s + alpha * ds;
      Mt = combine(pb, lt);
      gt = gradient(Wt);
      ct = constraintValues(pb, Wt);
      if (residual(gt, Mt, ct, st, lt, sigma * mu) <= kGrow * r0) break;
    }
    W = std::move(Wt);
    lambda = std::move(lt);
    s = std::move(st);
    M = std::move(Mt);
    g = std::move(gt);
    c = std::move(ct);
  }
  if (!(bestGap < std::numeric_limits<double>::infinity())) return false;
  sol = std::move(best);
  sol.iterations = it;
  return true;
}

}  // namespace detail
}  // namespace attnsvm
