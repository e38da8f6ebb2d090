// The rates experiment (registered in experiment_seed.cpp): 1 - corr with the SVM of the final
// selection on a log-spaced schedule, one method (rateMethods()) per call.
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm::experiment_detail {

// 1 - corr with the SVM (method's norm) of the final selection on a log-spaced schedule.
SeedResult ratesSeed(std::uint64_t seed, const SeedOptions& o) {
  const RateMethod* m = nullptr;
  for (const RateMethod& x : rateMethods())
    if (o.method == x.name) m = &x;
  if (!m) {
    std::string list;
    for (const RateMethod& x : rateMethods())
      list += std::string(list.empty() ? "" : ", ") + x.name;
    throw InputError("rates: method '" + o.method + "' is unknown; expected one of: " + list);
  }
  const int iters = o.iters == -1 ? 2000 : o.iters;
  const Scenario sc = makeScenario("local-convergence", scenarioOptions(seed, -1));
  SeedResult r;
  describe(r, sc, iters, 1);
  TrainSettings ts = sc.train;
  ts.optimizer = m->optimizer;
  ts.lr = m->lr;
  ts.p = m->p;
  const std::vector<int> schedule = logSchedule(iters);
  const RunRecord rec = runTraining(sc.data, sc.model, ts, sc.init, iters, 1, false, &schedule);
  const std::optional<Mat> ref = svmDirection(sc.data, sc.model, rec.finalSelection, m->norm, m->p);
  r.iteration = rec.iteration;
  std::vector<double> s = corrSeries(rec, ref ? &*ref : nullptr, true);
  r.addValue("oneMinusCorr", s.back());
  r.addSeries("oneMinusCorr", std::move(s));
  r.selectionNames.push_back("W");
  r.selections.push_back(rec.finalSelection);
  return r;
}

}  // namespace attnsvm::experiment_detail

namespace attnsvm {

const std::vector<RateMethod>& rateMethods() {
  static const std::vector<RateMethod> methods = {
      {"gd", Optimizer::GD, 1.0, 2.0, NormKind::Frobenius},
      {"ngd", Optimizer::NGD, 0.1, 2.0, NormKind::Frobenius},
      {"md_p1.75", Optimizer::MD, 1.0, 1.75, NormKind::Lp},
      {"md_p3", Optimizer::MD, 1.0, 3.0, NormKind::Lp}};
  return methods;
}

}  // namespace attnsvm
