// Nuclear-norm max-margin solver by the dual interior-point method.
//
// Dual of  min ||W||_*  s.t. <A_j, W> >= b_j:   max b.lambda  s.t.  ||M(lambda)||_2 <= 1, lambda >= 0.
// The spectral-norm constraint is the LMI [I M; M^T I] >= 0, handled by the self-concordant
// barrier  phi(lambda) = -log det(I - M M^T)  weighted by mu:  min mu phi - b.lambda, lambda >= 0.
// With B = I - M M^T, R = B^{-1}:
//   grad_j phi = <A_j, P>,  P = 2 R M   (the primal estimate is W = mu P, strictly feasible on
//                                         the central path: <A_j, W> - b_j = mu / lambda_j),
//   H_jk = 2 [ (u_j^T R u_k)(w_j^T (I + M^T R M) w_k) + Y_jk Y_kj ],   Y = U R M Wq^T,
// built from the Cholesky factor of B with two symmetric rank-k updates (and, when constraints share
// w_j, only groups x groups / m x groups entries for the w-side factors); see derivatives().
// Warm start: the Frobenius multipliers (plus a floor), scaled so that ||M||_2 = 0.9.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <vector>
#ifdef ATTNSVM_NUC_TRACE
#include <cstdio>
#endif

#include "solvers_internal.hpp"
#include "svd.hpp"
#include "nuclear_sdp.hpp"
#include "attnsvm/cold.hpp"

namespace attnsvm {
namespace detail {
// WebAssembly size (attnsvm/cold.hpp): every function of this file is compiled for size. The
// iterations spend their time in Eigen's products and factorizations, which are instantiated
// from headers included above the region and keep the full optimization; measured wasm against
// wasm, the solves are as fast as with the whole file optimized for speed (docs/BENCHMARKS.md).
ATTNSVM_COLD_BEGIN
namespace {

class NuclearDual final : public DualModel {
 public:
  explicit NuclearDual(const MarginProblem& pb) : pb_(pb) {
    // Constraints sharing the same w (all tokens of one sequence in the Att-SVM) form groups; then
    // Wq R22 Wq^T and Y = (U R M) Wq^T have only groups x groups / m x groups distinct entries.
    // (groupByW: the l_p solvers' grouping, groups in order of first appearance)
    const Index m = pb.b.size();
    const std::vector<LpGroup> groups = groupByW(pb);
    group_.resize(static_cast<std::size_t>(m));
    Zg_.resize(static_cast<Index>(groups.size()), pb.cols);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      Zg_.row(static_cast<Index>(g)) = groups[g].w.transpose();
      for (Index j : groups[g].j) group_[static_cast<std::size_t>(j)] = static_cast<Index>(g);
    }
    grouped_ = 2 * Zg_.rows() <= m;
  }

