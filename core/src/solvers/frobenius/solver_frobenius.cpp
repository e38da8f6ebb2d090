// Exact Frobenius-norm max-margin solver: the dual active-set method of Goldfarb and Idnani
// (Math. Programming 27, 1983) for   min 1/2 ||W||_F^2  s.t. <A_j, W> >= b_j  (or = b_j),
// written entirely in terms of the Gram matrix G_jk = <A_j, A_k> = (u_j.u_k)(w_j.w_k).
//
// Why this method: it starts from the unconstrained minimum W = 0 and adds violated constraints
// one at a time while keeping the multipliers dual feasible, so it ends at the exact optimum after
// about |support| steps (plus a few drops); the active set is always linearly independent (a
// dependent constraint triggers a pure dual step that drops another one), which makes a singular
// Gram matrix (m > d^2, duplicated tokens) harmless; and a dependent violated constraint that
// cannot be fixed by dropping anything is exactly a Farkas certificate of infeasibility.
//
// Because the Hessian of 1/2||W||^2 is the identity, the primal iterate is W = sum_{active} u_k n_k
// (n_k = sign_k A_k) and all quantities reduce to Gram entries: the step direction's effect on
// constraint j is G_jp - G_jA r with r = G_AA^{-1} G_Ap, computed from a Cholesky factor
// G_AA = L L^T that is updated (append a row) or downdated (Givens) as constraints enter/leave.
// Gram columns are computed lazily (only for constraints that are tried), so memory is
// O(m |active|) and the cost is O(m (rows + cols)) per tried constraint plus O(m |A| + |A|^2) per
// step.
#include <algorithm>
#include <cmath>
#include <limits>

#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class ActiveSet {
 public:
  ActiveSet(Index m, Index capacity) : L_(capacity, capacity), Gact_(m, capacity), u_(capacity) {}
  Index size() const { return static_cast<Index>(idx_.size()); }
  const std::vector<int>& indices() const { return idx_; }
  Vec& u() { return u_; }
  const Vec& u() const { return u_; }
  Mat& columns() { return Gact_; }
  // x <- L^{-1} x and x <- L^{-T} x with the current factor.
  template <class V>
  void solveL(V&& x) const {
    L_.topLeftCorner(size(), size()).triangularView<Eigen::Lower>().solveInPlace(x);
  }
  template <class V>
  void solveLt(V&& x) const {
    L_.topLeftCorner(size(), size()).transpose().triangularView<Eigen::Upper>().solveInPlace(x);
  }

  // Append constraint p with its effective Gram column, the row l = L^{-1} G_Ap and pivot delta.
  void add(int p, const Vec& column, const Vec& l, double delta, double multiplier) {
    const Index k = size();
    if (k >= L_.rows()) {
      // A nearly dependent constraint accepted as independent can exceed rows*cols: grow.
      const Index cap = 2 * L_.rows() + 1;
      L_.conservativeResize(cap, cap);
      Gact_.conservativeResize(Eigen::NoChange, cap);
      u_.conservativeResize(cap);
    }
    L_.row(k).head(k) = l.head(k).transpose();
    L_(k, k) = delta;
    Gact_.col(k) = column;
    u_(k) = multiplier;
    idx_.push_back(p);
  }

  // Remove position i: shift rows/columns and restore triangularity with Givens rotations on
  // column pairs (a right orthogonal factor leaves L L^T unchanged).
  void remove(Index i) {
    const Index k = size();
    for (Index r = i; r + 1 < k; ++r) {
      L_.row(r).head(k) = L_.row(r + 1).head(k);
      Gact_.col(r) = Gact_.col(r + 1);
      u_(r) = u_(r + 1);
    }
    for (Index c = i; c + 1 < k; ++c) {
      const double a = L_(c, c), b = L_(c, c + 1);
      const double rho = std::hypot(a, b);
      if (rho == 0.0) continue;
      const double cs = a / rho, sn = b / rho;
      for (Index r = c; r + 1 < k; ++r) {
        const double x = L_(r, c), y = L_(r, c + 1);
        L_(r, c) = cs * x + sn * y;
        L_(r, c + 1) = -sn * x + cs * y;
      }
      L_(c, c + 1) = 0.0;
    }
    idx_.erase(idx_.begin() + i);
  }

 private:
  Mat L_;
  Mat Gact_;  // effective Gram columns sign_k G(:, k) of the active constraints
  Vec u_;     // multipliers of the active constraints (w.r.t. n_k = sign_k A_k)
  std::vector<int> idx_;
};

