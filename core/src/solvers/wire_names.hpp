// The wire names of the solvers' enums (attnsvm/solvers/margin.hpp), beside the enums
// (wire_names.cpp): the solvers name a status or a problem kind without the vocabulary layer above
// them; vocab/names.cpp reads these tables for wireName, parseWireName and wireNames.
#pragma once
#include "attnsvm/solvers/margin.hpp"
#include "base/wire_table.hpp"

namespace attnsvm {

WireTable solveStatusNames();     // optimal, infeasible, max_iterations, boundary
WireTable svmProblemKindNames();  // attention, prompt, relaxed-prompt, head
const char* toString(SvmProblemKind kind);

}  // namespace attnsvm
