// Nuclear-norm max-margin solver: primal-dual interior point on the SDP formulation
// (docs/SOLVERS.md).
//
//   primal:  min <C, X> = (tr P + tr R) / 2   s.t.  X = [[P, W], [W^T, R]] >= 0,
//            <At_j, X> - s_j = b_j,  s_j >= 0  (inequalities; equalities without s_j),
//   dual:    max b.y   s.t.  Z = C - sum_j y_j At_j >= 0,  y_j >= 0 on inequalities,
//
// with C = I / 2 and At_j = (a_j c_j^T + c_j a_j^T) / 2, a_j = [u_j; 0], c_j = [0; w_j], so that
// <At_j, X> = u_j^T W w_j = <A_j, W> and Z = [[I, -M], [-M^T, I]] / 2 with M = sum_j y_j A_j:
// Z >= 0 iff ||M||_2 <= 1, the dual of SPEC section 3. Both X and Z are iterated (unlike the
// barrier on the dual alone that this solver replaced; see git history), so the primal W is an
// iterate of its own, not the ill-conditioned estimate mu (I - M M^T)^{-1} M.
//
// Method: infeasible-primal, feasible-dual Mehrotra predictor-corrector with the HKM direction.
// The dual stays exactly feasible (Z is defined by y), the primal residual rp = b - A(X) + s goes
// to zero with the steps. With Zi = Z^{-1}, the Newton system reduces to the m x m Schur complement
//     (S + diag(s / y)) dy = rp - A(G) + (sigma mu - y s - corr) / y,
//     S_jk = <At_j, X At_k Zi>,  G = sigma mu Zi - X - (corrector dX_a dZ_a Zi),
// then dZ = -A*(dy), dX = sym(G - X dZ Zi), ds = (sigma mu - y s - corr - s dy) / y.
// Because the A_j are rank one, S needs only the m x m matrices U P U^T and U Zi11 U^T and, per
// group of constraints sharing w (the tokens of one sequence), m x groups and groups x groups
// blocks (see schur()).
//
// Scaling: the constraints are normalized (||A_j||_F = 1) and W is measured in units of the
// Frobenius solution's norm, so every instance (tokens x 1e-3 or x 1e3, ||W^mm|| ~ 100) is solved
// at the same scale; the certificate is computed on the original problem.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>
#ifdef ATTNSVM_SDP_TRACE
#include <cstdio>
#endif

