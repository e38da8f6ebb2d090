// The per-seed work of the papers' seeded experiments (SPEC section 5): one seed of one setting
// (d, p or method) in, plain numbers out. The native CLI spreads seeds over threads and the web
// lab over workers; both aggregate (mean/std over seeds) themselves, so the numbers of a seed are
// the same wherever it runs. No JSON here.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

// One training run with snapshots of the effective weights every `every` iterations (and at the
// end), or on `schedule` (sorted iterations) when given. `iters` iterations unless it stops early.
struct RunRecord {
  std::vector<int> iteration;
  std::vector<Mat> weights;
  std::vector<Vec> heads;        // head v at each snapshot (only when recordHead)
  std::vector<double> meanProb;  // mean over units of the selected softmax probability
  std::vector<double> minProb;
  std::vector<int> finalSelection;
  Vec finalProb;
  Mat finalSoftmax;
  Params finalParams;
  double finalLoss = 0.0;
  std::string stopReason;
};
RunRecord runTraining(const Dataset& data, const ModelSpec& spec, const TrainSettings& settings,
                      const Params& init, int iters, int every, bool recordHead = false,
                      const std::vector<int>* schedule = nullptr);

// Iterations 0, 1, 2, ..., roughly `perDecade` per decade, up to iters (always includes iters).
std::vector<int> logSchedule(int iters, int perDecade = 20);
// Snapshot stride when none is asked for: iters / 200, at least 1.
int defaultEvery(int iters, int every);

// The SVM solution (W^mm for the norm) of a selection for the model's parameterization:
// Att-SVM for W / (K,Q) (attention kind of the spec), prompt SVM (with spec.Wk) for prompts.
// nullopt when the problem is infeasible or the solver did not converge.
std::optional<Mat> svmDirection(const Dataset& data, const ModelSpec& spec,
                                const std::vector<int>& selection, NormKind norm, double p = 2.0,
                                MarginSolution* out = nullptr);
// The core's verdict for W / (K,Q) (cross or self attention); for prompts "globally_optimal" when
// every sequence selects an optimal token, else "not_globally_optimal".
std::string verdictName(const Dataset& data, const ModelSpec& spec,
                        const std::vector<int>& selection);
// Every sequence selects one of its optimal tokens (ties allowed).
bool isGloballyOptimal(const Dataset& data, const std::vector<int>& selection);

// The optimizers compared by the rates experiment; the reference is the SVM in the method's norm.
struct RateMethod {
  const char* name;
  Optimizer optimizer;
  double lr, p;
  NormKind norm;
};
const std::vector<RateMethod>& rateMethods();

// Names of the result columns (docs/NAMES.md). A field or metric is camelCase ("corrFro",
// "stopReason"); a column of a scope (a parameterization "W" / "KQ", an exponent "p1.75" / "q3", a
// case "global" and a start "3", a loss and a C "logistic" / "C10", a variant "v0") joins its parts
// with '/': columnName({"W", "corrFro"}) = "W/corrFro", columnName({"global", "3", "corrOwnSvm"}) =
// "global/3/corrOwnSvm". Indices of sequences, tokens and coordinates are written in brackets, as
// in the core's error messages: indexedName("Wz", {0, 1}) = "Wz[0][1]" (coordinate 1 of W z_0),
// indexedName("X", {0, 1, 0}) = "X[0][1][0]". '/' occurs in no number and no camelCase name, so a
// reader splits a column name on '/' unambiguously. Every column name of a SeedResult is made by
// these two functions.
std::string columnName(std::initializer_list<std::string> parts);
std::string indexedName(const std::string& name, std::initializer_list<long long> indices);

// Settings of one seed. -1 / 0 / empty mean the experiment's default.
struct SeedOptions {
  int iters = -1;
  int every = -1;      // snapshot stride (local-convergence, multitoken, mirror-descent)
  int d = -1;          // overparam, multitoken, rank
  int n = -1, T = -1;  // rank: the grid cell's (n, T) (default 5, 5)
  double rankTol = 0;  // rank: singular values above this count (0: 1e-7)
  double p = 0.0;      // mirror-descent
  std::string method;  // rates: a rateMethods() name
};

