// Basin map rows (see experiment_basin.hpp); the loop body of the CLI's former basin-map code.
#include "attnsvm/experiment_basin.hpp"

#include <string>

#include "attnsvm/errors.hpp"
#include "attnsvm/experiment.hpp"
#include "attnsvm/scenarios.hpp"

namespace attnsvm {

namespace {
Scenario localCase(std::uint64_t seed) {
  ScenarioOptions base;
  base.seed = seed;
  base.localCase = true;
  return makeScenario("prompt-global-local", base);
}
}  // namespace

double basinCoord(int k, int grid) { return kBasinLo + (kBasinHi - kBasinLo) * (k + 0.5) / grid; }

BasinRow basinMapRow(std::uint64_t seed, int grid, int row, int iters) {
  if (grid < 2 || grid > 2000) throw InputError("grid = " + std::to_string(grid) + " is out of range 2..2000");
  if (row < 0 || row >= grid)
    throw InputError("row = " + std::to_string(row) + " is out of range 0.." + std::to_string(grid - 1));
  const Scenario sc = localCase(seed);
  if (iters <= 0) iters = sc.iterations;
  BasinRow out;
  out.selection.resize(grid, -1);
  out.finalP.resize(grid);
  for (int col = 0; col < grid; ++col) {
    Params init = sc.init;
    init.p = Vec::Zero(sc.data.d);
    init.p[0] = basinCoord(col, grid);
    if (sc.data.d > 1) init.p[1] = basinCoord(row, grid);
    const RunRecord rec = runTraining(sc.data, sc.model, sc.train, init, iters, iters);
    out.selection[col] = rec.finalSelection.empty() ? -1 : rec.finalSelection[0];
    const Mat& w = rec.weights.back();
    out.finalP[col] = Eigen::Map<const Vec>(w.data(), w.size());
  }
  return out;
}

std::optional<Mat> basinSvmDirection(std::uint64_t seed, int token) {
  const Scenario sc = localCase(seed);
  if (token < 0 || token >= sc.data.T || sc.data.n != 1) return std::nullopt;
  return svmDirection(sc.data, sc.model, {token}, NormKind::Frobenius);
}

bool basinTokenIsGlobal(std::uint64_t seed, int token) {
  const Scenario sc = localCase(seed);
  return sc.data.n == 1 && isGloballyOptimal(sc.data, {token});
}

}  // namespace attnsvm
