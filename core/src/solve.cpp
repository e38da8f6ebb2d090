// solveMargin: input checks, dispatch to the solver of the norm, infeasibility explanation and
// the certificate. The Frobenius active-set method runs first for every norm: it is exact, it
// detects infeasibility with a Farkas certificate (the feasible set does not depend on the norm),
// and its multipliers warm-start the interior-point solvers of the other norms.
#include <chrono>
#include <cmath>
#include <string>

#include "attnsvm/errors.hpp"
#include "attnsvm/margin.hpp"
#include "solvers_internal.hpp"

namespace attnsvm {

namespace {

void checkSettings(const SolverSettings& st) {
  if (st.norm == NormKind::Lp && !(st.p > 1.0 && std::isfinite(st.p)))
    throw InputError("p = " + std::to_string(st.p) + " must be in (1, inf) for the l_p norm");
  if (!(st.tolerance > 0.0)) throw InputError("tolerance must be positive");
  if (!(st.feasibilityTol > 0.0)) throw InputError("feasibilityTol must be positive");
  if (!(st.supportTol > 0.0)) throw InputError("supportTol must be positive");
  if (st.maxIterations <= 0) throw InputError("maxIterations must be positive");
}

}  // namespace

MarginSolution solveMargin(const MarginProblem& problem, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  detail::checkProblem(problem);
  checkSettings(settings);

  MarginSolution sol = detail::solveFrobenius(problem, settings);
  if (sol.status == SolveStatus::Infeasible) {
    sol.message = detail::explainInfeasibility(problem, sol.farkas);
    sol.W = Mat::Zero(problem.rows, problem.cols);
    sol.lambda = Vec::Zero(problem.constraints());
  } else if (sol.status == SolveStatus::Optimal) {
    // Nuclear norm of a vector-shaped W is its Euclidean norm; l_2 is Frobenius.
    const bool vectorShaped = problem.rows == 1 || problem.cols == 1;
    const bool sameAsFrobenius =
        settings.norm == NormKind::Frobenius ||
        (settings.norm == NormKind::Nuclear && vectorShaped) ||
        (settings.norm == NormKind::Lp && settings.p == 2.0);
    if (!sameAsFrobenius) {
      const int froIterations = sol.iterations;
      MarginSolution other = settings.norm == NormKind::Nuclear
                                 ? detail::solveNuclear(problem, settings, sol)
                                 : detail::solveLp(problem, settings, sol);
      other.iterations += froIterations;
      sol = std::move(other);
    }
  }
  certify(problem, settings, sol);
  sol.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sol;
}

}  // namespace attnsvm
