// Entrywise l_p max-margin solver, p in (1, inf). p > 2: the primal-dual interior point on the
// primal (solver_lp_primal.cpp), with this file's dual interior point as its fallback; p < 2: the
// dual interior point. For p > 2 an exact primal active-set finish follows when the gap is short.
//
// Dual of  min (1/p)||W||_p^p  s.t. <A_j, W> >= b_j:
//     min_{lambda >= 0}  (1/q) ||M(lambda)||_q^q - b.lambda,   M = sum_j lambda_j A_j,  1/p + 1/q =
//     1,
// with the primal map W = sign(M) |M|^{q-1} (so grad_j = <A_j, W>) and the Hessian
//     H = A diag((q-1)|M|^{q-2}) A^T,   H_jk = u_j^T (D .* w_j w_k^T) u_k.
// Constraints sharing the same w (all tokens of one sequence in the Att-SVM) form groups, and a
// block of H is U_g1 diag(D (w_g1 .* w_g2)) U_g2^T: O(groups^2 rows cols + m^2 rows) per Hessian.
// Warm start: the Frobenius multipliers (plus a small positive floor), scaled optimally along
// their ray. |M|^{q-2} is floored at 1e-12 max|M| when q < 2 (p > 2) where it is unbounded.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#ifdef ATTNSVM_LP_TRACE
#include <cstdio>
#endif

#include "base/svd.hpp"
#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
// WebAssembly size (core/hints/cold.hpp): every function of this file is compiled for size. The
// iterations spend their time in Eigen's products and factorizations, which are instantiated
// from headers included above the region and keep the full optimization; measured wasm against
// wasm, the solves are as fast as with the whole file optimized for speed (docs/BENCHMARKS.md).
ATTNSVM_COLD_BEGIN
// (declared in solvers_internal.hpp: shared with solver_lp_primal.cpp)
std::vector<LpGroup> groupByW(const MarginProblem& pb) {
  std::map<std::vector<double>, std::size_t> where;
  std::vector<LpGroup> groups;
  for (Index j = 0; j < pb.b.size(); ++j) {
    std::vector<double> key(static_cast<std::size_t>(pb.cols));
    for (int c = 0; c < pb.cols; ++c) key[static_cast<std::size_t>(c)] = pb.Wq(j, c);
    auto it = where.find(key);
    if (it == where.end()) {
      it = where.emplace(key, groups.size()).first;
      groups.push_back(LpGroup{pb.Wq.row(j).transpose(), {}, Mat()});
    }
    groups[it->second].j.push_back(j);
  }
  for (LpGroup& g : groups) {
    g.U.resize(static_cast<Index>(g.j.size()), pb.rows);
    for (std::size_t k = 0; k < g.j.size(); ++k) g.U.row(static_cast<Index>(k)) = pb.U.row(g.j[k]);
  }
  return groups;
}

// G_jk = <A_j, D .* A_k> = u_j^T diag(D (w_j .* w_k)) u_k for all pairs of the listed groups,
// one block per pair of groups (the dual Hessian with D = (q-1)|M|^{q-2}, or the Schur complement
// A H^{-1} A^T of the primal Newton system with D = 1 / ((p-1)|W|^{p-2})).
void groupedGram(const std::vector<LpGroup>& groups, const Mat& D, Mat& G) {
  for (std::size_t a = 0; a < groups.size(); ++a) {
    const LpGroup& ga = groups[a];
    for (std::size_t b = a; b < groups.size(); ++b) {
      const LpGroup& gb = groups[b];
      const Vec dab = D * ga.w.cwiseProduct(gb.w);
      const Mat block = ga.U * dab.asDiagonal() * gb.U.transpose();
      for (std::size_t x = 0; x < ga.j.size(); ++x)
        for (std::size_t y = 0; y < gb.j.size(); ++y) {
          G(ga.j[x], gb.j[y]) = block(static_cast<Index>(x), static_cast<Index>(y));
          G(gb.j[y], ga.j[x]) = block(static_cast<Index>(x), static_cast<Index>(y));
        }
    }
  }
}

