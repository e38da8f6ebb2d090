// Helpers shared by `train` and the experiments: SVM directions of a selection, correlations.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"

namespace attnsvm::cli {

// svmDirection and verdictName moved to the core (attnsvm/experiments/experiment.hpp) for the wasm
// module.
using attnsvm::svmDirection;
using attnsvm::verdictName;

// Mean over the entries of v.
double mean(const std::vector<double>& v);

// Mean and (population) standard deviation over seeds of per-seed series of equal length,
// reduced in seed order (so the result does not depend on the thread count).
void meanStd(const std::vector<std::vector<double>>& series, std::vector<double>& mean,
             std::vector<double>& stdev);

}  // namespace attnsvm::cli
