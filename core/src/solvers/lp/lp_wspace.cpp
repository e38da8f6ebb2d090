// Entrywise l_p max-margin solver for large problems (issue 26; docs/SOLVERS.md, "Large problems"):
// a primal-dual interior point whose Newton system is formed over W (rows cols unknowns), with the
// constraint part assembled the Kronecker way (GroupedConstraints::gram), never the m x m systems
// of solver_lp.cpp / solver_lp_primal.cpp.
//
//   min (1/p) ||W||_p^p   s.t.  <A_j, W> - b_j = s_j >= 0,    multipliers lambda >= 0,
//   stationarity  grad psi(W) = M = sum_j lambda_j A_j        (psi = (1/p)||.||_p^p),
//
// written as g(W) - M = 0 for p > 2 (g = sign(W)|W|^{p-1}) and as W - g*(M) = 0 for p < 2
// (g* = sign(M)|M|^{q-1}, 1/p + 1/q = 1): either way the map that is linearized is convex in the
// magnitude (exponent > 1), so Newton undershoots instead of overshooting (the reason the small
// problems use the primal for p > 2 and the dual for p < 2). Both linearizations give the same
// symmetric positive definite system
//     (Hd + A^T D A) dW = -rho + A^T ((rcs - lambda r_p) / s),   D = diag(lambda / s),
// Hd = (p-1)|W|^{p-2} (p > 2) or 1 / ((q-1)|M|^{q-2}) (p < 2), floored; rho = g(W) - M (p > 2)
// or Hd (W - g*(M)) (p < 2), r_p = <A, W> - b - s, rcs the complementarity target. Then
// ds = A dW + r_p (the primal row exact, as in min_norm_point.cpp) and dlambda from the
// complementarity row. Mehrotra predictor-corrector, one step length (0.99 of the way to the
// boundary of lambda, s > 0), halved while the scaled KKT residual would grow by more than 2x.
// W is measured in units of the Frobenius solution (A_j scaled by kappa = ||W_fro||_F, start at
// W_fro / kappa, feasible). Every iterate is scaled up to exact feasibility and certified with its
// lambda (SPEC section 3); the best certificate is returned.
//
// p < 2 (issue 26: the stalls of the real-image stress family at certified gaps 2.5e-8 .. 3e-1):
// the certified gap of an iterate is, up to its complementarity and feasibility scaling, the
// Fenchel-Young gap of (W, M), ~ (p-1)|w|^p delta^2 per entry for a relative mismatch delta between
// W and g*(M) = sign(M)|M|^{q-1}: a gap of 1e-8 at p = 1.1 needs delta ~ 3e-4. But g* is a power
// q - 1 = 10 there, so Newton's linearization of the stationarity holds only for relative changes
// of M well below 1/10, and Mehrotra's target (sigma down to 1e-6) cut mu by 10-30x per step and
// moved M by more: the stationarity |W - g*(M)| / |W| stopped falling at ~1e-3 (full steps) while
// mu ran on to 1e-21, and the gap stalled. So for p < 2 ("careful") the complementarity target is
// at least 0.3 mu (mu shrinks at most ~3x per step, M moves little and the stationarity converges
// along the path) and at least stopGap lambda.b / m (complementarity costs at most the stop gap;
// below that mu only worsens the conditioning). If that stops above twice its stop gap, the plain
// variant runs too and the better certificate is kept.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "cold.hpp"
#include "solvers/dense_cholesky.hpp"
#include "solvers/grouped_constraints.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
ATTNSVM_COLD_BEGIN
namespace {

constexpr double kLpwFloor = 1e-12;  // Hd's range (relative), as the small-problem solvers
constexpr int kLpwMaxIterations = 100;
// p < 2: the least complementarity target, relative to mu (0.1 and 0.3 both certified the four
// stalled stress solves; 0.3 in fewer steps).
constexpr double kLpwLeastSigma = 0.3;

// The certified relative gap at which run() stops (its loop and solveLpWspace's fallback test).
double lpwStopGap(const SolverSettings& st) { return std::max(st.tolerance, 1e-9); }

// The Newton matrix's Cholesky factorization. In wasm the two-lane DenseCholesky
// (dense_cholesky.hpp): Eigen 3.4 does not vectorize under Emscripten; with DenseCholesky an l_1.1
// real-image solve (n = 500, d^2 = 324 unknowns) takes 0.70x the time of Eigen's scalar LLT there
// (bench/wasm/real-svm.mjs). Natively Eigen's LLT (SSE2) is the faster one: 17.4 against 10.7
// GFLOP/s at n = 324, 13.8 against 10.7-12.6 at n = 4096 (docs/BENCHMARKS.md, "Large dense
// factorizations"), and the real-phase diagram's d = 64 l_1.1 runs are mostly this factorization.
// The W-space path gives other bits on each platform anyway (Eigen's pow is the C library's).
class NewtonFactor {
 public:
  // False when a pivot is not positive (as Eigen's LLT info() != Success).
  bool compute(const Mat& H) {
#if defined(__EMSCRIPTEN__)
    return chol_.compute(H);
#else
    llt_.compute(H);
    return llt_.info() == Eigen::Success;
#endif
  }
  void solveInPlace(Eigen::Ref<Vec> b) const {
#if defined(__EMSCRIPTEN__)
    chol_.solveInPlace(b);
#else
    llt_.solveInPlace(b);
#endif
  }