// The state of one solve and its phases: screenZeroConstraints() (constraints with A_j = 0),
// nextConstraint() (which constraint enters), addConstraint() (the primal-dual steps that add it,
// dropping blocking ones), converged() (exact residuals, refinement and the final status) and
// finish() (the current iterate of a solve that stopped early).
class GoldfarbIdnani {
 public:
  GoldfarbIdnani(const MarginProblem& pb, const SolverSettings& st)
      : pb_(pb),
        st_(st),
        m_(pb.b.size()),
        g2_(gramDiagonal(pb)),
        capacity_(std::min<Index>(m_, static_cast<Index>(pb.rows) * pb.cols) + 1),
        state_(static_cast<std::size_t>(m_), 0),
        as_(m_, capacity_),
        sign_(static_cast<std::size_t>(m_), 1.0),
        r_(-pb.b),
        col_(m_),
        g_(capacity_),
        l_(capacity_),
        rr_(capacity_) {
    sol_.W = Mat::Zero(pb.rows, pb.cols);
    sol_.lambda = Vec::Zero(m_);
  }

  // One exit, moving sol_ out (a copy per return site costs wasm bytes).
  MarginSolution run() {
    solve();
    return std::move(sol_);
  }

 private:
  // What the main loop does after a phase: go on, stop and report (finish()), or end with sol_
  // as it is (a certificate of infeasibility, or a failure with its message).
  enum class Step { Continue, Stop, Return };

  void solve() {
    if (m_ == 0) {
      sol_.status = SolveStatus::Optimal;
      sol_.message = "no constraints: W = 0";
      return;
    }
    if (!screenZeroConstraints()) return;
    for (Index j = 0; j < m_; ++j)
      if (isEq(j) && state_[static_cast<std::size_t>(j)] == 0) eqs_.push_back(j);
    while (true) {
      if (iterations_ >= st_.maxIterations) {
        sol_.status = SolveStatus::MaxIterations;
        sol_.message = "Frobenius active-set: iteration limit reached";
        break;
      }
      const Index p = nextConstraint();
      const Step step = p < 0 ? converged() : addConstraint(p);
      if (step == Step::Return) return;
      if (step == Step::Stop) break;
    }
    finish();
  }

  static constexpr double kTolViol = 1e-12;  // relative violation at which the method stops
  static constexpr double kEpsDep = 1e-14;   // delta^2 <= kEpsDep G_pp: numerically dependent

  // G_jj = ||A_j||_F^2 = ||u_j||^2 ||w_j||^2.
  static Vec gramDiagonal(const MarginProblem& pb) {
    const Vec uu = pb.U.rowwise().squaredNorm();
    const Vec ww = pb.Wq.rowwise().squaredNorm();
    return uu.cwiseProduct(ww);
  }

  bool isEq(Index j) const {
    return !pb_.equality.empty() && pb_.equality[static_cast<std::size_t>(j)];
  }

  // Zero constraints: infeasible if they ask for a nonzero right-hand side, skipped otherwise.
  // False (with the certificate in sol_) if infeasible.
  bool screenZeroConstraints() {
    const double scaleA2 = g2_.maxCoeff();
    for (Index j = 0; j < m_; ++j) {
      if (g2_(j) > 1e-24 * std::max(scaleA2, 1e-300) && g2_(j) > 0.0) continue;
      const bool bad = isEq(j) ? pb_.b(j) != 0.0 : pb_.b(j) > 0.0;
      if (bad) {
        sol_.status = SolveStatus::Infeasible;
        sol_.farkas = Vec::Zero(m_);
        sol_.farkas(j) = pb_.b(j) > 0.0 ? 1.0 : -1.0;
        return false;
      }
      state_[static_cast<std::size_t>(j)] = 2;
    }
    return true;
  }

