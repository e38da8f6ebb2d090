// Helpers shared by `train` and the experiments (see analysis_util.hpp).
#include "analysis_util.hpp"

#include <cmath>

#include "attnsvm/base/errors.hpp"

namespace attnsvm::cli {

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
