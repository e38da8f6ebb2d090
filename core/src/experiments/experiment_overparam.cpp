// The overparameterization experiment (registered in experiment_seed.cpp): normalized GD on W from
// W0 = 0 at dimension d: does it reach the globally optimal selection? Seed by seed (see
// runExperimentSeeds: batching would move the final minSoftmax of the runs that do not converge).
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm::experiment_detail {

namespace {

PlannedRun planOverparam(std::uint64_t seed, const SeedOptions& o) {
  PlannedRun pr{makeScenario("overparam", scenarioOptions(seed, o.d)), {}, 0, 0};
  pr.ts = pr.sc.train;
  pr.iters = pr.every = o.iters == -1 ? 2000 : o.iters;
  return pr;
}

// trained: the seed's run when runExperimentSeeds trained it with others (else trained here).
SeedResult overparamRun(std::uint64_t seed, const SeedOptions& o, const RunRecord* trained) {
  const PlannedRun pr = planOverparam(seed, o);
  const Scenario& sc = pr.sc;
  const int iters = pr.iters;
  SeedResult r;
  describe(r, sc, iters, iters);
  RunRecord own;
  const RunRecord& rec =
      trained ? *trained : (own = runTraining(sc.data, sc.model, pr.ts, sc.init, iters, iters));
  const bool global = isGloballyOptimal(sc.data, rec.finalSelection);
  r.addValue("global", global ? 1.0 : 0.0);
  r.addValue("minSoftmax", rec.finalProb.size() ? rec.finalProb.minCoeff() : kNaN);
  r.addLabel("verdict", global ? toString(Verdict::GloballyOptimal)
                               : verdictName(sc.data, sc.model, rec.finalSelection));
  r.selectionNames.push_back("W");
  r.selections.push_back(rec.finalSelection);
  return r;
}

}  // namespace

SeedResult overparamSeed(std::uint64_t seed, const SeedOptions& o) {
  return overparamRun(seed, o, nullptr);
}

}  // namespace attnsvm::experiment_detail
