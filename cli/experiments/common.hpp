// Internals shared by the experiment files: the thread pool loop, one training run with
// snapshots, CSV formatting.
#pragma once
#include <algorithm>
#include <limits>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "attnsvm/model.hpp"
#include "attnsvm/train.hpp"
#include "experiments.hpp"
#include "progress.hpp"

namespace attnsvm::cli {

using nlohmann::json;

// Runs fn(k) for k in [0, count) on `threads` threads (work stealing by an atomic counter).
// Exceptions are collected per item and the first one (lowest k) is rethrown.
void parallelFor(int count, int threads, Progress& progress, const std::function<void(int)>& fn);
int resolveThreads(int threads);

// One training run with snapshots of the effective weights every `every` iterations (and at
// the end). `iters` iterations unless the run stops early.
struct RunRecord {
  std::vector<int> iteration;
  std::vector<Mat> weights;
  std::vector<Vec> heads;          // head v at each snapshot (only when recordHead)
  std::vector<double> meanProb;    // mean over units of the selected softmax probability
  std::vector<double> minProb;
  std::vector<double> loss;
  std::vector<int> finalSelection;
  Vec finalProb;
  Mat finalSoftmax;
  Params finalParams;
  double finalLoss = 0.0;
  std::string stopReason;
};
RunRecord runTraining(const Dataset& data, const ModelSpec& spec, const TrainSettings& settings,
                      const Params& init, int iters, int every, bool recordHead = false,
                      const std::vector<int>* logSchedule = nullptr);

// Iterations 0, 1, 2, ..., roughly `perDecade` per decade, up to iters (always includes iters).
std::vector<int> logSchedule(int iters, int perDecade = 20);

std::string csvNum(double x);
// CSV of a series block: iteration, then <name>_mean, <name>_std for each metric.
std::string seriesCsv(const std::vector<int>& iteration, const std::vector<std::string>& names,
                      const std::vector<std::vector<double>>& means,
                      const std::vector<std::vector<double>>& stds, const std::string& prefixColumn = "",
                      const std::string& prefixValue = "", bool header = true);
json seriesJson(const std::vector<double>& mean, const std::vector<double>& stdev);

void checkRange(int value, int lo, int hi, const std::string& option);
int pick(int value, int fallback);  // value if set (>= 0 and not -1), else fallback
int defaultEvery(int iters, int every);

json settingsJson(const std::string& name, const ExperimentOptions& o, int seeds, int iters, int threads);

}  // namespace attnsvm::cli

namespace attnsvm::cli {

// Per-iteration series over seeds: mean and std (non-finite values skipped), in seed order.
struct SeriesBlock {
  std::vector<int> iteration;
  std::vector<std::string> names;
  std::vector<std::vector<double>> means, stds;
  void add(const std::string& name, const std::vector<std::vector<double>>& perSeed);
  json toJson() const;
  std::string csv(const std::string& prefixColumn = "", const std::string& prefixValue = "", bool header = true) const;
};

// Mean and std of finite values (NaN when there are none); count of finite values.
struct Stats {
  double mean = 0.0, std = 0.0, min = 0.0, max = 0.0;
  int count = 0;
};
Stats stats(const std::vector<double>& values);
json statsJson(const Stats& s);

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace attnsvm::cli
