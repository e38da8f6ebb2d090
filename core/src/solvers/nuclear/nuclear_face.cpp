// Exact-rank finish of the nuclear-norm solver (docs/SOLVERS.md, "Nuclear norm").
//
// The SDP interior point ends at a strictly interior point: W = W* + E with a tail of singular
// values ~ sqrt(mu) in the directions where the problem is degenerate (no strict
// complementarity: M has a singular value 1 outside the range of W*). At a certified gap of 1e-9
// that tail is 1e-7 .. 1e-6 of ||W||, enough to count one more singular value above the rank
// experiment's 1e-7. Truncating the tail and scaling back to feasibility costs a gap of ~1e-7.
// Instead the truncated W_r is corrected on the manifold of rank-r matrices: the minimum-norm
// step in its tangent space T = {U_r A + B V_r^T} that makes the active constraints exact,
//     dW = sum_j mu_j P_T(A_j),   G mu = b_J - <A_J, W_r>,   G_jk = <P_T A_j, P_T A_k>,
// then truncation to rank r again (a retraction; the residual falls quadratically). By the
// stationarity of the Lagrangian at W*, such a correction changes ||W||_* only at second order,
// so the exact-rank candidate keeps the certified gap. For rank-one A_j = u_j w_j^T,
// P_T(A_j) = u_j w_j^T - (P_perp u_j)(Q_perp w_j)^T, so G costs O(|J|^2 (rows + cols)).
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <vector>

#include "base/svd.hpp"
#include "cold.hpp"
#include "solvers/nuclear/nuclear_sdp.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
ATTNSVM_COLD_BEGIN

namespace {

// The rank of a clear drop in the singular values: the largest r with s_{r+1} <= 1e-5 s_1 and
// s_r >= 1e3 s_{r+1}; 0 when there is none (W already has an exact-looking spectrum or no gap).
Index rankAtDrop(const Vec& s) {
  if (s.size() < 2 || !(s(0) > 0.0)) return 0;
  for (Index r = 1; r < s.size(); ++r)
    if (s(r) <= 1e-5 * s(0) && s(r - 1) >= 1e3 * s(r) && s(r) > 0.0) return r;
  return 0;
}

Mat truncate(const Mat& W, Index r, Mat& Ur, Mat& Vr) {
  Vec s;
  Mat U, V;
  thinSvd(W, s, &U, &V);
  Ur = U.leftCols(r);
  Vr = V.leftCols(r);
  return Ur * s.head(r).asDiagonal() * Vr.transpose();
}

}  // namespace

bool polishExactRank(const MarginProblem& pb, const SolverSettings& st, MarginSolution& sol) {
  if (sol.W.size() == 0) return false;
  Vec s;
  thinSvd(sol.W, s, nullptr, nullptr);
  // Without a clear drop the same correction at full rank (T = everything) only makes the active
  // constraints exact: scaling W to feasibility costs a relative gap of max_j (b_j - <A_j, W>) /
  // b_j, which is large for active constraints with small b_j / ||A_j|| (||W^mm|| ~ 1e4).
  const Index drop = rankAtDrop(s);
  const bool exactRank = drop > 0;
  const Index r = exactRank ? drop : s.size();
  // Nothing to gain: a tail already at rounding level (or no tail) with the gap at the target.
  if (sol.gap <= kNuclearPolishGap && (!exactRank || s(r) <= 1e-12 * s(0))) return false;
  const Index m = pb.b.size();
  // Active constraints of the interior point's W (relative slack <= 1e-6, and every equality).
  const Vec c0 = constraintValues(pb, sol.W);
  std::vector<Index> J;
  for (Index j = 0; j < m; ++j) {
    const bool eq = !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
    if (eq || c0(j) - pb.b(j) <= 1e-6 * std::max(std::abs(pb.b(j)), 1e-300)) J.push_back(j);
  }
  if (J.empty()) return false;
  const Index nj = static_cast<Index>(J.size());
  Mat UJ(nj, pb.rows), WJ(nj, pb.cols);
  Vec bJ(nj);
  for (Index k = 0; k < nj; ++k) {
    UJ.row(k) = pb.U.row(J[static_cast<std::size_t>(k)]);
    WJ.row(k) = pb.Wq.row(J[static_cast<std::size_t>(k)]);
    bJ(k) = pb.b(J[static_cast<std::size_t>(k)]);
  }
  Mat Ur, Vr;
  Mat W = truncate(sol.W, r, Ur, Vr);
  Eigen::LLT<Mat> llt;
  for (int round = 0; round < 3; ++round) {
    const Vec res = bJ - (UJ * W).cwiseProduct(WJ).rowwise().sum();
    if (res.cwiseAbs().maxCoeff() <= 1e-15 * bJ.cwiseAbs().maxCoeff()) break;
    const Mat Up = UJ - (UJ * Ur) * Ur.transpose();  // P_perp u_j as rows
    const Mat Wp = WJ - (WJ * Vr) * Vr.transpose();  // Q_perp w_j as rows
    Mat G = (UJ * UJ.transpose()).cwiseProduct(WJ * WJ.transpose()) -
            (Up * Up.transpose()).cwiseProduct(Wp * Wp.transpose());
    // G is singular when the active constraints are dependent on T (more of them than its
    // dimension, or repeated): a tiny ridge gives the least-squares solution of the consistent
    // system (residual at the level of the ridge).
    const double ridge = 1e-13 * std::max(G.diagonal().maxCoeff(), 1e-300);
    G.diagonal().array() += ridge;
    llt.compute(G);
    if (llt.info() != Eigen::Success) return false;
    const Vec mu = llt.solve(res);
    const Mat muW = WJ.array().colwise() * mu.array(), muWp = Wp.array().colwise() * mu.array();
    const Mat dW = UJ.transpose() * muW - Up.transpose() * muWp;
    W = truncate(W + dW, r, Ur, Vr);
  }
  // Scale to exact feasibility and certify with the interior point's multipliers.
  const Vec c = constraintValues(pb, W);
  double scale = 1.0;
  for (Index j = 0; j < m; ++j) {
    const bool eq = !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
    if (eq || pb.b(j) <= 0.0) continue;
    if (!(c(j) > 0.0)) return false;
    scale = std::max(scale, pb.b(j) / c(j));
  }
  MarginSolution cand;
  cand.W = scale * W;
  cand.lambda = sol.lambda;
  certify(pb, st, cand);
  if (!(cand.maxViolation <= st.feasibilityTol)) return false;
  // Keep an exact-rank W unless it is clearly worse (its gap still within the target); a
  // full-rank correction only if it is better.
  if (!(exactRank ? cand.gap <= std::max(sol.gap, kNuclearPolishGap) : cand.gap < sol.gap))
    return false;
  sol.W = std::move(cand.W);
  sol.objective = cand.objective;
  sol.lowerBound = cand.lowerBound;
  sol.gap = cand.gap;
  sol.maxViolation = cand.maxViolation;
  return true;
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