namespace {

constexpr double kFloor = 1e-12;  // larger floors (1e-6, 1e-3) were tried: worse for p = 10

class LpDual final : public DualModel {
 public:
  LpDual(const MarginProblem& pb, double p) : pb_(pb), q_(p / (p - 1.0)), groups_(groupByW(pb)) {}

  bool value(const Vec& lambda, double& phi) override {
    M_ = combine(pb_, lambda);
    phi = M_.array().abs().pow(q_).sum() / q_;
    return std::isfinite(phi);
  }
  void derivatives(Vec& grad, Mat& hess) override {
    const Mat W = primal();
    grad = constraintValues(pb_, W);
    const double big = M_.cwiseAbs().maxCoeff();
    const double floorM = q_ < 2.0 ? kFloor * big : 0.0;
    const Mat D = (q_ - 1.0) * M_.array().abs().max(floorM).pow(q_ - 2.0).matrix();
    groupedGram(groups_, D, hess);
  }
  Mat primal() override { return (M_.array().sign() * M_.array().abs().pow(q_ - 1.0)).matrix(); }
  bool barrierWeighted() const override { return false; }

 private:
  const MarginProblem& pb_;
  double q_;
  std::vector<LpGroup> groups_;
  Mat M_;
};

// Newton's method on the primal  min (1/p)||W||_p^p  s.t. <A_j, W> = b_j (all constraints of
// `sub`), for p > 2, where the primal is the well-scaled side: its Hessian H = (p-1)|W|^{p-2} is
// bounded, and for entries near zero Newton only undershoots (w <- w (p-2)/(p-1)), whereas in the
// dual the same entries make Newton overshoot by a factor ~ p (the p = 10 stall of the interior
// point). Direction: (A H^{-1} A^T) nu = A H^{-1} g,  dW = H^{-1} (A^T nu - g),  g =
// sign(W)|W|^{p-1} (the Schur complement has the grouped rank-one structure of the dual Hessian).
// H^{-1} is large on small entries, which makes dW inaccurate in exactly the directions where f is
// flat, so dW is projected (Frobenius-orthogonally) onto the null space of A and every trial point
// onto the affine set A W = b; Armijo backtracking on f. The multipliers are the least-squares
// solution of A^T nu = g (exact at the optimum). All three (projections and multipliers) come from
// one thin SVD of the constraint matrix A^T = [vec A_1 .. vec A_m] (d^2 x m), not of its Gram
// matrix A A^T: its rank cut and solves see the singular values of A rather than their squares
// (dependent constraints, e.g. more tokens of one sequence than rows, make A exactly rank
// deficient). With A^T = U_r S_r V_r^T: the projection onto A X = b adds A^+ r = U_r S_r^{-1} V_r^T
// r, the null-space projector of A is I - U_r U_r^T, and nu = V_r S_r^{-1} U_r^T g. Stops when the
// decrease predicted by the step, -<g, dW>, is below 1e-18 ||W||_p^p, when f stops decreasing
// (machine precision), or after 60 steps.
void primalNewton(const MarginProblem& sub, double p, Mat& W, Vec& nu, int& steps) {
  const Index m = sub.b.size(), n = static_cast<Index>(sub.rows) * sub.cols;
  // Columns vec(scale .* A_j), A_j = u_j w_j^T: the constraint matrix (transposed) with its rows
  // (the entries of W) scaled.
  auto scaledConstraints = [&](const Mat& scale, Mat& Ct) {
    Ct.resize(n, m);
    for (Index j = 0; j < m; ++j) {
      Eigen::Map<Mat> col(Ct.col(j).data(), sub.rows, sub.cols);
      col = scale.cwiseProduct(sub.U.row(j).transpose() * sub.Wq.row(j));
    }
  };
  Mat At;
  scaledConstraints(Mat::Ones(sub.rows, sub.cols), At);
  const MinNormSolver constraints(At);
  Vec r(m), step(n);
  auto project = [&](Mat& X) {  // onto A X = b, Frobenius-orthogonally
    r = sub.b - constraintValues(sub, X);
    constraints.solveTransposed(r, step);
    X += Eigen::Map<const Mat>(step.data(), sub.rows, sub.cols);
  };
  auto f = [&](const Mat& X) {
    const double big = X.cwiseAbs().maxCoeff();
    return big > 0.0 ? std::pow(big, p) * (X.array().abs() / big).pow(p).sum() / p : 0.0;
  };
  auto gradient = [&](const Mat& X) {
    return Mat((X.array().sign() * X.array().abs().pow(p - 1.0)).matrix());
  };
  project(W);
  double fW = f(W);
  Mat Bt, Q;
  Vec sg(n), dV(n), coef;
  for (int it = 0; it < 60; ++it, ++steps) {
    const Mat g = gradient(W);
    Mat h = (p - 1.0) * W.array().abs().pow(p - 2.0).matrix();
    h = h.cwiseMax(1e-12 * std::max(h.maxCoeff(), 1e-300));
    // Newton step in the scaled variables V = H^{1/2} W, where the Hessian is the identity: the
    // step is minus the scaled gradient projected onto the null space of B = A H^{-1/2}, i.e.
    // orthogonally to range(B^T), whose orthonormal basis Q comes from the SVD of B^T
    // (conditioned like B, not like the normal matrix B B^T; H^{-1/2} spans up to 1e6).
    const Mat Dh = h.cwiseSqrt().cwiseInverse();  // H^{-1/2}
    scaledConstraints(Dh, Bt);
    rangeBasis(Bt, Q);
    Eigen::Map<Mat>(sg.data(), sub.rows, sub.cols) = Dh.cwiseProduct(g);
    coef.noalias() = Q.transpose() * sg;
    dV.noalias() = Q * coef;
    dV -= sg;  // -(I - Q Q^T) sg
    Eigen::Map<Mat> dW(dV.data(), sub.rows, sub.cols);
    dW.array() *= Dh.array();
    // Onto the null space of A (I - U_r U_r^T), where the large H^{-1} entries left dW inaccurate.
    coef.noalias() = constraints.rangeBasis().transpose() * dV;
    dV.noalias() -= constraints.rangeBasis() * coef;
    const double slope = g.cwiseProduct(dW).sum();
    const double gW = g.cwiseProduct(W).sum();  // ||W||_p^p
    if (!(slope < -1e-18 * gW)) break;
    double alpha = 1.0, fT = 0.0;
    Mat trial;
    bool accepted = false;
    for (int ls = 0; ls < 40; ++ls, alpha *= 0.5) {
      trial = W + alpha * dW;
      project(trial);
      fT = f(trial);
      if (fT <= fW + 1e-4 * alpha * slope) {
        accepted = true;
        break;
      }
    }
#ifdef ATTNSVM_LP_TRACE
    std::fprintf(stderr, "  newton %d rel dec %.3e alpha %.3g acc %d\n", it, -slope / gW, alpha,
                 (int)accepted);
#endif
    if (!accepted) break;
    W = std::move(trial);
    fW = fT;
  }
  const Mat g = gradient(W);
  constraints.solve(Eigen::Map<const Vec>(g.data(), n), nu);
}

// A certified solution of one of the p > 2 methods: multipliers in the 1/2 ||W||^2 convention
// (sum lambda_j b_j = ||W||^2), and optimal when the certified gap meets the caller's tolerance
// (at most 1e-6), else max_iterations with the gap in the message naming the method.
void finishCertified(MarginSolution& sol, const MarginProblem& pb, const SolverSettings& st,
                     const char* method) {
  const double lb = sol.lambda.dot(pb.b);
  if (lb > 0.0) sol.lambda *= sol.objective * sol.objective / lb;
  sol.status =
      sol.gap <= std::max(st.tolerance, 1e-6) ? SolveStatus::Optimal : SolveStatus::MaxIterations;
  if (sol.status != SolveStatus::Optimal)
    sol.message = std::string(method) + ": stopped at certified relative gap " + sci(sol.gap);
}

// Final exact solve on the active set (p > 2), a primal active-set method that keeps W feasible:
// start from the interior point's certified W (or the Frobenius W when it has none) with the
// working set S guessed from the iterate (lambda_j / max lambda > relative slack). Each round
// solves the equality-constrained primal on S by Newton (W_S), then moves from W toward W_S up to
// the first constraint outside S that would become violated (added to S); if W_S is feasible,
// W = W_S and the constraint of S with the most negative multiplier is dropped; none negative:
// optimal. f decreases strictly along the way (convexity), so S never repeats (non-degenerate
// case); at most 4 m + 20 rounds. The result is certified like every interior-point iterate and
// replaces it only if its gap is smaller.
void polishOnSupport(const MarginProblem& pb, const SolverSettings& st, const Mat& fallback,
                     MarginSolution& sol) {
  const Index m = pb.b.size();
  const bool fromIpm = sol.W.size() == fallback.size() && sol.W.cwiseAbs().maxCoeff() > 0.0;
  Mat W = fromIpm ? sol.W : fallback;
  if (m == 0 || !(W.cwiseAbs().maxCoeff() > 0.0)) return;
  auto isEq = [&](Index j) {
    return !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
  };
  auto tolOf = [&](Index j) { return 1e-13 * std::max(1.0, std::abs(pb.b(j))); };
  Vec c = constraintValues(pb, W);
  std::vector<char> in(static_cast<std::size_t>(m), 0);
  const double lmax = fromIpm ? std::max(sol.lambda.cwiseAbs().maxCoeff(), 1e-300) : 1.0;
  for (Index j = 0; j < m; ++j) {
    const double slack = (c(j) - pb.b(j)) / std::max(1.0, std::abs(pb.b(j)));
    in[static_cast<std::size_t>(j)] =
        isEq(j) || (fromIpm ? sol.lambda(j) / lmax > slack : slack <= 1e-9);
  }
  Vec lambda = Vec::Zero(m);
  int steps = 0;
  bool done = false;
  for (int round = 0; round < 4 * m + 20 && !done; ++round) {
    std::vector<Index> S;
    for (Index j = 0; j < m; ++j)
      if (in[static_cast<std::size_t>(j)]) S.push_back(j);
    if (S.empty()) return;
    Mat WS = W;
    Vec nu;
    primalNewton(restrictTo(pb, S), st.p, WS, nu, steps);
    if (nu.size() != static_cast<Index>(S.size()) || !WS.allFinite()) return;
    const Vec cS = constraintValues(pb, WS);
    double t = 1.0;
    Index block = -1;
    for (Index j = 0; j < m; ++j) {
      if (in[static_cast<std::size_t>(j)] || isEq(j) || cS(j) >= pb.b(j) - tolOf(j)) continue;
      const double tj = std::max(0.0, c(j) - pb.b(j)) / (c(j) - cS(j));
      if (tj < t) {
        t = tj;
        block = j;
      }
    }
    lambda.setZero();
    for (std::size_t i = 0; i < S.size(); ++i) lambda(S[i]) = nu(static_cast<Index>(i));
    if (block >= 0) {
      W += t * (WS - W);
      in[static_cast<std::size_t>(block)] = 1;
    } else {
      W = WS;
      Index worst = -1;
      const double numax = std::max(nu.cwiseAbs().maxCoeff(), 1e-300);
      for (Index j : S)
        if (!isEq(j) && lambda(j) < -1e-12 * numax && (worst < 0 || lambda(j) < lambda(worst)))
          worst = j;
      if (worst >= 0)
        in[static_cast<std::size_t>(worst)] = 0;
      else
        done = true;
    }
    c = constraintValues(pb, W);
#ifdef ATTNSVM_LP_TRACE
    std::fprintf(stderr, "round %d |S| %zu steps %d block %ld t %.3g done %d\n", round, S.size(),
                 steps, (long)block, t, (int)done);
#endif
  }
  // Scale up to exact feasibility (rounding), certify, keep if better.
  c = constraintValues(pb, W);
  double scale = 1.0;
  for (Index j = 0; j < m; ++j) {
    if (isEq(j) || pb.b(j) <= 0.0) continue;
    if (!(c(j) > 0.0)) return;
    scale = std::max(scale, pb.b(j) / c(j));
  }
  MarginSolution cand;
  cand.W = scale * W;
  cand.lambda = lambda;
  for (Index j = 0; j < m; ++j)
    if (!isEq(j)) cand.lambda(j) = std::max(cand.lambda(j), 0.0);
  certify(pb, st, cand);
  const double oldGap = fromIpm ? sol.gap : std::numeric_limits<double>::infinity();
  if (!(cand.maxViolation <= st.feasibilityTol && cand.gap < oldGap)) return;
  cand.iterations = sol.iterations + steps;
  finishCertified(cand, pb, st, "l_p interior point + support Newton");
  sol = std::move(cand);
}

}  // namespace

