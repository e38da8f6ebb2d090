// The local-convergence experiment (SPEC section 5; registered in experiment_seed.cpp): normalized
// GD on W and on (K,Q) from the scenario's start, correlated with the Frobenius and nuclear SVMs of
// each run's final selection.
#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"
#include "attnsvm/train/correlation.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm::experiment_detail {

namespace {

const Parameterization kLocalParams[2] = {Parameterization::W, Parameterization::KQ};
const char* const kLocalNames[2] = {"W", "KQ"};

// The Frobenius and nuclear SVMs of a selection, and its verdict.
struct Refs {
  std::optional<Mat> fro, nuc;
  std::string verdict;
};
using RefCache = std::map<std::vector<int>, Refs>;  // a seed's two runs often end at one selection

// One parameterization's columns of a seed.
struct LocalRun {
  std::vector<int> iteration;
  std::vector<double> softmax, corrFro, corrNuclear;
  std::string verdict, stopReason;
  std::vector<int> selection;
  double finals[6] = {};
};

// Correlation of every snapshot (snapshot(k), k < count) with ref; NaN everywhere without a ref.
template <class Snapshot>
std::vector<double> snapshotCorrelations(std::size_t count, const Snapshot& snapshot,
                                         const Mat* ref) {
  std::vector<double> s(count, kNaN);
  if (!ref) return s;
  const CorrelationWith corr(*ref);
  for (std::size_t k = 0; k < count; ++k) s[k] = corr(snapshot(k));
  return s;
}

// Normalized GD on parameterization p from the scenario's start (rec; its snapshots' weights by
// snapshot(k)) correlated with the Frobenius and nuclear SVMs of the run's final selection.
template <class Snapshot>
LocalRun localRun(const Scenario& sc, int p, RunRecord& rec, const Snapshot& snapshot,
                  RefCache& refs) {
  ModelSpec spec = sc.model;
  spec.param = kLocalParams[p];
  LocalRun out;
  out.selection = rec.finalSelection;
  auto found = refs.find(out.selection);
  if (found == refs.end()) {
    const SelectionReport rep = analyzeSelection(sc.data, spec.attention, out.selection);
    Refs ref;
    if (rep.svm.status == SolveStatus::Optimal) ref.fro = rep.svm.W;
    if (rep.feasible) ref.nuc = svmDirection(sc.data, spec, out.selection, NormKind::Nuclear);
    ref.verdict = toString(rep.verdict);
    found = refs.emplace(out.selection, std::move(ref)).first;
  }
  const Refs& ref = found->second;
  const std::size_t count = rec.iteration.size();
  out.corrFro = snapshotCorrelations(count, snapshot, ref.fro ? &*ref.fro : nullptr);
  out.corrNuclear = snapshotCorrelations(count, snapshot, ref.nuc ? &*ref.nuc : nullptr);
  const double finals[6] = {rec.meanProb.back(),
                            out.corrFro.back(),
                            out.corrNuclear.back(),
                            rec.finalLoss,
                            isGloballyOptimal(sc.data, out.selection) ? 1.0 : 0.0,
                            ref.verdict == toString(Verdict::LocallyOptimal) ? 1.0 : 0.0};
  std::copy(finals, finals + 6, out.finals);
  out.verdict = ref.verdict;
  out.stopReason = std::move(rec.stopReason);
  out.iteration = std::move(rec.iteration);
  out.softmax = std::move(rec.meanProb);
  return out;
}

// A seed's result from its two runs (W, then (K,Q)).
SeedResult localConvergenceResult(const Scenario& sc, int iters, int every, LocalRun (&runs)[2]) {
  SeedResult r;
  describe(r, sc, iters, every);
  r.iteration = std::move(runs[0].iteration);
  for (int p = 0; p < 2; ++p) {
    LocalRun& run = runs[p];
    const std::string n = kLocalNames[p];
    r.addSeries(columnName({n, "softmax"}), std::move(run.softmax));
    r.addSeries(columnName({n, "corrFro"}), std::move(run.corrFro));
    r.addSeries(columnName({n, "corrNuclear"}), std::move(run.corrNuclear));
    r.addLabel(columnName({n, "verdict"}), run.verdict);
    r.addLabel(columnName({n, "stopReason"}), run.stopReason);
    r.selectionNames.push_back(n);
    r.selections.push_back(std::move(run.selection));
  }
  for (int p = 0; p < 2; ++p) {
    const std::string n = kLocalNames[p];
    const char* fields[6] = {"softmaxSelected", "corrFro", "corrNuclear", "loss",
                             "global",          "local"};
    for (int f = 0; f < 6; ++f) r.addValue(columnName({n, fields[f]}), runs[p].finals[f]);
  }
  return r;
}

int localIters(const SeedOptions& o) { return o.iters == -1 ? 2000 : o.iters; }

}  // namespace