// The field list of SeedOptions (the visitor protocol of attnsvm/vocab/fields.hpp): iters, every,
// d, n, T, rankTol, p, method. A writer writes the fields that are set (not the experiment's
// default: -1, 0 or empty), so a written settings block names what was asked for.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, SeedOptions> {
  v("iters", s.iters, s.iters != -1);
  v("every", s.every, s.every != -1);
  v("d", s.d, s.d != -1);
  v("n", s.n, s.n != -1);
  v("T", s.T, s.T != -1);
  v("rankTol", s.rankTol, s.rankTol != 0);
  v("p", s.p, s.p != 0);
  v("method", s.method, !s.method.empty());
}

// A request for seeds seedStart .. seedStart + seedCount - 1 of one setting (runExperimentSeeds;
// the lab's workers send one per chunk of seeds).
struct SeedsRequest {
  std::uint64_t seedStart = 0;
  int seedCount = 1;
  SeedOptions options;
};

// Its field list: seedStart, seedCount and the options' fields beside them (iters, every, d, n, T,
// rankTol, p, method), as SolveRequest holds the solver settings' fields.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, SeedsRequest> {
  v("seedStart", s.seedStart);
  v("seedCount", s.seedCount);
  visitFields(s.options, v);
}

// Everything one seed produces, as named columns so that aggregation is one loop.
struct SeedResult {
  std::string experiment;
  std::uint64_t seed = 0;
  int n = 0, T = 0, d = 0, iters = 0, every = 0;
  std::vector<int> iteration;               // the snapshot schedule
  std::vector<std::string> seriesNames;     // per-iteration series, in output order
  std::vector<std::vector<double>> series;  // [name][snapshot]; NaN where undefined
  std::vector<std::string> valueNames;      // final per-seed numbers
  std::vector<double> values;
  std::vector<std::string> labelNames;  // verdicts, stop reasons
  std::vector<std::string> labels;
  std::vector<std::string> selectionNames;  // final argmax selection of each run
  std::vector<std::vector<int>> selections;
  std::vector<std::vector<int>> selectedSets;  // multitoken: the generalized SVM's sets O_i
  std::vector<std::string> matrixNames;        // mirror-descent: W and the l_p SVM (empty if none)
  std::vector<Mat> matrices;

  void addSeries(const std::string& name, std::vector<double> s);
  void addValue(const std::string& name, double v);
  void addLabel(const std::string& name, const std::string& v);
  double value(const std::string& name) const;                         // NaN if absent
  const std::string& label(const std::string& name) const;             // "" if absent
  const std::vector<double>& seriesOf(const std::string& name) const;  // throws if absent
};

// Names runExperimentSeed accepts: local-convergence, overparam, rates, mirror-descent, multitoken,
// rank (one instance, experiment_rank.hpp: values feasible, rankFro, rankNuclear, gapNuclear;
// labels statusFro, statusNuclear; the caller keeps the first feasible seeds of a cell), and the
// single-run prompt-global-local, loss-function, joint-pv (all runs of the experiment as named
// columns, experiment_prompt.hpp), and the mirror-descent paper's md-convergence (one seed, one
// training p) and joint-wv (experiment_md.hpp).
std::vector<std::string> seedExperimentNames();
// Throws InputError for an unknown name or bad options (naming the field).
SeedResult runExperimentSeed(const std::string& name, std::uint64_t seed,
                             const SeedOptions& options);
// Seeds first .. first + count - 1 of one setting, in seed order: the same results as
// runExperimentSeed seed by seed (up to floating-point reassociation), with the training runs of
// all seeds batched (BatchedTrainer) where the experiment allows it (local-convergence), else one
// seed at a time.
std::vector<SeedResult> runExperimentSeeds(const std::string& name, std::uint64_t first, int count,
                                           const SeedOptions& options);

// The registry of the seeded experiments (core/src/experiments/experiment_seed.cpp), in the order
// of seedExperimentNames(): what runExperimentSeed(s), the wasm's experimentNames and the CLI's
// test of its own table read. Adding one: its file and one line there.
struct SeedExperiment {
  const char* name;
  SeedResult (*seed)(std::uint64_t seed, const SeedOptions& options);
  // Seeds first .. first + count - 1 at once (batched training), as seed() gives them up to
  // floating-point reassociation; null: seed by seed.
  std::vector<SeedResult> (*seeds)(std::uint64_t first, int count, const SeedOptions& options);
};
const std::vector<SeedExperiment>& seedExperimentRegistry();

}  // namespace attnsvm
