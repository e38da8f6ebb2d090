// The Frobenius max-margin problem as a minimum-norm point, decided and solved by a primal-dual
// interior point in W-space (issue 26; docs/SOLVERS.md, "Large problems").
//
// With inequalities only and b_j > 0, write Abar_j = A_j / b_j (scaled by one constant so that the
// largest has unit norm). The Frobenius SVM min ||W||_F s.t. <Abar_j, W> >= 1 is the minimum-norm
// point c* of conv{Abar_j}: W* = c* / ||c*||^2 (along each ray lambda = t mu, mu in the simplex,
// its dual sum(lambda) - ||sum lambda_j Abar_j||^2 / 2 is largest at t = 1 / ||Abar mu||^2). And
// c* = 0 iff no W separates (Gordan), and then the minimizing mu is a Farkas certificate. So one
// problem decides and solves:
//
//   primal  min_mu  ||Abar mu||^2 / 2   s.t.  1^T mu = 1, mu >= 0        (Abar mu = sum_j mu_j
//   Abar_j) dual    max_{W,tau}  tau - ||W||^2 / 2   s.t.  <Abar_j, W> >= tau,
//
// KKT: W = Abar mu, Abar^T W - tau 1 - s = 0, 1^T mu = 1, mu_j s_j = 0, mu, s >= 0. Every iterate
// brackets ||c*||: mu >= 0 gives the upper bound U = ||Abar mu|| / 1^T mu, any W the lower bound
// L = min_j <Abar_j, W> / ||W||, and the SVM's certified relative gap is 1 - L / U (W / min_j
// <Abar_j, W> is feasible with norm 1 / L; mu gives SPEC section 3's bound 1 / U). The same two
// bounds on the normalized constraints A_j / ||A_j||_F bracket the feasibility margin.
//
// Newton step (Mehrotra predictor-corrector, Gondzio centrality correctors) reduced to W: with
// D = diag(mu / s), g = Abar D 1 and delta = 1^T D 1,
//     (I + Abar D Abar^T - g g^T / delta) dW = rhs          (rows cols unknowns),
// where Abar D Abar^T = sum_g (w_g w_g^T) (x) (sum_{j in g} d_j u_j u_j^T) is assembled by
// GroupedConstraints (one GEMM of symmetric parts, ~ n d^4 / 2 flops for the Att-SVM) instead of
// the m x m systems of the dual active set. The identity keeps the matrix positive definite however
// dependent the constraints are (real images: background patches equal up to their position).
#include "solvers/frobenius/min_norm_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#ifdef ATTNSVM_MNP_TRACE
#include <cstdio>
#endif

#include "cold.hpp"
#include "solvers/dense_cholesky.hpp"
#include "solvers/grouped_constraints.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
// Not cold (core/hints/cold.hpp): the interior point's own loops over the m constraints (step
// lengths, residuals, the vector updates) are a tenth of the real-image solve, and at minsize they
// neither vectorize nor inline Eigen's expressions.
namespace {

constexpr double kNoBound = std::numeric_limits<double>::infinity();
constexpr int kCentralityCorrectors = 3;

class MinNormPointIpm {
 public:
  MinNormPointIpm(const MarginProblem& pb, const SolverSettings& st)
      : pb_(pb), st_(st), m_(pb.b.size()), sc_(scales(pb, kappa_)), gc_(pb, {}, sc_) {}

  MinNormPointResult run();

 private:
  // 1 / (b_j kappa): Abar_j = A_j / b_j scaled by 1 / kappa so that the largest has unit norm.
  static Vec scales(const MarginProblem& pb, double& kappa) {
    const Index m = pb.b.size();
    Vec f(m);
    kappa = 0.0;
    for (Index j = 0; j < m; ++j) {
      f(j) = 1.0 / pb.b(j);
      kappa = std::max(kappa, f(j) * pb.U.row(j).norm() * pb.Wq.row(j).norm());
    }
    if (!(kappa > 0.0)) kappa = 1.0;
    return f / kappa;
  }
  void residuals();
  void factor();
  // Newton direction for the complementarity residual rd (mu s - target [+ second order]).
  // Returns the largest step (<= 1) along it that keeps mu, s >= 0.
  double direction(const Vec& rd);
  // Bounds of the current iterate; true when they settle the problem (result_ filled).
  bool bracket(int it);
  void finish(int it);

