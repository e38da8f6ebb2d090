// The seeded sphere experiments: local convergence, multi-token, mirror descent,
// overparameterization, rates. The per-seed work is the core's runExperimentSeed (the wasm module
// runs the same); here only the threads, the mean/std over seeds and the JSON/CSV.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

// Item s * seeds + k is seed seedBase + k of setting s; written to its own slot. The seeds of a
// setting go in chunks (consecutive seeds, runExperimentSeeds batches their training), about two
// per thread so that the threads stay balanced; the results do not depend on the chunking.
std::vector<SeedResult> runSeeds(const std::string& name, const ExperimentOptions& o, int seeds,
                                 const std::vector<SeedOptions>& settings, int threads) {
  const int items = seeds * static_cast<int>(settings.size());
  std::vector<SeedResult> out(items);
  const int perChunk = std::max(8, (seeds + 2 * threads - 1) / (2 * threads) / 8 * 8);
  const int chunksPerSetting = (seeds + perChunk - 1) / perChunk;
  const int chunks = chunksPerSetting * static_cast<int>(settings.size());
  Progress progress(name, chunks, o.progress);
  parallelFor(chunks, threads, progress, [&](int idx) {
    const int s = idx / chunksPerSetting, k0 = (idx % chunksPerSetting) * perChunk;
    const int count = std::min(perChunk, seeds - k0);
    std::vector<SeedResult> part =
        runExperimentSeeds(name, o.seedBase + static_cast<std::uint64_t>(k0), count, settings[s]);
    for (int k = 0; k < count; ++k) out[s * seeds + k0 + k] = std::move(part[k]);
  });
  progress.finish();
  return out;
}

// The settings a seed ran with (its SeedResult's iters, every, n, T, d), named by SeedOptions'
// field list (the names of the lab's experimentSeeds request): the `names` of them for a settings
// block.
json resolvedSettingsJson(const SeedResult& r, const std::vector<std::string>& names) {
  SeedOptions so;
  so.iters = r.iters;
  so.every = r.every;
  so.n = r.n;
  so.T = r.T;
  so.d = r.d;
  return fieldsToJson(so, names, /*except=*/false);
}

SeedOptions baseOptions(const ExperimentOptions& o) {
  SeedOptions so;
  so.iters = o.iters;
  so.every = o.every;
  return so;
}

}  // namespace

SeriesBlock aggregateSeries(const SeedResult* first, int count) {
  SeriesBlock block;
  block.iteration = first->iteration;
  for (std::size_t m = 0; m < first->seriesNames.size(); ++m) {
    std::vector<std::vector<double>> perSeed;
    perSeed.reserve(count);
    for (int k = 0; k < count; ++k) perSeed.push_back(first[k].series[m]);
    block.add(first->seriesNames[m], perSeed);
  }
  return block;
}

std::vector<double> valueColumn(const SeedResult* first, int count, const std::string& name) {
  std::vector<double> v;
  v.reserve(count);
  for (int k = 0; k < count; ++k) v.push_back(first[k].value(name));
  return v;
}

json scopeRunJson(const SeedResult& s, std::size_t scopeIndex, const std::string& scope,
                  const std::vector<std::string>& fields) {
  json x = {{"selection", s.selections[scopeIndex]},
            {"verdict", s.label(columnName({scope, "verdict"}))}};
  for (const std::string& f : fields) x[f] = s.value(columnName({scope, f}));
  const std::string& stopReason = s.label(columnName({scope, "stopReason"}));
  if (!stopReason.empty()) x["stopReason"] = stopReason;
  return x;
}

void finishSeededResult(ExperimentResult& res, json summary, const SeriesBlock& block, json runs,
                        std::chrono::steady_clock::time_point t0) {
  res.json["summary"] = std::move(summary);
  res.json["series"] = block.toJson();
  res.json["runs"] = std::move(runs);
  res.json["seconds"] = secondsSince(t0);
  res.csv = block.csv();
}

