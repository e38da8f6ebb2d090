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

#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {

// Backtracking accepts a residual growth up to this factor: requiring a decrease (1.0) was tried
// and is 10x slower on the test instances (short steps, 180 of 729 solves fell back to the dual).
constexpr double kGrow = 2.0;

// Size: the element-wise work below is written as plain loops over the coefficients (each distinct
// Eigen expression is its own unrolled loop in the WebAssembly module), and in the WebAssembly
// build (core/hints/cold.hpp) the functions of this file are compiled for size: the time is in
// groupedGram and the Cholesky factorization, which live elsewhere and keep the full optimization.
// The expression form at -O3 cost 5.7 KB gzipped against the bounds of tests/wasm/builds.test.mjs.
ATTNSVM_COLD_BEGIN  // core/hints/cold.hpp
    namespace {
  // out = sign(x) |x|^e, entry by entry (g(W) with e = p - 1; W from M with e = q - 1).
  void signedPow(const double* x, Index n, double e, double* out) {
    for (Index i = 0; i < n; ++i) out[i] = std::copysign(std::pow(std::abs(x[i]), e), x[i]);
  }

  double sumSq(const double* a, const double* b, Index n) {  // ||a - b||^2 (b may be null)
    double r = 0.0;
    for (Index i = 0; i < n; ++i) {
      const double d = a[i] - (b ? b[i] : 0.0);
      r += d * d;
    }
    return r;
  }

  // Largest step a <= 1 keeping lambda + a dl >= (1 - frac) lambda and s + a ds >= (1 - frac) s.
  double toBoundary(const Vec& lambda, const Vec& s, const Vec& dl, const Vec& ds, double frac) {
    double a = 1.0;
    for (Index j = 0; j < lambda.size(); ++j) {
      if (dl(j) < 0.0) a = std::min(a, -frac * lambda(j) / dl(j));
      if (ds(j) < 0.0) a = std::min(a, -frac * s(j) / ds(j));
    }
    return a;
  }

  // One iterate: W, its gradient g, constraint values c, and lambda, s, M = sum lambda_j A_j.
  struct Point {
    Mat W, g, M;
    Vec c, lambda, s;
  };

  // Scaled norm of the perturbed KKT residual (r_d relative to M, r_p to b, complementarity to mu).
  double residual(const MarginProblem& pb, const Point& x, double target) {
    const Index m = pb.b.size(), n = x.W.size();
    const double rd =
        sumSq(x.g.data(), x.M.data(), n) / std::max(sumSq(x.M.data(), nullptr, n), 1e-300);
    double rp = 0.0, rc = 0.0, ls = 0.0;
    for (Index j = 0; j < m; ++j) {
      const double e = x.c(j) - pb.b(j) - x.s(j), c = x.lambda(j) * x.s(j);
      rp += e * e;
      rc += (c - target) * (c - target);
      ls += c;
    }
    rp /= std::max(sumSq(pb.b.data(), nullptr, m), 1e-300);
    rc /= std::max(ls * ls / static_cast<double>(m), 1e-300);
    return std::sqrt(rd + rp + rc);
  }

}  // namespace

