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

#include "solvers_internal.hpp"

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

}  // namespace

MarginSolution solveFrobenius(const MarginProblem& pb, const SolverSettings& st) {
  const Index m = pb.b.size();
  MarginSolution sol;
  sol.W = Mat::Zero(pb.rows, pb.cols);
  sol.lambda = Vec::Zero(m);
  if (m == 0) {
    sol.status = SolveStatus::Optimal;
    sol.message = "no constraints: W = 0";
    return sol;
  }
  auto isEq = [&](Index j) {
    return !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
  };

  const Vec uu = pb.U.rowwise().squaredNorm();
  const Vec ww = pb.Wq.rowwise().squaredNorm();
  const Vec g2 = uu.cwiseProduct(ww);  // G_jj = ||A_j||_F^2
  const double scaleA2 = g2.maxCoeff();
  const double tolViol = 1e-12;  // relative violation at which the method stops
  const double epsDep = 1e-14;   // delta^2 <= epsDep G_pp: numerically dependent

  // Zero constraints: infeasible if they ask for a nonzero right-hand side, skipped otherwise.
  std::vector<char> state(static_cast<std::size_t>(m), 0);  // 0 free, 1 active, 2 skipped
  for (Index j = 0; j < m; ++j) {
    if (g2(j) > 1e-24 * std::max(scaleA2, 1e-300) && g2(j) > 0.0) continue;
    const bool bad = isEq(j) ? pb.b(j) != 0.0 : pb.b(j) > 0.0;
    if (bad) {
      sol.status = SolveStatus::Infeasible;
      sol.farkas = Vec::Zero(m);
      sol.farkas(j) = pb.b(j) > 0.0 ? 1.0 : -1.0;
      return sol;
    }
    state[static_cast<std::size_t>(j)] = 2;
  }

  const Index capacity = std::min<Index>(m, static_cast<Index>(pb.rows) * pb.cols) + 1;
  ActiveSet as(m, capacity);
  std::vector<double> sign(static_cast<std::size_t>(m), 1.0);
  Vec r = -pb.b;  // residuals <A_j, W> - b_j of the current W
  Vec col(m), g(capacity), l(capacity), rr(capacity);
  auto gramColumn = [&](Index p, double s) {
    // G(:, p) = (U u_p) .* (Wq w_p), times the constraint's sign.
    col.noalias() = pb.U * pb.U.row(p).transpose();
    col.array() *= (pb.Wq * pb.Wq.row(p).transpose()).array() * s;
  };
  std::vector<Index> eqs;
  for (Index j = 0; j < m; ++j)
    if (isEq(j) && state[static_cast<std::size_t>(j)] == 0) eqs.push_back(j);
  std::size_t eqNext = 0;
  int iterations = 0, refinements = 0;

  while (true) {
    if (iterations >= st.maxIterations) {
      sol.status = SolveStatus::MaxIterations;
      sol.message = "Frobenius active-set: iteration limit reached";
      break;
    }
    // Equalities enter first (they are never dropped); then the most violated inequality,
    // violations measured relative to ||A_j|| so that scaling a constraint does not matter.
    Index p = -1;
    while (eqNext < eqs.size()) {
      const Index c = eqs[eqNext++];
      if (state[static_cast<std::size_t>(c)] == 0) {
        p = c;
        break;
      }
    }
    if (p < 0) {
      double worst = 0.0;
      for (Index j = 0; j < m; ++j) {
        if (state[static_cast<std::size_t>(j)] != 0 || isEq(j)) continue;
        if (r(j) >= -tolViol * std::max(1.0, std::abs(pb.b(j)))) continue;
        const double v = r(j) / std::sqrt(g2(j));
        if (v < worst) {
          worst = v;
          p = j;
        }
      }
    }
    if (p < 0) {
      // Converged on the running residuals: recompute them exactly, refine the active
      // multipliers once (solve G_AA du = -s_A), and only stop if nothing is violated.
      const Index k = as.size();
      Vec lam = Vec::Zero(m);
      for (Index i = 0; i < k; ++i) {
        const int a = as.indices()[static_cast<std::size_t>(i)];
        lam(a) = as.u()(i) * sign[static_cast<std::size_t>(a)];
      }
      Mat W = combine(pb, lam);
      r = constraintValues(pb, W) - pb.b;
      if (refinements < 2 && k > 0) {
        ++refinements;
        Vec sA(k);
        for (Index i = 0; i < k; ++i) {
          const int a = as.indices()[static_cast<std::size_t>(i)];
          sA(i) = sign[static_cast<std::size_t>(a)] * r(a);
        }
        as.solveL(sA);
        as.solveLt(sA);
        as.u().head(k) -= sA;
        r.noalias() -= as.columns().leftCols(k) * sA;
        continue;  // re-scan with the refined residuals
      }
      // Worst exact violation, relative to max(1, |b_j|): clean means within 1e2 tolViol.
      double worstViolation = 0.0;
      for (Index j = 0; j < m; ++j) {
        if (state[static_cast<std::size_t>(j)] == 2) continue;
        const double v = (isEq(j) ? std::abs(r(j)) : -r(j)) / std::max(1.0, std::abs(pb.b(j)));
        worstViolation = std::max(worstViolation, v);
      }
      const bool clean = !(worstViolation > 1e2 * tolViol);
      if (!clean && refinements < 6) {
        ++refinements;
        continue;
      }
      if (!clean && worstViolation > 1e3 * st.feasibilityTol) {
        // The running residuals said "nothing violated" but the exact ones disagree grossly even
        // after refinement: the active Gram matrix is too ill-conditioned to trust (nearly
        // dependent constraints: a nearly infeasible problem). Such an iterate is not a
        // solution. Its multipliers are then huge while sum lambda_j A_j = W stays moderate,
        // i.e. lambda / max|lambda| is a Farkas certificate when the problem is (numerically)
        // infeasible; otherwise the solve is reported as failed, never as optimal. (Small
        // leftovers, 1e-10 .. 1e-6 on solutions with ||W|| in the thousands, are the solution's
        // accuracy: reported as optimal with their maxViolation.)
        Vec mu = lam;
        for (Index j = 0; j < m; ++j)
          if (!isEq(j)) mu(j) = std::max(mu(j), 0.0);
        const double top = mu.cwiseAbs().maxCoeff();
        if (top > 0.0 && farkasValid(pb, mu / top)) {
          sol.status = SolveStatus::Infeasible;
          sol.farkas = mu / top;
          sol.iterations = iterations;
          return sol;
        }
        sol.status = SolveStatus::MaxIterations;
        sol.message =
            "Frobenius active-set: nearly dependent constraints (a nearly infeasible problem); "
            "the iterate still violates a constraint after refinement";
        sol.W = std::move(W);
        sol.lambda = lam;
        break;
      }
      sol.status = SolveStatus::Optimal;
      sol.W = std::move(W);
      sol.lambda = lam;
      for (Index j = 0; j < m; ++j)
        if (!isEq(j)) sol.lambda(j) = std::max(sol.lambda(j), 0.0);
      break;
    }

    double& sp_sign = sign[static_cast<std::size_t>(p)];
    sp_sign = (isEq(p) && r(p) > 0.0) ? -1.0 : 1.0;  // an equality is approached from below
    gramColumn(p, sp_sign);
    double sp = sp_sign * r(p);
    double up = 0.0;  // multiplier of p while it is being added
    bool added = false;
    while (!added) {
      ++iterations;
      const Index k = as.size();
      if (g.size() < k + 1) {
        g.conservativeResize(2 * k + 2);
        l.conservativeResize(2 * k + 2);
        rr.conservativeResize(2 * k + 2);
      }
      for (Index i = 0; i < k; ++i) {
        const int a = as.indices()[static_cast<std::size_t>(i)];
        g(i) = sign[static_cast<std::size_t>(a)] * col(a);
      }
      l.head(k) = g.head(k);
      as.solveL(l.head(k));
      rr.head(k) = l.head(k);
      as.solveLt(rr.head(k));
      const double delta2 = g2(p) - l.head(k).squaredNorm();
      const bool dependent = delta2 <= epsDep * g2(p);

      double t1 = kInf;
      Index drop = -1;
      for (Index i = 0; i < k; ++i) {
        const int a = as.indices()[static_cast<std::size_t>(i)];
        if (isEq(a) || rr(i) <= 0.0) continue;
        const double ratio = as.u()(i) / rr(i);
        if (ratio < t1) {
          t1 = ratio;
          drop = i;
        }
      }
      if (dependent && isEq(p) && up == 0.0 &&
          std::abs(sp) <= 1e2 * tolViol * std::max(1.0, std::abs(pb.b(p)))) {
        state[static_cast<std::size_t>(p)] = 2;  // implied by the active equalities
        break;
      }
      double t2 = dependent ? kInf : -sp / delta2;
      if (dependent && t1 == kInf) {
        // n_p = sum_i rr_i n_{a_i} with rr <= 0 on inequalities: Farkas certificate
        // mu = (1 on p, -rr on the active set) in terms of n = sign A.
        Vec mu = Vec::Zero(m);
        mu(p) = sp_sign;
        for (Index i = 0; i < k; ++i) {
          const int a = as.indices()[static_cast<std::size_t>(i)];
          mu(a) = -rr(i) * sign[static_cast<std::size_t>(a)];
        }
        for (Index j = 0; j < m; ++j)
          if (!isEq(j)) mu(j) = std::max(mu(j), 0.0);
        if (farkasValid(pb, mu)) {
          mu /= mu.cwiseAbs().maxCoeff();
          sol.status = SolveStatus::Infeasible;
          sol.farkas = mu;
          sol.iterations = iterations;
          return sol;
        }
        // Not a clean certificate: the constraint is only nearly dependent; treat it as
        // independent.
        if (delta2 > 0.0) t2 = -sp / delta2;
      }
      const double t = std::min(t1, t2);
      if (!(t < kInf)) {
        sol.status = SolveStatus::MaxIterations;
        sol.message = "Frobenius active-set: numerically dependent constraint " +
                      std::to_string(p) + " without a valid infeasibility certificate";
        sol.iterations = iterations;
        return sol;
      }
      // Step: u_A -= t rr, u_p += t; residuals follow through the Gram columns.
      if (k > 0) {
        as.u().head(k) -= t * rr.head(k);
        r.noalias() -= as.columns().leftCols(k) * (t * rr.head(k));
      }
      up += t;
      r += t * col;
      sp = sp_sign * r(p);
      if (t2 <= t1) {
        as.add(static_cast<int>(p), col, l, std::sqrt(std::max(delta2, 0.0)), up);
        state[static_cast<std::size_t>(p)] = 1;
        added = true;
      } else {
        const int a = as.indices()[static_cast<std::size_t>(drop)];
        as.u()(drop) = 0.0;
        as.remove(drop);
        state[static_cast<std::size_t>(a)] = 0;  // p stays the entering constraint
      }
      if (iterations >= st.maxIterations) break;
    }
  }
  if (sol.status == SolveStatus::MaxIterations) {
    // Report the current (dual feasible, possibly primal infeasible) iterate.
    sol.lambda = Vec::Zero(m);
    for (Index i = 0; i < as.size(); ++i) {
      const int a = as.indices()[static_cast<std::size_t>(i)];
      sol.lambda(a) = as.u()(i) * sign[static_cast<std::size_t>(a)];
    }
    sol.W = combine(pb, sol.lambda);
  }
  sol.iterations = iterations;
  return sol;
}

}  // namespace detail
}  // namespace attnsvm
