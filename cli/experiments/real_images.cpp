// experiment real-images (SPEC section 6): Fashion-MNIST patches, l_p mirror descent for several p
// (and Adam) on the pooled-query attention model with its head, mean +- std over seeds. The runs
// are the core's RealImagesRun (the lab trains the same in its workers); here only the threads,
// the aggregation and the JSON/CSV.
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

// One compared method: an optimizer and its p (Adam: no p).
struct Method {
  Optimizer optimizer;
  double p;
  double lr;
  std::string name;  // "nmd p=1.1", "adam"
};

std::vector<Method> methodsOf(const ExperimentOptions& o) {
  const std::vector<double> ps = o.ps.empty() ? std::vector<double>{1.1, 2.0, 3.0} : o.ps;
  const std::vector<std::string> opts =
      o.optimizers.empty() ? std::vector<std::string>{"nmd", "adam"} : o.optimizers;
  std::vector<Method> out;
  for (const std::string& name : opts) {
    const Optimizer opt = parseWireName<Optimizer>(name, "--optimizer");
    const double lr =
        opt == Optimizer::Adam ? (o.adamLr > 0 ? o.adamLr : 0.01) : (o.lr > 0 ? o.lr : 0.1);
    if (opt == Optimizer::Adam) {
      out.push_back({opt, 2.0, lr, "adam"});
      continue;
    }
    for (double p : ps) {
      std::ostringstream label;  // shortest form: "nmd p=1.1", not csvNum's 17 digits
      label << wireName(opt) << " p=" << p;
      out.push_back({opt, p, lr, label.str()});
    }
  }
  return out;
}

// The numbers of a frame (the doubles of RealImagesFrame's field list, in list order): the
// series and finals of a method, named as the wasm run's frames.
template <class Fn>
struct FrameNumbers {
  Fn fn;
  template <class T>
  void operator()(const char* name, const T& x, bool = true) {
    if constexpr (std::is_same_v<T, double>) fn(name, x);
  }
};
template <class Fn>
void eachNumber(const RealImagesFrame& f, Fn fn) {
  FrameNumbers<Fn> v{fn};
  visitFields(f, v);
}
const std::vector<std::string>& frameSeriesNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    eachNumber(RealImagesFrame{}, [&](const char* name, double) { n.emplace_back(name); });
    return n;
  }();
  return names;
}

struct RunOut {
  std::vector<int> iteration;
  std::vector<std::vector<double>> series =
      std::vector<std::vector<double>>(frameSeriesNames().size());
  RealImagesFrame last;
  RealImagesAnalysis analysis;
  std::string stopReason;
  Mat W;
  Vec v;
  double trainSeconds = 0, analysisSeconds = 0;
};

RunOut runOne(const ImageSet& trainAll, const ImageSet& testAll, const RealImagesSettings& s,
              int every) {
  const Dataset train =
      embedTokens(patchDataset(binarySubset(trainAll, s.classA, s.classB, s.nTrain, s.seed),
                               s.classA, s.classB, s.patch),
                  s.dim, s.embedSeed);
  const Dataset test =
      embedTokens(patchDataset(binarySubset(testAll, s.classA, s.classB, s.nTest, s.seed), s.classA,
                               s.classB, s.patch),
                  s.dim, s.embedSeed);
  RealImagesRun run(train, test, s);
  RunOut out;
  auto frame = [&]() {
    const RealImagesFrame f = run.measure();
    out.iteration.push_back(f.iteration);
    std::size_t k = 0;
    eachNumber(f, [&](const char*, double x) { out.series[k++].push_back(x); });
    out.last = f;
  };
  const double t0 = threadCpuSeconds();
  frame();
  while (run.iteration() < s.iters) {
    const int want = std::min(every, s.iters - run.iteration());
    const int took = run.step(want);
    if (took > 0) frame();
    if (took < want) break;
  }
  out.trainSeconds = threadCpuSeconds() - t0;  // training and the frames' measurements
  out.stopReason = run.stopReason();
  const double t1 = threadCpuSeconds();
  out.analysis = run.analyze();
  out.analysisSeconds = threadCpuSeconds() - t1;
  out.W = run.params().W;
  out.v = run.params().v;
  return out;
}

