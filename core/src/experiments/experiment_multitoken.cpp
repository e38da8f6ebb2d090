// The multitoken experiment (registered in experiment_seed.cpp): the relu head keeps several
// tokens; 1 - corr with the generalized SVM's prediction, the W^mm of the optimal tokens and the
// one-token SVM of the final selection.
#include <optional>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm::experiment_detail {

// Relu head: 1 - corr with the generalized SVM prediction W_fin + R W_dir, the W^mm of the
// optimal tokens and the one-token SVM of the final selection.
SeedResult multitokenSeed(std::uint64_t seed, const SeedOptions& o) {
  const Scenario sc = makeScenario("multitoken", scenarioOptions(seed, o.d));
  const int iters = o.iters == -1 ? 2001 : o.iters;
  const int every = defaultEvery(iters, o.every);
  SeedResult r;
  describe(r, sc, iters, every);
  const RunRecord rec = runTraining(sc.data, sc.model, sc.train, sc.init, iters, every);
  r.iteration = rec.iteration;
  SolverSettings settings;
  GeneralizedSvm g;
  try {
    g = generalizedSvm(sc.data, rec.finalSoftmax, 1e-3, settings);
  } catch (const NumericalError&) {
    g.direction.status = SolveStatus::MaxIterations;  // counted as not solved
  }
  r.selectedSets = g.selectedSets;
  double size = 0.0;
  for (const auto& s : g.selectedSets) size += static_cast<double>(s.size());
  const double meanSetSize = g.selectedSets.empty() ? kNaN : size / g.selectedSets.size();
  std::optional<Mat> pred;
  double R = kNaN;
  const bool dirOk = g.direction.status == SolveStatus::Optimal;
  if (dirOk) {
    R = fitRadius(g, rec.weights.back());
    pred = g.finite + R * g.direction.W;
  }
  const std::optional<Mat> mm = svmDirection(sc.data, sc.model, sc.data.alpha, NormKind::Frobenius);
  const std::optional<Mat> one =
      svmDirection(sc.data, sc.model, rec.finalSelection, NormKind::Frobenius);
  std::vector<double> gen = corrSeries(rec, pred ? &*pred : nullptr, true);
  std::vector<double> wmm = corrSeries(rec, mm ? &*mm : nullptr, true);
  std::vector<double> ot = corrSeries(rec, one ? &*one : nullptr, true);
  r.addValue("oneMinusCorrGeneralized", gen.back());
  r.addValue("oneMinusCorrWmm", wmm.back());
  r.addValue("oneMinusCorrOneToken", ot.back());
  r.addValue("R", R);
  r.addValue("meanSelectedSetSize", meanSetSize);
  r.addValue("directionSolved", dirOk ? 1.0 : 0.0);
  r.addSeries("oneMinusCorrGeneralized", std::move(gen));
  r.addSeries("oneMinusCorrWmm", std::move(wmm));
  r.addSeries("oneMinusCorrOneToken", std::move(ot));
  r.selectionNames.push_back("W");
  r.selections.push_back(rec.finalSelection);
  return r;
}

}  // namespace attnsvm::experiment_detail