// ---------------------------------------------------------------------------------------------
ExperimentResult localConvergenceExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 100);
  const int threads = resolveThreads(o.threads);
  const char* names[2] = {"W", "KQ"};
  const std::vector<SeedResult> out =
      runSeeds("local-convergence", o, seeds, {baseOptions(o)}, threads);

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("local-convergence", o, seeds, out[0].iters, threads);
  j["settings"].update(resolvedSettingsJson(out[0], {"iters", "every", "n", "T", "d"}));
  j["settings"]["scenario"] = "local-convergence";
  j["settings"]["init"] = "the scenario's: W = 0; K, Q with i.i.d. N(0, 0.1^2) entries";
  const SeriesBlock block = aggregateSeries(out.data(), seeds);
  json summary, runs = json::array();
  for (const std::string n : names) {
    auto col = [&](const char* f) { return valueColumn(out.data(), seeds, columnName({n, f})); };
    double global = 0, local = 0;
    for (double g : col("global")) global += g;
    for (double l : col("local")) local += l;
    summary[n] = {{"softmaxSelected", statsJson(stats(col("softmaxSelected")))},
                  {"corrFro", statsJson(stats(col("corrFro")))},
                  {"corrNuclear", statsJson(stats(col("corrNuclear")))},
                  {"fractionGloballyOptimal", global / seeds},
                  {"fractionLocallyOptimal", local / seeds}};
  }
  for (int k = 0; k < seeds; ++k) {
    json r = {{"seed", o.seedBase + k}};
    for (std::size_t p = 0; p < 2; ++p)
      r[names[p]] =
          scopeRunJson(out[k], p, names[p], {"softmaxSelected", "corrFro", "corrNuclear", "loss"});
    runs.push_back(std::move(r));
  }
  finishSeededResult(res, std::move(summary), block, std::move(runs), t0);
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult multitokenExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int instances = pick(o.seeds, 500);
  const std::vector<int> dims = o.dims.empty() ? std::vector<int>{4, 6, 8, 10} : o.dims;
  const int threads = resolveThreads(o.threads);
  std::vector<SeedOptions> settings;
  for (int d : dims) {
    SeedOptions so = baseOptions(o);
    so.d = d;
    settings.push_back(so);
  }
  const std::vector<SeedResult> out = runSeeds("multitoken", o, instances, settings, threads);

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("multitoken", o, instances, out[0].iters, threads);
  j["settings"]["instances"] = instances;
  j["settings"]["dims"] = dims;
  j["settings"].update(resolvedSettingsJson(out[0], {"iters", "every"}));
  j["settings"]["threshold"] = 1e-3;
  j["settings"]["scenario"] = "multitoken";
  j["settings"]["references"] = {{"generalized",
                                  "W_fin + R W_dir of the generalized SVM of the final softmax "
                                  "(threshold 1e-3), R fitted by least squares"},
                                 {"wmm", "Frobenius Att-SVM of the data's optimal tokens (alpha)"},
                                 {"oneToken", "Frobenius Att-SVM of the final argmax selection"}};
  json perD = json::array();
  std::string csv;
  for (std::size_t di = 0; di < dims.size(); ++di) {
    const SeedResult* first = out.data() + di * instances;
    const SeriesBlock block = aggregateSeries(first, instances);
    const std::vector<double> fg = valueColumn(first, instances, "oneMinusCorrGeneralized");
    int dirOk = 0;
    for (double x : valueColumn(first, instances, "directionSolved")) dirOk += x > 0 ? 1 : 0;
    json r;
    r["d"] = dims[di];
    r["final"] = {
        {"oneMinusCorrGeneralized", statsJson(stats(fg))},
        {"oneMinusCorrWmm", statsJson(stats(valueColumn(first, instances, "oneMinusCorrWmm")))},
        {"oneMinusCorrOneToken",
         statsJson(stats(valueColumn(first, instances, "oneMinusCorrOneToken")))}};
    std::vector<double> sfg = fg;
    std::sort(sfg.begin(), sfg.end(), [](double a, double b) {
      if (!std::isfinite(a)) return false;
      if (!std::isfinite(b)) return true;
      return a < b;
    });
    const int finite = stats(fg).count;
    r["medianOneMinusCorrGeneralized"] = finite ? sfg[finite / 2] : kNaN;
    r["meanSelectedSetSize"] =
        statsJson(stats(valueColumn(first, instances, "meanSelectedSetSize")));
    r["generalizedDirectionSolved"] = dirOk;
    r["series"] = block.toJson();
    json finals = json::array();
    for (int k = 0; k < instances; ++k) {
      const SeedResult& it = first[k];
      finals.push_back({{"seed", o.seedBase + k},
                        {"oneMinusCorrGeneralized", it.value("oneMinusCorrGeneralized")},
                        {"oneMinusCorrWmm", it.value("oneMinusCorrWmm")},
                        {"oneMinusCorrOneToken", it.value("oneMinusCorrOneToken")},
                        {"R", it.value("R")},
                        {"selectedSets", it.selectedSets}});
    }
    r["runs"] = std::move(finals);
    perD.push_back(std::move(r));
    csv += block.csv("d", std::to_string(dims[di]), di == 0);
  }
  j["perD"] = std::move(perD);
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult mirrorDescentExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 20);
  const std::vector<double> ps = o.ps.empty() ? std::vector<double>{1.75, 2.0, 3.0} : o.ps;
  const int threads = resolveThreads(o.threads);
  ScenarioOptions probeOptions;
  probeOptions.seed = o.seedBase;
  const Scenario probe = makeScenario("mirror-descent", probeOptions);
  std::vector<SeedOptions> settings;
  for (double p : ps) {
    SeedOptions so = baseOptions(o);
    so.p = p;
    settings.push_back(so);
  }
  const std::vector<SeedResult> out = runSeeds("mirror-descent", o, seeds, settings, threads);

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("mirror-descent", o, seeds, out[0].iters, threads);
  j["settings"]["ps"] = ps;
  j["settings"].update(resolvedSettingsJson(out[0], {"iters", "every", "n", "T", "d"}));
  j["settings"]["lr"] = probe.train.lr;
  j["settings"]["scenario"] = "mirror-descent";
  j["settings"]["sparsity"] = "fraction of entries with |W_jk| <= 0.01 max |W|";
  json perP = json::array();
  std::string csv;
  for (std::size_t pi = 0; pi < ps.size(); ++pi) {
    const SeedResult* first = out.data() + pi * seeds;
    const SeriesBlock block = aggregateSeries(first, seeds);
    json runs = json::array();
    for (int k = 0; k < seeds; ++k) {
      const SeedResult& it = first[k];
      runs.push_back({{"seed", o.seedBase + k},
                      {"selection", it.selections[0]},
                      {"verdict", it.label("verdict")},
                      {"corrLp", it.value("corrLp")},
                      {"corrFro", it.value("corrFro")},
                      {"sparsity", it.value("sparsity")}});
    }
    auto col = [&](const char* f) { return statsJson(stats(valueColumn(first, seeds, f))); };
    json r;
    r["p"] = ps[pi];
    r["final"] = {{"corrLp", col("corrLp")},
                  {"corrFro", col("corrFro")},
                  {"sparsity", col("sparsity")},
                  {"sparsitySvm", col("sparsitySvm")}};
    const Mat& W = first->matrices[0];
    const Mat& Wmm = first->matrices[1];
    r["heatmapSeed0"] = {{first->matrixNames[0], toJson(W.size() ? Mat(W / W.norm()) : W)},
                         {first->matrixNames[1], toJson(Wmm.size() ? Mat(Wmm / Wmm.norm()) : Wmm)}};
    r["series"] = block.toJson();
    r["runs"] = std::move(runs);
    perP.push_back(std::move(r));
    csv += block.csv("p", csvNum(ps[pi]), pi == 0);
  }
  j["perP"] = std::move(perP);
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult overparamExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 200);
  const std::vector<int> dims = o.dims.empty() ? std::vector<int>{2, 4, 6, 8, 10, 16, 32} : o.dims;
  const int threads = resolveThreads(o.threads);
  std::vector<SeedOptions> settings;
  for (int d : dims) {
    SeedOptions so;
    so.iters = o.iters;
    so.d = d;
    settings.push_back(so);
  }
  const std::vector<SeedResult> out = runSeeds("overparam", o, seeds, settings, threads);

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("overparam", o, seeds, out[0].iters, threads);
  j["settings"]["dims"] = dims;
  j["settings"].update(resolvedSettingsJson(out[0], {"iters", "n", "T"}));
  j["settings"]["init"] = "W0 = 0";
  j["settings"]["scenario"] = "overparam";
  j["referenceIndependentImplementation"] = {
      {"4", 0.35}, {"6", 0.5}, {"10", 0.68}, {"16", 0.81}, {"32", 0.9}};
  json rows = json::array();
  std::ostringstream csv;
  csv << "d,seeds,fractionGlobal,fractionLocal,fractionOther," << columnName({"minSoftmax", "mean"})
      << "\n";
  for (std::size_t di = 0; di < dims.size(); ++di) {
    const SeedResult* first = out.data() + di * seeds;
    int global = 0, local = 0;
    std::vector<int> flags;
    for (int k = 0; k < seeds; ++k) {
      const bool g = first[k].value("global") > 0;
      global += g ? 1 : 0;
      local += (!g && first[k].label("verdict") == std::string(toString(Verdict::LocallyOptimal)))
                   ? 1
                   : 0;
      flags.push_back(g ? 1 : 0);
    }
    const std::vector<double> probs = valueColumn(first, seeds, "minSoftmax");
    const double fg = static_cast<double>(global) / seeds, fl = static_cast<double>(local) / seeds;
    const double se = std::sqrt(fg * (1 - fg) / seeds);
    rows.push_back({{"d", dims[di]},
                    {"fractionGlobal", fg},
                    {"fractionGlobalStderr", se},
                    {"fractionLocal", fl},
                    {"fractionOther", 1.0 - fg - fl},
                    {"minSoftmax", statsJson(stats(probs))},
                    {"globalPerSeed", flags}});
    csv << dims[di] << "," << seeds << "," << csvNum(fg) << "," << csvNum(fl) << ","
        << csvNum(1.0 - fg - fl) << "," << csvNum(stats(probs).mean) << "\n";
  }
  j["perD"] = std::move(rows);
  j["seconds"] = secondsSince(t0);
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult ratesExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 20);
  const int threads = resolveThreads(o.threads);
  const std::vector<RateMethod>& methods = rateMethods();
  std::vector<SeedOptions> settings;
  for (const RateMethod& m : methods) {
    SeedOptions so;
    so.iters = o.iters;
    so.method = m.name;
    settings.push_back(so);
  }
  const std::vector<SeedResult> out = runSeeds("rates", o, seeds, settings, threads);

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("rates", o, seeds, out[0].iters, threads);
  j["settings"]["scenario"] = "local-convergence";
  j["settings"]["reference"] =
      "SVM of the final selection in the method's norm (Frobenius for gd/ngd, l_p for md)";
  json perM = json::array();
  std::string csv;
  for (std::size_t mi = 0; mi < methods.size(); ++mi) {
    const SeedResult* first = out.data() + mi * seeds;
    const SeriesBlock block = aggregateSeries(first, seeds);
    const std::vector<double> finals = valueColumn(first, seeds, "oneMinusCorr");
    // log-log slope of the mean over the last decade of iterations
    double slope = kNaN;
    const auto& it = block.iteration;
    const auto& mean = block.means[0];
    if (it.size() > 2) {
      const std::size_t last = it.size() - 1;
      std::size_t firstK = last;
      while (firstK > 0 && it[firstK - 1] * 10 >= it[last] && it[firstK - 1] > 0) --firstK;
      if (firstK < last && mean[firstK] > 0 && mean[last] > 0)
        slope = (std::log(mean[last]) - std::log(mean[firstK])) /
                (std::log(it[last]) - std::log(it[firstK]));
    }
    perM.push_back({{"method", methods[mi].name},
                    {"optimizer", wireName(methods[mi].optimizer)},
                    {"lr", methods[mi].lr},
                    {"p", methods[mi].p},
                    {"finalOneMinusCorr", statsJson(stats(finals))},
                    {"loglogSlopeLastDecade", slope},
                    {"series", block.toJson()}});
    csv += block.csv("method", methods[mi].name, mi == 0);
  }
  j["methods"] = std::move(perM);
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

}  // namespace attnsvm::cli
