// Nuclear-norm solver on the SDP formulation (nuclear_sdp.cpp; docs/SOLVERS.md). Internal.
#pragma once
#include "attnsvm/margin.hpp"

namespace attnsvm {
namespace detail {

// Status `optimal` needs a certified relative gap of at most max(tolerance, kNuclearOptimalGap)
// (and a violation within feasibilityTol).
constexpr double kNuclearOptimalGap = 1e-8;
constexpr int kSdpMaxIterations = 100;

// Primal-dual (Mehrotra, HKM direction) interior point on min (tr P + tr R) / 2 s.t.
// [[P, W], [W^T, R]] >= 0, <A_j, W> >= b_j. `warm` is the Frobenius solution (its multipliers start
// the dual, its norm sets the scale). Returns the best certified iterate (W, lambda, objective,
// lowerBound, gap, maxViolation, iterations); status optimal iff the gap bar above is met; with no
// certified iterate gap = inf and W = 0.
MarginSolution solveNuclearSdp(const MarginProblem& problem, const SolverSettings& settings,
                               const MarginSolution& warm);

}  // namespace detail
}  // namespace attnsvm