  // Equalities enter first (they are never dropped); then the most violated inequality,
  // violations measured relative to ||A_j|| so that scaling a constraint does not matter.
  // -1 if nothing is violated on the running residuals.
  Index nextConstraint() {
    Index p = -1;
    while (eqNext_ < eqs_.size()) {
      const Index c = eqs_[eqNext_++];
      if (state_[static_cast<std::size_t>(c)] == 0) {
        p = c;
        break;
      }
    }
    if (p < 0) {
      double worst = 0.0;
      for (Index j = 0; j < m_; ++j) {
        if (state_[static_cast<std::size_t>(j)] != 0 || isEq(j)) continue;
        if (r_(j) >= -kTolViol * std::max(1.0, std::abs(pb_.b(j)))) continue;
        const double v = r_(j) / std::sqrt(g2_(j));
        if (v < worst) {
          worst = v;
          p = j;
        }
      }
    }
    return p;
  }

  // The multipliers lambda_j of the active constraints (w.r.t. A_j), 0 elsewhere.
  Vec activeMultipliers() const {
    Vec lam = Vec::Zero(m_);
    for (Index i = 0; i < as_.size(); ++i) {
      const int a = as_.indices()[static_cast<std::size_t>(i)];
      lam(a) = as_.u()(i) * sign_[static_cast<std::size_t>(a)];
    }
    return lam;
  }

  // Converged on the running residuals: recompute them exactly, refine the active multipliers
  // (solve G_AA du = -s_A), and only stop if nothing is violated.
  Step converged() {
    const Index k = as_.size();
    Vec lam = activeMultipliers();
    Mat W = combine(pb_, lam);
    r_ = constraintValues(pb_, W) - pb_.b;
    if (refinements_ < 2 && k > 0) {
      ++refinements_;
      refineMultipliers(k);
      return Step::Continue;  // re-scan with the refined residuals
    }
    // Worst exact violation, relative to max(1, |b_j|): clean means within 1e2 kTolViol.
    double worstViolation = 0.0, absoluteViolation = 0.0;
    for (Index j = 0; j < m_; ++j) {
      if (state_[static_cast<std::size_t>(j)] == 2) continue;
      const double a = isEq(j) ? std::abs(r_(j)) : -r_(j);
      worstViolation = std::max(worstViolation, a / std::max(1.0, std::abs(pb_.b(j))));
      absoluteViolation = std::max(absoluteViolation, a);
    }
    const bool clean = !(worstViolation > 1e2 * kTolViol);
    if (!clean && refinements_ < 6) {
      ++refinements_;
      return Step::Continue;
    }
    if (!clean && worstViolation > 1e3 * st_.feasibilityTol)
      return nearlyDependent(lam, std::move(W));
    sol_.status = SolveStatus::Optimal;
    sol_.W = std::move(W);
    sol_.maxViolation = absoluteViolation;  // decideFrobenius() reads it (certify() recomputes it)
    sol_.lambda = lam;
    for (Index j = 0; j < m_; ++j)
      if (!isEq(j)) sol_.lambda(j) = std::max(sol_.lambda(j), 0.0);
    return Step::Stop;
  }

  // One refinement of the k active multipliers against the exact residuals r_.
  void refineMultipliers(Index k) {
    Vec sA(k);
    for (Index i = 0; i < k; ++i) {
      const int a = as_.indices()[static_cast<std::size_t>(i)];
      sA(i) = sign_[static_cast<std::size_t>(a)] * r_(a);
    }
    as_.solveL(sA);
    as_.solveLt(sA);
    as_.u().head(k) -= sA;
    r_.noalias() -= as_.columns().leftCols(k) * sA;
  }

