// One instance of the rank experiment (see experiment_rank.hpp). Moved from the CLI's rank loop so
// that the wasm module runs the same code; the arithmetic is unchanged.
#include "attnsvm/experiment_rank.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "attnsvm/errors.hpp"
#include "attnsvm/scenarios.hpp"
#include "attnsvm/selection.hpp"

namespace attnsvm {

std::vector<int> rankDefaultDims() { return {1, 2, 3, 4, 5, 10, 15, 20}; }

std::vector<std::pair<int, int>> rankConfigs() { return {{5, 5}, {10, 5}, {15, 5}, {5, 10}, {5, 15}}; }

int rankMaxAttempts(int instances) { return std::max(20 * instances, 200); }

namespace {

// A solve counts only if it is "optimal" and its W meets the margin constraints. solveMargin now
// guarantees that itself (docs/SOLVERS.md, Frobenius stopping rule): on a few nearly infeasible
// sphere instances (seeds 219 (n=10, d=3), 255 (n=15, d=4), 100 (n=15, d=5); in wasm also 426
// (n=15, d=3)) the Frobenius solver used to say "optimal" with constraints violated by 9 to 22, and
// counting them made the lab keep other instances than the CLI. The check stays as a guard: the
// bar is far above the solvers' accuracy (1e-9), so no genuine solution is dropped.
constexpr double kViolationBar = 1e-6;
bool solved(const MarginSolution& s) { return s.status == SolveStatus::Optimal && s.maxViolation <= kViolationBar; }

}  // namespace

int matrixRank(const Mat& W, double tol) {
  if (W.size() == 0) return 0;
  Eigen::JacobiSVD<Mat> svd(W);
  const Vec s = svd.singularValues();
  int r = 0;
  for (Index k = 0; k < s.size(); ++k) r += s[k] > tol ? 1 : 0;
  return r;
}

RankInstance rankInstance(std::uint64_t seed, int n, int T, int d, double tol) {
  auto check = [](int v, int lo, const char* name) {
    if (v < lo || v > 1024)
      throw InputError(std::string(name) + " = " + std::to_string(v) + " is out of range " + std::to_string(lo) + "..1024");
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
  if (!solved(sf)) return r;
  r.feasible = true;
  r.rankFro = matrixRank(sf.W, tol);
  SolverSettings nuc;
  nuc.norm = NormKind::Nuclear;
  const MarginSolution sn = solveMargin(prob, nuc);
  r.statusNuclear = sn.status;
  if (solved(sn)) {
    r.rankNuclear = matrixRank(sn.W, tol);
    r.gapNuclear = sn.gap;
  }
  return r;
}

}  // namespace attnsvm
