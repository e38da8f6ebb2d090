// Nuclear-norm max-margin solver: the primal-dual interior point on the SDP formulation
// (nuclear_sdp.cpp) with its exact-rank finish (nuclear_face.cpp); docs/SOLVERS.md.
//
// The barrier method on the dual alone that this file held before (issue 16) stalled on ~2% of the
// instances (certified gaps 1e-5 .. 1e-3: its predictor steps left the central path and its polish
// took its support from multipliers that had not yet decayed); docs/SOLVERS.md keeps the
// measurement. It was kept as a fallback at first, but no instance of the stress families or of the
// rank experiment ever needed it, and its Hessian code cost WebAssembly size; git history has it.
#include "cold.hpp"
#include "solvers/nuclear/nuclear_sdp.hpp"
#include "solvers/solvers_internal.hpp"

namespace attnsvm {
namespace detail {
ATTNSVM_COLD_BEGIN

// Status `optimal` only with a certified gap <= max(tolerance, kNuclearOptimalGap) and violation
// <= feasibilityTol; otherwise `max_iterations` with the best certificate found (or W = 0 and a
// message when no iterate could be certified).
MarginSolution solveNuclear(const MarginProblem& pb, const SolverSettings& st,
                            const MarginSolution& warm) {
  return solveNuclearSdp(pb, st, warm);
}

ATTNSVM_COLD_END
}  // namespace detail
}  // namespace attnsvm