#include "cold.hpp"
#include "solvers/nuclear/nuclear_sdp.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
ATTNSVM_COLD_BEGIN
namespace {

#ifndef __EMSCRIPTEN__
// Smallest eigenvalue of the symmetric tridiagonal matrix (diagonal a, subdiagonal b) by bisection
// on Sturm counts (the number of eigenvalues below x is the number of negative pivots of T - x I),
// to a relative accuracy of ~1e-12 of the Gershgorin width: only the smallest eigenvalue is needed,
// and the implicit QR iterations for all of them were the larger part of the step computation.
double smallestEigenvalue(const Vec& a, const Vec& b) {
  const Index n = a.size();
  double lo = a(0), hi = a(0);
  for (Index i = 0; i < n; ++i) {
    const double r = (i > 0 ? std::abs(b(i - 1)) : 0.0) + (i + 1 < n ? std::abs(b(i)) : 0.0);
    lo = std::min(lo, a(i) - r);
    hi = std::max(hi, a(i) + r);
  }
  const double tiny = 1e-300;
  auto below = [&](double x) {  // number of eigenvalues < x
    Index count = 0;
    double q = 1.0;
    for (Index i = 0; i < n; ++i) {
      q = a(i) - x - (i > 0 ? b(i - 1) * b(i - 1) / q : 0.0);
      if (std::abs(q) < tiny) q = -tiny;
      if (q < 0.0) ++count;
    }
    return count;
  };
  const double width = hi - lo;
  for (int k = 0; k < 100 && hi - lo > 1e-12 * width; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (below(mid) >= 1)
      hi = mid;
    else
      lo = mid;
  }
  return 0.5 * (lo + hi);
}
#endif

// Scratch of maxStepPsd's tridiagonal form (sized once per solve: no allocation per step).
struct TridiagonalScratch {
  Vec diag, sub, hcoeffs;
};

// Largest alpha in (0, inf] with X + alpha dX >= 0, for X > 0 with Cholesky factor L
// (the smallest eigenvalue of L^{-1} dX L^{-T}).
double maxStepPsd(const Eigen::LLT<Mat>& cholX, const Mat& dX, Mat& work, TridiagonalScratch& tri) {
  work = dX;
  cholX.matrixL().solveInPlace(work);
  work.transposeInPlace();
  cholX.matrixL().solveInPlace(work);
#ifdef __EMSCRIPTEN__
  // WebAssembly: the eigenvalue solver the certificates' spectral norm already links (the bisection
  // below is faster, but it is code of its own; the module-size bound, tests/wasm/builds).
  static_cast<void>(tri);
  Eigen::SelfAdjointEigenSolver<Mat> eig(work, Eigen::EigenvaluesOnly);
  const double lo = eig.eigenvalues().minCoeff();
#else
  tri.diag.resize(work.rows());
  tri.sub.resize(work.rows() - 1);
  tri.hcoeffs.resize(work.rows() - 1);
  Eigen::internal::tridiagonalization_inplace(work, tri.diag, tri.sub, tri.hcoeffs, false);
  const double lo = smallestEigenvalue(tri.diag, tri.sub);
#endif
  return lo < 0.0 ? -1.0 / lo : std::numeric_limits<double>::infinity();
}

// The predictor's step to the boundary only sets the centering sigma, so a coarse value is enough:
// the largest alpha of a short list with X + alpha dX > 0 (Cholesky tests; late in the run the
// first one passes). Exact eigenvalue steps cost 4x more at n = 20 (a third of a solve at
// (6,8,10)).
double coarseStepPsd(const Mat& X, const Mat& dX, Mat& work, Eigen::LLT<Mat>& llt) {
  for (double a : {1.0, 0.9, 0.7, 0.5, 0.3, 0.15, 0.05}) {
    work = X + a * dX;
    llt.compute(work);
    if (llt.info() == Eigen::Success) return a;
  }
  return 0.0;
}

class SdpSolver {
 public:
  SdpSolver(const MarginProblem& pb, const SolverSettings& st, const MarginSolution& warm)
      : pb_(pb), st_(st) {
    r_ = pb.rows;
    c_ = pb.cols;
    n_ = r_ + c_;
    setUpScaledProblem(warm);
  }

  MarginSolution run();

 private:
  void setUpScaledProblem(const MarginSolution& warm);
  bool isIneq(Index k) const { return ineq_[static_cast<std::size_t>(k)] != 0; }
  // A(B)_k = u_k^T sym(B)_12 w_k for an n x n matrix B.
  void applyA(const Mat& B, Vec& out);
  // M = sum_k y_k u_k w_k^T (r x c).
  Mat adjoint(const Vec& y) const { return U_.transpose() * (y.asDiagonal() * Wq_); }
  // The same into out without allocating (the same product: y.asDiagonal() * Wq_ is evaluated
  // into a plain matrix before the GEMM either way, so the bits are adjoint's).
  void adjointInto(const Vec& y, Mat& out) {
    yWq_ = y.asDiagonal() * Wq_;
    out.noalias() = U_.transpose() * yWq_;
  }
  bool updateZ();
  void schur();
  void symmetricProduct(const Mat& B, Mat& out);
  // Direction for the target sigma mu, with the Mehrotra second-order terms when corrector.
  void direction(double sigmaMu, bool corrector);
  void certifyIterate(MarginSolution& best, bool& improved) const;

  const MarginProblem& pb_;
  const SolverSettings& st_;
  Index r_ = 0, c_ = 0, n_ = 0, m_ = 0;  // m_: kept (nonzero) constraints
  std::vector<Index> keep_;              // original index of each kept constraint
  std::vector<char> ineq_;
  Vec nrm_;                   // ||u_j|| ||w_j|| of the kept constraints
  double kappa_ = 1.0;        // unit of W: ||W_fro||_F
  Mat U_, Wq_;                // m x r, m x c: unit rows
  Vec beta_;                  // scaled right-hand sides
  std::vector<Index> group_;  // group (equal w) of each kept constraint
  Mat Zg_;                    // groups x c: the distinct w
  Index mIneq_ = 0;