// The settings every run shares, from the options (classes, iterations, set sizes).
RealImagesSettings baseSettings(const ExperimentOptions& o) {
  RealImagesSettings base;
  if (!o.classes.empty()) {
    if (o.classes.size() != 2)
      throw InputError("--classes needs two classes A,B (0..9), got " +
                       std::to_string(o.classes.size()));
    base.classA = o.classes[0];
    base.classB = o.classes[1];
  }
  base.iters = pick(o.iters, 1000);
  base.nTrain = pick(o.nTrain, base.nTrain);
  base.nTest = pick(o.nTest, base.nTest);
  base.nSvm = pick(o.nSvm, base.nSvm);
  if (o.tokenDim != -1) base.dim = o.tokenDim;
  if (base.nSvm > base.nTrain)
    throw InputError("--n-svm = " + std::to_string(base.nSvm) +
                     " exceeds --train = " + std::to_string(base.nTrain));
  return base;
}

// Every (method, seed) run on the worker threads, method-major: run idx is method idx / seeds
// with seed seedBase + idx % seeds.
std::vector<RunOut> runAll(const ExperimentOptions& o, const std::vector<Method>& methods,
                           const RealImagesSettings& base, const ImageSet& trainAll,
                           const ImageSet& testAll, int seeds, int threads, int every) {
  const int items = static_cast<int>(methods.size()) * seeds;
  std::vector<RunOut> out(items);
  Progress progress("real-images", items, o.progress);
  parallelFor(items, threads, progress, [&](int idx) {
    const Method& m = methods[idx / seeds];
    RealImagesSettings s = base;
    s.optimizer = m.optimizer;
    s.p = m.p;
    s.lr = m.lr;
    s.seed = o.seedBase + static_cast<std::uint64_t>(idx % seeds);
    out[idx] = runOne(trainAll, testAll, s, every);
  });
  progress.finish();
  return out;
}

// The fields of RealImagesSettings that differ between the runs: a method's (perMethod[]) and a
// run's seed (runs[]). The "settings" block has the others.
const std::vector<std::string> kMethodFields = {"optimizer", "p", "lr"};
const std::vector<std::string> kPerRunFields = {"optimizer", "p", "lr", "seed"};

// The "settings" block: the settings every run shares under RealImagesSettings' field list (the
// names of the lab's request: classA, classB, nTrain, nTest, patch, iters, nSvm, histogramBins),
// the options, and the model, split and measurements in words.
json realImagesSettingsJson(const ExperimentOptions& o, const RealImagesSettings& base,
                            const ImageSet& trainAll, int seeds, int threads, int every) {
  json j = settingsJson("real-images", o, seeds, base.iters, threads);
  j.update(fieldsToJson(base, kPerRunFields, /*except=*/true));
  const auto& names = fashionClassNames();
  j["classNames"] = {names[base.classA], names[base.classB]};
  j["T"] = (trainAll.rows / base.patch) * (trainAll.cols / base.patch);
  j["d"] = base.patch * base.patch + 2;
  j["every"] = every;
  j["model"] =
      "cross attention, z_i = mean token, linear head v, logistic loss; W0 = 0, v0 = 0, "
      "W and v trained jointly with the same optimizer and lr, full batch";
  j["seedRule"] =
      "seed 0: the first n/2 images of each class in file order; seed k > 0: n/2 of the "
      "first max(1000, n) of each class (the pool the page's asset holds), the first n/2 "
      "after a Fisher-Yates shuffle of the pool's file indices with Rng(k); the same rule "
      "for the training and the test file";
  j["sparsity"] = "share of entries of W with |W_jk| < 0.01 max |W_jk|";
  j["accuracy"] = "share of images with Y_i f_i > 0";
  j["timing"] =
      "trainSeconds, analysisSeconds: CPU time of the run's thread (trainSeconds "
      "includes the measurement of every frame)";
  return j;
}

// One run: its seed, its last frame and its analysis under their field lists (the wasm run's
// frame and analysis), norms and timings.
json runJson(const RunOut& r, std::uint64_t seed) {
  json run = fieldsToJson(r.last);
  run["seed"] = seed;
  run["normWFro"] = r.W.norm();
  run["normV"] = r.v.norm();
  // The final parameters exactly (shortest round-trip decimals): the wasm run of the same settings
  // gives the same bits (SPEC 6.4; tests/wasm/real-bits.test.mjs).
  run["W"] = toJson(r.W);
  run["v"] = vectorJson(r.v);
  run["trainSeconds"] = r.trainSeconds;
  run["analysisSeconds"] = r.analysisSeconds;
  run["analysis"] = fieldsToJson(r.analysis);
  if (!r.stopReason.empty()) run["stopReason"] = r.stopReason;
  return run;
}

