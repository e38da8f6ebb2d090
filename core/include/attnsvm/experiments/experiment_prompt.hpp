// The papers' single-run experiments on small hand-made data (SPEC section 5): prompt global vs
// local convergence, the loss function, joint (p, v) training. One run (a start, a (loss, C), a
// variant) at a time, so that the CLI can spread runs over threads; the CLI formats them as JSON
// and the lab gets them through runExperimentSeed (named columns, see experiment.hpp). No JSON
// here.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"

namespace attnsvm {

// Correlation of every snapshot of a run with ref; NaN everywhere without one.
std::vector<double> corrToSnapshots(const RunRecord& r, const std::optional<Mat>& ref);
// The same for the head v at every snapshot (joint training; RunRecord::heads).
std::vector<double> headCorrToSnapshots(const RunRecord& r, const std::optional<Mat>& ref);

// prompt-global-local: 6 starts for each case (global-case data, then local-case data).
constexpr int kPromptStarts = 6;
struct PromptStartRun {
  RunRecord rec;
  bool global = false;           // the final selection is globally optimal
  std::optional<Mat> own, best;  // prompt SVMs (Frobenius) of the final and of the optimal tokens
  Vec p0;
};
PromptStartRun promptGlobalLocalRun(std::uint64_t seed, bool localCase, int start, int iters,
                                    int every);

// loss-function: C in 1..10 and 100; losses -u (correlation) and logistic.
const std::vector<double>& lossFunctionCs();
struct LossRun {
  RunRecord rec;
  std::optional<Mat> mm;  // prompt SVM p^mm of the optimal tokens
};
LossRun lossFunctionRun(std::uint64_t seed, LossKind loss, double C, int iters, int every);

// joint-pv: variants 0 and 1 (third sequence's token (0.5, 1) or (0.5, 1.5)).
struct JointPvRun {
  Scenario sc;
  RunRecord rec;                           // with the head v at each snapshot
  std::optional<Mat> relaxed, plain, vmm;  // relaxed prompt SVM, prompt SVM, head SVM
  std::vector<int> headSupport;            // sequences supporting the head SVM
  Vec logistic;                            // 1 / (1 + exp(-Y f)) per unit at the end
};
JointPvRun jointPvRun(std::uint64_t seed, int variant, int iters, int every);

// paths2d / paths2d-t5: W from 0 and (K,Q) from Q = 0, K = 0.1 N(0, 1) (Rng(seed + 1)), with the
// Frobenius and nuclear SVMs of the run's final selection.
struct Paths2dRun {
  Scenario sc;
  RunRecord rec;
  std::optional<Mat> fro, nuc;
};
Paths2dRun paths2dRun(std::uint64_t seed, bool t5, Parameterization param, int iters, int every);

// The scenario's iteration count (the experiments' default).
int scenarioIterations(const char* name);

// The three as one SeedResult (series per run over the common snapshot schedule, final values per
// run) for runExperimentSeed; iters/every as in SeedOptions.
SeedResult promptGlobalLocalSeed(std::uint64_t seed, int iters, int every);
SeedResult lossFunctionSeed(std::uint64_t seed, int iters, int every);
SeedResult jointPvSeed(std::uint64_t seed, int iters, int every);
// Series "<W|KQ>/Wz[i][a]": coordinate a of the path W(k) z_i; values "<W|KQ>/corrFro",
// "<W|KQ>/corrNuclear", "<W|KQ>/<fro|nuclear>/Wmmz[i][a]" (W^mm z_i, NaN without a solution) and
// the tokens "X[i][t][a]" for drawing the token plane; selections "W", "KQ" (each run's final
// selection).
SeedResult paths2dSeed(std::uint64_t seed, bool t5, int iters, int every);

}  // namespace attnsvm
