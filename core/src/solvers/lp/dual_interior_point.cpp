// Primal-dual interior-point method on the dual, for the l_p solver (p < 2, and its fallback for
// p > 2). The barrier-weighted branch (w(mu) = mu) served the nuclear norm's dual barrier model,
// removed in issue 16 (docs/SOLVERS.md); it is kept for any such DualModel.
//
// Problem (the dual of min ||W|| over the margin constraints, in a smooth form):
//     minimize  f(lambda) = w(mu) phi(lambda) - b.lambda   s.t. lambda_j >= 0 (inequalities).
// Perturbed KKT conditions with the slacks s (which are the primal constraint slacks
// <A_j, W> - b_j at the solution):
//     grad f(lambda) - s = 0,   lambda_j s_j = mu   (inequalities),   grad_j f = 0 (equalities).
// Newton direction: (w H + diag(s / lambda)) dl = -grad f + mu / lambda,  ds from the
// complementarity row. Step: fraction to the boundary (0.995), then Armijo backtracking on the
// barrier merit  f - mu sum log lambda  (which also keeps lambda inside the domain of phi).
// mu decreases as mu <- min(0.2 mu, mu^1.5) (scaled) whenever the mu-KKT error is below 10 mu.
//
// Stopping: at every iterate the primal estimate W = w(mu) P(lambda) is scaled up to exact
// feasibility (factor max_j b_j / <A_j, W> over b_j > 0) and certified with the lambda of that
// iterate (weak duality). The loop stops when the relative certificate gap is below the target;
// the best certified iterate is returned, so the reported gap is always a proven bound.
//
// Layout: dualInteriorPoint() runs the loop of DualIpm, whose phases are its members: start()
// (starting slacks and mu), certifyIterate() (certificates and the best iterate), residuals()
// (the KKT error deciding between the two steps), predictorStep() (along the central path),
// correctorStep() (Newton system, fraction to the boundary, merit line search) and finish()
// (status, message and the multipliers' scale of the returned iterate).
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#ifdef ATTNSVM_IPM_TRACE
#include <cstdio>
#endif

#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
// WebAssembly size (core/hints/cold.hpp): every function of this file is compiled for size. The
// iterations spend their time in Eigen's products and factorizations, which are instantiated
// from headers included above the region and keep the full optimization; measured wasm against
// wasm, the solves are as fast as with the whole file optimized for speed (docs/BENCHMARKS.md).
ATTNSVM_COLD_BEGIN

