// Basin map rows (see experiment_basin.hpp); the loop body of the CLI's former basin-map code.
#include "attnsvm/experiments/experiment_basin.hpp"

#include <algorithm>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"

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
  if (grid < 2 || grid > 2000)
    throw InputError("grid = " + std::to_string(grid) + " is out of range 2..2000");
  if (row < 0 || row >= grid)
    throw InputError("row = " + std::to_string(row) + " is out of range 0.." +
                     std::to_string(grid - 1));
  const Scenario sc = localCase(seed);
  if (iters <= 0) iters = sc.iterations;
  BasinRow out;
  out.selection.resize(grid, -1);
  out.finalP.resize(grid);
  // The starts of a row share the data: trained together (BatchedTrainer), 64 at a time.
  constexpr int kBatch = 64;
  for (int c0 = 0; c0 < grid; c0 += kBatch) {
    const int count = std::min(kBatch, grid - c0);
    std::vector<Params> inits(count, sc.init);
    for (int k = 0; k < count; ++k) {
      inits[k].p = Vec::Zero(sc.data.d);
      inits[k].p[0] = basinCoord(c0 + k, grid);
      if (sc.data.d > 1) inits[k].p[1] = basinCoord(row, grid);
    }
    const std::vector<const Dataset*> data(count, &sc.data);
    const std::vector<RunRecord> recs =
        runTrainingBatched(data, sc.model, sc.train, inits, iters, iters);
    for (int k = 0; k < count; ++k) {
      const RunRecord& rec = recs[k];
      out.selection[c0 + k] = rec.finalSelection.empty() ? -1 : rec.finalSelection[0];
      const Mat& w = rec.weights.back();
      out.finalP[c0 + k] = Eigen::Map<const Vec>(w.data(), w.size());
    }
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
