// Experiments on the papers' small hand-made data: GD paths in 2-D, prompt global vs local
// convergence, the basin map, the loss function, joint (p, v) training. The runs of the last three
// are the core's (attnsvm/experiments/experiment_prompt.hpp, shared with the lab); here only JSON
// and CSV.
#include <chrono>
#include <cmath>
#include <map>

#include "analysis_util.hpp"
#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_basin.hpp"
#include "attnsvm/experiments/experiment_prompt.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

json vecOrNull(const std::optional<Mat>& m) {
  if (!m) return nullptr;
  return vectorJson(Eigen::Map<const Vec>(m->data(), m->size()));
}

json unit(const Mat& m) {
  const double n = m.norm();
  if (!(n > 0)) return vectorJson(Eigen::Map<const Vec>(m.data(), m.size()));
  const Mat u = m / n;
  return vectorJson(Eigen::Map<const Vec>(u.data(), u.size()));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
ExperimentResult paths2dExperiment(const ExperimentOptions& o, bool t5) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string name = t5 ? "paths2d-t5" : "paths2d";
  ScenarioOptions so;
  so.seed = o.seedBase;
  const Scenario sc = makeScenario(name, so);
  const int iters = pick(o.iters, sc.iterations);
  const int every = defaultEvery(iters, o.every);
  const int threads = resolveThreads(o.threads);
  const Parameterization params[2] = {Parameterization::W, Parameterization::KQ};
  const char* names[2] = {"W", "KQ"};
  Paths2dRun runs[2];  // the core's runs (shared with the lab), with their SVM directions
  Progress progress(name, 2, o.progress);
  parallelFor(2, threads, progress,
              [&](int p) { runs[p] = paths2dRun(o.seedBase, t5, params[p], iters, every); });
  progress.finish();
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson(name, o, 1, iters, threads);
  j["settings"]["every"] = every;
  j["settings"]["scenario"] = name;
  j["data"] = datasetToJson(sc.data, sc.model.attention);
  std::ostringstream csv;
  csv << "param,iteration,sequence,x,y\n";
  for (int p = 0; p < 2; ++p) {
    const RunRecord& r = runs[p].rec;
    json paths = json::array();
    for (int i = 0; i < sc.data.n; ++i) {
      json path = json::array();
      for (std::size_t k = 0; k < r.weights.size(); ++k) {
        const Vec q = r.weights[k] * sc.data.Z.row(i).transpose();
        path.push_back(vectorJson(q));
        csv << names[p] << "," << r.iteration[k] << "," << i;
        for (Index c = 0; c < q.size(); ++c) csv << "," << csvNum(q[c]);
        csv << "\n";
      }
      paths.push_back(std::move(path));
    }
    const std::optional<Mat>& fro = runs[p].fro;
    const std::optional<Mat>& nuc = runs[p].nuc;
    json dirs = json::array();
    for (int i = 0; i < sc.data.n; ++i) {
      json di;
      if (fro) di["fro"] = vectorJson(Vec(*fro * sc.data.Z.row(i).transpose()));
      if (nuc) di["nuclear"] = vectorJson(Vec(*nuc * sc.data.Z.row(i).transpose()));
      dirs.push_back(std::move(di));
    }
    j[names[p]] = {
        {"iteration", r.iteration},
        {"pathsWz", std::move(paths)},
        {"selection", r.finalSelection},
        {"svmDirectionsWz", std::move(dirs)},
        {"corrFro", fro ? json(correlation(r.weights.back(), *fro)) : json(nullptr)},
        {"corrNuclear", nuc ? json(correlation(r.weights.back(), *nuc)) : json(nullptr)}};
  }
  j["seconds"] = secondsSince(t0);
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult promptGlobalLocalExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int threads = resolveThreads(o.threads);
  const int starts = kPromptStarts;
  const int iters = pick(o.iters, scenarioIterations("prompt-global-local"));
  const int every = defaultEvery(iters, o.every);
  using Item = PromptStartRun;  // one start's run (the core's, shared with the lab)
  std::vector<Item> out(2 * starts);
  Progress progress("prompt-global-local", 2 * starts, o.progress);
  parallelFor(2 * starts, threads, progress, [&](int idx) {
    out[idx] = promptGlobalLocalRun(o.seedBase, idx >= starts, idx % starts, iters, every);
  });
  progress.finish();
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("prompt-global-local", o, -1, iters, threads);
  j["settings"]["every"] = every;
  j["settings"]["scenario"] = "prompt-global-local";
  json cases = json::array();
  std::ostringstream csv;
  csv << "case,start,iteration," << indexedName("p", {0}) << "," << indexedName("p", {1}) << ","
      << indexedName("p", {2}) << ",corrOwnSvm,corrGlobalSvm\n";
  for (int c = 0; c < 2; ++c) {
    json runs = json::array();
    for (int s = 0; s < starts; ++s) {
      const Item& it = out[c * starts + s];
      const std::vector<double> own = corrToSnapshots(it.rec, it.own),
                                best = corrToSnapshots(it.rec, it.best);
      json path = json::array();
      for (std::size_t k = 0; k < it.rec.weights.size(); ++k) {
        const Mat& w = it.rec.weights[k];
        path.push_back(vectorJson(Eigen::Map<const Vec>(w.data(), w.size())));
        csv << (c ? "local" : "global") << "," << s << "," << it.rec.iteration[k];
        for (Index q = 0; q < 3; ++q) csv << "," << (q < w.size() ? csvNum(w.data()[q]) : "");
        csv << "," << csvNum(own[k]) << "," << csvNum(best[k]) << "\n";
      }
      runs.push_back({{"start", s},
                      {"p0", vectorJson(it.p0)},
                      {"selection", it.rec.finalSelection},
                      {"convergesTo", it.global ? "global" : "local"},
                      {"pFinalDirection", unit(it.rec.weights.back())},
                      {"svmOfSelection", vecOrNull(it.own)},
                      {"corrOwnSvm", own.back()},
                      {"corrGlobalSvm", best.back()},
                      {"softmaxSelected", it.rec.meanProb.back()},
                      {"iteration", it.rec.iteration},
                      {"pathP", std::move(path)}});
    }
    cases.push_back({{"case", c ? "local" : "global"}, {"runs", std::move(runs)}});
  }
  j["cases"] = std::move(cases);
  j["seconds"] = secondsSince(t0);
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult basinMapExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int grid = pick(o.grid, 200);
  const int threads = resolveThreads(o.threads);
  ScenarioOptions base;
  base.seed = o.seedBase;
  base.localCase = true;
  const Scenario sc = makeScenario("prompt-global-local", base);
  const int iters = pick(o.iters, sc.iterations);
  const double lo = kBasinLo,
               hi = kBasinHi;  // the slice p = (x, y, 0); Wk = diag(1,1,0) ignores p_2
  auto coord = [&](int k) { return basinCoord(k, grid); };
  std::vector<std::vector<int>> selection(grid, std::vector<int>(grid, -1));
  std::vector<std::vector<double>> corrOwn(grid, std::vector<double>(grid, kNaN));
  std::vector<std::vector<Vec>> finals(grid, std::vector<Vec>(grid));
  Progress progress("basin-map", grid, o.progress);
  parallelFor(grid, threads, progress, [&](int row) {
    BasinRow r = basinMapRow(o.seedBase, grid, row, iters);  // the core's, as in the lab's workers
    selection[row] = std::move(r.selection);
    finals[row] = std::move(r.finalP);
  });
  progress.finish();
  // Distinct limits (selections), in order of first appearance in row-major order.
  std::map<int, int> counts;
  std::vector<int> order;
  for (int r = 0; r < grid; ++r)
    for (int c = 0; c < grid; ++c) {
      if (!counts.count(selection[r][c])) order.push_back(selection[r][c]);
      ++counts[selection[r][c]];
    }
  const OptimalTokens opt = optimalTokens(sc.data);
  json limits = json::array();
  std::map<int, std::optional<Mat>> svms;
  for (int s : order) {
    std::optional<Mat> svm;
    if (s >= 0 && sc.data.n == 1) svm = svmDirection(sc.data, sc.model, {s}, NormKind::Frobenius);
    svms[s] = svm;
  }
  for (int r = 0; r < grid; ++r)
    for (int c = 0; c < grid; ++c) {
      const auto& svm = svms[selection[r][c]];
      if (svm)
        corrOwn[r][c] = correlation(finals[r][c], Eigen::Map<const Vec>(svm->data(), svm->size()));
    }
  for (int s : order) {
    std::vector<double> cs;
    for (int r = 0; r < grid; ++r)
      for (int c = 0; c < grid; ++c)
        if (selection[r][c] == s) cs.push_back(corrOwn[r][c]);
    bool global = false;
    if (sc.data.n == 1 && s >= 0)
      for (int t : opt.ties[0]) global = global || t == s;
    limits.push_back(
        {{"selection", s},
         {"kind", global ? "global" : "local"},
         {"count", counts[s]},
         {"fraction", static_cast<double>(counts[s]) / (static_cast<double>(grid) * grid)},
         {"svmDirection", vecOrNull(svms[s])},
         {"corrWithSvm", statsJson(stats(cs))}});
  }
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("basin-map", o, -1, iters, threads);
  j["settings"]["grid"] = grid;
  j["settings"]["slice"] = {{"x", indexedName("p", {0})},
                            {"y", indexedName("p", {1})},
                            {indexedName("p", {2}), 0.0},
                            {"range", {lo, hi}},
                            {"cellCentres", true}};
  j["settings"]["scenario"] = "prompt-global-local (local case)";
  j["data"] = datasetToJson(sc.data, sc.model.attention);
  j["limits"] = std::move(limits);
  j["x"] = json::array();
  for (int c = 0; c < grid; ++c) j["x"].push_back(coord(c));
  j["y"] = j["x"];
  j["selection"] = selection;  // [row = y index][col = x index]
  j["seconds"] = secondsSince(t0);
  std::ostringstream csv;
  csv << "x,y,selection,corrOwnSvm\n";
  for (int r = 0; r < grid; ++r)
    for (int c = 0; c < grid; ++c)
      csv << csvNum(coord(c)) << "," << csvNum(coord(r)) << "," << selection[r][c] << ","
          << csvNum(corrOwn[r][c]) << "\n";
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult lossFunctionExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int threads = resolveThreads(o.threads);
  const std::vector<double>& Cs = lossFunctionCs();
  const LossKind losses[2] = {LossKind::Correlation, LossKind::Logistic};
  const char* lossNames[2] = {"correlation", "logistic"};
  const int iters = pick(o.iters, scenarioIterations("loss-function"));
  const int every = defaultEvery(iters, o.every);
  const int items = 2 * static_cast<int>(Cs.size());
  using Item = LossRun;  // one (loss, C) run (the core's, shared with the lab)
  std::vector<Item> out(items);
  Progress progress("loss-function", items, o.progress);
  parallelFor(items, threads, progress, [&](int idx) {
    const int li = idx / static_cast<int>(Cs.size()), ci = idx % static_cast<int>(Cs.size());
    out[idx] = lossFunctionRun(o.seedBase, losses[li], Cs[ci], iters, every);
  });
  progress.finish();
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("loss-function", o, -1, iters, threads);
  j["settings"]["C"] = Cs;
  j["settings"]["every"] = every;
  j["settings"]["scenario"] = "loss-function";
  j["settings"]["reference"] = "prompt SVM p^mm of the optimal tokens";
  json rows = json::array();
  std::ostringstream csv;
  csv << "loss,C,iteration,corrPmm\n";
  for (int idx = 0; idx < items; ++idx) {
    const int li = idx / static_cast<int>(Cs.size()), ci = idx % static_cast<int>(Cs.size());
    const Item& it = out[idx];
    const std::vector<double> c = corrToSnapshots(it.rec, it.mm);
    for (std::size_t k = 0; k < c.size(); ++k)
      csv << lossNames[li] << "," << csvNum(Cs[ci]) << "," << it.rec.iteration[k] << ","
          << csvNum(c[k]) << "\n";
    rows.push_back({{"loss", lossNames[li]},
                    {"C", Cs[ci]},
                    {"corrPmm", c.back()},
                    {"selection", it.rec.finalSelection},
                    {"pFinalDirection", unit(it.rec.weights.back())},
                    {"pmm", vecOrNull(it.mm)},
                    {"iteration", it.rec.iteration},
                    {"corrSeries", c}});
  }
  j["runs"] = std::move(rows);
  j["seconds"] = secondsSince(t0);
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult jointPvExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int threads = resolveThreads(o.threads);
  const int iters = pick(o.iters, scenarioIterations("joint-pv"));
  const int every = defaultEvery(iters, o.every);
  using Item = JointPvRun;  // one variant's run and references (the core's, shared with the lab)
  std::vector<Item> out(2);
  Progress progress("joint-pv", 2, o.progress);
  parallelFor(2, threads, progress,
              [&](int variant) { out[variant] = jointPvRun(o.seedBase, variant, iters, every); });
  progress.finish();
  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("joint-pv", o, -1, iters, threads);
  j["settings"]["every"] = every;
  j["settings"]["scenario"] = "joint-pv";
  json variants = json::array();
  std::ostringstream csv;
  csv << "variant,iteration,corrPRelaxed,corrPPlain,corrVHead,meanSoftmax\n";
  for (int v = 0; v < 2; ++v) {
    const Item& it = out[v];
    const std::vector<double> cr = corrToSnapshots(it.rec, it.relaxed),
                              cp = corrToSnapshots(it.rec, it.plain);
    const std::vector<double> cv = headCorrToSnapshots(it.rec, it.vmm);
    for (std::size_t k = 0; k < cr.size(); ++k)
      csv << v << "," << it.rec.iteration[k] << "," << csvNum(cr[k]) << "," << csvNum(cp[k]) << ","
          << csvNum(cv[k]) << "," << csvNum(it.rec.meanProb[k]) << "\n";
    variants.push_back({{"variant", v},
                        {"data", datasetToJson(it.sc.data, it.sc.model.attention)},
                        {"selection", it.rec.finalSelection},
                        {"headSupportSequences", it.headSupport},
                        {"corrPRelaxedSvm", cr.back()},
                        {"corrPPromptSvm", cp.back()},
                        {"corrVHeadSvm", cv.empty() ? kNaN : cv.back()},
                        {"softmaxSelected", vectorJson(it.rec.finalProb)},
                        {"logisticProbability", vectorJson(it.logistic)},
                        {"pFinalDirection", unit(it.rec.weights.back())},
                        {"vFinalDirection", unit(it.rec.finalParams.v)},
                        {"pRelaxedSvm", vecOrNull(it.relaxed)},
                        {"vHeadSvm", vecOrNull(it.vmm)},
                        {"iteration", it.rec.iteration},
                        {"corrPRelaxedSeries", cr},
                        {"corrVSeries", cv}});
  }
  j["variants"] = std::move(variants);
  j["seconds"] = secondsSince(t0);
  res.csv = csv.str();
  return res;
}

}  // namespace attnsvm::cli