namespace {

constexpr double kCenter = 0.01;
constexpr double kPolishBelow = 1e-5;

// Max-norm residuals of the perturbed KKT conditions at the current iterate.
struct KktError {
  double all = 0.0;   // every row
  double dual = 0.0;  // grad f - s on the inequalities
  double comp = 0.0;  // lambda_j s_j - mu on the inequalities
};

// The iterate (lambda, s, mu), the model's derivatives at lambda, the work space of the linear
// algebra and the best certified iterate so far. One object per solve.
class DualIpm {
 public:
  DualIpm(const MarginProblem& pb, const SolverSettings& st, DualModel& model, Vec lambda,
          const char* name)
      : pb_(pb),
        st_(st),
        model_(model),
        name_(name),
        m_(pb.b.size()),
        ineq_(static_cast<std::size_t>(m_), 1),
        target_(std::max(st.tolerance, 1e-9)),
        weighted_(model.barrierWeighted()),
        bScale_(std::max(1.0, pb.b.cwiseAbs().maxCoeff())),
        maxIt_(std::min(st.maxIterations, 500)),
        lambda_(std::move(lambda)),
        s_(m_),
        grad_(m_),
        gf_(m_),
        rhs_(m_),
        dl_(m_),
        ds_(m_),
        trial_(m_),
        H_(m_, m_),
        K_(m_, m_),
        llt_(m_) {
    for (Index j = 0; j < m_; ++j)
      if (!pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)])
        ineq_[static_cast<std::size_t>(j)] = 0;
    best_.status = SolveStatus::MaxIterations;
    best_.gap = std::numeric_limits<double>::infinity();
  }

  // One exit, moving best_ out (a copy per return site costs wasm bytes).
  MarginSolution run(double mu) {
    if (start(mu)) {
      iterate();
      finish();
    } else {
      best_.message = std::string(name_) + ": starting point outside the domain";
    }
    return std::move(best_);
  }

 private:
  // The predictor-corrector loop from the start point, until the best certificate reaches the
  // target, it stalls, no step can be made, or maxIt_ iterations.
  void iterate() {
    bool fresh = true;  // derivatives already evaluated at lambda
    for (; it_ < maxIt_; ++it_) {
      if (!fresh) model_.derivatives(grad_, H_);
      fresh = false;
      const double w = weighted_ ? mu_ : 1.0;
      gf_ = w * grad_ - pb_.b;  // = <A_j, W> - b_j with W = w P(lambda)
      const bool improved = certifyIterate(w);
      stall_ = (improved || mu_ > 1e-6 * muRef_) ? 0 : stall_ + 1;
      if (haveBest_ && best_.gap <= target_) break;
      if (stall_ > 15) break;

      const KktError e = residuals();
      ++sameMu_;
#ifdef ATTNSVM_IPM_TRACE
      std::fprintf(stderr, "top %3d mu/mu0 %.3e errD %.3e errC %.3e best %.3e m %ld\n", it_,
                   mu_ / muRef_, e.dual, e.comp, best_.gap, (long)m_);
#endif
      // Approximately centered (a wide neighbourhood of the central path is enough for the
      // predictor): dual residual small relative to the margins and complementarity within a
      // factor of mu.
      const bool centered = e.all <= 10.0 * mu_ ||
                            (e.dual <= kCenter * bScale_ && e.comp <= 0.9 * mu_) || sameMu_ > 6;
      if (centered && mu_ > muMin_) {
        predictorStep(w);
        sameMu_ = 0;
        continue;
      }
      if (!correctorStep(w, e)) break;
    }
  }

  bool isIneq(Index j) const { return ineq_[static_cast<std::size_t>(j)] != 0; }

  // Starting slacks: those of the primal estimate (floored), so the dual residual starts small.
  // For a barrier-weighted model, mu is first chosen so that the estimate mu P is feasible.
  // False if lambda is outside the domain of phi. Leaves the derivatives at lambda in grad_, H_.
  bool start(double mu) {
    if (!model_.value(lambda_, phi_)) return false;
    model_.derivatives(grad_, H_);
    if (weighted_) {
      double fit = 0.0;
      for (Index j = 0; j < m_; ++j)
        if (isIneq(j) && pb_.b(j) > 0.0 && grad_(j) > 0.0) fit = std::max(fit, pb_.b(j) / grad_(j));
      if (fit > 0.0) mu = fit;
    }
    const double w0 = weighted_ ? mu : 1.0;
    double comp = 0.0;
    Index mi = 0;
    for (Index j = 0; j < m_; ++j) {
      if (!isIneq(j)) {
        s_(j) = 0.0;
        continue;
      }
      s_(j) = std::max(w0 * grad_(j) - pb_.b(j), 1e-2 * std::max(1.0, std::abs(pb_.b(j))));
      comp += lambda_(j) * s_(j);
      ++mi;
    }
    if (mi > 0 && !weighted_) mu = comp / static_cast<double>(mi);
    mu_ = mu;
    muRef_ = mu;
    muMin_ = 1e-15 * muRef_;
    return true;
  }

  // The barrier merit f - mu sum log lambda at (lam, phi(lam)).
  double merit(const Vec& lam, double phiValue) const {
    double v = (weighted_ ? mu_ : 1.0) * phiValue - pb_.b.dot(lam);
    for (Index j = 0; j < m_; ++j)
      if (isIneq(j)) v -= mu_ * std::log(lam(j));
    return v;
  }

  // Certificates of this iterate: the primal estimate and the model's polished candidates.
  // Far from the solution only every 8th iterate is certified: the gap there is far above the
  // target and each certificate costs singular value decompositions. "Far" is mu > 1e-2 mu0, and
  // for a barrier-weighted model (nuclear) mu > kPolishBelow mu0: before the polished candidates
  // exist its gap stays above ~1e-4 (the barrier estimate's lower bound is off by about m mu).
  // The lower bound (one dual norm) is shared by the candidates; the full certify() runs only
  // for a candidate that improves on the best. True if one did (best_ is then that candidate).
  bool certifyIterate(double w) {
    const double certifyAllBelow = weighted_ ? kPolishBelow : 1e-2;
    const bool certifyNow = mu_ <= certifyAllBelow * muRef_ || it_ % 8 == 0 || it_ + 1 == maxIt_;
    if (!certifyNow) return false;
    std::vector<Mat> candidates;
    candidates.push_back(w * model_.primal());
    if (mu_ < kPolishBelow * muRef_) {
      std::vector<Mat> more = model_.polish(lambda_, s_, mu_);
      for (Mat& c : more) candidates.push_back(std::move(c));
    }
    Vec lam = lambda_;
    for (Index j = 0; j < m_; ++j)
      if (isIneq(j)) lam(j) = std::max(lam(j), 0.0);
    const double num = lam.dot(pb_.b);
    const double den = dualNorm(combine(pb_, lam), st_.norm, st_.p);
    const double lower = (num > 0.0 && den > 0.0) ? num / den : 0.0;
    bool improved = false;
    for (Mat& Wc : candidates)
      if (tryCandidate(Wc, lam, num, lower)) improved = true;
    return improved;
  }

  // Scales the candidate Wc up to feasibility and keeps it as the best iterate if its
  // certificate with (lam, lower = num / ||M(lam)||_dual) beats the best one. True if kept.
  bool tryCandidate(const Mat& Wc, const Vec& lam, double num, double lower) {
    const Vec c = constraintValues(pb_, Wc);
    double scale = 1.0;
    for (Index j = 0; j < m_; ++j) {
      if (!isIneq(j) || pb_.b(j) <= 0.0) continue;
      if (c(j) <= 0.0) return false;  // not scalable to feasibility
      scale = std::max(scale, pb_.b(j) / c(j));
    }
    // Cheap screen before the norm (an SVD for the nuclear norm): by Hoelder,
    // ||W|| >= <W, M>/||M||_dual with <W, M> = sum_j lam_j <A_j, W>, so the candidate's gap is
    // at least 1 - num / (lam . scale c); skip it when even that cannot beat the best.
    const double inner = scale * lam.dot(c);
    if (num > 0.0 && inner > 0.0 && !(1.0 - num / inner < best_.gap)) return false;
    const double objective = matrixNorm(scale * Wc, st_.norm, st_.p);
    if (!(objective > 0.0) || !((objective - lower) / objective < best_.gap)) return false;
    // The certificate of this candidate from the quantities above (objective, lower bound,
    // violations of scale * c); solveMargin() certifies the returned solution again from
    // scratch, so the support list is left to it.
    MarginSolution cand;
    cand.W = scale * Wc;
    cand.lambda = lam;
    cand.objective = objective;
    cand.lowerBound = lower;
    cand.gap = (objective - lower) / objective;
    cand.maxViolation = 0.0;
    for (Index j = 0; j < m_; ++j) {
      const double r = pb_.b(j) - scale * c(j);
      cand.maxViolation = std::max(cand.maxViolation, isIneq(j) ? std::max(r, 0.0) : std::abs(r));
    }
    if (!(cand.maxViolation <= st_.feasibilityTol && cand.gap < best_.gap)) return false;
    best_ = std::move(cand);
    haveBest_ = true;
    return true;
  }

  // Residuals of the perturbed KKT conditions (gf_ must be current).
  KktError residuals() const {
    KktError e;
    for (Index j = 0; j < m_; ++j) {
      if (isIneq(j)) {
        e.all = std::max(e.all, std::abs(gf_(j) - s_(j)));
        e.dual = std::max(e.dual, std::abs(gf_(j) - s_(j)));
        e.all = std::max(e.all, std::abs(lambda_(j) * s_(j) - mu_));
        e.comp = std::max(e.comp, std::abs(lambda_(j) * s_(j) - mu_));
      } else {
        e.all = std::max(e.all, std::abs(gf_(j)));
      }
    }
    return e;
  }

  // Predictor along the central path: d lambda / d mu solves K lambda' = r' with
  // r' = -(w? grad phi : 0) + 1/lambda, and s' = (1 - s lambda') / lambda. Near the solution
  // the path is almost linear in mu, so long steps in mu are safe. Without a step (singular
  // tangent system, or no fraction of it stays in the domain) mu is halved.
  void predictorStep(double w) {
    K_.triangularView<Eigen::Lower>() = w * H_;  // only the lower triangle is used
    for (Index j = 0; j < m_; ++j) {
      rhs_(j) = weighted_ ? -grad_(j) : 0.0;
      if (isIneq(j)) {
        K_(j, j) += s_(j) / lambda_(j);
        rhs_(j) += 1.0 / lambda_(j);
      }
    }
    llt_.compute(K_);
    const double r = mu_ / muRef_;
    const double muTarget = std::max(muMin_, muRef_ * std::min(0.1 * r, r * std::sqrt(r)));
    if (!(llt_.info() == Eigen::Success && tangentStep(muTarget))) {
      model_.value(lambda_, phi_);
      mu_ = std::max(muMin_, 0.5 * mu_);
    }
  }

  // The step of predictorStep() towards muTarget along the tangent factored in llt_: the largest
  // fraction theta of the mu decrease keeping lambda, s > 0, halved until lambda is in the
  // domain. True if it moved.
  bool tangentStep(double muTarget) {
    dl_ = llt_.solve(rhs_);
    for (Index j = 0; j < m_; ++j) ds_(j) = isIneq(j) ? (1.0 - s_(j) * dl_(j)) / lambda_(j) : 0.0;
    const double dmu = muTarget - mu_;  // < 0
    double theta = 1.0;
    for (Index j = 0; j < m_; ++j) {
      if (!isIneq(j)) continue;
      if (dmu * dl_(j) < 0.0) theta = std::min(theta, -0.9 * lambda_(j) / (dmu * dl_(j)));
      if (dmu * ds_(j) < 0.0) theta = std::min(theta, -0.9 * s_(j) / (dmu * ds_(j)));
    }
#ifdef ATTNSVM_IPM_TRACE
    const double theta0 = theta;
#endif
    for (int ls = 0; ls < 30 && theta > 1e-3; ++ls, theta *= 0.5) {
      trial_ = lambda_ + (theta * dmu) * dl_;
      if (dl_.allFinite() && model_.value(trial_, phi_)) {
#ifdef ATTNSVM_IPM_TRACE
        std::fprintf(stderr, "pred theta0 %.3e theta %.3e\n", theta0, theta);
#endif
        lambda_ = trial_;
        s_ += (theta * dmu) * ds_;
        mu_ += theta * dmu;
        return true;
      }
    }
    return false;
  }

  // Newton system of the perturbed KKT conditions, factored with a growing ridge if K is not
  // numerically positive definite: dl_ and ds_. False if the direction is not finite.
  bool newtonDirection(double w) {
    K_.triangularView<Eigen::Lower>() = w * H_;
    for (Index j = 0; j < m_; ++j) {
      if (isIneq(j)) {
        K_(j, j) += s_(j) / lambda_(j);
        rhs_(j) = -gf_(j) + mu_ / lambda_(j);
      } else {
        rhs_(j) = -gf_(j);
      }
    }
    llt_.compute(K_);
    double ridge = 1e-14 * std::max(1e-300, K_.diagonal().cwiseAbs().maxCoeff());
    while (llt_.info() != Eigen::Success && ridge < 1e300) {
      Mat Kr = K_;
      Kr.diagonal().array() += ridge;
      llt_.compute(Kr);
      ridge *= 100.0;
    }
    dl_ = llt_.solve(rhs_);
    if (!dl_.allFinite()) return false;
    for (Index j = 0; j < m_; ++j)
      ds_(j) = isIneq(j) ? mu_ / lambda_(j) - s_(j) - s_(j) / lambda_(j) * dl_(j) : 0.0;
    return true;
  }

  // Corrector: the Newton step, cut to the boundary (0.995 of the way) and backtracked on the
  // barrier merit; without an acceptable step mu is shrunk anyway. False to stop the loop (no
  // finite direction, or no step at the smallest mu).
  bool correctorStep(double w, const KktError& e) {
    if (!newtonDirection(w)) return false;
    // Fraction to the boundary.
    const double tau = 0.995;
    double aP = 1.0, aD = 1.0;
    for (Index j = 0; j < m_; ++j) {
      if (!isIneq(j)) continue;
      if (dl_(j) < 0.0) aP = std::min(aP, -tau * lambda_(j) / dl_(j));
      if (ds_(j) < 0.0) aD = std::min(aD, -tau * s_(j) / ds_(j));
    }
    // Armijo backtracking on the barrier merit (descent: K is positive definite).
    const double m0 = merit(lambda_, phi_);
    double slope = -rhs_.dot(dl_);  // grad(merit) . dl
    double alpha = aP, phiTrial = phi_;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls) {
      trial_ = lambda_ + alpha * dl_;
      if (model_.value(trial_, phiTrial) && merit(trial_, phiTrial) <= m0 + 1e-4 * alpha * slope) {
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    if (!accepted) {
      model_.value(lambda_, phi_);  // restore the model's point
      if (mu_ <= muMin_) return false;
      // No progress possible at this mu: shrink it anyway.
      mu_ = std::max(muMin_, 0.2 * mu_);
      return true;
    }
#ifdef ATTNSVM_IPM_TRACE
    std::fprintf(stderr, "it %3d errD %.3e mu %.3e err %.3e aP %.3e alpha %.3e aD %.3e best %.3e\n",
                 it_, e.dual, mu_, e.all, aP, alpha, aD, best_.gap);
#else
    (void)e;
#endif
    lambda_ = trial_;
    phi_ = phiTrial;
    s_ += aD * ds_;
    for (Index j = 0; j < m_; ++j) {
      if (!isIneq(j)) continue;
      // Keep s within a factor 1e10 of mu / lambda (standard safeguard).
      const double c = mu_ / lambda_(j);
      s_(j) = std::min(std::max(s_(j), c / 1e10), c * 1e10);
    }
    return true;
  }

  // best_ becomes the result: the best certified iterate with its status and message, or W = 0
  // if there is none.
  void finish() {
    if (!haveBest_) {
      best_ = MarginSolution();
      best_.W = Mat::Zero(pb_.rows, pb_.cols);
      best_.lambda = Vec::Zero(m_);
      best_.status = SolveStatus::MaxIterations;
      best_.message = std::string(name_) + ": no certified feasible iterate";
    } else {
      best_.status =
          best_.gap <= std::max(target_, 1e-6) ? SolveStatus::Optimal : SolveStatus::MaxIterations;
      if (best_.status != SolveStatus::Optimal)
        best_.message =
            std::string(name_) + ": stopped at certified relative gap " + sci(best_.gap);
      // Report lambda as multipliers of min 1/2 ||W||^2 (see solvers_internal.hpp).
      const double lb = best_.lambda.dot(pb_.b);
      if (lb > 0.0) best_.lambda *= best_.objective * best_.objective / lb;
    }
    best_.iterations = it_;
  }

  const MarginProblem& pb_;
  const SolverSettings& st_;
  DualModel& model_;
  const char* name_;
  const Index m_;
  std::vector<char> ineq_;  // 1 for an inequality, 0 for an equality
  const double target_;
  const bool weighted_;
  const double bScale_;
  const int maxIt_;

  Vec lambda_;
  double phi_ = 0.0;  // phi(lambda_)
  double mu_ = 0.0, muRef_ = 0.0, muMin_ = 0.0;
  int it_ = 0;
  int stall_ = 0;   // iterations since the best improved, once mu is small
  int sameMu_ = 0;  // iterations since the last predictor step (one is forced after 6)

  Vec s_, grad_, gf_, rhs_, dl_, ds_, trial_;
  Mat H_, K_;
  Eigen::LLT<Mat> llt_;  // reused by every predictor and Newton step (no m x m allocations)

  MarginSolution best_;
  bool haveBest_ = false;
};

}  // namespace

MarginSolution dualInteriorPoint(const MarginProblem& pb, const SolverSettings& st,
                                 DualModel& model, Vec lambda, double mu, const char* name) {
  DualIpm ipm(pb, st, model, std::move(lambda), name);
  return ipm.run(mu);
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