MarginSolution solveLp(const MarginProblem& pb, const SolverSettings& st,
                       const MarginSolution& warm) {
  const Index m = pb.b.size();
  const double q = st.p / (st.p - 1.0);
  // Warm start on the ray of the Frobenius multipliers, with a floor keeping lambda > 0.
  Vec lambda = warm.lambda.cwiseMax(0.0);
  const double floor = 1e-2 * std::max(lambda.maxCoeff(), 1e-12);
  for (Index j = 0; j < m; ++j) {
    const bool eq = !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
    if (!eq)
      lambda(j) = std::max(lambda(j), floor);
    else
      lambda(j) = warm.lambda(j);
  }
  // Best scale t of lambda: maximize t b.lambda - t^q ||M||_q^q / q.
  const double bl = pb.b.dot(lambda);
  const double mq = combine(pb, lambda).array().abs().pow(q).sum();
  if (bl > 0.0 && mq > 0.0) lambda *= std::pow(bl / mq, 1.0 / (q - 1.0));
  const double mu0 = 0.1 * std::max(pb.b.dot(lambda), 1e-12) / static_cast<double>(m);
  LpDual model(pb, st.p);
  // For p > 2 the dual interior point (now the fallback) only has to identify the support (the
  // active-set finish below is exact), so it stops at a certified gap of 1e-2: its tail is where
  // the dual stalls for large p (1e-4 was tried: same accuracy after the finish, p = 3 at
  // (15,15,20) 3x slower).
  SolverSettings ipm = st;
  if (st.p > 2.0) ipm.tolerance = std::max(st.tolerance, 1e-2);
  MarginSolution sol;
  // p > 2: the primal-dual method on the primal (solver_lp_primal.cpp), usually straight to the
  // target; if it stalls above it but within 1e-2 its iterate goes to the active-set finish like
  // the dual interior point's, and above 1e-2 the dual interior point runs as before.
  const double target = std::max(st.tolerance, 1e-9);
  // A start at W = grad psi*(M(lambda)) may never become feasible (real images, issue 26: 10
  // steps, then 3500 iterations of the fallback and its finish); then once more from the
  // Frobenius solution, which is feasible.
  const auto primalDual = [&](const Mat* W0) {
    return lpPrimalDual(pb, st.p, lambda, target, sol, W0) && sol.gap <= ipm.tolerance;
  };
  if (st.p > 2.0 &&
      (primalDual(nullptr) ||
       (warm.W.size() == static_cast<Index>(pb.rows) * pb.cols && primalDual(&warm.W)))) {
    finishCertified(sol, pb, st, "l_p primal-dual");
  } else {
#ifdef ATTNSVM_LP_TRACE
    if (st.p > 2.0) std::fprintf(stderr, "FALLBACK to the dual interior point\n");
#endif
    sol = dualInteriorPoint(pb, ipm, model, lambda, mu0, "l_p interior point");
  }
  if (st.p > 2.0 && (sol.status != SolveStatus::Optimal || !(sol.gap <= target)))
    polishOnSupport(pb, st, warm.W, sol);
  // The status follows the caller's tolerance (the interior point may have used a looser one).
  if (sol.status == SolveStatus::Optimal && !(sol.gap <= std::max(st.tolerance, 1e-6))) {
    sol.status = SolveStatus::MaxIterations;
    sol.message = "l_p: stopped at certified relative gap " + sci(sol.gap);
  }
  return sol;
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