 private:
#if defined(__EMSCRIPTEN__)
  DenseCholesky chol_;
#else
  Eigen::LLT<Mat> llt_;
#endif
};

class LpWspace {
 public:
  // careful: the p < 2 variant of the file comment (the complementarity target bounded below).
  LpWspace(const MarginProblem& pb, const SolverSettings& st, const MarginSolution& warm,
           bool careful)
      : pb_(pb),
        st_(st),
        m_(pb.b.size()),
        p_(st.p),
        q_(st.p / (st.p - 1.0)),
        kappa_(warm.W.size() && warm.W.norm() > 0.0 ? warm.W.norm() : 1.0),
        careful_(careful && st.p < 2.0),
        gc_(pb, {}, Vec::Constant(pb.b.size(), kappa_)) {
    W_ = warm.W.size() ? Mat(warm.W / kappa_) : Mat::Zero(pb.rows, pb.cols);
    lambda_ = warm.lambda.size() == m_ ? Vec(warm.lambda.cwiseMax(0.0)) : Vec(Vec::Ones(m_));
    best_.gap = std::numeric_limits<double>::infinity();
  }

  MarginSolution run();

 private:
  // g(W) or g*(M): sign(x)|x|^e.
  static Mat signedPow(const Mat& x, double e) {
    return (x.array().sign() * x.array().abs().pow(e)).matrix();
  }
  // The point's residuals and Hd (from W_, lambda_, s_).
  void evaluate();
  double residualNorm() const;  // scaled ||(rho, r_p, lambda s - target)||
  void factor();
  void direction(const Vec& rcs);
  double stepToBoundary(double fraction) const;
  void certifyIterate();

