// Primal-dual interior-point method shared by the nuclear-norm and l_p solvers.
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
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#ifdef ATTNSVM_IPM_TRACE
#include <cstdio>
#endif

#include "cold.hpp"
#include "solvers_internal.hpp"

namespace attnsvm {
namespace detail {
// WebAssembly size (core/src/cold.hpp): every function of this file is compiled for size. The
// iterations spend their time in Eigen's products and factorizations, which are instantiated
// from headers included above the region and keep the full optimization; measured wasm against
// wasm, the solves are as fast as with the whole file optimized for speed (docs/BENCHMARKS.md).
ATTNSVM_COLD_BEGIN

MarginSolution dualInteriorPoint(const MarginProblem& pb, const SolverSettings& st,
                                 DualModel& model, Vec lambda, double mu, const char* name) {
  const Index m = pb.b.size();
  std::vector<char> ineq(static_cast<std::size_t>(m), 1);
  for (Index j = 0; j < m; ++j)
    if (!pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)])
      ineq[static_cast<std::size_t>(j)] = 0;
  auto isIneq = [&](Index j) { return ineq[static_cast<std::size_t>(j)] != 0; };

  const double target = std::max(st.tolerance, 1e-9);
  const bool weighted = model.barrierWeighted();
  const double bScale = std::max(1.0, pb.b.cwiseAbs().maxCoeff());
  const double kCenter = 0.01;
  const double kPolishBelow = 1e-5;

  Vec s(m), grad(m), gf(m), rhs(m), dl(m), ds(m), trial(m);
  Mat H(m, m), K(m, m);
  Eigen::LLT<Mat> llt(m);  // reused by every predictor and Newton step (no m x m allocations)

  MarginSolution best;
  best.status = SolveStatus::MaxIterations;
  best.gap = std::numeric_limits<double>::infinity();
  bool haveBest = false;
  double phi = 0.0;
  if (!model.value(lambda, phi)) {
    best.message = std::string(name) + ": starting point outside the domain";
    return best;
  }
  // Starting slacks: those of the primal estimate (floored), so the dual residual starts small.
  // For a barrier-weighted model, mu is first chosen so that the estimate mu P is feasible.
  model.derivatives(grad, H);
  if (weighted) {
    double fit = 0.0;
    for (Index j = 0; j < m; ++j)
      if (isIneq(j) && pb.b(j) > 0.0 && grad(j) > 0.0) fit = std::max(fit, pb.b(j) / grad(j));
    if (fit > 0.0) mu = fit;
  }
  {
    const double w0 = weighted ? mu : 1.0;
    double comp = 0.0;
    Index mi = 0;
    for (Index j = 0; j < m; ++j) {
      if (!isIneq(j)) {
        s(j) = 0.0;
        continue;
      }
      s(j) = std::max(w0 * grad(j) - pb.b(j), 1e-2 * std::max(1.0, std::abs(pb.b(j))));
      comp += lambda(j) * s(j);
      ++mi;
    }
    if (mi > 0 && !weighted) mu = comp / static_cast<double>(mi);
  }
  const double muRef = mu;
  const double muMin = 1e-15 * muRef;
  auto merit = [&](const Vec& lam, double phiValue) {
    double v = (weighted ? mu : 1.0) * phiValue - pb.b.dot(lam);
    for (Index j = 0; j < m; ++j)
      if (isIneq(j)) v -= mu * std::log(lam(j));
    return v;
  };

