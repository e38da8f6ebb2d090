// The local-convergence experiment (SPEC section 5; registered in experiment_seed.cpp): normalized
// GD on W and on (K,Q) from the scenario's start, correlated with the Frobenius and nuclear SVMs of
// each run's final selection.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm::experiment_detail {

namespace {

const Parameterization kLocalParams[2] = {Parameterization::W, Parameterization::KQ};

// Normalized GD on W and on (K,Q) from the scenario's start; correlation of the snapshots with the
// Frobenius and nuclear SVMs of each run's final selection. recs: the two runs (W, then (K,Q)).
SeedResult localConvergenceFrom(const Scenario& sc, int iters, int every,
                                const RunRecord (&recs)[2]) {
  SeedResult r;
  describe(r, sc, iters, every);
  const Parameterization* params = kLocalParams;
  const char* names[2] = {"W", "KQ"};
  struct Refs {
    std::optional<Mat> fro, nuc;
    std::string verdict;
  };
  std::map<std::vector<int>, Refs> refs;  // both runs often end at the same selection: solve once
  std::vector<double> finals[2];
  for (int p = 0; p < 2; ++p) {
    ModelSpec spec = sc.model;
    spec.param = params[p];
    const RunRecord& rec = recs[p];
    const std::vector<int>& sel = rec.finalSelection;
    auto found = refs.find(sel);
    if (found == refs.end()) {
      const SelectionReport rep = analyzeSelection(sc.data, spec.attention, sel);
      Refs ref;
      if (rep.svm.status == SolveStatus::Optimal) ref.fro = rep.svm.W;
      if (rep.feasible) ref.nuc = svmDirection(sc.data, spec, sel, NormKind::Nuclear);
      ref.verdict = toString(rep.verdict);
      found = refs.emplace(sel, std::move(ref)).first;
    }
    const Refs& ref = found->second;
    const std::string n = names[p];
    if (p == 0) r.iteration = rec.iteration;
    std::vector<double> cf = corrSeries(rec, ref.fro ? &*ref.fro : nullptr);
    std::vector<double> cn = corrSeries(rec, ref.nuc ? &*ref.nuc : nullptr);
    finals[p] = {rec.meanProb.back(),
                 cf.back(),
                 cn.back(),
                 rec.finalLoss,
                 isGloballyOptimal(sc.data, sel) ? 1.0 : 0.0,
                 ref.verdict == toString(Verdict::LocallyOptimal) ? 1.0 : 0.0};
    r.addSeries(columnName({n, "softmax"}), rec.meanProb);
    r.addSeries(columnName({n, "corrFro"}), std::move(cf));
    r.addSeries(columnName({n, "corrNuclear"}), std::move(cn));
    r.addLabel(columnName({n, "verdict"}), ref.verdict);
    r.addLabel(columnName({n, "stopReason"}), rec.stopReason);
    r.selectionNames.push_back(n);
    r.selections.push_back(sel);
  }
  for (int p = 0; p < 2; ++p) {
    const std::string n = names[p];
    const char* fields[6] = {"softmaxSelected", "corrFro", "corrNuclear", "loss",
                             "global",          "local"};
    for (int f = 0; f < 6; ++f) r.addValue(columnName({n, fields[f]}), finals[p][f]);
  }
  return r;
}

int localIters(const SeedOptions& o) { return o.iters == -1 ? 2000 : o.iters; }

}  // namespace

SeedResult localConvergenceSeed(std::uint64_t seed, const SeedOptions& o) {
  const Scenario sc = makeScenario("local-convergence", scenarioOptions(seed, -1));
  const int iters = localIters(o), every = defaultEvery(iters, o.every);
  RunRecord recs[2];
  for (int p = 0; p < 2; ++p) {
    ModelSpec spec = sc.model;
    spec.param = kLocalParams[p];
    recs[p] = runTraining(sc.data, spec, sc.train, sc.init, iters, every);
  }
  return localConvergenceFrom(sc, iters, every, recs);
}

// Seeds first .. first + count - 1 of local convergence with the runs of all seeds advanced
// together (BatchedTrainer): the W runs as one batch, the (K,Q) runs as another.
std::vector<SeedResult> localConvergenceSeeds(std::uint64_t first, int count,
                                              const SeedOptions& o) {
  std::vector<Scenario> scs;
  scs.reserve(count);
  for (int k = 0; k < count; ++k)
    scs.push_back(makeScenario("local-convergence", scenarioOptions(first + k, -1)));
  const int iters = localIters(o), every = defaultEvery(iters, o.every);
  std::vector<const Dataset*> data;
  std::vector<Params> inits;
  for (const Scenario& sc : scs) {
    data.push_back(&sc.data);
    inits.push_back(sc.init);
  }
  std::vector<RunRecord> runs[2];
  for (int p = 0; p < 2; ++p) {
    ModelSpec spec = scs[0].model;
    spec.param = kLocalParams[p];
    runs[p] = runTrainingBatched(data, spec, scs[0].train, inits, iters, every);
  }
  std::vector<SeedResult> out;
  out.reserve(count);
  for (int k = 0; k < count; ++k) {
    const RunRecord recs[2] = {std::move(runs[0][k]), std::move(runs[1][k])};
    out.push_back(localConvergenceFrom(scs[k], iters, every, recs));
  }
  return out;
}

}  // namespace attnsvm::experiment_detail
