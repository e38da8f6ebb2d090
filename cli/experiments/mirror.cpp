// The mirror-descent paper's experiments as its authors ran them (SPEC 5.2): md-convergence (every
// l_p training run against every l_q Att-SVM; seeds over threads) and joint-wv (joint l_p training
// of W and v). The per-seed work is the core's (attnsvm/experiments/experiment_md.hpp, which the
// lab runs too); here only the threads, the mean/std over seeds, the 3 x 3 table and the JSON/CSV.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "attnsvm/experiments/experiment_md.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

json matrixOrNull(const Mat& m) { return m.size() ? toJson(m) : json(nullptr); }

}  // namespace

ExperimentResult mdConvergenceExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 100);
  const std::vector<double> ps = o.ps.empty() ? mdExponents() : o.ps;
  const int threads = resolveThreads(o.threads);
  std::vector<SeedOptions> settings;
  for (double p : ps) {
    SeedOptions so;
    so.iters = o.iters;
    so.every = o.every;
    so.p = p;
    settings.push_back(so);
  }
  // Item s * seeds + k is seed seedBase + k of training p = ps[s], in its own slot. The seeds of a
  // p go in chunks of 16 consecutive seeds, trained together (runExperimentSeeds batches them;
  // the results do not depend on the chunking); the p = 3 runs are 10x longer than the others,
  // so the longest chunks go first and the work-stealing loop balances the rest.
  const int items = seeds * static_cast<int>(ps.size());
  std::vector<SeedResult> out(items);
  constexpr int kChunk = 16;
  const int chunksPerP = (seeds + kChunk - 1) / kChunk;
  std::vector<int> order(ps.size());  // settings by decreasing run length
  for (std::size_t s = 0; s < ps.size(); ++s) order[s] = static_cast<int>(s);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const int ia = o.iters == -1 ? mdIterations(ps[a]) : o.iters;
    const int ib = o.iters == -1 ? mdIterations(ps[b]) : o.iters;
    return ia > ib;
  });
  Progress progress("md-convergence", chunksPerP * static_cast<int>(ps.size()), o.progress);
  parallelFor(chunksPerP * static_cast<int>(ps.size()), threads, progress, [&](int idx) {
    const int s = order[idx / chunksPerP], k0 = (idx % chunksPerP) * kChunk;
    const int count = std::min(kChunk, seeds - k0);
    std::vector<SeedResult> part = runExperimentSeeds(
        "md-convergence", o.seedBase + static_cast<std::uint64_t>(k0), count, settings[s]);
    for (int k = 0; k < count; ++k) out[s * seeds + k0 + k] = std::move(part[k]);
  });
  progress.finish();

  ScenarioOptions probeOptions;
  probeOptions.seed = o.seedBase;
  const Scenario probe = makeScenario("md-convergence", probeOptions);
  const std::vector<double>& qs = mdExponents();
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("md-convergence", o, seeds, -1, threads);
  j["settings"]["ps"] = ps;
  j["settings"]["qs"] = qs;
  j["settings"]["lr"] = probe.train.lr;
  j["settings"]["optimizer"] = wireName(probe.train.optimizer);
  j["settings"]["n"] = probe.data.n;
  j["settings"]["T"] = probe.data.T;
  j["settings"]["d"] = probe.data.d;
  j["settings"]["init"] = "W0 with i.i.d. N(0, 1) entries (the scenario's init stream of the seed)";
  j["settings"]["scenario"] = "md-convergence";
  j["settings"]["divergence"] =
      "D_p(W^mm_q / ||W^mm_q||_p, W(k) / ||W(k)||_p), p the training p, W^mm_q the l_q Att-SVM "
      "of the run's final selection";
  j["settings"]["sparsity"] = "fraction of entries with |W_jk| <= 0.01 max |W|";
  json perP = json::array();
  json divMean = json::array(), divStd = json::array(), corrMean = json::array(),
       corrStd = json::array();
  json matched = json::array();
  std::string csv;
  for (std::size_t pi = 0; pi < ps.size(); ++pi) {
    const SeedResult* first = out.data() + pi * seeds;
    const SeriesBlock block = aggregateSeries(first, seeds);
    json final, runs = json::array();
    json dm = json::array(), ds = json::array(), cm = json::array(), cs = json::array();
    double best = INFINITY, bestQ = kNaN;
    for (double q : qs) {
      const std::string Q = "q" + exponentName(q);
      const Stats d = stats(valueColumn(first, seeds, columnName({Q, "div"}))),
                  c = stats(valueColumn(first, seeds, columnName({Q, "corr"})));
      final[columnName({Q, "div"})] = statsJson(d);
      final[columnName({Q, "corr"})] = statsJson(c);
      final[columnName({Q, "sparsitySvm"})] =
          statsJson(stats(valueColumn(first, seeds, columnName({Q, "sparsitySvm"}))));
      dm.push_back(d.mean);
      ds.push_back(d.std);
      cm.push_back(c.mean);
      cs.push_back(c.std);
      if (d.count > 0 && d.mean < best) {
        best = d.mean;
        bestQ = q;
      }
    }
    for (const char* f : {"sparsityW", "softmax", "loss", "global"})
      final[f] = statsJson(stats(valueColumn(first, seeds, f)));
    for (int k = 0; k < seeds; ++k) {
      const SeedResult& it = first[k];
      json r = {{"seed", o.seedBase + k},
                {"selection", it.selections[0]},
                {"verdict", it.label("verdict")}};
      for (double q : qs) {
        const std::string Q = "q" + exponentName(q);
        r[columnName({Q, "div"})] = it.value(columnName({Q, "div"}));
        r[columnName({Q, "corr"})] = it.value(columnName({Q, "corr"}));
      }
      r["sparsityW"] = it.value("sparsityW");
      if (!it.label("stopReason").empty()) r["stopReason"] = it.label("stopReason");
      runs.push_back(std::move(r));
    }
    json row;
    row["p"] = ps[pi];
    row["iters"] = first->iters;
    row["every"] = first->every;
    row["final"] = std::move(final);
    row["smallestDivergenceQ"] = bestQ;
    json heat;
    for (std::size_t m = 0; m < first->matrixNames.size(); ++m)
      heat[first->matrixNames[m]] = matrixOrNull(first->matrices[m]);
    row["matricesSeed0"] = std::move(heat);
    row["series"] = block.toJson();
    row["runs"] = std::move(runs);
    perP.push_back(std::move(row));
    divMean.push_back(dm);
    divStd.push_back(ds);
    corrMean.push_back(cm);
    corrStd.push_back(cs);
    matched.push_back(bestQ == ps[pi]);
    csv += block.csv("p", csvNum(ps[pi]), pi == 0);
  }
  j["table"] = {{"rows", "training p (settings.ps)"},
                {"columns", "SVM q (settings.qs)"},
                {"divMean", divMean},
                {"divStd", divStd},
                {"corrMean", corrMean},
                {"corrStd", corrStd},
                {"matchedQSmallestDivergence", matched}};
  j["perP"] = std::move(perP);
  j["seconds"] = secondsSince(t0);
  res.csv = csv;
  return res;
}