  Mat X_, Z_, Zi_;
  Vec y_, s_, rp_;
  Eigen::LLT<Mat> lltZ_, lltX_, lltK_, lltBlock_;
  Mat K_;                                       // Schur complement (+ diag(s / y))
  Mat UP_, XAA_, ZAA_, XAC_, ZAC_, XCC_, ZCC_;  // workspaces of schur()
  Mat G_, dX_, dZ_, dXa_, dZa_, work_, block_;
  Vec dy_, ds_, dya_, dsa_, rhs_, tmp_;
  // Scratch of the iteration (sized by the first use; the iterations then do not allocate).
  Mat ZgT_, B12_, UB_, M_, yWq_, prod_, inner_;
  TridiagonalScratch tri_;
};

void SdpSolver::setUpScaledProblem(const MarginSolution& warm) {
  const Index m = pb_.b.size();
  for (Index j = 0; j < m; ++j) {
    const double nu = pb_.U.row(j).norm(), nw = pb_.Wq.row(j).norm();
    // A zero constraint is satisfied by every W here (the Frobenius solver proved feasibility).
    if (nu > 0.0 && nw > 0.0) keep_.push_back(j);
  }
  m_ = static_cast<Index>(keep_.size());
  U_.resize(m_, r_);
  Wq_.resize(m_, c_);
  beta_.resize(m_);
  nrm_.resize(m_);
  ineq_.assign(static_cast<std::size_t>(m_), 1);
  kappa_ = warm.W.size() > 0 ? warm.W.norm() : 1.0;
  if (!(kappa_ > 0.0) || !std::isfinite(kappa_)) kappa_ = 1.0;
  for (Index k = 0; k < m_; ++k) {
    const Index j = keep_[static_cast<std::size_t>(k)];
    const double nu = pb_.U.row(j).norm(), nw = pb_.Wq.row(j).norm();
    U_.row(k) = pb_.U.row(j) / nu;
    Wq_.row(k) = pb_.Wq.row(j) / nw;
    nrm_(k) = nu * nw;
    beta_(k) = pb_.b(j) / (nrm_(k) * kappa_);
    if (!pb_.equality.empty() && pb_.equality[static_cast<std::size_t>(j)])
      ineq_[static_cast<std::size_t>(k)] = 0;
  }
  mIneq_ = 0;
  for (Index k = 0; k < m_; ++k) mIneq_ += isIneq(k) ? 1 : 0;
  // Groups of equal (normalized) w.
  group_.assign(static_cast<std::size_t>(m_), 0);
  std::vector<Index> rep;
  for (Index k = 0; k < m_; ++k) {
    Index g = 0;
    for (; g < static_cast<Index>(rep.size()); ++g)
      if (Wq_.row(rep[static_cast<std::size_t>(g)]) == Wq_.row(k)) break;
    if (g == static_cast<Index>(rep.size())) rep.push_back(k);
    group_[static_cast<std::size_t>(k)] = g;
  }
  Zg_.resize(static_cast<Index>(rep.size()), c_);
  for (std::size_t g = 0; g < rep.size(); ++g) Zg_.row(static_cast<Index>(g)) = Wq_.row(rep[g]);
  ZgT_ = Zg_.transpose();

  // Start. Dual: the Frobenius multipliers in the scaled units (lambda_j ||A_j||), floored, scaled
  // to ||M||_2 = 1/2 (Z's eigenvalues in [1/4, 3/4]). Primal: X = I, s = 1 (infeasible).
  y_.resize(m_);
  for (Index k = 0; k < m_; ++k) {
    const Index j = keep_[static_cast<std::size_t>(k)];
    y_(k) = warm.lambda.size() == pb_.b.size() ? warm.lambda(j) * nrm_(k) : 0.0;
  }
  const double top = std::max(y_.cwiseAbs().maxCoeff(), 1e-300);
  for (Index k = 0; k < m_; ++k)
    if (isIneq(k)) y_(k) = std::max(y_(k), 1e-2 * top);
  if (!(y_.cwiseAbs().maxCoeff() > 0.0)) y_.setOnes();
  const double spec = dualNorm(adjoint(y_), NormKind::Nuclear);
  if (spec > 0.0) y_ *= 0.5 / spec;
  X_ = Mat::Identity(n_, n_);
  s_ = Vec::Zero(m_);
  for (Index k = 0; k < m_; ++k)
    if (isIneq(k)) s_(k) = 1.0;
}

void SdpSolver::applyA(const Mat& B, Vec& out) {
  B12_ = 0.5 * (B.topRightCorner(r_, c_) + B.bottomLeftCorner(c_, r_).transpose());
  UB_.noalias() = U_ * B12_;
  out = UB_.cwiseProduct(Wq_).rowwise().sum();
}

bool SdpSolver::updateZ() {
  adjointInto(y_, M_);
  Z_.setZero(n_, n_);
  Z_.diagonal().setConstant(0.5);
  Z_.topRightCorner(r_, c_) = -0.5 * M_;
  Z_.bottomLeftCorner(c_, r_) = -0.5 * M_.transpose();
  lltZ_.compute(Z_);
  if (lltZ_.info() != Eigen::Success) return false;
  Zi_.setIdentity(n_, n_);
  lltZ_.solveInPlace(Zi_);
  Zi_ = 0.5 * (Zi_ + Zi_.transpose());
  return Zi_.allFinite();
}

// The lower triangle of U B U^T for a positive definite r x r block B: with B = L L^T a symmetric
// rank-r update by U L (half the work of the general product); the general product if rounding
// made B indefinite.
// WebAssembly: the general product only (the rank update and the triangular product are Eigen
// kernels that nothing else in the module instantiates; the module-size bound, tests/wasm/builds).
void SdpSolver::symmetricProduct(const Mat& B, Mat& out) {
#ifndef __EMSCRIPTEN__
  lltBlock_.compute(B);
  if (lltBlock_.info() == Eigen::Success) {
    out.setZero(m_, m_);
    UP_.noalias() = U_ * lltBlock_.matrixL();
    out.selfadjointView<Eigen::Lower>().rankUpdate(UP_);
    return;
  }
#endif
  UP_.noalias() = U_ * B;
  out.noalias() = UP_ * U_.transpose();
}

// S_jk = <At_j, X At_k Zi> = 1/4 [ (u_j^T P u_k)(w_j^T Zi22 w_k) + (u_j^T W w_k)(u_k^T Zi12 w_j)
//                                 + (u_k^T W w_j)(u_j^T Zi12 w_k) + (w_j^T R w_k)(u_j^T Zi11 u_k) ]
void SdpSolver::schur() {
  const Index G = Zg_.rows();
  // The blocks are copied into plain matrices so that every product below is Mat x Mat (one
  // instantiation of Eigen's product kernels, shared with the rest of the module).
  block_ = X_.topLeftCorner(r_, r_);
  symmetricProduct(block_, XAA_);
  block_ = Zi_.topLeftCorner(r_, r_);
  symmetricProduct(block_, ZAA_);
  // (The inner products go to inner_ first: what Eigen does with a nested product anyway.)
  block_ = X_.topRightCorner(r_, c_);
  inner_.noalias() = block_ * ZgT_;
  XAC_.noalias() = U_ * inner_;  // m x G
  block_ = Zi_.topRightCorner(r_, c_);
  inner_.noalias() = block_ * ZgT_;
  ZAC_.noalias() = U_ * inner_;  // m x G
  block_ = X_.bottomRightCorner(c_, c_);
  inner_.noalias() = block_ * ZgT_;
  XCC_.noalias() = Zg_ * inner_;  // G x G
  block_ = Zi_.bottomRightCorner(c_, c_);
  inner_.noalias() = block_ * ZgT_;
  ZCC_.noalias() = Zg_ * inner_;  // G x G
  (void)G;
  K_.resize(m_, m_);
  for (Index k = 0; k < m_; ++k) {
    const Index gk = group_[static_cast<std::size_t>(k)];
    for (Index j = k; j < m_; ++j) {
      const Index gj = group_[static_cast<std::size_t>(j)];
      K_(j, k) = 0.25 * (XAA_(j, k) * ZCC_(gj, gk) + XAC_(j, gk) * ZAC_(k, gj) +
                         XAC_(k, gj) * ZAC_(j, gk) + XCC_(gj, gk) * ZAA_(j, k));
    }
  }
  for (Index k = 0; k < m_; ++k)
    if (isIneq(k)) K_(k, k) += s_(k) / y_(k);
  lltK_.compute(K_);
  double ridge = 1e-15 * std::max(1e-300, K_.diagonal().cwiseAbs().maxCoeff());
  while (lltK_.info() != Eigen::Success && ridge < 1e300) {
    Mat Kr = K_;
    Kr.diagonal().array() += ridge;
    lltK_.compute(Kr);
    ridge *= 100.0;
  }
}

void SdpSolver::direction(double sigmaMu, bool corrector) {
  G_ = sigmaMu * Zi_ - X_;
  if (corrector) {
    prod_.noalias() = dZa_ * Zi_;
    G_.noalias() -= dXa_ * prod_;
  }
  applyA(G_, tmp_);
  rhs_ = rp_ - tmp_;
  for (Index k = 0; k < m_; ++k) {
    if (!isIneq(k)) continue;
    const double corr = corrector ? dya_(k) * dsa_(k) : 0.0;
    rhs_(k) += (sigmaMu - y_(k) * s_(k) - corr) / y_(k);
  }
  dy_ = lltK_.solve(rhs_);
  adjointInto(dy_, M_);
  dZ_.setZero(n_, n_);
  dZ_.topRightCorner(r_, c_) = -0.5 * M_;
  dZ_.bottomLeftCorner(c_, r_) = -0.5 * M_.transpose();
  dX_ = G_;
  prod_.noalias() = dZ_ * Zi_;
  dX_.noalias() -= X_ * prod_;
  work_ = dX_ + dX_.transpose();
  dX_ = 0.5 * work_;
  // ds from the primal row A(dX) - ds = rp, so that the primal residual falls exactly with the
  // steps (issue 26). From the complementarity row (the textbook choice) ds inherits the error of
  // the Schur solve, which on degenerate instances (more nearly active constraints than W has
  // entries: K is singular up to diag(s / y), factored with a ridge) left the residual at ~1e-11
  // absolute; with right-hand sides beta_j ~ 1e-4 (||W^mm|| ~ 1e4) scaling the iterate to
  // feasibility then cost a certified gap of 3e-8 .. 7e-8: the stall of real-image instances.
  applyA(dX_, ds_);
  ds_ -= rp_;
  for (Index k = 0; k < m_; ++k)
    if (!isIneq(k)) ds_(k) = 0.0;
}

// The certificate of the current iterate on the original problem: W = kappa X_12 scaled up to
// exact feasibility, lambda_j = y_j / ||A_j|| (zero on the dropped zero constraints).
void SdpSolver::certifyIterate(MarginSolution& best, bool& improved) const {
  const Index m = pb_.b.size();
  MarginSolution cand;
  cand.W = kappa_ * X_.topRightCorner(r_, c_);
  cand.lambda = Vec::Zero(m);
  for (Index k = 0; k < m_; ++k)
    cand.lambda(keep_[static_cast<std::size_t>(k)]) =
        (isIneq(k) ? std::max(y_(k), 0.0) : y_(k)) / nrm_(k);
  const Vec cv = constraintValues(pb_, cand.W);
  double scale = 1.0;
  for (Index j = 0; j < m; ++j) {
    const bool eq = !pb_.equality.empty() && pb_.equality[static_cast<std::size_t>(j)];
    if (eq || pb_.b(j) <= 0.0) continue;
    if (cv(j) <= 0.0) return;
    scale = std::max(scale, pb_.b(j) / cv(j));
  }
  cand.W *= scale;
  certify(pb_, st_, cand);  // SPEC section 3's bound from (W, lambda) alone
  if (!(cand.maxViolation <= st_.feasibilityTol) || !(cand.objective > 0.0) ||
      !(cand.gap < best.gap))
    return;
  best = std::move(cand);
  improved = true;
}

MarginSolution SdpSolver::run() {
  MarginSolution best;
  best.status = SolveStatus::MaxIterations;
  best.gap = std::numeric_limits<double>::infinity();
  const double target = std::max(st_.tolerance, 1e-9);
  const double nCone = static_cast<double>(n_ + mIneq_);
  const int maxIt = std::min(st_.maxIterations, kSdpMaxIterations);
  double gamma = 0.9;
  int it = 0, stall = 0, polishTries = 0;
  bool polished = false;
  if (m_ == 0 || !updateZ()) {
    best.message = "nuclear SDP interior point: no start";
    return best;
  }
  for (; it < maxIt; ++it) {
    applyA(X_, tmp_);
    rp_ = beta_ - tmp_ + s_;
    const double mu = ((X_.cwiseProduct(Z_)).sum() + s_.dot(y_)) / nCone;
    const double pobj = 0.5 * X_.trace(), dobj = beta_.dot(y_);
    const double relGap = std::abs(pobj - dobj) / (1.0 + std::abs(pobj) + std::abs(dobj));
    const double relInf = rp_.cwiseAbs().maxCoeff() / (1.0 + beta_.cwiseAbs().maxCoeff());
#ifdef ATTNSVM_SDP_TRACE
    std::fprintf(stderr,
                 "m %ld sdp %3d mu %.3e pobj %.12f dobj %.12f relGap %.2e relInf %.2e best %.3e\n",
                 (long)m_, it, mu, pobj, dobj, relGap, relInf, best.gap);
#endif
    bool improved = false;
    if (relGap < 1e-5 && relInf < 1e-5) certifyIterate(best, improved);
    // Once the interior point's own gap is at the target, the exact-rank finish usually certifies
    // it too (the scaled-to-feasible iterate lags by the degenerate tail): saves the last steps.
    if (best.gap > target && std::isfinite(best.gap) && relGap <= target && polishTries < 2) {
      ++polishTries;
      MarginSolution trial = best;
      if (polishExactRank(pb_, st_, trial) && trial.gap <= target) {
        best = std::move(trial);
        polished = true;
      }
    }
    if (best.gap <= target) break;
    stall = (improved || relGap > 1e-9) ? 0 : stall + 1;
    if (stall > 3) break;

    schur();
    // Predictor (affine scaling).
    direction(0.0, false);
    double aP = coarseStepPsd(X_, dX_, work_, lltBlock_);
    double aD = coarseStepPsd(Z_, dZ_, work_, lltBlock_);
    for (Index k = 0; k < m_; ++k) {
      if (!isIneq(k)) continue;
      if (ds_(k) < 0.0) aP = std::min(aP, -s_(k) / ds_(k));
      if (dy_(k) < 0.0) aD = std::min(aD, -y_(k) / dy_(k));
    }
    const double muAff =
        ((X_ + aP * dX_).cwiseProduct(Z_ + aD * dZ_).sum() + (s_ + aP * ds_).dot(y_ + aD * dy_)) /
        nCone;
    const double expo = std::max(1.0, 3.0 * std::min(aP, aD) * std::min(aP, aD));
    const double sigma = std::min(1.0, std::pow(std::max(muAff, 0.0) / mu, expo));
    dXa_ = dX_;
    dZa_ = dZ_;
    dya_ = dy_;
    dsa_ = ds_;
    // Corrector.
    direction(sigma * mu, true);
    lltX_.compute(X_);
    aP = std::min(1.0, gamma * maxStepPsd(lltX_, dX_, work_, tri_));
    aD = std::min(1.0, gamma * maxStepPsd(lltZ_, dZ_, work_, tri_));
    for (Index k = 0; k < m_; ++k) {
      if (!isIneq(k)) continue;
      if (ds_(k) < 0.0) aP = std::min(aP, -gamma * s_(k) / ds_(k));
      if (dy_(k) < 0.0) aD = std::min(aD, -gamma * y_(k) / dy_(k));
    }
    if (!dX_.allFinite() || !dy_.allFinite()) break;
    X_ += aP * dX_;
    s_ += aP * ds_;
    y_ += aD * dy_;
    if (!updateZ()) {  // rounding pushed Z out of the cone: step back
      y_ -= 0.5 * aD * dy_;
      if (!updateZ()) break;
    }
    gamma = 0.9 + 0.09 * std::min(aP, aD);
  }
  best.iterations = it;
  if (std::isfinite(best.gap) && !polished) polishExactRank(pb_, st_, best);
  if (!std::isfinite(best.gap)) {
    best.W = Mat::Zero(pb_.rows, pb_.cols);
    best.lambda = Vec::Zero(pb_.b.size());
    best.gap = std::numeric_limits<double>::infinity();
    best.message = "nuclear SDP interior point: no certified feasible iterate";
    return best;
  }
  return best;
}

}  // namespace

MarginSolution solveNuclearSdp(const MarginProblem& pb, const SolverSettings& st,
                               const MarginSolution& warm) {
  SdpSolver solver(pb, st, warm);
  MarginSolution sol = solver.run();
  if (!std::isfinite(sol.gap)) return sol;
  sol.status = sol.gap <= std::max(st.tolerance, kNuclearOptimalGap) ? SolveStatus::Optimal
                                                                     : SolveStatus::MaxIterations;
  if (sol.status != SolveStatus::Optimal)
    sol.message = "nuclear SDP interior point: stopped at certified relative gap " + sci(sol.gap);
  // Report lambda as multipliers of min 1/2 ||W||^2 (see solvers_internal.hpp).
  const double lb = sol.lambda.dot(pb.b);
  if (lb > 0.0) sol.lambda *= sol.objective * sol.objective / lb;
  return sol;
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
