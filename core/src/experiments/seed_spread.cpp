// The spread over seeds of the experiments' series (seed_spread.hpp): one arithmetic for the CLI,
// the wasm module and the lab.
#include "attnsvm/experiments/seed_spread.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/base/errors.hpp"

namespace attnsvm {

namespace {
constexpr double kSpreadNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double quantileSorted(const std::vector<double>& sorted, double prob) {
  if (sorted.empty()) throw InputError("quantile of no values");
  if (!(prob >= 0.0 && prob <= 1.0))
    throw InputError("quantile probability " + std::to_string(prob) + " is outside [0, 1]");
  const double h = static_cast<double>(sorted.size() - 1) * prob;
  const std::size_t j = static_cast<std::size_t>(std::floor(h));
  const double frac = h - static_cast<double>(j);
  // (j + 1 exists unless h = n - 1, where frac = 0)
  if (frac == 0.0) return sorted[j];
  return sorted[j] + frac * (sorted[j + 1] - sorted[j]);
}

SeedSpread seedSpread(const double* values, std::size_t count, std::size_t stride,
                      std::vector<double>& scratch) {
  SeedSpread s;
  scratch.clear();
  double sum = 0.0;
  for (std::size_t k = 0; k < count; ++k) {
    const double x = values[k * stride];
    if (!std::isfinite(x)) continue;
    scratch.push_back(x);
    sum += x;
  }
  s.count = static_cast<int>(scratch.size());
  if (s.count == 0) {
    s.mean = s.std = s.median = s.q10 = s.q90 = kSpreadNaN;
    return s;
  }
  // The CLI's arithmetic since its first version (cli/experiments/common.cpp stats): sum in
  // order, divide by the count, then the squared deviations in order.
  s.mean = sum / s.count;
  double q = 0.0;
  for (double x : scratch) q += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(q / s.count);
  std::sort(scratch.begin(), scratch.end());
  s.median = quantileSorted(scratch, 0.5);
  s.q10 = quantileSorted(scratch, kSpreadLowerProb);
  s.q90 = quantileSorted(scratch, kSpreadUpperProb);
  return s;
}

namespace {

void resizeSpread(SeriesSpread& out, std::size_t n) {
  for (std::vector<double>* v : {&out.mean, &out.std, &out.median, &out.q10, &out.q90})
    v->assign(n, kSpreadNaN);
}

void storeSpread(SeriesSpread& out, std::size_t at, const SeedSpread& s) {
  if (s.count == 0) return;  // (NaN already)
  out.mean[at] = s.mean;
  out.std[at] = s.std;
  out.median[at] = s.median;
  out.q10[at] = s.q10;
  out.q90[at] = s.q90;
}

}  // namespace

SeriesSpread seriesSpread(const std::vector<std::vector<double>>& perRun, std::size_t length) {
  SeriesSpread out;
  resizeSpread(out, length);
  std::vector<double> column(perRun.size()), scratch;
  scratch.reserve(perRun.size());
  for (std::size_t i = 0; i < length; ++i) {
    for (std::size_t k = 0; k < perRun.size(); ++k)
      column[k] = i < perRun[k].size() ? perRun[k][i] : kSpreadNaN;
    storeSpread(out, i, seedSpread(column.data(), column.size(), 1, scratch));
  }
  return out;
}

SeriesSpread seriesSpread(const std::vector<double>& values, int runs, int length) {
  if (runs < 1 || length < 1)
    throw InputError("seriesSpread: runs = " + std::to_string(runs) +
                     " and length = " + std::to_string(length) + " must be >= 1");
  const std::size_t block = static_cast<std::size_t>(runs) * static_cast<std::size_t>(length);
  if (values.size() % block != 0)
    throw InputError("seriesSpread: values has " + std::to_string(values.size()) +
                     " entries, not a multiple of runs x length = " + std::to_string(block));
  const std::size_t series = values.size() / block;
  SeriesSpread out;
  resizeSpread(out, series * static_cast<std::size_t>(length));
  std::vector<double> scratch;
  scratch.reserve(static_cast<std::size_t>(runs));
  for (std::size_t m = 0; m < series; ++m)
    for (int i = 0; i < length; ++i) {
      const std::size_t at = m * static_cast<std::size_t>(length) + static_cast<std::size_t>(i);
      storeSpread(
          out, at,
          seedSpread(values.data() + m * block + static_cast<std::size_t>(i),
                     static_cast<std::size_t>(runs), static_cast<std::size_t>(length), scratch));
    }
  return out;
}

}  // namespace attnsvm
