// Internals shared by the experiment files: the thread pool loop, aggregation over seeds, CSV
// formatting.
#pragma once
#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/seed_spread.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/train/train.hpp"
#include "experiments.hpp"
#include "progress.hpp"

namespace attnsvm::cli {

using nlohmann::json;

// Runs fn(k) for k in [0, count) on `threads` threads (work stealing by an atomic counter).
// Exceptions are collected per item and the first one (lowest k) is rethrown.
void parallelFor(int count, int threads, Progress& progress, const std::function<void(int)>& fn);
int resolveThreads(int threads);
// Wall time since t0, for the experiments' "seconds" fields.
inline double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
// CPU time of the calling thread: the machine is shared, so wall time says little about a run.
double threadCpuSeconds();
// The JSON of a --settings option: a JSON object, or @file to read one.
json settingsOption(const std::string& option);

// Training with snapshots lives in the core (attnsvm/experiments/experiment.hpp) so that wasm runs
// it too.
using attnsvm::defaultEvery;
using attnsvm::logSchedule;
using attnsvm::RunRecord;
using attnsvm::runTraining;

std::string csvNum(double x);
// CSV of a series block: iteration, then <name>/mean, <name>/std for each metric (columnName).
std::string seriesCsv(const std::vector<int>& iteration, const std::vector<std::string>& names,
                      const std::vector<std::vector<double>>& means,
                      const std::vector<std::vector<double>>& stds,
                      const std::string& prefixColumn = "", const std::string& prefixValue = "",
                      bool header = true);

void checkRange(int value, int lo, int hi, const std::string& option);
int pick(int value, int fallback);  // value if set (>= 0 and not -1), else fallback

json settingsJson(const std::string& name, const ExperimentOptions& o, int seeds, int iters,
                  int threads);

}  // namespace attnsvm::cli

namespace attnsvm::cli {

// Per-iteration series over seeds: mean and std (non-finite values skipped), in seed order, and
// the median, q10 and q90 of the log axes' bands (the core's seriesSpread, seed_spread.hpp: the
// numbers the wasm module gives the lab). The JSON writes all five per series (quantiles: unless
// `quantiles` is false, a single run's block); the CSV the mean and std only (its columns as ever).
struct SeriesBlock {
  std::vector<int> iteration;
  std::vector<std::string> names;
  std::vector<std::vector<double>> means, stds;
  std::vector<SeriesSpread> spreads;  // per name (mean and std also in means, stds)
  bool quantiles = true;
  // A new experiment gets every statistic by calling this once per series.
  void add(const std::string& name, const std::vector<std::vector<double>>& perSeed);
  json toJson() const;
  std::string csv(const std::string& prefixColumn = "", const std::string& prefixValue = "",
                  bool header = true) const;
};

// Mean and std of finite values (NaN when there are none); count of finite values.
struct Stats {
  double mean = 0.0, std = 0.0, min = 0.0, max = 0.0;
  int count = 0;
};
Stats stats(const std::vector<double>& values);

// Mean/std over `count` consecutive seed results (seed order) of each of their series.
SeriesBlock aggregateSeries(const SeedResult* first, int count);
// One final value of `count` consecutive seed results (NaN where absent).
std::vector<double> valueColumn(const SeedResult* first, int count, const std::string& name);
json statsJson(const Stats& s);

// One scope's record in a seed's "runs" entry (a scope is one trained parameterization, e.g. W or
// KQ): its selection (the seed's `selections[scopeIndex]`), verdict, the named final values and,
// when the run stopped early, why.
json scopeRunJson(const SeedResult& s, std::size_t scopeIndex, const std::string& scope,
                  const std::vector<std::string>& fields);
// The end that the seeded experiments' JSON share: the summary, the series block (JSON and CSV),
// the runs and the wall time since t0.
void finishSeededResult(ExperimentResult& res, json summary, const SeriesBlock& block, json runs,
                        std::chrono::steady_clock::time_point t0);

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace attnsvm::cli