  const MarginProblem& pb_;
  const SolverSettings& st_;
  const Index m_;
  const double p_, q_, kappa_;
  const bool careful_;
  GroupedConstraints gc_;
  Mat W_, M_, rho_, Hd_, H_;
  Vec lambda_, s_, c_, rp_;
  NewtonFactor newton_;  // the factored Newton matrix H_
  Mat dW_;
  Vec dl_, ds_, dc_;
  double target_ = 0.0;  // complementarity target of residualNorm()
  MarginSolution best_;
  int bestIt_ = 0;
};

void LpWspace::evaluate() {
  gc_.values(W_, c_);
  rp_ = c_ - pb_.b - s_;
  gc_.adjoint(lambda_, M_);
  if (p_ > 2.0) {
    rho_ = signedPow(W_, p_ - 1.0) - M_;
    Hd_ = (p_ - 1.0) * W_.array().abs().pow(p_ - 2.0).matrix();
    Hd_ = Hd_.cwiseMax(kLpwFloor * std::max(Hd_.maxCoeff(), 1e-300));
  } else {
    Mat E = (q_ - 1.0) * M_.array().abs().pow(q_ - 2.0).matrix();
    E = E.cwiseMax(kLpwFloor * std::max(E.maxCoeff(), 1e-300));
    Hd_ = E.cwiseInverse();
    rho_ = Hd_.cwiseProduct(W_ - signedPow(M_, q_ - 1.0));
  }
}

double LpWspace::residualNorm() const {
  const double mscale = std::max(M_.squaredNorm(), 1e-300);
  double rc = 0.0, ls = 0.0;
  for (Index j = 0; j < m_; ++j) {
    const double x = lambda_(j) * s_(j);
    rc += (x - target_) * (x - target_);
    ls += x;
  }
  rc /= std::max(ls * ls / static_cast<double>(m_), 1e-300);
  const double rd = (p_ > 2.0 ? rho_ : Mat(rho_.cwiseQuotient(Hd_))).squaredNorm() /
                    (p_ > 2.0 ? mscale : std::max(W_.squaredNorm(), 1e-300));
  return std::sqrt(rd + rp_.squaredNorm() / std::max(pb_.b.squaredNorm(), 1e-300) + rc);
}

void LpWspace::factor() {
  const Vec D = lambda_.cwiseQuotient(s_);
  gc_.gram(D, H_);
  H_.diagonal() += Eigen::Map<const Vec>(Hd_.data(), Hd_.size());
  bool factored = newton_.compute(H_);
  double ridge = 1e-14 * H_.diagonal().maxCoeff();
  while (!factored && ridge < 1e300) {
    H_.diagonal().array() += ridge;
    factored = newton_.compute(H_);
    ridge *= 100.0;
  }
}

void LpWspace::direction(const Vec& rcs) {
  const Vec t = (rcs - lambda_.cwiseProduct(rp_)).cwiseQuotient(s_);
  // H vec(dW) = vec(A^T t - rho), solved in place: the right-hand side is built in dW_
  gc_.adjoint(t, dW_);
  dW_ -= rho_;
  newton_.solveInPlace(Eigen::Map<Vec>(dW_.data(), dW_.size()));
  gc_.values(dW_, dc_);
  ds_ = dc_ + rp_;
  dl_ = (rcs - lambda_.cwiseProduct(ds_)).cwiseQuotient(s_);
}

double LpWspace::stepToBoundary(double fraction) const {
  double a = 1.0;
  for (Index j = 0; j < m_; ++j) {
    if (dl_(j) < 0.0) a = std::min(a, -fraction * lambda_(j) / dl_(j));
    if (ds_(j) < 0.0) a = std::min(a, -fraction * s_(j) / ds_(j));
  }
  return a;
}

// W scaled up to exact feasibility (factor max_j b_j / c_j) and certified with lambda: objective
// ||W||_p, lower bound sum lambda_j b_j / ||M||_q (both in the scaled units; the ratio is the
// gap, unchanged by kappa).
void LpWspace::certifyIterate() {
  double scale = 0.0;
  for (Index j = 0; j < m_; ++j) {
    if (!(c_(j) > 0.0)) return;
    scale = std::max(scale, pb_.b(j) / c_(j));
  }
  const double objective = scale * matrixNorm(W_, NormKind::Lp, p_);
  const double den = dualNorm(M_, NormKind::Lp, p_);
  const double lower = den > 0.0 ? lambda_.dot(pb_.b) / den : 0.0;
  const double gap = (objective - lower) / objective;
  if (!(gap < best_.gap)) return;
  best_.W = (scale * kappa_) * W_;
  best_.lambda = lambda_;
  best_.gap = gap;
}

MarginSolution LpWspace::run() {
  // Start: W_fro (feasible), slacks floored at 1e-2 b_j, lambda on its ray (the best scale t of
  // t b.lambda - t^q ||M||_q^q / q, as solver_lp.cpp) with a floor of 1e-2 of its largest entry.
  gc_.values(W_, c_);
  s_ = (c_ - pb_.b).cwiseMax(1e-2 * pb_.b);
  const double top = std::max(lambda_.maxCoeff(), 1e-300);
  lambda_ = lambda_.cwiseMax(1e-2 * top);
  gc_.adjoint(lambda_, M_);
  const double bl = pb_.b.dot(lambda_), mq = M_.array().abs().pow(q_).sum();
  if (bl > 0.0 && mq > 0.0) lambda_ *= std::pow(bl / mq, 1.0 / (q_ - 1.0));
  const double stopGap = lpwStopGap(st_);
  int it = 0;
  for (; it < std::min(st_.maxIterations, kLpwMaxIterations); ++it) {
    evaluate();
    const double before = best_.gap;
    certifyIterate();
    if (best_.gap < before) bestIt_ = it;
    if (best_.gap <= stopGap || it - bestIt_ > 10) break;
    const double mu = lambda_.dot(s_) / static_cast<double>(m_);
    factor();
    // Predictor, then Mehrotra's corrector.
    Vec rcs = -lambda_.cwiseProduct(s_);
    direction(rcs);
    const double aAff = stepToBoundary(1.0);
    const double muAff = (lambda_ + aAff * dl_).dot(s_ + aAff * ds_) / static_cast<double>(m_);
    const double sigma = std::min(1.0, std::pow(std::max(muAff, 0.0) / mu, 3.0));
    double target = sigma * mu;
    if (careful_)
      target = std::max(
          {target, kLpwLeastSigma * mu, stopGap * lambda_.dot(pb_.b) / static_cast<double>(m_)});
    rcs.array() += target - dl_.array() * ds_.array();
    direction(rcs);
    if (!dW_.allFinite() || !dl_.allFinite()) break;
    // Fraction to the boundary, then halved while the KKT residual would grow by more than 2x.
    target_ = target;
    const double r0 = residualNorm();
    double alpha = stepToBoundary(0.99);
    const Mat W0 = W_;
    const Vec l0 = lambda_, s0 = s_;
    for (int ls = 0; ls < 30; ++ls, alpha *= 0.5) {
      W_ = W0 + alpha * dW_;
      lambda_ = l0 + alpha * dl_;
      s_ = s0 + alpha * ds_;
      evaluate();
      if (residualNorm() <= 2.0 * r0) break;
    }
  }
  MarginSolution sol = std::move(best_);
  sol.iterations = it;
  if (!std::isfinite(sol.gap)) {
    sol.status = SolveStatus::MaxIterations;
    sol.W = Mat::Zero(pb_.rows, pb_.cols);
    sol.lambda = Vec::Zero(m_);
    sol.message = "l_p W-space interior point: no certified feasible iterate";
    return sol;
  }
  // Multipliers in the 1/2 ||W||^2 convention, the status by the certified gap.
  const double lb = sol.lambda.dot(pb_.b);
  const double objective = matrixNorm(sol.W, NormKind::Lp, p_);
  if (lb > 0.0) sol.lambda *= objective * objective / lb;
  sol.status =
      sol.gap <= std::max(st_.tolerance, 1e-8) ? SolveStatus::Optimal : SolveStatus::MaxIterations;
  if (sol.status != SolveStatus::Optimal)
    sol.message = "l_p W-space interior point: stopped at certified relative gap " + sci(sol.gap);
  return sol;
}

}  // namespace

