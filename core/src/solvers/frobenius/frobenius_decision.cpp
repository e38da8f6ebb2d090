// The Frobenius solve that decides feasibility for every norm (docs/SOLVERS.md, "Which path runs"):
//   * small problems (or equalities, b_j <= 0): the exact dual active set (solver_frobenius.cpp);
//   * large problems (inequalities with b_j > 0 and m >= max(500, 2 rows cols)), and small ones on
//     which the active set did not end with a certificate: the minimum-norm-point interior point
//     (min_norm_point.cpp), finished when its gap is above the tolerance by an exact solve on its
//     support (exactOnSupport);
//   * the verdict: optimal with a certified gap <= max(tolerance, 1e-8) and violation <=
//     feasibilityTol; infeasible with a Farkas certificate checked by farkasValid; boundary when
//     neither exists and the feasibility margin is proven <= kBoundaryMargin; max_iterations
//     otherwise (with the measured bounds in the message).
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "base/svd.hpp"
#include "cold.hpp"
#include "solvers/frobenius/min_norm_point.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
ATTNSVM_COLD_BEGIN
namespace {

constexpr Index kLargeMinConstraints = 500;
constexpr double kOptimalGap = 1e-8;  // the status bar of the interior-point path
constexpr int kFinishRounds = 40;

bool isLargeImpl(const MarginProblem& pb) {
  const Index m = pb.b.size();
  return m >= std::max<Index>(kLargeMinConstraints, 2 * static_cast<Index>(pb.rows) * pb.cols) &&
         minNormPointApplies(pb);
}

// A zero constraint (u_j = 0 or w_j = 0) with b_j > 0 is violated by every W: certificate e_j.
bool zeroConstraint(const MarginProblem& pb, MarginSolution& sol) {
  for (Index j = 0; j < pb.b.size(); ++j) {
    if (pb.U.row(j).squaredNorm() > 0.0 && pb.Wq.row(j).squaredNorm() > 0.0) continue;
    if (!(pb.b(j) > 0.0)) continue;
    sol.status = SolveStatus::Infeasible;
    sol.farkas = Vec::Zero(pb.b.size());
    sol.farkas(j) = 1.0;
    return true;
  }
  return false;
}

// Multipliers in the 1/2 ||W||^2 convention (sum_j lambda_j b_j = ||W||_F^2).
void normalizeMultipliers(const MarginProblem& pb, MarginSolution& sol) {
  const double lb = sol.lambda.dot(pb.b);
  if (lb > 0.0) sol.lambda *= sol.W.squaredNorm() / lb;
}

// The exact finish on the interior point's support (a primal active set with orthogonal solves):
// W_S = the minimum-norm W with <A_j, W> = b_j for j in S, and its multipliers, from a Householder
// QR of the |S| constraint vectors (rows cols x |S|; a thin SVD when they are dependent), never
// from their Gram matrix, whose condition number is the square (the dual active set's
// Cholesky of G_AA lost ~4e-7 of feasibility on the nearly dependent real-image supports). A
// negative multiplier leaves S (the most negative first), violated constraints join it. True with
// the candidate (W scaled up to exact feasibility, lambda >= 0) in `out` when W_S satisfies every
// constraint and every multiplier is >= 0.
bool exactOnSupport(const MarginProblem& pb, std::vector<Index> S, MarginSolution& out) {
  const Index m = pb.b.size(), n = static_cast<Index>(pb.rows) * pb.cols;
  for (int round = 0; round < kFinishRounds && !S.empty(); ++round) {
    const Index k = static_cast<Index>(S.size());
    Mat At(n, k);
    Vec b(k), w, lambda;
    for (Index i = 0; i < k; ++i) {
      const Index j = S[static_cast<std::size_t>(i)];
      Eigen::Map<Mat>(At.col(i).data(), pb.rows, pb.cols) = pb.U.row(j).transpose() * pb.Wq.row(j);
      b(i) = pb.b(j);
    }
    Eigen::HouseholderQR<Mat> qr(At);
    const auto R = qr.matrixQR().topLeftCorner(std::min(n, k), k);
    const double rmax = R.diagonal().cwiseAbs().maxCoeff();
    if (k <= n && R.diagonal().cwiseAbs().minCoeff() > 1e-12 * rmax) {
      const Vec z = R.transpose().triangularView<Eigen::Lower>().solve(b);
      Vec zf = Vec::Zero(n);
      zf.head(k) = z;
      w = qr.householderQ() * zf;
      lambda = R.triangularView<Eigen::Upper>().solve(z);
    } else {  // dependent constraints: minimum-norm least squares
      const MinNormSolver solver(At.transpose());
      w = solver.solve(b);
      lambda = solver.solveTransposed(w);
    }
    const Eigen::Map<const Mat> W(w.data(), pb.rows, pb.cols);
    Index worst = -1;
    const double top = lambda.cwiseAbs().maxCoeff();
    for (Index i = 0; i < k; ++i)
      if (lambda(i) < -1e-12 * top && (worst < 0 || lambda(i) < lambda(worst))) worst = i;
    if (worst >= 0) {
      S.erase(S.begin() + worst);
      continue;
    }
    const Vec c = constraintValues(pb, W);
    std::vector<char> in(static_cast<std::size_t>(m), 0);
    for (Index j : S) in[static_cast<std::size_t>(j)] = 1;
    bool added = false;
    double scale = 1.0;
    for (Index j = 0; j < m; ++j) {
      scale = std::max(scale, pb.b(j) / c(j));
      if (!in[static_cast<std::size_t>(j)] && c(j) < pb.b(j) * (1.0 - 1e-10)) {
        S.push_back(j);
        added = true;
      }
    }
    if (added) continue;
    out.W = scale * W;
    out.lambda = Vec::Zero(m);
    for (Index i = 0; i < k; ++i)
      out.lambda(S[static_cast<std::size_t>(i)]) = std::max(lambda(i), 0.0);
    return true;
  }
  return false;
}

// The interior point, its active-set finish and the verdict.
MarginSolution minNormPointPath(const MarginProblem& pb, const SolverSettings& st,
                                int earlierIterations) {
  const Index m = pb.b.size();
  MarginSolution sol;
  const MinNormPointResult r = minNormPoint(pb, st);
  sol.iterations = earlierIterations + r.iterations;
  sol.marginLower = std::max(r.marginLower, 0.0);
  sol.marginUpper = r.marginUpper;
  if (r.status == SolveStatus::Infeasible) {
    sol.status = SolveStatus::Infeasible;
    sol.farkas = r.farkas;
    sol.marginLower = 0.0;
    return sol;
  }
  // The interior point's candidate, certified on the full problem.
  MarginSolution best;
  best.gap = std::numeric_limits<double>::infinity();
  if (r.W.size() > 0) {
    best.W = r.W;
    best.lambda = r.lambda;
    normalizeMultipliers(pb, best);
    certify(pb, st, best);
    if (!(best.maxViolation <= st.feasibilityTol))
      best.gap = std::numeric_limits<double>::infinity();
  }
  // The exact finish on the interior point's support: the constraints within 1e-6 of active for
  // its W (the multipliers of the rest have decayed like mu / s).
  if (!(best.gap <= st.tolerance) && r.W.size() > 0) {
    const Vec c = constraintValues(pb, r.W);
    std::vector<Index> S;
    for (Index j = 0; j < m; ++j)
      if (c(j) <= (1.0 + 1e-6) * pb.b(j)) S.push_back(j);
    MarginSolution exact;
    if (exactOnSupport(pb, std::move(S), exact)) {
      certify(pb, st, exact);
      if (exact.maxViolation <= st.feasibilityTol && exact.gap < best.gap) best = std::move(exact);
    }
  }
  sol.W = best.W.size() ? best.W : Mat::Zero(pb.rows, pb.cols);
  sol.lambda = best.lambda.size() ? best.lambda : Vec::Zero(m);
  if (best.gap <= std::max(st.tolerance, kOptimalGap)) {
    sol.status = SolveStatus::Optimal;
    return sol;
  }
  const std::string bracket =
      "the feasibility margin max_{||W||_F <= 1} min_j <A_j, W> / ||A_j||_F is in [" +
      sci(sol.marginLower) + ", " + sci(sol.marginUpper) + "]";
  const std::string certified =
      std::isfinite(best.gap)
          ? "; the best W found is feasible with a certified gap of " + sci(best.gap)
          : "; no separating W was found";
  if (sol.marginUpper <= kBoundaryMargin) {
    sol.status = SolveStatus::Boundary;
    sol.message = "numerically on the boundary of feasibility: " + bracket + ", within " +
                  sci(kBoundaryMargin) + " of 0" + certified +
                  "; neither a solution with a certified gap <= " + sci(kOptimalGap) +
                  " nor a Farkas certificate with residual <= " + sci(kFarkasResidual) +
                  " is computable in double precision";
  } else {
    sol.status = SolveStatus::MaxIterations;
    sol.message = "minimum-norm-point interior point: not decided after " +
                  std::to_string(r.iterations) + " iterations: " + bracket + certified;
  }
  return sol;
}

}  // namespace

bool isLargeProblem(const MarginProblem& pb) { return isLargeImpl(pb); }

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}

MarginSolution decideFrobenius(const MarginProblem& pb, const SolverSettings& settings) {
  SolverSettings st = settings;  // the certificates below are the Frobenius norm's
  st.norm = NormKind::Frobenius;
  st.p = 2.0;
  if (isLargeImpl(pb)) {
    MarginSolution zero;
    if (zeroConstraint(pb, zero)) return zero;
    return minNormPointPath(pb, st, 0);
  }
  MarginSolution sol = solveFrobenius(pb, st);
  if (sol.status == SolveStatus::Infeasible || !minNormPointApplies(pb)) return sol;
  // (The active set's optimal solution carries its exact residuals' largest violation.)
  if (sol.status == SolveStatus::Optimal && sol.maxViolation <= st.feasibilityTol) return sol;
  // The active set ended without a certificate (nearly dependent constraints, or a violation above
  // feasibilityTol): the interior point decides.
  return minNormPointPath(pb, st, sol.iterations);
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
