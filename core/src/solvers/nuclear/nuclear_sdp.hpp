// Nuclear-norm solver on the SDP formulation (nuclear_sdp.cpp; docs/SOLVERS.md). Internal.
#pragma once
#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {
namespace detail {

// Status `optimal` needs a certified relative gap of at most max(tolerance, kNuclearOptimalGap)
// (and a violation within feasibilityTol).
constexpr double kNuclearOptimalGap = 1e-8;
constexpr int kSdpMaxIterations = 100;
// The exact-rank finish replaces the interior point's W when its certified gap is at most
// max(that of the interior point, kNuclearPolishGap).
constexpr double kNuclearPolishGap = 1e-9;

// Primal-dual (Mehrotra, HKM direction) interior point on min (tr P + tr R) / 2 s.t.
// [[P, W], [W^T, R]] >= 0, <A_j, W> >= b_j. `warm` is the Frobenius solution (its multipliers start
// the dual, its norm sets the scale). Returns the best certified iterate (W, lambda, objective,
// lowerBound, gap, maxViolation, iterations); status optimal iff the gap bar above is met; with no
// certified iterate gap = inf and W = 0.
MarginSolution solveNuclearSdp(const MarginProblem& problem, const SolverSettings& settings,
                               const MarginSolution& warm);

// Exact-rank finish (nuclear_face.cpp): if the singular values of sol.W show a clear drop after r
// (a degenerate tail ~ sqrt(mu)), W is truncated to rank r and corrected in the tangent space of
// the rank-r matrices until the active constraints hold exactly, then certified with sol.lambda.
// Replaces sol's W, objective, lowerBound, gap, maxViolation when that certificate is good enough
// (see kNuclearPolishGap); returns whether it did.
bool polishExactRank(const MarginProblem& problem, const SolverSettings& settings,
                     MarginSolution& sol);

}  // namespace detail
}  // namespace attnsvm