MarginSolution solveLpWspace(const MarginProblem& pb, const SolverSettings& st,
                             const MarginSolution& warm) {
  // p < 2: the careful variant (see the file comment); it ends near its stop gap by design (its
  // floored mu costs up to that). If it stops above twice that, the plain variant from the same
  // start as well, the better certificate kept: insurance, since without the 0.3 mu bound either
  // variant alone left some stress solve above 1e-8 that the other certified.
  MarginSolution sol = LpWspace(pb, st, warm, st.p < 2.0).run();
  if (st.p < 2.0 && !(sol.gap <= 2.0 * lpwStopGap(st))) {
    MarginSolution plain = LpWspace(pb, st, warm, false).run();
    const int iterations = sol.iterations + plain.iterations;  // both runs' work
    if (plain.gap < sol.gap) sol = std::move(plain);
    sol.iterations = iterations;
  }
  if (sol.status == SolveStatus::Optimal) return sol;
  // Not certified (ATTNSVM_STRESS=1: 7 vs 9, random 60 of 300, seeds 13 and 14, p = 3): the working
  // set's m x m interior points of the small problems, kept only if they certify it. (solveLp's own
  // bar is a gap of 1e-6; this path's is 1e-8.)
  MarginSolution other = solveLp(pb, st, warm);
  const bool certified =
      other.status == SolveStatus::Optimal && other.gap <= std::max(st.tolerance, 1e-8);
  return certified ? other : sol;
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
