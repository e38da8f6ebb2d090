// Helpers shared by `train` and the experiments (see analysis_util.hpp).
#include "analysis_util.hpp"

#include <cmath>

#include "attnsvm/errors.hpp"

namespace attnsvm::cli {

std::optional<Mat> svmDirection(const Dataset& data, const ModelSpec& spec,
                                const std::vector<int>& selection, NormKind norm, double p,
                                MarginSolution* out) {
  SolverSettings settings;
  settings.norm = norm;
  settings.p = norm == NormKind::Lp ? p : 2.0;
  const MarginProblem problem = spec.param == Parameterization::Prompt
                                    ? promptSvmProblem(data, spec.Wk, selection)
                                    : attentionSvmProblem(data, spec.attention, selection);
  MarginSolution sol;
  try {
    sol = solveMargin(problem, settings);
  } catch (const NumericalError& e) {
    sol.status = SolveStatus::MaxIterations;
    sol.message = e.what();
  }
  const bool ok = sol.status == SolveStatus::Optimal;
  std::optional<Mat> result;
  if (ok) result = sol.W;
  if (out) *out = std::move(sol);
  return result;
}

std::string verdictName(const Dataset& data, const ModelSpec& spec, const std::vector<int>& selection) {
  if (spec.param != Parameterization::Prompt &&
      (spec.attention == AttentionKind::Cross || spec.attention == AttentionKind::Self)) {
    return toString(analyzeSelection(data, spec.attention, selection).verdict);
  }
  const OptimalTokens opt = optimalTokens(data);
  if (static_cast<int>(selection.size()) == data.n) {
    bool global = true;
    for (int i = 0; i < data.n; ++i) {
      bool tied = false;
      for (int t : opt.ties[i]) tied = tied || t == selection[i];
      global = global && tied;
    }
    return global ? toString(Verdict::GloballyOptimal) : "not_globally_optimal";
  }
  return "unknown";
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

void meanStd(const std::vector<std::vector<double>>& series, std::vector<double>& m,
             std::vector<double>& sd) {
  m.clear();
  sd.clear();
  if (series.empty()) return;
  const std::size_t len = series[0].size();
  m.assign(len, 0.0);
  sd.assign(len, 0.0);
  for (std::size_t k = 0; k < len; ++k) {
    double s = 0.0;
    for (const auto& row : series) s += row[k];
    const double mu = s / static_cast<double>(series.size());
    double q = 0.0;
    for (const auto& row : series) q += (row[k] - mu) * (row[k] - mu);
    m[k] = mu;
    sd[k] = std::sqrt(q / static_cast<double>(series.size()));
  }
}

}  // namespace attnsvm::cli