  // The running residuals said "nothing violated" but the exact ones disagree grossly even after
  // refinement: the active Gram matrix is too ill-conditioned to trust (nearly dependent
  // constraints: a nearly infeasible problem). Such an iterate (lam, W) is not a solution. Its
  // multipliers are then huge while sum lambda_j A_j = W stays moderate, i.e. lambda / max|lambda|
  // is a Farkas certificate when the problem is (numerically) infeasible; otherwise the solve is
  // reported as failed, never as optimal. (Small leftovers, 1e-10 .. 1e-6 on solutions with ||W||
  // in the thousands, are the solution's accuracy: reported as optimal with their maxViolation.)
  Step nearlyDependent(const Vec& lam, Mat W) {
    Vec mu = lam;
    for (Index j = 0; j < m_; ++j)
      if (!isEq(j)) mu(j) = std::max(mu(j), 0.0);
    const double top = mu.cwiseAbs().maxCoeff();
    if (top > 0.0 && farkasValid(pb_, mu / top)) {
      sol_.status = SolveStatus::Infeasible;
      sol_.farkas = mu / top;
      sol_.iterations = iterations_;
      return Step::Return;
    }
    sol_.status = SolveStatus::MaxIterations;
    sol_.message =
        "Frobenius active-set: nearly dependent constraints (a nearly infeasible problem); "
        "the iterate still violates a constraint after refinement";
    sol_.W = std::move(W);
    sol_.lambda = lam;
    return Step::Stop;
  }

  // G(:, p) = (U u_p) .* (Wq w_p), times the constraint's sign, into col_.
  void gramColumn(Index p, double s) {
    col_.noalias() = pb_.U * pb_.U.row(p).transpose();
    col_.array() *= (pb_.Wq * pb_.Wq.row(p).transpose()).array() * s;
  }

  // The entering constraint p against the k active ones: l_ = L^{-1} G_Ap, rr_ = G_AA^{-1} G_Ap
  // and the returned pivot delta^2 = G_pp - ||l||^2 (<= 0 up to rounding if p is dependent).
  double pivot(Index p, Index k) {
    if (g_.size() < k + 1) {
      g_.conservativeResize(2 * k + 2);
      l_.conservativeResize(2 * k + 2);
      rr_.conservativeResize(2 * k + 2);
    }
    for (Index i = 0; i < k; ++i) {
      const int a = as_.indices()[static_cast<std::size_t>(i)];
      g_(i) = sign_[static_cast<std::size_t>(a)] * col_(a);
    }
    l_.head(k) = g_.head(k);
    as_.solveL(l_.head(k));
    rr_.head(k) = l_.head(k);
    as_.solveLt(rr_.head(k));
    return g2_(p) - l_.head(k).squaredNorm();
  }

  // The dual step length t1 at which an active inequality's multiplier reaches 0 (kInf if none)
  // and its position in `drop`.
  double blockingStep(Index k, Index& drop) const {
    double t1 = kInf;
    drop = -1;
    for (Index i = 0; i < k; ++i) {
      const int a = as_.indices()[static_cast<std::size_t>(i)];
      if (isEq(a) || rr_(i) <= 0.0) continue;
      const double ratio = as_.u()(i) / rr_(i);
      if (ratio < t1) {
        t1 = ratio;
        drop = i;
      }
    }
    return t1;
  }

  // A dependent entering constraint p with nothing to drop: n_p = sum_i rr_i n_{a_i} with
  // rr <= 0 on inequalities, so mu = (1 on p, -rr on the active set) in terms of n = sign A is a
  // Farkas certificate if it checks out. True with it in sol_.
  bool farkasFromDependent(Index p, Index k) {
    Vec mu = Vec::Zero(m_);
    mu(p) = sign_[static_cast<std::size_t>(p)];
    for (Index i = 0; i < k; ++i) {
      const int a = as_.indices()[static_cast<std::size_t>(i)];
      mu(a) = -rr_(i) * sign_[static_cast<std::size_t>(a)];
    }
    for (Index j = 0; j < m_; ++j)
      if (!isEq(j)) mu(j) = std::max(mu(j), 0.0);
    if (!farkasValid(pb_, mu)) return false;
    mu /= mu.cwiseAbs().maxCoeff();
    sol_.status = SolveStatus::Infeasible;
    sol_.farkas = mu;
    sol_.iterations = iterations_;
    return true;
  }

