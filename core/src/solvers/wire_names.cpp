// The wire names of the solvers' enums (solvers/wire_names.hpp): toString(SolveStatus) and the
// problem kind in margin_problem.cpp's messages read them here, vocab/names.cpp for parsing.
#include "solvers/wire_names.hpp"

namespace attnsvm {

WireTable solveStatusNames() {
  static constexpr WireRow rows[] = {
      {static_cast<int>(SolveStatus::Optimal), {"optimal"}},
      {static_cast<int>(SolveStatus::Infeasible), {"infeasible"}},
      {static_cast<int>(SolveStatus::MaxIterations), {"max_iterations"}},
      {static_cast<int>(SolveStatus::Boundary), {"boundary"}},
  };
  return {rows, static_cast<int>(sizeof(rows) / sizeof(rows[0]))};
}

WireTable svmProblemKindNames() {
  static constexpr WireRow rows[] = {
      {static_cast<int>(SvmProblemKind::Attention), {"attention"}},
      {static_cast<int>(SvmProblemKind::Prompt), {"prompt"}},
      {static_cast<int>(SvmProblemKind::RelaxedPrompt), {"relaxed-prompt"}},
      {static_cast<int>(SvmProblemKind::Head), {"head"}},
  };
  return {rows, static_cast<int>(sizeof(rows) / sizeof(rows[0]))};
}

const char* toString(SolveStatus status) {
  return canonicalName(solveStatusNames(), static_cast<int>(status));
}
const char* toString(SvmProblemKind kind) {
  return canonicalName(svmProblemKindNames(), static_cast<int>(kind));
}

}  // namespace attnsvm