  bool value(const Vec& lambda, double& phi) override {
    M_ = combine(pb_, lambda);
    Mat B = -M_ * M_.transpose();
    B.diagonal().array() += 1.0;
    llt_.compute(B);
    if (llt_.info() != Eigen::Success) return false;
    const auto diag = llt_.matrixLLT().diagonal();
    if (!(diag.minCoeff() > 1e-150)) return false;
    phi = -2.0 * diag.array().log().sum();
    return std::isfinite(phi);
  }
  // Hessian from the Cholesky factors, exploiting symmetry (docs/SOLVERS.md):
  //   B = L L^T, G = L^{-1} U^T, N = L^{-1} M, R22 = I + N^T N = L2 L2^T, F = Wq L2:
  //   U R U^T = G^T G,  Wq R22 Wq^T = F F^T  (two symmetric rank-k updates, lower half only),
  //   Y = (U R M) Wq^T  (one general product); m x m workspaces are reused across iterations.
  void derivatives(Vec& grad, Mat& hess) override {
    const Index m = pb_.b.size();
    const auto L = llt_.matrixL();
    G_ = pb_.U.transpose();
    L.solveInPlace(G_);                     // rows x m
    N_ = M_;
    L.solveInPlace(N_);                     // rows x cols
    RM_ = N_;
    L.transpose().solveInPlace(RM_);        // R M
    P_ = 2.0 * RM_;
    T1_.noalias() = pb_.U * RM_;                // m x cols
    grad = 2.0 * T1_.cwiseProduct(pb_.Wq).rowwise().sum();  // <A_j, P> (constraintValues(P_))
    R22_.noalias() = N_.transpose() * N_;
    R22_.diagonal().array() += 1.0;
    llt22_.compute(R22_);
    Q_.setZero(m, m);
    Q_.selfadjointView<Eigen::Lower>().rankUpdate(G_.transpose());
    hess.resize(m, m);
    if (grouped_) {
      F_.noalias() = Zg_ * llt22_.matrixL();
      Pw_.noalias() = F_ * F_.transpose();   // groups x groups
      Y_.noalias() = T1_ * Zg_.transpose();  // m x groups: Y_jk = Y_(j, group k)
      for (Index k = 0; k < m; ++k) {
        const Index gk = group_[static_cast<std::size_t>(k)];
        for (Index j = k; j < m; ++j) {
          const Index gj = group_[static_cast<std::size_t>(j)];
          hess(j, k) = 2.0 * (Q_(j, k) * Pw_(gj, gk) + Y_(j, gk) * Y_(k, gj));
        }
      }
      return;
    }
    F_.noalias() = pb_.Wq * llt22_.matrixL();  // m x cols
    Pw_.setZero(m, m);
    Pw_.selfadjointView<Eigen::Lower>().rankUpdate(F_);
    Y_.resize(m, m);
    Y_.noalias() = T1_ * pb_.Wq.transpose();
    for (Index k = 0; k < m; ++k) {
      for (Index j = k; j < m; ++j) {
        hess(j, k) = 2.0 * (Q_(j, k) * Pw_(j, k) + Y_(j, k) * Y_(k, j));
      }
    }
  }
  Mat primal() override { return P_; }
  bool barrierWeighted() const override { return true; }

  // At the optimum W = U_r S V_r^T where U_r, V_r are the singular vectors of M with singular
  // value 1, and the support constraints hold with equality. The barrier estimate mu P is only
  // accurate to eps / (1 - sigma^2) ~ eps / mu (cancellation in I - M M^T), so rebuild W from the
  // well-conditioned subspaces: S = S0 + correction making the support constraints exact
  // (a minimum-norm correction in the r x r space, again a rank-one Gram system).
  std::vector<Mat> polish(const Vec& lambda, const Vec& s, double mu) override {
    std::vector<Mat> out;
    Vec sig;
    Mat U, V;
    thinSvd(M_, sig, &U, &V);
    const Mat West = mu * P_;
    std::vector<Index> sup;
    for (Index j = 0; j < lambda.size(); ++j) {
      const bool eq = !pb_.equality.empty() && pb_.equality[static_cast<std::size_t>(j)];
      if (eq || lambda(j) >= s(j) || lambda(j) > 1e-6 * lambda.maxCoeff()) sup.push_back(j);
    }
    if (sup.empty()) return out;
    const Index ns = static_cast<Index>(sup.size());
    Mat Us(ns, pb_.rows), Ws(ns, pb_.cols);
    Vec bs(ns);
    for (Index k = 0; k < ns; ++k) {
      Us.row(k) = pb_.U.row(sup[static_cast<std::size_t>(k)]);
      Ws.row(k) = pb_.Wq.row(sup[static_cast<std::size_t>(k)]);
      bs(k) = pb_.b(sup[static_cast<std::size_t>(k)]);
    }
#ifdef ATTNSVM_NUC_TRACE
    std::fprintf(stderr, "mu %.3e ns %ld 1-sig:", mu, (long)ns);
    for (Index k = 0; k < sig.size(); ++k) std::fprintf(stderr, " %.2e", 1.0 - sig(k));
    std::fprintf(stderr, "\n");
#endif
    for (Index r = 1; r <= sig.size(); ++r) {
      if (1.0 - sig(r - 1) > 1e-2) break;
      // Only ranks at a clear drop of 1 - sigma (or the full rank) are plausible.
      if (r < sig.size() && (1.0 - sig(r)) < 10.0 * (1.0 - sig(r - 1)) && 1.0 - sig(r) < 1e-2) continue;
      const Mat Ur = U.leftCols(r), Vr = V.leftCols(r);
      // S is symmetric (positive semidefinite): W = U_r Q Sigma Q^T V_r^T with the same Q on both
      // sides, because M maps the right singular vectors of W to its left ones. Unknowns: the
      // r (r + 1) / 2 entries of S on and above the diagonal; usually at least as many support
      // constraints, so the correction is then the exact least-squares solution, independent of
      // the barrier estimate (which only fills directions the support does not determine).
      const Mat S0a = Ur.transpose() * West * Vr;
      const Mat S0 = 0.5 * (S0a + S0a.transpose());
      const Mat Ut = Us * Ur, Wt = Ws * Vr;  // reduced rank-one constraints on S (r x r)
      const Vec c = bs - (Ut * S0).cwiseProduct(Wt).rowwise().sum();
      const Index nu = r * (r + 1) / 2;
      Mat At(ns, nu);
      for (Index k = 0; k < ns; ++k) {
        Index col = 0;
        for (Index a = 0; a < r; ++a)
          for (Index b = a; b < r; ++b, ++col)
            At(k, col) = a == b ? Ut(k, a) * Wt(k, a) : Ut(k, a) * Wt(k, b) + Ut(k, b) * Wt(k, a);
      }
      const Vec x = MinNormSolver(At).solve(c);  // minimum-norm least squares
      Mat S = S0;
      {
        Index col = 0;
        for (Index a = 0; a < r; ++a)
          for (Index b = a; b < r; ++b, ++col) {
            S(a, b) += x(col);
            if (a != b) S(b, a) += x(col);
          }
      }
      out.push_back(Ur * S * Vr.transpose());
    }
    return out;
  }

