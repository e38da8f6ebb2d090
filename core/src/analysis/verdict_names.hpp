// The wire names of Verdict (attnsvm/analysis/selection.hpp), beside the enum (selection.cpp):
// globally_optimal, locally_optimal, neither, infeasible, boundary, undecided. vocab/names.cpp
// reads the table for wireName, parseWireName and wireNames.
#pragma once
#include "attnsvm/analysis/selection.hpp"
#include "base/wire_table.hpp"

namespace attnsvm {

WireTable verdictNames();

}  // namespace attnsvm
