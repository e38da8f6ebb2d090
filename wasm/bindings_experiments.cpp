// The experiment entry points, linked only into the attnsvm-experiments module (the lab's
// experiment panel loads it in its worker pool): the per-seed experiments and the basin map would
// otherwise add ~27 KB gzipped to the module every page and embed loads (docs/BENCHMARKS.md,
// "WebAssembly"). Thin wrappers over the core (attnsvm/experiments/experiment.hpp), exactly as the
// native CLI calls it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_basin.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/experiments/seed_spread.hpp"
#include "attnsvm/train/train_batched.hpp"
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
// feasible ones in seed order, as the CLI does. The request is read through SeedsRequest's field
// list (experiment.hpp): a key that is not a field is an error listing them.
val experimentSeedsW(const std::string& name, const val& req) {
  return guarded([&] {
    const SeedsRequest r = wire::readFields<SeedsRequest>(req, "");
    if (r.seedCount < 1 || r.seedCount > 100000)
      throw InputError("seedCount = " + std::to_string(r.seedCount) + " is out of range 1..100000");
    // The core batches the seeds' training where it can (local-convergence), as the CLI does.
    return wire::seedResults(runExperimentSeeds(name, r.seedStart, r.seedCount, r.options));
  });
}

// Rows rowStart .. rowStart + rowCount - 1 of the basin map (core basinMapRow, as the CLI): the
// selected token of every start, row-major. The request is read through BasinMapRequest's list.
val basinMapW(const val& req) {
  return guarded([&] {
    const BasinMapRequest b = wire::readFields<BasinMapRequest>(req, "");
    const int grid = b.grid, rowStart = b.rowStart, rowCount = b.rowCount, iters = b.iters;
    if (iters != -1 && (iters < 1 || iters > 10000000))
      throw InputError("iters = " + std::to_string(iters) + " is out of range 1..10000000");
    if (rowCount < 1 || rowStart < 0 || rowStart + rowCount > grid)
      throw InputError("rows " + std::to_string(rowStart) + " + " + std::to_string(rowCount) +
                       " exceed the grid of " + std::to_string(grid));
    std::vector<int> selection;
    selection.reserve(static_cast<std::size_t>(rowCount) * grid);
    for (int r = rowStart; r < rowStart + rowCount; ++r) {
      const BasinRow row = basinMapRow(b.seed, grid, r, iters);
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
// prompt SVM direction (null if infeasible). The request has one field, seed (BasinMapRequest's).
val basinLimitsW(const val& req) {
  return guarded([&] {
    std::uint64_t seed = 0;
    wire::Reader in(req, "");
    in("seed", seed);
    in.finish();
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
    // Read through one Reader (a key that is not one of these is an error listing them): n, T, d,
    // seedStart, seedCount, iters, param, batched here, optimizer, lr, p below (their defaults are
    // the scenario's training settings).
    wire::Reader in(req, "");
    ScenarioOptions so;
    so.n = 6;
    so.T = 8;
    so.d = 10;
    int start = 0, count = 1, iters = 2000;
    std::string param = "W";
    bool batched = true;
    in("n", so.n);
    in("T", so.T);
    in("d", so.d);
    in("seedStart", start);
    in("seedCount", count);
    in("iters", iters);
    in("param", param);
    in("batched", batched);
    if (count < 1 || count > 4096)
      throw InputError("seedCount = " + std::to_string(count) + " is out of range 1..4096");
    if (start < 0) throw InputError("seedStart = " + std::to_string(start) + " must be >= 0");
    if (iters < 0 || iters > 10000000)
      throw InputError("iters = " + std::to_string(iters) + " is out of range 0..10000000");
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
    ts.optimizer = Optimizer::NGD;
    in("optimizer", ts.optimizer);
    in("lr", ts.lr);
    in("p", ts.p);
    in.finish();
    ts.traceEvery = iters + 1;
    std::vector<double> weights;
    std::vector<int> iterations;
    val reasons = val::array();
    auto keep = [&](const Mat& w, int it, const std::string& why) {
      weights.insert(weights.end(), w.data(), w.data() + w.size());
      iterations.push_back(it);
      reasons.call<void>("push", why);
    };
    if (batched) {
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

// The spread over runs of series (the core's seriesSpread, seed_spread.hpp: what the CLI writes in
// its experiment JSON): mean, std, median, q10, q90 per snapshot. The lab's experiment panel sends
// each setting's series (all seeds) here once its workers are done, so its bands are the engine's.
// The request is read through SeriesSpreadRequest's field list, the result written through
// SeriesSpread's.
struct SpreadWriter {
  val& out;
  void operator()(const char* name, const std::vector<double>& v) const {
    wire::put(out, name, wire::f64(v));
  }
};
val seriesSpreadW(const val& req) {
  return guarded([&] {
    SeriesSpreadRequest r;
    wire::Reader in(req, "");
    visitFields(r, in);
    in.finish();
    const SeriesSpread s = seriesSpread(r.values, r.runs, r.length);
    val o = val::object();
    SpreadWriter w{o};
    visitFields(s, w);
    return o;
  });
}

val experimentNamesW() {
  return guarded([] { return wire::namesObject(seedExperimentNames()); });
}

// The experiments' field lists ({fields: {experimentSeeds, basinMap, realImagesSettings,
// realImagesFrame, realImagesAnalysis}}): the request and result objects of this module's entry
// points, which a test checks attnsvm.d.ts against. Here, not in engine.vocabulary() (the page's
// module does not carry these lists: its size bound).
val experimentVocabularyW() {
  return guarded([] {
    val o = val::object();
    wire::put(o, "fields", wire::experimentFieldLists());
    return o;
  });
}

// Reads `value` as the named input struct (dataset, model, train, params, init) through its field
// list and writes it back: the tests' write -> read -> write round trip of wasm/convert_read.cpp's
// and convert_write.cpp's reader and writer. In this module, not in the one pages load (its size
// bound).
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
  function("seriesSpread", &seriesSpreadW);
  function("trainSeeds", &trainSeedsW);
  function("experimentVocabulary", &experimentVocabularyW);
  function("fieldsRoundTrip", &fieldsRoundTripW);
}
