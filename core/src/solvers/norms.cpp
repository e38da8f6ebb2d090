// The norm registry (attnsvm/solvers/norms.hpp): each norm's value, dual value and solver, and
// matrixNorm / dualNorm (margin.hpp) through it.
#include "attnsvm/solvers/norms.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "base/svd.hpp"
#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  void requireNormExponent(double p) {
    if (!(p > 1.0) || !std::isfinite(p))
      throw InputError("p = " + std::to_string(p) + " must be in (1, inf)");
  }

  // Entrywise l_p norm with scaling by the largest entry (p = 10 would overflow/underflow
  // otherwise).
  double entrywiseNorm(const ConstMatRef& w, double p) {
    const double big = w.cwiseAbs().maxCoeff();
    if (!(big > 0.0)) return 0.0;
    double s = 0.0;
    for (Index c = 0; c < w.cols(); ++c)
      for (Index r = 0; r < w.rows(); ++r) s += std::pow(std::abs(w(r, c)) / big, p);
    return big * std::pow(s, 1.0 / p);
  }

  Vec singularValues(const ConstMatRef& w) {
    if (w.rows() == 0 || w.cols() == 0) return Vec();
    if (w.cols() == 1) return Vec::Constant(1, w.norm());
    Vec s;
    detail::thinSvd(w, s, nullptr, nullptr);
    return s;
  }

  // Largest singular value as the square root of the largest eigenvalue of the smaller Gram matrix
  // (symmetric tridiagonal QR, several times faster than a Jacobi SVD at 20 x 20). The largest
  // eigenvalue has relative accuracy ~ eps, so sigma_max does too (unlike the small singular
  // values, which is why the nuclear norm itself keeps the SVD).
  double spectralNorm(const ConstMatRef& w) {
    if (w.rows() == 0 || w.cols() == 0) return 0.0;
    if (w.cols() == 1 || w.rows() == 1) return w.norm();
    const double big = w.cwiseAbs().maxCoeff();
    if (!(big > 0.0)) return 0.0;
    const Mat ws = w / big;  // no overflow / underflow in the Gram matrix
    const Mat g = ws.rows() <= ws.cols() ? Mat(ws * ws.transpose()) : Mat(ws.transpose() * ws);
    Eigen::SelfAdjointEigenSolver<Mat> eig(g, Eigen::EigenvaluesOnly);
    return big * std::sqrt(std::max(eig.eigenvalues().maxCoeff(), 0.0));
  }

  // ---- Frobenius: self-dual; decideFrobenius (frobenius/) solves it for every norm first ----
  double frobeniusNorm(const ConstMatRef& w, double) { return w.norm(); }
  bool alwaysFrobenius(const MarginProblem&, double) { return true; }

  // ---- nuclear: dual the spectral norm; the SDP (nuclear/) ----
  double nuclearNorm(const ConstMatRef& w, double) { return singularValues(w).sum(); }
  double spectralDual(const ConstMatRef& w, double) { return spectralNorm(w); }
  // the nuclear norm of a vector-shaped W is its Euclidean norm
  bool vectorShaped(const MarginProblem& pb, double) { return pb.rows == 1 || pb.cols == 1; }
  NormSolver nuclearSolver(const MarginProblem&) { return &detail::solveNuclear; }

  // ---- entrywise l_p: dual l_q, 1/p + 1/q = 1; the interior points (lp/) ----
  double lpNormOfW(const ConstMatRef& w, double p) {
    requireNormExponent(p);
    return entrywiseNorm(w, p);
  }
  double lqDual(const ConstMatRef& w, double p) {
    requireNormExponent(p);
    return entrywiseNorm(w, p / (p - 1.0));
  }
  bool lpIsFrobenius(const MarginProblem&, double p) { return p == 2.0; }
  // the W-space interior point for a large problem (the m x m ones of the small problems stall
  // on the real-image working sets, issue 26)
  NormSolver lpSolver(const MarginProblem& pb) {
    return detail::isLargeProblem(pb) ? &detail::solveLpWspace : &detail::solveLp;
  }

  }  // namespace

  const std::vector<NormInfo>& normRegistry() {
    static const std::vector<NormInfo> registry = {
        {NormKind::Frobenius,
         {"fro", "frobenius"},
         "fro",
         false,
         &frobeniusNorm,
         &frobeniusNorm,
         &alwaysFrobenius,
         nullptr},
        {NormKind::Nuclear,
         {"nuclear", "nuc"},
         "spectral",
         false,
         &nuclearNorm,
         &spectralDual,
         &vectorShaped,
         &nuclearSolver},
        {NormKind::Lp, {"lp"}, "lq", true, &lpNormOfW, &lqDual, &lpIsFrobenius, &lpSolver},
    };
    return registry;
  }

  const NormInfo& normInfo(NormKind norm) {
    for (const NormInfo& info : normRegistry())
      if (info.kind == norm) return info;
    return normRegistry().front();  // unreachable for a valid enum value
  }

  double matrixNorm(const ConstMatRef& w, NormKind norm, double p) {
    return normInfo(norm).norm(w, p);
  }
  double dualNorm(const ConstMatRef& w, NormKind norm, double p) {
    return normInfo(norm).dual(w, p);
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
