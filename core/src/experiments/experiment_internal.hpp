// What the experiment drivers (experiment_*.cpp) share and the public headers do not show.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attnsvm/base/types.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"

namespace attnsvm::experiment_detail {

// "Undefined" in a column (no SVM of the selection, a run that stopped early, ...).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Fraction of entries of W at or below 1% of its largest |entry| (SPEC section 6's sparsity of W);
// NaN for an empty or zero W.
double sparsity(const Mat& W);

// ---- The seeded experiments' building blocks (experiment_util.cpp) ----
// Correlation of every snapshot with ref (or 1 - correlation); NaN everywhere without a ref.
std::vector<double> corrSeries(const RunRecord& r, const Mat* ref, bool oneMinus = false);
// The scenario options of a seed (d > 0: that dimension, else the scenario's).
ScenarioOptions scenarioOptions(std::uint64_t seed, int d);
// n, T, d of the scenario's data and the run's length into r.
void describe(SeedResult& r, const Scenario& sc, int iters, int every);
// The one training run of a seed, planned (scenario, settings, length) apart from running it, so
// that runExperimentSeeds can train the runs of many seeds together.
struct PlannedRun {
  Scenario sc;
  TrainSettings ts;
  int iters = 0, every = 0;
};
using PlanRun = PlannedRun (*)(std::uint64_t seed, const SeedOptions& o);
// trained: the seed's run when oneRunSeeds trained it with others (null: train it here).
using FinishRun = SeedResult (*)(std::uint64_t seed, const SeedOptions& o,
                                 const RunRecord* trained);
std::vector<SeedResult> oneRunSeeds(std::uint64_t first, int count, const SeedOptions& o,
                                    PlanRun plan, FinishRun finish);

// ---- The real-images study's and ladder's settings strings (experiment_util.cpp) ----
// The items of a `sep`-separated list, trimmed of spaces; empty items dropped.
std::vector<std::string> splitList(const std::string& s, char sep);
// A finite number; InputError "<what>: '<text>' is not a number".
double parseNumber(const std::string& text, const std::string& what);
// A method "md:p" or "nmd:p" (p in (1, 1000]), or "adam" where `adam` allows it; `field` names the
// setting in errors.
struct RealMethod {
  std::string name;  // canonical: "md:1.1", "nmd:2", "adam"
  Optimizer optimizer = Optimizer::MD;
  double p = 2.0;
};
RealMethod parseRealMethod(const std::string& text, const std::string& field, bool adam);

// ---- The seeded experiments, one file each, registered in experiment_seed.cpp ----
SeedResult localConvergenceSeed(std::uint64_t seed, const SeedOptions& o);  // experiment_local.cpp
std::vector<SeedResult> localConvergenceSeeds(std::uint64_t first, int count, const SeedOptions& o);
SeedResult overparamSeed(std::uint64_t seed, const SeedOptions& o);      // experiment_overparam.cpp
SeedResult ratesSeed(std::uint64_t seed, const SeedOptions& o);          // experiment_rates.cpp
SeedResult mirrorDescentSeed(std::uint64_t seed, const SeedOptions& o);  // experiment_mirror.cpp
std::vector<SeedResult> mirrorDescentSeeds(std::uint64_t first, int count, const SeedOptions& o);
SeedResult multitokenSeed(std::uint64_t seed, const SeedOptions& o);  // experiment_multitoken.cpp
SeedResult rankSeed(std::uint64_t seed, const SeedOptions& o);        // experiment_rank.cpp

}  // namespace attnsvm::experiment_detail