// The series of one method, mean +- std over its seeds' runs first[0 .. seeds) (on the longest
// run's iterations).
SeriesBlock seriesOf(const RunOut* first, int seeds) {
  SeriesBlock block;
  block.iteration = first[0].iteration;
  for (int k = 0; k < seeds; ++k)
    if (first[k].iteration.size() > block.iteration.size()) block.iteration = first[k].iteration;
  for (std::size_t f = 0; f < frameSeriesNames().size(); ++f) {
    std::vector<std::vector<double>> perSeed;
    for (int k = 0; k < seeds; ++k) perSeed.push_back(first[k].series[f]);
    block.add(frameSeriesNames()[f], perSeed);
  }
  return block;
}

// One method's entry of "perMethod": finals over its seeds' runs first[0 .. seeds), verdicts,
// histogram, seed 0's heat map, the series and every run.
json methodJson(const Method& m, const RealImagesSettings& settings, const RunOut* first, int seeds,
                std::uint64_t seedBase, const SeriesBlock& block) {
  auto finals = [&](auto get) {
    std::vector<double> v;
    for (int k = 0; k < seeds; ++k) v.push_back(get(first[k]));
    return statsJson(stats(v));
  };
  std::map<std::string, int> verdicts;
  int feasible = 0;
  std::vector<double> histogram(first[0].last.histogram.size(), 0.0);
  json runs = json::array();
  for (int k = 0; k < seeds; ++k) {
    const RunOut& r = first[k];
    ++verdicts[r.analysis.verdict];
    feasible += r.analysis.feasible ? 1 : 0;
    for (std::size_t b = 0; b < histogram.size() && b < r.last.histogram.size(); ++b)
      histogram[b] += r.last.histogram[b] / seeds;
    runs.push_back(runJson(r, seedBase + k));
  }
  const double top = first[0].W.cwiseAbs().maxCoeff();
  // the method's settings (optimizer, p unless Adam, lr) under RealImagesSettings' field list
  json r = fieldsToJson(settings, kMethodFields, /*except=*/false);
  r["method"] = m.name;
  // finals: the last frame's numbers (the series' last entries, frame() records `last` with them),
  // the SVM's, the timings
  json final = json::object();
  for (std::size_t f = 0; f < frameSeriesNames().size(); ++f)
    final[frameSeriesNames()[f]] = finals([&](const RunOut& x) { return x.series[f].back(); });
  final["svmCorr"] = finals([](const RunOut& x) { return x.analysis.corr; });
  final["svmDivergence"] = finals([](const RunOut& x) { return x.analysis.divergence; });
  final["trainSeconds"] = finals([](const RunOut& x) { return x.trainSeconds; });
  final["analysisSeconds"] = finals([](const RunOut& x) { return x.analysisSeconds; });
  r["final"] = std::move(final);
  r["svmFeasible"] = feasible;
  r["verdicts"] = verdicts;
  r["histogramMean"] = histogram;
  r["heatmapSeed0"] = {
      {"W", toJson(top > 0 ? Mat(first[0].W / top) : first[0].W)},
      {"svm", first[0].analysis.svm.size()
                  ? toJson(first[0].analysis.svm / first[0].analysis.svm.cwiseAbs().maxCoeff())
                  : json(nullptr)}};
  r["series"] = block.toJson();
  r["runs"] = std::move(runs);
  return r;
}

}  // namespace

ExperimentResult realImagesExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 5);
  const int threads = resolveThreads(o.threads);
  const RealImagesSettings base = baseSettings(o);
  const int every = o.every > 0 ? o.every : std::max(1, base.iters / 100);
  const std::vector<Method> methods = methodsOf(o);

  // The files are read once; each seed takes its own subset (binarySubset's seed rule).
  const ImageSet trainAll = readFashionMnist("train", o.dataDir);
  const ImageSet testAll = readFashionMnist("t10k", o.dataDir);
  // Fail fast on bad classes or sizes (the same checks every run would make).
  (void)binarySubset(trainAll, base.classA, base.classB, base.nTrain);
  (void)binarySubset(testAll, base.classA, base.classB, base.nTest);

  const std::vector<RunOut> out =
      runAll(o, methods, base, trainAll, testAll, seeds, threads, every);

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = realImagesSettingsJson(o, base, trainAll, seeds, threads, every);
  json perMethod = json::array();
  std::string csv;
  for (std::size_t mi = 0; mi < methods.size(); ++mi) {
    const RunOut* first = out.data() + mi * seeds;
    const SeriesBlock block = seriesOf(first, seeds);
    RealImagesSettings settings = base;
    settings.optimizer = methods[mi].optimizer;
    settings.p = methods[mi].p;
    settings.lr = methods[mi].lr;
    perMethod.push_back(methodJson(methods[mi], settings, first, seeds, o.seedBase, block));
    csv += block.csv("method", methods[mi].name, mi == 0);
  }
  j["perMethod"] = std::move(perMethod);
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

}  // namespace attnsvm::cli
