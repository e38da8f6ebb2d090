// attnsvm experiment reg-path: the regularization path on the local-convergence data (100 seeds)
// and the two 2-D scenarios (fixed data: one run each). The per-seed work is the core's
// regPathSeed (the wasm module runs the same); here the threads, the mean/std over seeds, the
// summary per ball and the CSV.
#include <chrono>
#include <cmath>

#include "attnsvm/experiments/experiment_reg_path.hpp"
#include "common.hpp"

namespace attnsvm::cli {

namespace {

struct RegPathData {
  const char* name;  // the scenario (SeedOptions::method)
  const char* key;   // its camelCase key in the JSON (docs/NAMES.md)
  int seeds;         // -1: the --seeds option (default 100)
};

// The radius index after which the mean of `s` never again falls by more than 1e-3 of its value:
// where growing R stops helping on average (the last index if it falls to the end).
int stopsFalling(const std::vector<double>& s) {
  int last = 0;
  for (std::size_t k = 1; k < s.size(); ++k)
    if (s[k] < s[k - 1] * (1.0 - 1e-3)) last = static_cast<int>(k);
  return last;
}

json summaryOf(const std::vector<SeedResult>& out, const SeriesBlock& block,
               const std::vector<double>& radii) {
  const int seeds = static_cast<int>(out.size());
  json summary;
  auto seriesIndex = [&](const std::string& name) {
    for (std::size_t m = 0; m < block.names.size(); ++m)
      if (block.names[m] == name) return static_cast<int>(m);
    return -1;
  };
  for (const RegPathBall& b : regPathBalls()) {
    const std::string n = b.name;
    auto col = [&](const char* f) { return valueColumn(out.data(), seeds, columnName({n, f})); };
    auto share = [&](const char* f) {
      const Stats s = stats(col(f));
      return s.count > 0 ? s.mean : kNaN;
    };
    json j;
    json others;
    for (const RegPathBall& c : regPathBalls()) {
      std::vector<double> last;
      for (const SeedResult& r : out)
        last.push_back(r.seriesOf(columnName({n, "oneMinusCorr", c.name})).back());
      others[c.name] = statsJson(stats(last));
    }
    const int own = seriesIndex(columnName({n, "oneMinusCorr", n}));
    const int k = stopsFalling(block.means[own]);
    // Certificates over every radius of every seed.
    double certified = 0, resolved = 0, maxGap = 0;
    int points = 0;
    for (const SeedResult& r : out) {
      const auto& c = r.seriesOf(columnName({n, "certified"}));
      const auto& l = r.seriesOf(columnName({n, "lossResolved"}));
      const auto& g = r.seriesOf(columnName({n, "relativeGap"}));
      for (std::size_t q = 0; q < c.size(); ++q, ++points) {
        certified += c[q];
        resolved += l[q];
        maxGap = std::max(maxGap, g[q]);
      }
    }
    j["atLargestRadius"] = {{"oneMinusCorr", others},
                            {"rank", statsJson(stats(col("rank")))},
                            {"fractionGloballyOptimal", share("global")},
                            {"fractionSameSelectionAsGd", share("sameSelectionAsGd")},
                            {"oneMinusCorrWithGd", statsJson(stats(col("oneMinusCorrWithGd")))}};
    j["stopsFallingAtRadius"] = radii[k];
    j["fractionCertified"] = points ? certified / points : kNaN;
    j["fractionLossResolved"] = points ? resolved / points : kNaN;
    j["maxRelativeGap"] = maxGap;
    summary[n] = j;
  }
  for (const char* p : {"W", "KQ"}) {
    const Stats s = stats(valueColumn(out.data(), seeds, columnName({"gd", p, "global"})));
    summary["gd"][p]["fractionGloballyOptimal"] = s.mean;
  }
  return summary;
}

}  // namespace

ExperimentResult regPathExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 100);
  const int threads = resolveThreads(o.threads);
  const RegPathData datasets[3] = {{"local-convergence", "localConvergence", -1},
                                   {"paths2d", "paths2d", 1},
                                   {"paths2d-t5", "paths2dT5", 1}};
  const std::vector<double> radii = regPathRadii();
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("reg-path", o, seeds, o.iters, threads);
  j["settings"]["iterationsPerRadius"] = o.iters == -1 ? kRegPathIterations : o.iters;
  j["settings"]["gapTolerance"] = kPathGapTolerance;
  j["settings"]["radii"] = radii;
  j["settings"]["balls"] = json::array();
  for (const RegPathBall& b : regPathBalls()) j["settings"]["balls"].push_back(b.name);
  j["settings"]["note"] =
      "paths2d and paths2d-t5 have fixed data: one run each. The GD limits are normalized GD on W "
      "and on (K,Q) from the scenario's start (local-convergence's runs), compared with the "
      "Frobenius / l_p paths (W-GD) and the nuclear path ((K,Q)-GD).";
  // Every (data set, seed) is one item of one pool.
  std::vector<std::pair<int, int>> items;
  for (int dset = 0; dset < 3; ++dset)
    for (int k = 0; k < (datasets[dset].seeds < 0 ? seeds : datasets[dset].seeds); ++k)
      items.push_back({dset, k});
  std::vector<SeedResult> out(items.size());
  Progress progress("reg-path", static_cast<long>(items.size()), o.progress);
  parallelFor(static_cast<int>(items.size()), threads, progress, [&](int idx) {
    SeedOptions so;
    so.iters = o.iters;
    so.method = datasets[items[idx].first].name;
    out[idx] = runExperimentSeed("reg-path", o.seedBase + items[idx].second, so);
  });
  progress.finish();
  std::string csv;
  std::size_t at = 0;
  for (int dset = 0; dset < 3; ++dset) {
    const int count = datasets[dset].seeds < 0 ? seeds : datasets[dset].seeds;
    const std::vector<SeedResult> part(out.begin() + at, out.begin() + at + count);
    at += count;
    const SeriesBlock block = aggregateSeries(part.data(), count);
    json d;
    d["seeds"] = count;
    d["n"] = part[0].n;
    d["T"] = part[0].T;
    d["d"] = part[0].d;
    d["radius"] = radii;
    d["series"] = block.toJson();
    d["summary"] = summaryOf(part, block, radii);
    j["data"][datasets[dset].key] = std::move(d);
    csv += block.csv("data", datasets[dset].key, dset == 0);
  }
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

}  // namespace attnsvm::cli
