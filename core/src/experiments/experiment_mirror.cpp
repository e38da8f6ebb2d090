// The mirror-descent experiment (registered in experiment_seed.cpp): l_p mirror descent (p from the
// options), correlated with the l_p and Frobenius SVMs of the final selection.
#include <cmath>
#include <optional>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm::experiment_detail {

namespace {

// l_p mirror descent (p from the options); correlation with the l_p and Frobenius SVMs.
PlannedRun planMirrorDescent(std::uint64_t seed, const SeedOptions& o) {
  PlannedRun pr{makeScenario("mirror-descent", scenarioOptions(seed, -1)), {}, 0, 0};
  const double p = o.p == 0.0 ? pr.sc.train.p : o.p;
  if (!(p > 1.0) || !std::isfinite(p) || p > 1e3) throw InputError("p must be in (1, 1000]");
  pr.iters = o.iters == -1 ? pr.sc.iterations : o.iters;
  pr.every = defaultEvery(pr.iters, o.every);
  pr.ts = pr.sc.train;
  if (!isMirrorOptimizer(pr.ts.optimizer)) pr.ts.optimizer = Optimizer::MD;
  pr.ts.p = p;
  return pr;
}

SeedResult mirrorDescentRun(std::uint64_t seed, const SeedOptions& o, const RunRecord* trained) {
  const PlannedRun pr = planMirrorDescent(seed, o);
  const Scenario& sc = pr.sc;
  const double p = pr.ts.p;
  const int iters = pr.iters, every = pr.every;
  SeedResult r;
  describe(r, sc, iters, every);
  RunRecord own;
  const RunRecord& rec =
      trained ? *trained : (own = runTraining(sc.data, sc.model, pr.ts, sc.init, iters, every));
  r.iteration = rec.iteration;
  const std::optional<Mat> lp =
      svmDirection(sc.data, sc.model, rec.finalSelection, NormKind::Lp, p);
  const std::optional<Mat> fro =
      svmDirection(sc.data, sc.model, rec.finalSelection, NormKind::Frobenius);
  std::vector<double> cl = corrSeries(rec, lp ? &*lp : nullptr),
                      cf = corrSeries(rec, fro ? &*fro : nullptr);
  const Mat& W = rec.weights.back();
  r.addValue("corrLp", cl.back());
  r.addValue("corrFro", cf.back());
  r.addValue("sparsity", sparsity(W));
  r.addValue("sparsitySvm", lp ? sparsity(*lp) : kNaN);
  r.addSeries("corrLp", std::move(cl));
  r.addSeries("corrFro", std::move(cf));
  r.addLabel("verdict", verdictName(sc.data, sc.model, rec.finalSelection));
  r.selectionNames.push_back("W");
  r.selections.push_back(rec.finalSelection);
  r.matrixNames = {"W", "WmmLp"};
  r.matrices = {W, lp ? *lp : Mat()};
  return r;
}

}  // namespace

SeedResult mirrorDescentSeed(std::uint64_t seed, const SeedOptions& o) {
  return mirrorDescentRun(seed, o, nullptr);
}

// Batched (CLI JSON at full settings: every float within 1e-13 of the per-seed runs).
std::vector<SeedResult> mirrorDescentSeeds(std::uint64_t first, int count, const SeedOptions& o) {
  return oneRunSeeds(first, count, o, &planMirrorDescent, &mirrorDescentRun);
}

}  // namespace attnsvm::experiment_detail
