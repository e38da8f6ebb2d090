// The experiment entry points, linked only into the attnsvm-experiments module (the lab's
// experiment panel loads it in its worker pool): the per-seed experiments and the basin map would
// otherwise add ~27 KB gzipped to the module every page and embed loads (docs/BENCHMARKS.md,
// "WebAssembly"). Thin wrappers over the core (attnsvm/experiment.hpp), exactly as the native CLI
// calls it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/errors.hpp"
#include "attnsvm/experiment.hpp"
#include "attnsvm/experiment_basin.hpp"
#include "attnsvm/scenarios.hpp"
#include "attnsvm/train_batched.hpp"
#include "convert.hpp"
#include "guarded.hpp"
#include "plumbing.hpp"

using emscripten::val;
using namespace attnsvm;

namespace {

using wire::guarded;

// Seeds seedStart .. seedStart + seedCount - 1 of one setting of a seeded experiment (the core's
// runExperimentSeed, the same code as the native CLI); a pool of workers splits the seeds. For
// "rank" a seed is one instance of a grid cell (feasible or not); runner.js keeps the first
// feasible ones in seed order, as the CLI does.
val experimentSeedsW(const std::string& name, const val& req) {
  return guarded([&] {
    SeedOptions so;
    so.iters = wire::integer(req, "iters", -1);
    so.every = wire::integer(req, "every", -1);
    so.d = wire::integer(req, "d", -1);
    so.n = wire::integer(req, "n", -1);  // rank: the grid cell (n, T, d)
    so.T = wire::integer(req, "T", -1);
    so.rankTol = wire::number(req, "rankTol", 0.0);
    so.p = wire::number(req, "p", 0.0);
    so.method = wire::string(req, "method", "");
    const std::uint64_t start = wire::seed(req, "seedStart");
    const int count = wire::integer(req, "seedCount", 1);
    if (count < 1 || count > 100000)
      throw InputError("seedCount = " + std::to_string(count) + " is out of range 1..100000");
    // The core batches the seeds' training where it can (local-convergence), as the CLI does.
    return wire::seedResults(runExperimentSeeds(name, start, count, so));
  });
}

// Rows rowStart .. rowStart + rowCount - 1 of the basin map (core basinMapRow, as the CLI): the
// selected token of every start, row-major.
val basinMapW(const val& req) {
  return guarded([&] {
    const int grid = wire::integer(req, "grid", 200);
    const int rowStart = wire::integer(req, "rowStart", 0);
    const int rowCount = wire::integer(req, "rowCount", 1);
    const int iters = wire::integer(req, "iters", -1);
    if (iters != -1 && (iters < 1 || iters > 10000000))
      throw InputError("iters = " + std::to_string(iters) + " is out of range 1..10000000");
    if (rowCount < 1 || rowStart < 0 || rowStart + rowCount > grid)
      throw InputError("rows " + std::to_string(rowStart) + " + " + std::to_string(rowCount) +
                       " exceed the grid of " + std::to_string(grid));
    std::vector<int> selection;
    selection.reserve(static_cast<std::size_t>(rowCount) * grid);
    const std::uint64_t seed = wire::seed(req, "seed");
    for (int r = rowStart; r < rowStart + rowCount; ++r) {
      const BasinRow row = basinMapRow(seed, grid, r, iters);
      selection.insert(selection.end(), row.selection.begin(), row.selection.end());
    }
    val o = val::object();
    o.set("grid", grid);
    o.set("rowStart", rowStart);
    o.set("rowCount", rowCount);
    o.set("selection", wire::i32(selection));
    return o;
  });
}

// The possible limits of the basin map: for each token, whether it is the global optimum and its
// prompt SVM direction (null if infeasible).
val basinLimitsW(const val& req) {
  return guarded([&] {
    const std::uint64_t seed = wire::seed(req, "seed");
    val tokens = val::array();
    for (int t = 0; t < 3; ++t) {
      val x = val::object();
      x.set("token", t);
      x.set("global", basinTokenIsGlobal(seed, t));
      const std::optional<Mat> dir = basinSvmDirection(seed, t);
      x.set("direction",
            dir ? wire::f64(Vec(Eigen::Map<const Vec>(dir->data(), dir->size()))) : val::null());
      tokens.call<void>("push", x);
    }
    val o = val::object();
    o.set("tokens", tokens);
    o.set("range", wire::f64(std::vector<double>{kBasinLo, kBasinHi}));
    return o;
  });
}

// Training throughput and batched-vs-single agreement in wasm (bench/wasm/train-batched.mjs,
// tests/wasm/train-batched.test.mjs): seeds seedStart .. seedStart + seedCount - 1 of the sphere
// scenario at (n, T, d), `iters` steps of `optimizer` (lr, p) on W or (K,Q) from the scenario's
// start, all seeds advanced together (batched: true, BatchedTrainer) or one Trainer per seed.
// Returns the final effective weights of every run (column-major, d*d per run), its iteration and
// stop reason.
val trainSeedsW(const val& req) {
  return guarded([&] {
    ScenarioOptions so;
    so.n = wire::integer(req, "n", 6);
    so.T = wire::integer(req, "T", 8);
    so.d = wire::integer(req, "d", 10);
    const int start = wire::integer(req, "seedStart", 0),
              count = wire::integer(req, "seedCount", 1);
    const int iters = wire::integer(req, "iters", 2000);
    if (count < 1 || count > 4096)
      throw InputError("seedCount = " + std::to_string(count) + " is out of range 1..4096");
    if (start < 0) throw InputError("seedStart = " + std::to_string(start) + " must be >= 0");
    if (iters < 0 || iters > 10000000)
      throw InputError("iters = " + std::to_string(iters) + " is out of range 0..10000000");
    const std::string param = wire::string(req, "param", "W");
    if (param != "W" && param != "KQ") throw InputError("param '" + param + "': expected W or KQ");
    std::vector<Model> models;
    std::vector<Params> inits;
    TrainSettings ts;
    for (int k = 0; k < count; ++k) {
      so.seed = static_cast<std::uint64_t>(start) + k;
      Scenario sc = makeScenario("sphere", so);
      sc.model.param = param == "KQ" ? Parameterization::KQ : Parameterization::W;
      models.emplace_back(sc.data, sc.model);
      inits.push_back(sc.init);
      ts = sc.train;
    }
    ts.optimizer = parseWireName<Optimizer>(wire::string(req, "optimizer", "ngd"), "optimizer");
    ts.lr = wire::number(req, "lr", ts.lr);
    ts.p = wire::number(req, "p", ts.p);
    ts.traceEvery = iters + 1;
    std::vector<double> weights;
    std::vector<int> iterations;
    val reasons = val::array();
    auto keep = [&](const Mat& w, int it, const std::string& why) {
      weights.insert(weights.end(), w.data(), w.data() + w.size());
      iterations.push_back(it);
      reasons.call<void>("push", why);
    };
    if (wire::boolean(req, "batched", true)) {
      BatchedTrainer bt(models, ts, inits);
      bt.step(iters);
      for (int k = 0; k < count; ++k) keep(bt.weights(k), bt.iteration(k), bt.stopReason(k));
    } else {
      for (int k = 0; k < count; ++k) {
        Trainer tr(models[k], ts, inits[k]);
        tr.step(iters);
        keep(tr.weights(), tr.iteration(), tr.stopReason());
      }
    }
    val o = val::object();
    o.set("weights", wire::f64(weights));
    o.set("iterations", wire::i32(iterations));
    o.set("stopReasons", reasons);
    return o;
  });
}

val experimentNamesW() {
  return guarded([] { return wire::namesObject(seedExperimentNames()); });
}

// Reads `value` as the named input struct (dataset, model, train, params, init) through its field
// list and writes it back: the tests' write -> read -> write round trip of wasm/convert.cpp's
// reader and writer. In this module, not in the one pages load (its size bound).
val fieldsRoundTripW(const std::string& name, const val& value) {
  return guarded([&] { return wire::roundTripFields(name, value); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnsvm_experiments) {
  using namespace emscripten;
  function("experimentSeeds", &experimentSeedsW);
  function("experimentNames", &experimentNamesW);
  function("basinMap", &basinMapW);
  function("basinLimits", &basinLimitsW);
  function("trainSeeds", &trainSeedsW);
  function("fieldsRoundTrip", &fieldsRoundTripW);
}
