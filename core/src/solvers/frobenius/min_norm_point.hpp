// The Frobenius max-margin problem as a minimum-norm point, solved by a W-space interior point
// (min_norm_point.cpp; docs/SOLVERS.md, "Large problems"). Internal.
#pragma once
#include <limits>

#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {
namespace detail {

// The interior point stops at a certified relative gap of max(tolerance, kMinNormPointTargetGap),
// or when its bounds stall (rounding level).
constexpr double kMinNormPointTargetGap = 1e-12;
constexpr int kMinNormPointMaxIterations = 200;
// A Farkas candidate is checked (farkasValid, the same tolerance) once the margin's upper bound is
// below this.
constexpr double kFarkasResidual = 1e-9;

struct MinNormPointResult {
  SolveStatus status = SolveStatus::MaxIterations;  // Infeasible (farkas checked) or not decided
  Mat W;  // when a separating W was found: the Frobenius SVM candidate (feasible up to rounding)
  Vec lambda;                                            // its multipliers (any positive scale)
  Vec farkas;                                            // Infeasible: the checked certificate
  double gap = std::numeric_limits<double>::infinity();  // certified relative gap of (W, lambda)
  double marginLower = 0.0, marginUpper = std::numeric_limits<double>::infinity();
  int iterations = 0;
};

// Inequalities only, every b_j > 0 and no zero constraint (the Att-SVM, prompt and head SVMs; not
// the relaxed prompt SVM nor the generalized SVM's equalities).
bool minNormPointApplies(const MarginProblem& problem);
MinNormPointResult minNormPoint(const MarginProblem& problem, const SolverSettings& settings);

}  // namespace detail
}  // namespace attnsvm
