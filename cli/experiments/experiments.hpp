// The papers' experiments (SPEC section 5) and the analyses beyond them, at full settings by
// default. One function per experiment; each returns JSON (settings, per-iteration mean and std,
// per-seed final values, summary) and a CSV table. Work is spread over std::threads by seed; each
// seed's work is deterministic and written to its own slot, and every reduction runs in seed
// order, so results do not depend on the thread count.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attnsvm/experiments/experiment_rank.hpp"

namespace attnsvm {
class RealStudy;  // attnsvm/experiments/real_study.hpp
}

namespace attnsvm::cli {

struct ExperimentOptions {
  int seeds = -1;              // -1: the experiment's default (the paper's)
  int iters = -1;              // -1: default
  int threads = 0;             // 0: std::thread::hardware_concurrency()
  int grid = -1;               // basin-map: grid points per axis (default 200)
  int every = -1;              // record every k-th iteration (default: iters / 200, at least 1)
  std::uint64_t seedBase = 0;  // seed of run k is seedBase + k
  std::vector<int> dims;       // rank, multitoken, overparam: override the list of d
  std::vector<double> ps;      // mirror-descent, md-convergence: override the list of p
  double rankTol = kRankDefaultTol;  // rank: singular values above this count (1e-7)
  bool progress = true;              // progress on stderr
  // real-images (-1 / empty / 0: the experiment's default)
  std::vector<int> classes;             // A,B
  std::vector<std::string> optimizers;  // optimizer names (mirror ones run once per p; adam once)
  int nTrain = -1, nTest = -1, nSvm = -1;
  double lr = 0.0, adamLr = 0.0;
  std::string dataDir;  // Fashion-MNIST directory ("" : $ATTNSVM_FASHION_MNIST or Debian's)
  // real-study, real-ladder: the experiment's settings as a JSON object (or @file) read through
  // the core's field list (RealStudySettings, RealLadderSettings); the options above override.
  std::string settings;
  // real-images, real-study, real-ladder: the token dimension d (SPEC 6.5; -1: the settings', 18)
  int tokenDim = -1;
};

struct ExperimentResult {
  nlohmann::json json;
  std::string csv;
};

// Documented limits (bad options above them throw InputError, exit 1 in the CLI).
constexpr int kMaxSeeds = 100000;
constexpr int kMaxIters = 10000000;
constexpr int kMaxThreads = 256;
constexpr int kMaxGrid = 2000;
constexpr int kMaxDim = 1024;

// The CLI's experiment registry (common.cpp): adding an experiment is its formatter's file and one
// line there (and one in the core's seedExperimentRegistry() if its seeds run in the core).
struct CliExperiment {
  const char* name;
  ExperimentResult (*run)(const ExperimentOptions& options);
};
const std::vector<CliExperiment>& experimentRegistry();
std::vector<std::string> experimentNames();  // the registry's names, in its order
// Throws InputError for an unknown name or options out of range.
ExperimentResult runExperiment(const std::string& name, const ExperimentOptions& options);

ExperimentResult realImagesExperiment(const ExperimentOptions& options);  // real_images.cpp
ExperimentResult realStudyExperiment(const ExperimentOptions& options);   // real_study.cpp
ExperimentResult realLadderExperiment(const ExperimentOptions& options);  // real_ladder.cpp
ExperimentResult realPhaseExperiment(const ExperimentOptions& options);   // real_phase.cpp
// The JSON and CSV of a finished real-study (what realStudyExperiment writes), given the CPU
// seconds of run id at [id] and the wall seconds: also written by the Python package's Dask
// driver (python/src/bind_study.cpp), which schedules the same plan on another engine.
ExperimentResult realStudyResult(const RealStudy& study, const ExperimentOptions& options,
                                 int threads, const std::vector<double>& cpuSeconds,
                                 double seconds);
ExperimentResult localConvergenceExperiment(const ExperimentOptions& options);
ExperimentResult rankExperiment(const ExperimentOptions& options);
ExperimentResult multitokenExperiment(const ExperimentOptions& options);
ExperimentResult promptGlobalLocalExperiment(const ExperimentOptions& options);
ExperimentResult lossFunctionExperiment(const ExperimentOptions& options);
ExperimentResult jointPvExperiment(const ExperimentOptions& options);
ExperimentResult mirrorDescentExperiment(const ExperimentOptions& options);
ExperimentResult overparamExperiment(const ExperimentOptions& options);
ExperimentResult basinMapExperiment(const ExperimentOptions& options);
ExperimentResult ratesExperiment(const ExperimentOptions& options);
ExperimentResult paths2dExperiment(const ExperimentOptions& options, bool t5);
ExperimentResult mdConvergenceExperiment(const ExperimentOptions& options);
ExperimentResult jointWvExperiment(const ExperimentOptions& options);
ExperimentResult regPathExperiment(const ExperimentOptions& options);             // reg_path.cpp
ExperimentResult seq2seqConvergenceExperiment(const ExperimentOptions& options);  // seq2seq.cpp
ExperimentResult hierarchyExperiment(const ExperimentOptions& options);           // hierarchy.cpp

}  // namespace attnsvm::cli
