// The norm registry: one entry per NormKind with its wire names, the norm and its dual norm (the
// certificate's lower bound divides by the dual norm, SPEC section 3), when its max-margin problem
// is the Frobenius one, and its solver. certify(), solveMargin's dispatch, matrixNorm / dualNorm
// and the wire vocabulary read it. Adding a norm: its NormKind value (margin.hpp), its entry in
// core/src/solvers/norms.cpp and its solver (a folder core/src/solvers/<name>/).
#pragma once
#include <vector>

#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {

// A solver of the problem in one norm, warm-started from the Frobenius solution (solve.cpp runs it
// on a working set of the constraints).
using NormSolver = MarginSolution (*)(const MarginProblem& problem, const SolverSettings& settings,
                                      const MarginSolution& warm);

struct NormInfo {
  NormKind kind;
  const char* names[3];  // the wire name first, then accepted aliases (null: unused)
  const char* dualName;  // its dual norm, for a reader: "fro", "spectral", "lq"
  bool usesP;            // reads SolverSettings::p (checked to be in (1, inf))
  double (*norm)(const ConstMatRef& w, double p);
  double (*dual)(const ConstMatRef& w, double p);
  // The problem's solution in this norm is the Frobenius one (solveMargin then stops there).
  bool (*frobeniusSolves)(const MarginProblem& problem, double p);
  // The solver for the whole problem (its size may choose one; null where frobeniusSolves is
  // always true).
  NormSolver (*solverFor)(const MarginProblem& problem);
};

// Every norm, in the enum's order (the wire vocabulary's order).
const std::vector<NormInfo>& normRegistry();
const NormInfo& normInfo(NormKind norm);

}  // namespace attnsvm