bool lpPrimalDual(const MarginProblem& pb, double p, const Vec& lambda0, double stopGap,
                  MarginSolution& sol, const Mat* W0) {
  const Index m = pb.b.size();
  for (Index j = 0; j < m; ++j)
    if (!pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)])
      return false;  // not handled
  if (m == 0 || !(p > 2.0)) return false;
  for (Index j = 0; j < m; ++j)
    if (!(lambda0(j) > 0.0)) return false;
  const double q = p / (p - 1.0);
  const std::vector<LpGroup> groups = groupByW(pb);
  const Index n = static_cast<Index>(pb.rows) * pb.cols;

  // Start consistent with the dual (r_d = 0): W = grad phi*(M(lambda0)); or, when given, at the
  // feasible W0 (the Frobenius solution: every iterate then certifiable); slacks floored.
  Point x, t;
  x.lambda = lambda0;
  x.M = combine(pb, x.lambda);
  x.W.resize(pb.rows, pb.cols);
  if (W0)
    x.W = *W0;
  else
    signedPow(x.M.data(), n, q - 1.0, x.W.data());
  x.c = constraintValues(pb, x.W);
  x.s.resize(m);
  for (Index j = 0; j < m; ++j)
    x.s(j) = std::max(x.c(j) - pb.b(j), 1e-2 * std::max(1.0, std::abs(pb.b(j))));
  x.g.resize(pb.rows, pb.cols);
  signedPow(x.W.data(), n, p - 1.0, x.g.data());

  Mat K(m, m), hinv(pb.rows, pb.cols), rd(pb.rows, pb.cols), dW(pb.rows, pb.cols);
  Vec rhs(m), dla, dsa(m), dl, ds(m), tv;
  Eigen::LLT<Mat> llt(m);
  double bestGap = std::numeric_limits<double>::infinity();
  MarginSolution best;
  int it = 0;
  for (; it < 80; ++it) {
    // Certificate of this iterate: W scaled to feasibility, lower bound from lambda (> 0).
    double scale = 0.0;
    bool scalable = true;
    for (Index j = 0; j < m && scalable; ++j) {
      if (pb.b(j) <= 0.0) continue;
      if (!(x.c(j) > 0.0))
        scalable = false;
      else
        scale = std::max(scale, pb.b(j) / x.c(j));
    }
    if (scalable && scale > 0.0) {
      const double objective = scale * matrixNorm(x.W, NormKind::Lp, p);
      const double den = dualNorm(x.M, NormKind::Lp, p);
      const double lower = den > 0.0 ? x.lambda.dot(pb.b) / den : 0.0;
      const double gap = (objective - lower) / objective;
      if (gap < bestGap) {
        bestGap = gap;
        best.W = x.W;
        best.W *= scale;
        best.lambda = x.lambda;
        best.objective = objective;
        best.lowerBound = lower;
        best.gap = gap;
        best.iterations = it;
      }
    }
#ifdef ATTNSVM_LP_TRACE
    std::fprintf(stderr, "pd %2d mu %.3e feasible %d best gap %.3e\n", it,
                 x.lambda.dot(x.s) / static_cast<double>(m), static_cast<int>(scalable), bestGap);
#endif
    if (bestGap <= stopGap || it - best.iterations > 8) break;  // done, or no progress for 8 steps

    const double mu = x.lambda.dot(x.s) / static_cast<double>(m);
    // H^{-1} with H = (p-1)|W|^{p-2} floored at 1e-12 max H (H grows with |w|).
    double wmax = 0.0;
    for (Index i = 0; i < n; ++i) wmax = std::max(wmax, std::abs(x.W(i)));
    const double hfloor = 1e-12 * std::max((p - 1.0) * std::pow(wmax, p - 2.0), 1e-300);
    for (Index i = 0; i < n; ++i) {
      hinv(i) = 1.0 / std::max((p - 1.0) * std::pow(std::abs(x.W(i)), p - 2.0), hfloor);
      rd(i) = x.g(i) - x.M(i);
      dW(i) = hinv(i) * rd(i);
    }
    tv = constraintValues(pb, dW);  // A H^{-1} r_d
    groupedGram(groups, hinv, K);
    for (Index j = 0; j < m; ++j) K(j, j) += x.s(j) / x.lambda(j);
    llt.compute(K);
    if (llt.info() != Eigen::Success) break;
    // Predictor (affine scaling, sigma = 0); r_p = c - b - s.
    for (Index j = 0; j < m; ++j) rhs(j) = -x.s(j) - (x.c(j) - pb.b(j) - x.s(j)) + tv(j);
    dla = llt.solve(rhs);
    for (Index j = 0; j < m; ++j) dsa(j) = -x.s(j) - x.s(j) / x.lambda(j) * dla(j);
    const double aa = toBoundary(x.lambda, x.s, dla, dsa, 1.0);
    double muAff = 0.0;
    for (Index j = 0; j < m; ++j) muAff += (x.lambda(j) + aa * dla(j)) * (x.s(j) + aa * dsa(j));
    muAff /= static_cast<double>(m);
    const double sigma = std::min(1.0, std::pow(muAff / mu, 3.0));
    // Corrector; ds from the complementarity row.
    for (Index j = 0; j < m; ++j) {
      ds(j) = sigma * mu - x.lambda(j) * x.s(j) - dla(j) * dsa(j);  // the complementarity target
      rhs(j) = ds(j) / x.lambda(j) - (x.c(j) - pb.b(j) - x.s(j)) + tv(j);
    }
    dl = llt.solve(rhs);
    if (!std::isfinite(dl.squaredNorm())) break;
    for (Index j = 0; j < m; ++j) ds(j) = (ds(j) - x.s(j) * dl(j)) / x.lambda(j);
    dW = combine(pb, dl);
    for (Index i = 0; i < n; ++i) dW(i) = hinv(i) * (dW(i) - rd(i));
    double alpha = toBoundary(x.lambda, x.s, dl, ds, 0.99);
    const double r0 = residual(pb, x, sigma * mu);
    for (int ls = 0; ls < 30; ++ls, alpha *= 0.5) {
      t.W = x.W;
      for (Index i = 0; i < n; ++i) t.W(i) += alpha * dW(i);
      t.lambda = x.lambda;
      t.s = x.s;
      for (Index j = 0; j < m; ++j) {
        t.lambda(j) += alpha * dl(j);
        t.s(j) += alpha * ds(j);
      }
      t.M = combine(pb, t.lambda);
      t.g.resize(pb.rows, pb.cols);
      signedPow(t.W.data(), n, p - 1.0, t.g.data());
      t.c = constraintValues(pb, t.W);
      if (residual(pb, t, sigma * mu) <= kGrow * r0) break;
    }
    std::swap(x, t);
  }
  if (!(bestGap < std::numeric_limits<double>::infinity())) return false;
  sol = std::move(best);
  sol.iterations = it;
  return true;
}
ATTNSVM_COLD_END

}  // namespace detail
}  // namespace attnsvm
