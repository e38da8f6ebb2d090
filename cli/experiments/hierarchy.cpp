// hierarchy: two stacked attention layers trained by NGD, each against the SVM of its own
// selection given the other's current outputs (SPEC 5.3 "Two layers"). Sphere data over seeds (the
// core's runExperimentSeed "hierarchy", which the lab's workers run too) and one Fashion-MNIST pair
// at a small n (native: it reads the image files). Here only the threads, the mean/std over seeds
// and the JSON/CSV.
#include <chrono>
#include <map>

#include "attnsvm/experiments/experiment_hierarchy.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

constexpr int kImageSeeds = 5;
constexpr int kImageN = 8;

// The seeds' series (mean/std), every value's stats over the seeds, the count of each label value
// ({value, count} per label),
// and the seeds' own finals.
json blockJson(const std::vector<SeedResult>& out, std::uint64_t seedBase, std::string& csv,
               const std::string& part) {
  const int seeds = static_cast<int>(out.size());
  const SeriesBlock block = aggregateSeries(out.data(), seeds);
  json summary, labels, runs = json::array();
  for (const std::string& name : out[0].valueNames)
    summary[name] = statsJson(stats(valueColumn(out.data(), seeds, name)));
  for (const std::string& name : out[0].labelNames) {
    std::map<std::string, int> count;
    for (const SeedResult& s : out) ++count[s.label(name)];
    json list = json::array();  // [{value, count}]: label values are not key names
    for (const auto& [value, n] : count) list.push_back({{"value", value}, {"count", n}});
    labels[name] = std::move(list);
  }
  for (int k = 0; k < seeds; ++k) {
    const SeedResult& s = out[k];
    json r;
    r["seed"] = seedBase + k;
    for (std::size_t m = 0; m < s.valueNames.size(); ++m) r[s.valueNames[m]] = s.values[m];
    for (std::size_t m = 0; m < s.labelNames.size(); ++m) r[s.labelNames[m]] = s.labels[m];
    for (std::size_t m = 0; m < s.selectionNames.size(); ++m)
      r[s.selectionNames[m]] = s.selections[m];
    runs.push_back(std::move(r));
  }
  csv += block.csv("part", part, csv.empty());
  return json{
      {"n", out[0].n},         {"T", out[0].T},      {"d", out[0].d},    {"iters", out[0].iters},
      {"every", out[0].every}, {"summary", summary}, {"labels", labels}, {"series", block.toJson()},
      {"runs", runs}};
}

}  // namespace

ExperimentResult hierarchyExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 100);
  const int threads = resolveThreads(o.threads);
  SeedOptions so;
  so.iters = o.iters;
  so.every = o.every;
  if (!o.dims.empty()) so.d = o.dims[0];
  const int classA = o.classes.size() == 2 ? o.classes[0] : 7;
  const int classB = o.classes.size() == 2 ? o.classes[1] : 9;
  const int nImages = pick(o.nTrain, kImageN);
  // Read before the sphere runs: a missing file fails at once.
  const Dataset images =
      hierarchyImageData(readFashionMnist("train", o.dataDir), classA, classB, nImages);
  HierarchyPlan plan;
  plan.iters = pick(o.iters, kHierarchyIters);
  plan.every = o.every == -1 ? std::max(1, plan.iters / 20) : o.every;
  plan.allUnitsEverySnapshot = false;

  std::vector<SeedResult> sphere(seeds), real(kImageSeeds);
  Progress progress("hierarchy", seeds + kImageSeeds, o.progress);
  // The image runs first (each costs about 25 sphere seeds), then the sphere seeds.
  parallelFor(seeds + kImageSeeds, threads, progress, [&](int k) {
    if (k < kImageSeeds) {
      const std::uint64_t seed = o.seedBase + static_cast<std::uint64_t>(k);
      real[k] = hierarchyRun(images, hierarchyInit(images, seed), plan);
    } else {
      sphere[k - kImageSeeds] = runExperimentSeed(
          "hierarchy", o.seedBase + static_cast<std::uint64_t>(k - kImageSeeds), so);
    }
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("hierarchy", o, seeds, sphere[0].iters, threads);
  j["settings"]["optimizer"] =
      "ngd on W1 and W2, each divided by its own Frobenius norm, eta 0.1; v fixed";
  j["settings"]["init"] = "W1, W2 with i.i.d. N(0, 0.1^2) entries from the seed";
  j["settings"]["corrThreshold"] = kHierarchyCorr;
  j["settings"]["certified"] = "solver status optimal, relative gap <= 1e-6, violation <= 1e-8";
  j["settings"]["sphere"] = "sphereDataset(n, T, d, seed); v the data's";
  j["settings"]["images"] = {{"classes", {classA, classB}},
                             {"n", nImages},
                             {"seeds", kImageSeeds},
                             {"head",
                              "fitted alone on the mean-pooled tokens (NGD, 1000 steps from 0), "
                              "then frozen"},
                             {"corrW1All", "at the last snapshot only"}};
  std::string csv;
  j["sphere"] = blockJson(sphere, o.seedBase, csv, "sphere");
  j["images"] = blockJson(real, o.seedBase, csv, "images");
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

}  // namespace attnsvm::cli
