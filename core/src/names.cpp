// The one table of the public enums' wire names (CLI JSON and options, wasm API, docs): the first
// name of each row is canonical (what every writer prints), the others are accepted aliases.
#include <string>
#include <utility>
#include <vector>

#include "attnsvm/errors.hpp"
#include "attnsvm/train.hpp"

namespace attnsvm {

namespace {

struct OptimizerRow {
  Optimizer value;
  std::vector<const char*> names;  // canonical first
};

const std::vector<OptimizerRow>& optimizerTable() {
  static const std::vector<OptimizerRow> table = {
      {Optimizer::GD, {"gd"}},
      {Optimizer::NGD, {"ngd"}},
      {Optimizer::MD, {"md"}},
      {Optimizer::NMD, {"nmd"}},
      {Optimizer::NMDFro, {"nmd-fro", "nmd_fro"}},
      {Optimizer::Adam, {"adam"}},
  };
  return table;
}

}  // namespace

const char* optimizerName(Optimizer o) {
  for (const OptimizerRow& row : optimizerTable())
    if (row.value == o) return row.names.front();
  return "ngd";
}

Optimizer parseOptimizer(const std::string& name, const std::string& what) {
  std::string accepted;
  for (const OptimizerRow& row : optimizerTable()) {
    for (const char* n : row.names)
      if (name == n) return row.value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(row.names.front());
  }
  throw InputError(what + " '" + name + "' is unknown; expected one of " + accepted);
}

bool isMirrorOptimizer(Optimizer o) { return o == Optimizer::MD || o == Optimizer::NMD || o == Optimizer::NMDFro; }
bool isNormalizedOptimizer(Optimizer o) { return o == Optimizer::NGD || o == Optimizer::NMD || o == Optimizer::NMDFro; }

}  // namespace attnsvm