 private:
  const MarginProblem& pb_;
  Mat M_, P_;
  Eigen::LLT<Mat> llt_, llt22_;
  Mat G_, N_, RM_, R22_, F_, T1_, Q_, Pw_, Y_;  // workspaces of derivatives()
  std::vector<Index> group_;  // group of each constraint (equal w_j)
  Mat Zg_;                    // groups x cols: the distinct w
  bool grouped_ = false;      // at most m / 2 groups: use the grouped Hessian
};

}  // namespace

// The barrier method on the dual alone (kept as the fallback of the SDP interior point).
MarginSolution solveNuclearDual(const MarginProblem& pb, const SolverSettings& st, const MarginSolution& warm) {
  const Index m = pb.b.size();
  Vec lambda = warm.lambda.cwiseMax(0.0);
  const double floor = 1e-2 * std::max(lambda.maxCoeff(), 1e-12);
  for (Index j = 0; j < m; ++j) {
    const bool eq = !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
    lambda(j) = eq ? warm.lambda(j) : std::max(lambda(j), floor);
  }
  const double spectral = dualNorm(combine(pb, lambda), NormKind::Nuclear);
  if (spectral > 0.0) lambda *= 0.9 / spectral;
  const double mu0 = 0.1 * std::max(pb.b.dot(lambda), 1e-12) / static_cast<double>(m + pb.rows);
  NuclearDual model(pb);
  return dualInteriorPoint(pb, st, model, lambda, mu0, "nuclear interior point");
}

// The SDP interior point first; if it ends without the certified gap (none of the test instances
// does), the dual barrier method runs as well and the better certificate is kept. Either way the
// status is `optimal` only with a certified gap <= max(tolerance, kNuclearOptimalGap).
MarginSolution solveNuclear(const MarginProblem& pb, const SolverSettings& st, const MarginSolution& warm) {
  MarginSolution sol = solveNuclearSdp(pb, st, warm);
  if (sol.status == SolveStatus::Optimal) return sol;
  MarginSolution dual = solveNuclearDual(pb, st, warm);
  const int iterations = sol.iterations + dual.iterations;
  const bool dualCertified = dual.maxViolation <= st.feasibilityTol && std::isfinite(dual.gap) && dual.W.size() > 0;
  if (dualCertified && dual.gap < sol.gap) sol = std::move(dual);
  sol.iterations = iterations;
  const bool certified = std::isfinite(sol.gap) && sol.gap <= std::max(st.tolerance, kNuclearOptimalGap) &&
                         sol.maxViolation <= st.feasibilityTol;
  sol.status = certified ? SolveStatus::Optimal : SolveStatus::MaxIterations;
  if (!certified) {
    if (!std::isfinite(sol.gap)) {
      sol.W = Mat::Zero(pb.rows, pb.cols);
      sol.lambda = Vec::Zero(pb.b.size());
      sol.message = "nuclear: no certified feasible iterate (SDP and dual interior points)";
    } else {
      sol.message = "nuclear: SDP and dual interior points stopped at certified relative gap " + std::to_string(sol.gap);
    }
  } else {
    sol.message.clear();
  }
  return sol;
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