ExperimentResult jointWvExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  SeedOptions so;
  so.iters = o.iters;
  so.every = o.every;
  // One call: three runs on 2 x 3 x 2 data take milliseconds (threads are not used).
  const SeedResult r = runExperimentSeed("joint-wv", o.seedBase, so);
  const Scenario sc = makeScenario("joint-wv");
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("joint-wv", o, -1, r.iters, 1);
  j["settings"]["every"] = r.every;
  j["settings"]["ps"] = mdExponents();
  j["settings"]["lr"] = sc.train.lr;
  j["settings"]["optimizer"] = wireName(sc.train.optimizer);
  j["settings"]["init"] = "W0 = 0, v0 = 0";
  j["settings"]["scenario"] = "joint-wv";
  j["settings"]["data"] = datasetToJson(sc.data, sc.model.attention);
  j["settings"]["references"] =
      "W: l_p Att-SVM of the final selection; v: l_p head SVM of the selected tokens; D_p in the "
      "run's p";
  SeriesBlock block = aggregateSeries(&r, 1);
  // one deterministic run: no band (its quantiles would repeat its values)
  block.quantiles = false;
  json runs = json::array();
  for (std::size_t k = 0; k < r.selectionNames.size(); ++k) {
    const std::string& P = r.selectionNames[k];  // the run's scope, "p1.75"
    auto col = [&](const std::string& metric) { return columnName({P, metric}); };
    const double p = mdExponents()[k];
    json softmax = json::array(), logistic = json::array(), wmm = json::array(),
         vmm = json::array();
    for (int i = 0; i < r.n; ++i) {
      softmax.push_back(r.value(col(indexedName("softmax", {i}))));
      logistic.push_back(r.value(col(indexedName("logistic", {i}))));
      json row = json::array();
      for (int a = 0; a < r.d; ++a) row.push_back(r.value(col(indexedName("Wmmz", {i, a}))));
      wmm.push_back(row);
    }
    for (int a = 0; a < r.d; ++a) vmm.push_back(r.value(col(indexedName("vmm", {a}))));
    json run = {{"p", p},
                {"selection", r.selections[k]},
                {"corrW", r.value(col("corrW"))},
                {"divW", r.value(col("divW"))},
                {"corrV", r.value(col("corrV"))},
                {"divV", r.value(col("divV"))},
                {"softmaxSelected", softmax},
                {"logisticProbability", logistic},
                {"Wmmz", wmm},
                {"vmm", vmm}};
    if (!r.label(col("stopReason")).empty()) run["stopReason"] = r.label(col("stopReason"));
    runs.push_back(std::move(run));
  }
  j["runs"] = std::move(runs);
  j["series"] = block.toJson();
  j["seconds"] = secondsSince(t0);
  res.csv = block.csv();
  return res;
}

}  // namespace attnsvm::cli