  // Steps that add the violated constraint p: each raises its multiplier up (and moves the active
  // ones) until p is satisfied (p joins the active set) or an active inequality's multiplier
  // reaches 0 (it is dropped and p is tried again).
  Step addConstraint(Index p) {
    double& sp_sign = sign_[static_cast<std::size_t>(p)];
    sp_sign = (isEq(p) && r_(p) > 0.0) ? -1.0 : 1.0;  // an equality is approached from below
    gramColumn(p, sp_sign);
    double sp = sp_sign * r_(p);
    double up = 0.0;  // multiplier of p while it is being added
    while (true) {
      ++iterations_;
      const Index k = as_.size();
      const double delta2 = pivot(p, k);
      const bool dependent = delta2 <= kEpsDep * g2_(p);
      Index drop = -1;
      const double t1 = blockingStep(k, drop);
      if (dependent && isEq(p) && up == 0.0 &&
          std::abs(sp) <= 1e2 * kTolViol * std::max(1.0, std::abs(pb_.b(p)))) {
        state_[static_cast<std::size_t>(p)] = 2;  // implied by the active equalities
        return Step::Continue;
      }
      double t2 = dependent ? kInf : -sp / delta2;
      if (dependent && t1 == kInf) {
        if (farkasFromDependent(p, k)) return Step::Return;
        // Not a clean certificate: the constraint is only nearly dependent; treat it as
        // independent.
        if (delta2 > 0.0) t2 = -sp / delta2;
      }
      const double t = std::min(t1, t2);
      if (!(t < kInf)) {
        sol_.status = SolveStatus::MaxIterations;
        sol_.message = "Frobenius active-set: numerically dependent constraint " +
                       std::to_string(p) + " without a valid infeasibility certificate";
        sol_.iterations = iterations_;
        return Step::Return;
      }
      // Step: u_A -= t rr, u_p += t; residuals follow through the Gram columns.
      if (k > 0) {
        as_.u().head(k) -= t * rr_.head(k);
        r_.noalias() -= as_.columns().leftCols(k) * (t * rr_.head(k));
      }
      up += t;
      r_ += t * col_;
      sp = sp_sign * r_(p);
      if (t2 <= t1) {
        as_.add(static_cast<int>(p), col_, l_, std::sqrt(std::max(delta2, 0.0)), up);
        state_[static_cast<std::size_t>(p)] = 1;
        return Step::Continue;
      }
      const int a = as_.indices()[static_cast<std::size_t>(drop)];
      as_.u()(drop) = 0.0;
      as_.remove(drop);
      state_[static_cast<std::size_t>(a)] = 0;  // p stays the entering constraint
      if (iterations_ >= st_.maxIterations) return Step::Continue;  // the main loop stops
    }
  }

  // sol_ becomes the result: the solution, or for a solve that stopped early the current (dual
  // feasible, possibly primal infeasible) iterate.
  void finish() {
    if (sol_.status == SolveStatus::MaxIterations) {
      sol_.lambda = activeMultipliers();
      sol_.W = combine(pb_, sol_.lambda);
    }
    sol_.iterations = iterations_;
  }

  const MarginProblem& pb_;
  const SolverSettings& st_;
  const Index m_;
  const Vec g2_;  // gramDiagonal()
  const Index capacity_;
  std::vector<char> state_;  // 0 free, 1 active, 2 skipped
  ActiveSet as_;
  std::vector<double> sign_;
  Vec r_;                   // residuals <A_j, W> - b_j of the current W
  Vec col_;                 // signed Gram column of the entering constraint
  Vec g_, l_, rr_;          // work space of pivot()
  std::vector<Index> eqs_;  // the equalities, in the order they enter
  std::size_t eqNext_ = 0;
  int iterations_ = 0, refinements_ = 0;
  MarginSolution sol_;
};

}  // namespace

MarginSolution solveFrobenius(const MarginProblem& pb, const SolverSettings& st) {
  return GoldfarbIdnani(pb, st).run();
}

}  // namespace detail
}  // namespace attnsvm
