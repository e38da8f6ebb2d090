// Helpers shared by `train` and the experiments: SVM directions of a selection, correlations.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/margin.hpp"
#include "attnsvm/model.hpp"
#include "attnsvm/selection.hpp"

namespace attnsvm::cli {

// The SVM solution (W^mm for the norm) of a selection for the model's parameterization:
// Att-SVM for W / (K,Q) (attention kind of the spec), prompt SVM (with spec.Wk) for prompts.
// Returns nullopt when the problem is infeasible or the solver did not converge.
std::optional<Mat> svmDirection(const Dataset& data, const ModelSpec& spec,
                                const std::vector<int>& selection, NormKind norm, double p = 2.0,
                                MarginSolution* out = nullptr);

// Verdict of a selection: the core's verdict for W / (K,Q) (cross or self attention); for prompts
// "globally_optimal" when every sequence selects its optimal token, else "not_globally_optimal" (the feasibility/local
// optimality of the prompt SVM is not analysed).
std::string verdictName(const Dataset& data, const ModelSpec& spec, const std::vector<int>& selection);

// Mean over the entries of v.
double mean(const std::vector<double>& v);

// Mean and (population) standard deviation over seeds of per-seed series of equal length,
// reduced in seed order (so the result does not depend on the thread count).
void meanStd(const std::vector<std::vector<double>>& series, std::vector<double>& mean,
             std::vector<double>& stdev);

}  // namespace attnsvm::cli