SeedResult localConvergenceSeed(std::uint64_t seed, const SeedOptions& o) {
  const Scenario sc = makeScenario("local-convergence", scenarioOptions(seed, -1));
  const int iters = localIters(o), every = defaultEvery(iters, o.every);
  RefCache refs;
  LocalRun runs[2];
  for (int p = 0; p < 2; ++p) {
    ModelSpec spec = sc.model;
    spec.param = kLocalParams[p];
    RunRecord rec = runTraining(sc.data, spec, sc.train, sc.init, iters, every);
    const auto snapshot = [&](std::size_t k) -> const Mat& { return rec.weights[k]; };
    runs[p] = localRun(sc, p, rec, snapshot, refs);
  }
  return localConvergenceResult(sc, iters, every, runs);
}

// Seeds first .. first + count - 1 of local convergence with the runs of several seeds advanced
// together (BatchedTrainer), kBlock seeds at a time: their W runs as one batch, then their (K,Q)
// runs as another, each batch's snapshots in this thread's arena (reused by the next batch and the
// next call: no allocation per snapshot), correlated before the next batch overwrites them.
// kBlock bounds the arena (24 runs x 202 snapshots of 10 x 10: 3.9 MB), whose pages' first touch
// is most of what the snapshots still cost; 24 is the CLI's chunk on 2 threads. Batches of 8 (one
// register block) touched a third of that but ran 3-4 % slower (the trainer's per-step work per
// batch is then shared by fewer runs). Each lane is its own run, so the results do not depend on
// the batching.
std::vector<SeedResult> localConvergenceSeeds(std::uint64_t first, int count,
                                              const SeedOptions& o) {
  constexpr int kBlock = 24;
  std::vector<Scenario> scs;
  scs.reserve(count);
  for (int k = 0; k < count; ++k)
    scs.push_back(makeScenario("local-convergence", scenarioOptions(first + k, -1)));
  const int iters = localIters(o), every = defaultEvery(iters, o.every);
  thread_local SnapshotArena arena;
  std::vector<std::array<LocalRun, 2>> runs(count);
  for (int k0 = 0; k0 < count; k0 += kBlock) {
    const int size = std::min(kBlock, count - k0);
    std::vector<const Dataset*> data;
    std::vector<Params> inits;
    for (int k = k0; k < k0 + size; ++k) {
      data.push_back(&scs[k].data);
      inits.push_back(scs[k].init);
    }
    std::vector<RefCache> refs(size);
    for (int p = 0; p < 2; ++p) {
      ModelSpec spec = scs[0].model;
      spec.param = kLocalParams[p];
      std::vector<RunRecord> recs =
          runTrainingBatched(data, spec, scs[0].train, inits, iters, every, &arena);
      for (int r = 0; r < size; ++r) {
        const auto snapshot = [&](std::size_t j) { return arena.at(r, static_cast<int>(j)); };
        runs[k0 + r][p] = localRun(scs[k0 + r], p, recs[r], snapshot, refs[r]);
      }
    }
  }
  std::vector<SeedResult> out;
  out.reserve(count);
  for (int k = 0; k < count; ++k) {
    LocalRun pair[2] = {std::move(runs[k][0]), std::move(runs[k][1])};
    out.push_back(localConvergenceResult(scs[k], iters, every, pair));
  }
  return out;
}

}  // namespace attnsvm::experiment_detail
