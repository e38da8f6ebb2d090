// One instance of the rank experiment (see experiment_rank.hpp). Moved from the CLI's rank loop so
// that the wasm module runs the same code; the arithmetic is unchanged.
#include "attnsvm/experiments/experiment_rank.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "base/svd.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

std::vector<int> rankDefaultDims() { return {1, 2, 3, 4, 5, 10, 15, 20}; }

std::vector<std::pair<int, int>> rankConfigs() {
  return {{5, 5}, {10, 5}, {15, 5}, {5, 10}, {5, 15}};
}

int rankMaxAttempts(int instances) { return std::max(20 * instances, 200); }

int matrixRank(const Mat& W, double tol) {
  if (W.size() == 0) return 0;
  Vec s;
  detail::thinSvd(W, s, nullptr, nullptr);  // the core's SVD (high relative accuracy, as Jacobi)
  int r = 0;
  for (Index k = 0; k < s.size(); ++k) r += s[k] > tol ? 1 : 0;
  return r;
}

RankInstance rankInstance(std::uint64_t seed, int n, int T, int d, double tol) {
  auto check = [](int v, int lo, const char* name) {
    if (v < lo || v > 1024)
      throw InputError(std::string(name) + " = " + std::to_string(v) + " is out of range " +
                       std::to_string(lo) + "..1024");
  };
  check(n, 1, "n");
  check(T, 2, "T");
  check(d, 1, "d");
  if (!(tol > 0.0)) throw InputError("rank tolerance must be > 0");
  ScenarioOptions so;
  so.seed = seed;
  so.n = n;
  so.T = T;
  so.d = d;
  const Scenario sc = makeScenario("rank", so);
  const MarginProblem prob = attentionSvmProblem(sc.data, AttentionKind::Cross, sc.data.alpha);
  RankInstance r;
  r.gapNuclear = std::numeric_limits<double>::quiet_NaN();
  const MarginSolution sf = solveMargin(prob, SolverSettings{});
  r.statusFro = sf.status;
  // "optimal" is certified by solveMargin (never with a violation above 1e-6: docs/SOLVERS.md;
  // nearly infeasible instances such as seeds 219, 255, 100 of the full run are proven infeasible)
  if (sf.status != SolveStatus::Optimal) return r;
  r.feasible = true;
  r.rankFro = matrixRank(sf.W, tol);
  SolverSettings nuc;
  nuc.norm = NormKind::Nuclear;
  const MarginSolution sn = solveMargin(prob, nuc);
  r.statusNuclear = sn.status;
  if (sn.status == SolveStatus::Optimal) {
    r.rankNuclear = matrixRank(sn.W, tol);
    r.gapNuclear = sn.gap;
  }
  return r;
}

}  // namespace attnsvm

namespace attnsvm::experiment_detail {

// One instance of the rank experiment as named columns, for the lab's workers (the wire format of
// every seeded experiment). Ranks are -1 where there is none (infeasible, nuclear not solved).
SeedResult rankSeed(std::uint64_t seed, const SeedOptions& o) {
  const int n = o.n == -1 ? 5 : o.n, T = o.T == -1 ? 5 : o.T, d = o.d == -1 ? 5 : o.d;
  const RankInstance ri = rankInstance(seed, n, T, d, o.rankTol == 0 ? kRankDefaultTol : o.rankTol);
  SeedResult r;
  r.n = n;
  r.T = T;
  r.d = d;
  r.addValue("feasible", ri.feasible ? 1.0 : 0.0);
  r.addValue("rankFro", ri.rankFro);
  r.addValue("rankNuclear", ri.rankNuclear);
  r.addValue("gapNuclear", ri.gapNuclear);
  r.addLabel("statusFro", toString(ri.statusFro));
  r.addLabel("statusNuclear", ri.feasible ? toString(ri.statusNuclear) : "not_solved");
  return r;
}

}  // namespace attnsvm::experiment_detail