  const MarginProblem& pb_;
  const SolverSettings& st_;
  const Index m_;
  double kappa_ = 1.0;
  const Vec sc_;  // scales()
  GroupedConstraints gc_;
  Vec mu_, s_, v_;  // v = Abar^T W
  Mat W_, C_;       // C = Abar mu
  double tau_ = 0.0;
  Mat ra_;              // W - Abar mu
  Vec rb_;              // Abar^T W - tau - s
  double rc_ = 0.0;     // 1^T mu - 1
  Vec D_;               // mu / s
  Mat g_;               // Abar D 1
  double delta_ = 0.0;  // 1^T D 1
  Mat H_;
  DenseCholesky llt_;  // two-lane vectors in wasm too (Eigen's LLT runs in scalars there)
  Mat dW_, tmpM_, sW_;
  Vec dmu_, ds_, dv_, tmp_, rhs_, smu_, ss_, rdc_;
  double dtau_ = 0.0, stau_ = 0.0;
  // Best bounds on ||c*|| (scaled), and on the feasibility margin (normalized constraints).
  double bestL_ = 0.0, bestU_ = kNoBound, bestGap_ = kNoBound;
  Mat bestW_;
  Vec bestMu_, bestMuN_;
  double marginLower_ = 0.0, marginUpper_ = kNoBound;
  MinNormPointResult result_;
};

void MinNormPointIpm::residuals() {
  gc_.valuesAndAdjoint(W_, v_, mu_, C_);
  ra_ = W_ - C_;
  rb_ = v_.array() - tau_ - s_.array();
  rc_ = mu_.sum() - 1.0;
}

void MinNormPointIpm::factor() {
  D_ = mu_.cwiseQuotient(s_);
  gc_.gram(D_, H_, nullptr, &g_);  // and g = adjoint(D) from the same pass over the rows
  delta_ = D_.sum();
  const Index n = H_.rows();
  const Eigen::Map<const Vec> g(g_.data(), n);
  H_.diagonal().array() += 1.0;
  H_.noalias() -= (g / delta_) * g.transpose();
  bool factored = llt_.compute(H_);
  double ridge = 1e-14 * H_.diagonal().maxCoeff();
  while (!factored && ridge < 1e300) {
    H_.diagonal().array() += ridge;
    factored = llt_.compute(H_);
    ridge *= 100.0;
  }
}

// Rows: dW - Abar dmu = -ra;  Abar^T dW - dtau - ds = -rb;  1^T dmu = -rc;  s dmu + mu ds = -rd.
// Eliminating ds and dmu: (I + H) dW - dtau g = -ra - Abar(D rb + rd / s) and dtau = (g.dW + e) /
// delta with e = D.rb + sum(rd / s) - rc. The loops over the m constraints are written out, each
// one pass (they run once per direction, 3-5 directions per iteration: as Eigen expressions in wasm
// they were a sixth of the solve, several scalar passes each).
double MinNormPointIpm::direction(const Vec& rd) {
  tmp_.resize(m_);
  double e = -rc_;
  for (Index j = 0; j < m_; ++j) {
    const double drb = D_(j) * rb_(j), t = rd(j) / s_(j);
    e += drb + t;
    tmp_(j) = t + drb;
  }
  gc_.adjoint(tmp_, tmpM_);
  const Index n = H_.rows();
  rhs_.resize(n);
  Eigen::Map<Mat>(rhs_.data(), W_.rows(), W_.cols()) = -ra_ - tmpM_ + g_ * (e / delta_);
  llt_.solveInPlace(rhs_);
  dW_ = Eigen::Map<const Mat>(rhs_.data(), W_.rows(), W_.cols());
  dtau_ = (g_.cwiseProduct(dW_).sum() + e) / delta_;
  gc_.values(dW_, dv_);
  ds_.resize(m_);
  dmu_.resize(m_);
  // ds, dmu and the step to the boundary (branch-free: a select per entry).
  double a = 1.0;
  for (Index j = 0; j < m_; ++j) {
    const double ds = dv_(j) - dtau_ + rb_(j);
    const double dmu = -(rd(j) + mu_(j) * ds) / s_(j);
    ds_(j) = ds;
    dmu_(j) = dmu;
    const double am = dmu < 0.0 ? -mu_(j) / dmu : 1.0;
    const double as = ds < 0.0 ? -s_(j) / ds : 1.0;
    a = std::min(a, std::min(am, as));
  }
  return a;
}

bool MinNormPointIpm::bracket(int it) {
  // Upper bounds from the simplex weights mu / 1^T mu (mu > 0 inside the interior point), on the
  // scaled constraints (||c*||) and on the normalized ones (the feasibility margin).
  const double sum = mu_.sum();
  if (!(sum > 0.0)) return false;
  const double normC = C_.norm();
  const double U = normC / sum, Un = normC / mu_.dot(gc_.norms());
  if (U < bestU_) {
    bestU_ = U;
    bestMu_ = mu_ / sum;
  }
  if (Un < marginUpper_) {
    marginUpper_ = Un;
    bestMuN_ = mu_;
  }
  // Lower bounds from W.
  const double nw = W_.norm();
  if (nw > 0.0) {
    const double L = v_.minCoeff() / nw;
    marginLower_ = std::max(marginLower_, v_.cwiseQuotient(gc_.norms()).minCoeff() / nw);
    if (L > bestL_) {
      bestL_ = L;
      bestW_ = W_;
    }
  }
  if (bestL_ > 0.0) bestGap_ = 1.0 - bestL_ / bestU_;
#ifdef ATTNSVM_MNP_TRACE
  std::fprintf(stderr, "mnp %3d U %.6e L %.6e gap %.2e margin [%.3e, %.3e] |ra| %.2e mu %.3e\n", it,
               U, bestL_, bestGap_, marginLower_, marginUpper_, ra_.norm(),
               mu_.dot(s_) / static_cast<double>(m_));
#else
  (void)it;
#endif
  if (bestGap_ <= std::max(st_.tolerance, kMinNormPointTargetGap)) return true;
  if (marginUpper_ <= kFarkasResidual) {
    // Farkas candidate in the original constraints: Abar mu = sum_j (mu_j sc_j) A_j.
    Vec f = bestMuN_.cwiseProduct(sc_);
    f /= f.maxCoeff();
    if (farkasValid(pb_, f)) {
      result_.farkas = std::move(f);
      result_.status = SolveStatus::Infeasible;
      return true;
    }
  }
  return false;
}

MinNormPointResult MinNormPointIpm::run() {
  const Index n = static_cast<Index>(pb_.rows) * pb_.cols;
  const int maxIt = std::min(st_.maxIterations, kMinNormPointMaxIterations);
  // Start: the barycentre of the constraints, W = Abar mu, tau one below every constraint value.
  mu_ = Vec::Constant(m_, 1.0 / static_cast<double>(m_));
  gc_.adjoint(mu_, W_);
  gc_.values(W_, v_);
  tau_ = v_.minCoeff() - 1.0;
  s_ = v_.array() - tau_;
  H_.resize(n, n);
  int it = 0, stall = 0;
  double lastGap = kNoBound, lastUpper = kNoBound;
  for (; it < maxIt; ++it) {
    residuals();
    if (bracket(it)) break;
    // Stop when neither bound moved by 10% in 10 steps (the iterates reached rounding level).
    const bool progress = bestGap_ < 0.9 * lastGap || marginUpper_ < 0.9 * lastUpper;
    stall = progress ? 0 : stall + 1;
    lastGap = std::min(lastGap, bestGap_);
    lastUpper = std::min(lastUpper, marginUpper_);
    if (stall > 10) break;
    const double mu = mu_.dot(s_) / static_cast<double>(m_);
    factor();
    // Predictor (affine scaling), then Mehrotra's corrector aimed at sigma mu.
    Vec rd = mu_.cwiseProduct(s_);
    const double aAff = direction(rd);
    const double muAff = (mu_ + aAff * dmu_).dot(s_ + aAff * ds_) / static_cast<double>(m_);
    const double sigma = std::pow(std::max(muAff, 0.0) / mu, 3.0);
    rd.array() += dmu_.array() * ds_.array() - sigma * mu;
    double a = direction(rd);
    // Gondzio's centrality correctors: aim the products mu_j s_j of a longer step into
    // [0.1, 10] sigma mu; keep a correction while it lengthens the step by 1% (same factors).
    for (int k = 0; k < kCentralityCorrectors && a < 1.0; ++k) {
      const double aT = std::min(1.0, 1.5 * a + 0.1);
      const double lo = 0.1 * sigma * mu, hi = 10.0 * sigma * mu;
      rdc_.resize(m_);  // rd - r, r the correction of the products
      for (Index j = 0; j < m_; ++j) {
        const double v = (mu_(j) + aT * dmu_(j)) * (s_(j) + aT * ds_(j));
        rdc_(j) = rd(j) - (v < lo ? lo - v : (v > hi ? std::max(hi - v, -hi) : 0.0));
      }
      // The current direction is kept aside by swapping buffers (no copies of m-vectors).
      dW_.swap(sW_);
      dmu_.swap(smu_);
      ds_.swap(ss_);
      stau_ = dtau_;
      const double a2 = direction(rdc_);
      if (!(a2 >= 1.01 * a)) {
        dW_.swap(sW_);
        dmu_.swap(smu_);
        ds_.swap(ss_);
        dtau_ = stau_;
        break;
      }
      rd.swap(rdc_);
      a = a2;
    }
    a = std::min(1.0, 0.99 * a);
    if (!(a > 0.0) || !dW_.allFinite()) break;
    mu_ += a * dmu_;
    s_ += a * ds_;
    W_ += a * dW_;
    tau_ += a * dtau_;
  }
  finish(it);
  return std::move(result_);
}

// The result from the best bracket: the SVM W / (kappa min_j <Abar_j, W>) (exactly feasible up
// to rounding) with lambda_j = mu_j sc_j (SPEC section 3's bound depends only on lambda's ray;
// entries below 1e-12 of the largest, the inactive constraints' mu ~ mu / s, set to 0).
void MinNormPointIpm::finish(int it) {
  result_.iterations = it;
  result_.marginLower = marginLower_;
  result_.marginUpper = marginUpper_;
  if (result_.status == SolveStatus::Infeasible) return;
  if (bestL_ > 0.0 && bestW_.size() > 0) {
    Vec vals;
    gc_.values(bestW_, vals);
    result_.W = bestW_ / (kappa_ * vals.minCoeff());
    result_.lambda = bestMu_.cwiseProduct(sc_);
    const double top = result_.lambda.maxCoeff();
    for (Index j = 0; j < m_; ++j)
      if (result_.lambda(j) < 1e-12 * top) result_.lambda(j) = 0.0;
    result_.gap = bestGap_;
  }
}

}  // namespace

ATTNSVM_COLD_BEGIN
bool minNormPointApplies(const MarginProblem& pb) {
  if (pb.b.size() == 0) return false;
  for (Index j = 0; j < pb.b.size(); ++j) {
    if (!pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)]) return false;
    if (!(pb.b(j) > 0.0)) return false;
    if (!(pb.U.row(j).squaredNorm() > 0.0 && pb.Wq.row(j).squaredNorm() > 0.0)) return false;
  }
  return true;
}

MinNormPointResult minNormPoint(const MarginProblem& pb, const SolverSettings& st) {
  return MinNormPointIpm(pb, st).run();
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
