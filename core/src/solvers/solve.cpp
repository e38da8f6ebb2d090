// solveMargin: input checks, dispatch to the solver of the norm, infeasibility explanation and
// the certificate. The Frobenius solve runs first for every norm (decideFrobenius: the exact active
// set for small problems, the minimum-norm-point interior point for large ones): it decides
// feasibility with a certificate either way (the feasible set does not depend on the norm), and
// its solution and multipliers choose the working set and warm-start the interior-point solvers of
// the other norms.
#include <chrono>
#ifdef ATTNSVM_MNP_TRACE
#include <cstdio>
#endif
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/solvers/norms.hpp"
#include "base/text.hpp"
#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  constexpr double kWorkingSetSlack = 1.5;  // initial working set: <A_j, W_fro> <= 1.5 b_j

  void checkSettings(const SolverSettings& st) {
    if (normInfo(st.norm).usesP && !(st.p > 1.0 && std::isfinite(st.p)))
      throw InputError("p = " + std::to_string(st.p) + " must be in (1, inf) for the " +
                       normInfo(st.norm).names[0] + " norm");
    if (!(st.tolerance > 0.0)) throw InputError("tolerance must be positive");
    if (!(st.feasibilityTol > 0.0)) throw InputError("feasibilityTol must be positive");
    if (!(st.supportTol > 0.0)) throw InputError("supportTol must be positive");
    if (st.maxIterations <= 0) throw InputError("maxIterations must be positive");
  }

  // Constraint generation around the interior-point solvers: solve on a working set S (the
  // constraints that are nearly active for the Frobenius solution), add every constraint the
  // result violates, repeat. Multipliers outside S are zero, so the final certificate is valid for
  // the full problem. The IPM costs O(|S|^3) per step instead of O(m^3).
  using SubSolver = MarginSolution (*)(const MarginProblem&, const SolverSettings&,
                                       const MarginSolution&);

  // The unit of W for the interior points: ||W_fro||_F when that is usable, else 1 (the nuclear
  // solver scales on its own, and does not need it).
  double scaleToFrobenius(const MarginSolution& fro) {
    const double k = fro.W.norm();
    return std::isfinite(k) && k > 0.0 ? k : 1.0;
  }

  MarginSolution solveOnWorkingSet(const MarginProblem& pb, const SolverSettings& st,
                                   const MarginSolution& fro, SubSolver solver) {
    const Index m = pb.b.size();
    const Vec c0 = detail::constraintValues(pb, fro.W);
    std::vector<char> in(static_cast<std::size_t>(m), 0);
    for (Index j = 0; j < m; ++j) {
      const bool eq = !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
      if (eq || fro.lambda(j) > 0.0 || pb.b(j) <= 0.0 || c0(j) <= kWorkingSetSlack * pb.b(j))
        in[static_cast<std::size_t>(j)] = 1;
    }
    MarginSolution sol;
    int iterations = 0;
    for (int round = 0; round < 20; ++round) {
      std::vector<Index> S;
      for (Index j = 0; j < m; ++j)
        if (in[static_cast<std::size_t>(j)]) S.push_back(j);
      MarginProblem sub = detail::restrictTo(pb, S);
      // Solved in units of the Frobenius solution (A_j scaled by kappa = ||W_fro||_F, W by
      // 1 / kappa): the interior points' floors and starting slacks assume ||W|| ~ 1, and the
      // real-image SVMs have ||W|| up to 2e5 (issue 26). The certificate does not depend on the
      // scale of lambda, and W goes back by kappa.
      const double kappa = scaleToFrobenius(fro);
      sub.U *= kappa;
      MarginSolution warm;
      warm.W = fro.W / kappa;
      warm.lambda.resize(static_cast<Index>(S.size()));
      for (std::size_t i = 0; i < S.size(); ++i)
        warm.lambda(static_cast<Index>(i)) = fro.lambda(S[i]);
      MarginSolution part = solver(sub, st, warm);
      part.W *= kappa;
      iterations += part.iterations;
#ifdef ATTNSVM_MNP_TRACE
      std::fprintf(stderr, "working set round %d |S| %zu: %s gap %.3e after %d iterations\n", round,
                   S.size(), toString(part.status), part.gap, part.iterations);
#endif
      sol = part;
      sol.lambda = Vec::Zero(m);
      for (std::size_t i = 0; i < S.size(); ++i)
        sol.lambda(S[i]) = part.lambda(static_cast<Index>(i));
      if (part.status == SolveStatus::Infeasible || S.size() == static_cast<std::size_t>(m)) break;
      const Vec c = detail::constraintValues(pb, sol.W);
      bool added = false;
      for (Index j = 0; j < m; ++j) {
        if (in[static_cast<std::size_t>(j)]) continue;
        if (c(j) < pb.b(j) * (1.0 + 1e-9)) {  // violated or nearly active: belongs to the set
          in[static_cast<std::size_t>(j)] = 1;
          added = true;
        }
      }
      if (!added) break;
    }
    sol.iterations = iterations;
    return sol;
  }

  }  // namespace

  MarginSolution solveMargin(const MarginProblem& problem, const SolverSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    detail::checkProblem(problem);
    checkSettings(settings);

    MarginSolution sol = detail::decideFrobenius(problem, settings);
    if (sol.status == SolveStatus::Infeasible) {
      sol.message = detail::explainInfeasibility(problem, sol.farkas);
      sol.W = Mat::Zero(problem.rows, problem.cols);
      sol.lambda = Vec::Zero(problem.constraints());
    } else if (sol.status == SolveStatus::Optimal) {
      const NormInfo& norm = normInfo(settings.norm);  // the norm registry (norms.cpp)
      if (!norm.frobeniusSolves(problem, settings.p)) {
        const int froIterations = sol.iterations;
        const double lower = sol.marginLower, upper = sol.marginUpper;
        MarginSolution other = solveOnWorkingSet(problem, settings, sol, norm.solverFor(problem));
        other.iterations += froIterations;
        other.marginLower = lower;
        other.marginUpper = upper;
        sol = std::move(other);
      }
    }
    certify(problem, settings, sol);
    // "optimal" promises a certified solution: a solver that stops with a constraint violated far
    // beyond its accuracy (1e3 x feasibilityTol) has not solved the problem, whatever it believed.
    if (sol.status == SolveStatus::Optimal && sol.maxViolation > 1e3 * settings.feasibilityTol) {
      sol.status = SolveStatus::MaxIterations;
      sol.message = "the solver stopped with a constraint violated by " +
                    detail::sci(sol.maxViolation) +
                    " (not a solution; the problem is probably nearly infeasible)";
    }
    sol.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return sol;
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