  const int maxIt = std::min(st.maxIterations, 500);
  int it = 0;
  int stall = 0;
  int sameMu = 0;
  bool fresh = true;  // derivatives already evaluated at lambda
  for (; it < maxIt; ++it) {
    if (!fresh) model.derivatives(grad, H);
    fresh = false;
    const double w = weighted ? mu : 1.0;
    gf = w * grad - pb.b;  // = <A_j, W> - b_j with W = w P(lambda)

    // Certificates of this iterate: the primal estimate and the model's polished candidates.
    // Far from the solution only every 8th iterate is certified: the gap there is far above the
    // target and each certificate costs singular value decompositions. "Far" is mu > 1e-2 mu0, and
    // for a barrier-weighted model (nuclear) mu > kPolishBelow mu0: before the polished candidates
    // exist its gap stays above ~1e-4 (the barrier estimate's lower bound is off by about m mu).
    // The lower bound (one dual norm) is shared by the candidates; the full certify() runs only
    // for a candidate that improves on the best.
    const double certifyAllBelow = weighted ? kPolishBelow : 1e-2;
    const bool certifyNow = mu <= certifyAllBelow * muRef || it % 8 == 0 || it + 1 == maxIt;
    bool improved = false;
    if (certifyNow) {
      std::vector<Mat> candidates;
      candidates.push_back(w * model.primal());
      if (mu < kPolishBelow * muRef) {
        std::vector<Mat> more = model.polish(lambda, s, mu);
        for (Mat& c : more) candidates.push_back(std::move(c));
      }
      Vec lam = lambda;
      for (Index j = 0; j < m; ++j)
        if (isIneq(j)) lam(j) = std::max(lam(j), 0.0);
      const double num = lam.dot(pb.b);
      const double den = dualNorm(combine(pb, lam), st.norm, st.p);
      const double lower = (num > 0.0 && den > 0.0) ? num / den : 0.0;
      for (Mat& Wc : candidates) {
        const Vec c = constraintValues(pb, Wc);
        double scale = 1.0;
        bool scalable = true;
        for (Index j = 0; j < m; ++j) {
          if (!isIneq(j) || pb.b(j) <= 0.0) continue;
          if (c(j) <= 0.0) {
            scalable = false;
            break;
          }
          scale = std::max(scale, pb.b(j) / c(j));
        }
        if (!scalable) continue;
        // Cheap screen before the norm (an SVD for the nuclear norm): by Hoelder,
        // ||W|| >= <W, M>/||M||_dual with <W, M> = sum_j lam_j <A_j, W>, so the candidate's gap is
        // at least 1 - num / (lam . scale c); skip it when even that cannot beat the best.
        const double inner = scale * lam.dot(c);
        if (num > 0.0 && inner > 0.0 && !(1.0 - num / inner < best.gap)) continue;
        const double objective = matrixNorm(scale * Wc, st.norm, st.p);
        if (!(objective > 0.0) || !((objective - lower) / objective < best.gap)) continue;
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
        for (Index j = 0; j < m; ++j) {
          const double r = pb.b(j) - scale * c(j);
          cand.maxViolation =
              std::max(cand.maxViolation, isIneq(j) ? std::max(r, 0.0) : std::abs(r));
        }
        if (cand.maxViolation <= st.feasibilityTol && cand.gap < best.gap) {
          best = std::move(cand);
          haveBest = true;
          improved = true;
        }
      }
    }
    {
      stall = (improved || mu > 1e-6 * muRef) ? 0 : stall + 1;
      if (haveBest && best.gap <= target) break;
      if (stall > 15) break;
    }

    // Residuals of the perturbed KKT conditions.
    double err = 0.0, errD = 0.0, errC = 0.0;
    for (Index j = 0; j < m; ++j) {
      if (isIneq(j)) {
        err = std::max(err, std::abs(gf(j) - s(j)));
        errD = std::max(errD, std::abs(gf(j) - s(j)));
        err = std::max(err, std::abs(lambda(j) * s(j) - mu));
        errC = std::max(errC, std::abs(lambda(j) * s(j) - mu));
      } else {
        err = std::max(err, std::abs(gf(j)));
      }
    }
    ++sameMu;
#ifdef ATTNSVM_IPM_TRACE
    std::fprintf(stderr, "top %3d mu/mu0 %.3e errD %.3e errC %.3e best %.3e m %ld\n", it,
                 mu / muRef, errD, errC, best.gap, (long)m);
#endif
    // Approximately centered (a wide neighbourhood of the central path is enough for the
    // predictor): dual residual small relative to the margins and complementarity within a factor
    // of mu.
    const bool centered =
        err <= 10.0 * mu || (errD <= kCenter * bScale && errC <= 0.9 * mu) || sameMu > 6;
    if (centered && mu > muMin) {
      // Predictor along the central path: d lambda / d mu solves K lambda' = r' with
      // r' = -(w? grad phi : 0) + 1/lambda, and s' = (1 - s lambda') / lambda. Near the solution
      // the path is almost linear in mu, so long steps in mu are safe.
      K.triangularView<Eigen::Lower>() = w * H;  // only the lower triangle is used
      for (Index j = 0; j < m; ++j) {
        rhs(j) = weighted ? -grad(j) : 0.0;
        if (isIneq(j)) {
          K(j, j) += s(j) / lambda(j);
          rhs(j) += 1.0 / lambda(j);
        }
      }
      Eigen::LLT<Mat>& tangent = llt;
      tangent.compute(K);
      const double r = mu / muRef;
      const double muTarget = std::max(muMin, muRef * std::min(0.1 * r, r * std::sqrt(r)));
      bool moved = false;
      if (tangent.info() == Eigen::Success) {
        dl = tangent.solve(rhs);
        for (Index j = 0; j < m; ++j) ds(j) = isIneq(j) ? (1.0 - s(j) * dl(j)) / lambda(j) : 0.0;
        // Largest fraction theta of the mu decrease keeping lambda, s > 0 and lambda in the domain.
        const double dmu = muTarget - mu;  // < 0
        double theta = 1.0;
        for (Index j = 0; j < m; ++j) {
          if (!isIneq(j)) continue;
          if (dmu * dl(j) < 0.0) theta = std::min(theta, -0.9 * lambda(j) / (dmu * dl(j)));
          if (dmu * ds(j) < 0.0) theta = std::min(theta, -0.9 * s(j) / (dmu * ds(j)));
        }
#ifdef ATTNSVM_IPM_TRACE
        const double theta0 = theta;
#endif
        for (int ls = 0; ls < 30 && theta > 1e-3; ++ls, theta *= 0.5) {
          trial = lambda + (theta * dmu) * dl;
          if (dl.allFinite() && model.value(trial, phi)) {
#ifdef ATTNSVM_IPM_TRACE
            std::fprintf(stderr, "pred theta0 %.3e theta %.3e\n", theta0, theta);
#endif
            lambda = trial;
            s += (theta * dmu) * ds;
            mu += theta * dmu;
            moved = true;
            break;
          }
        }
      }
      if (!moved) {
        model.value(lambda, phi);
        mu = std::max(muMin, 0.5 * mu);
      }
      sameMu = 0;
      continue;
    }

    // Newton system.
    K.triangularView<Eigen::Lower>() = w * H;
    for (Index j = 0; j < m; ++j) {
      if (isIneq(j)) {
        K(j, j) += s(j) / lambda(j);
        rhs(j) = -gf(j) + mu / lambda(j);
      } else {
        rhs(j) = -gf(j);
      }
    }
    llt.compute(K);
    double ridge = 1e-14 * std::max(1e-300, K.diagonal().cwiseAbs().maxCoeff());
    while (llt.info() != Eigen::Success && ridge < 1e300) {
      Mat Kr = K;
      Kr.diagonal().array() += ridge;
      llt.compute(Kr);
      ridge *= 100.0;
    }
    dl = llt.solve(rhs);
    if (!dl.allFinite()) break;
    for (Index j = 0; j < m; ++j)
      ds(j) = isIneq(j) ? mu / lambda(j) - s(j) - s(j) / lambda(j) * dl(j) : 0.0;

    // Fraction to the boundary.
    const double tau = 0.995;
    double aP = 1.0, aD = 1.0;
    for (Index j = 0; j < m; ++j) {
      if (!isIneq(j)) continue;
      if (dl(j) < 0.0) aP = std::min(aP, -tau * lambda(j) / dl(j));
      if (ds(j) < 0.0) aD = std::min(aD, -tau * s(j) / ds(j));
    }
    // Armijo backtracking on the barrier merit (descent: K is positive definite).
    const double m0 = merit(lambda, phi);
    double slope = -rhs.dot(dl);  // grad(merit) . dl
    double alpha = aP, phiTrial = phi;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls) {
      trial = lambda + alpha * dl;
      if (model.value(trial, phiTrial) && merit(trial, phiTrial) <= m0 + 1e-4 * alpha * slope) {
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    if (!accepted) {
      model.value(lambda, phi);  // restore the model's point
      if (mu <= muMin) break;
      // No progress possible at this mu: shrink it anyway.
      mu = std::max(muMin, 0.2 * mu);
      continue;
    }
#ifdef ATTNSVM_IPM_TRACE
    std::fprintf(stderr, "it %3d errD %.3e mu %.3e err %.3e aP %.3e alpha %.3e aD %.3e best %.3e\n",
                 it, errD, mu, err, aP, alpha, aD, best.gap);
#endif
    lambda = trial;
    phi = phiTrial;
    s += aD * ds;
    for (Index j = 0; j < m; ++j) {
      if (!isIneq(j)) continue;
      // Keep s within a factor 1e10 of mu / lambda (standard safeguard).
      const double c = mu / lambda(j);
      s(j) = std::min(std::max(s(j), c / 1e10), c * 1e10);
    }
  }
  if (!haveBest) {
    best = MarginSolution();
    best.W = Mat::Zero(pb.rows, pb.cols);
    best.lambda = Vec::Zero(m);
    best.status = SolveStatus::MaxIterations;
    best.message = std::string(name) + ": no certified feasible iterate";
  } else {
    best.status =
        best.gap <= std::max(target, 1e-6) ? SolveStatus::Optimal : SolveStatus::MaxIterations;
    if (best.status != SolveStatus::Optimal)
      best.message =
          std::string(name) + ": stopped at certified relative gap " + std::to_string(best.gap);
    // Report lambda as multipliers of min 1/2 ||W||^2 (see solvers_internal.hpp).
    const double lb = best.lambda.dot(pb.b);
    if (lb > 0.0) best.lambda *= best.objective * best.objective / lb;
  }
  best.iterations = it;
  return best;
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
