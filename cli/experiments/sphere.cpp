// Experiments on sphere data: local convergence, rank of the SVM solutions, multi-token /
// nonlinear head, mirror descent, overparameterization, rates.
#include <chrono>
#include <cmath>
#include <map>

#include "analysis_util.hpp"
#include "attnsvm/errors.hpp"
#include "attnsvm/scenarios.hpp"
#include "attnsvm/selection.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

ScenarioOptions seedOptions(const ExperimentOptions& o, int k) {
  ScenarioOptions so;
  so.seed = o.seedBase + static_cast<std::uint64_t>(k);
  return so;
}

std::vector<double> corrSeries(const RunRecord& r, const Mat* ref, bool oneMinus = false) {
  std::vector<double> s(r.weights.size(), kNaN);
  if (!ref) return s;
  for (std::size_t k = 0; k < r.weights.size(); ++k) {
    const double c = correlation(r.weights[k], *ref);
    s[k] = oneMinus ? 1.0 - c : c;
  }
  return s;
}

bool isGlobal(const Dataset& data, const std::vector<int>& sel) {
  const OptimalTokens opt = optimalTokens(data);
  for (int i = 0; i < data.n; ++i) {
    bool ok = false;
    for (int t : opt.ties[i]) ok = ok || t == sel[i];
    if (!ok) return false;
  }
  return true;
}

int matrixRank(const Mat& W, double tol) {
  if (W.size() == 0) return 0;
  Eigen::JacobiSVD<Mat> svd(W);
  const Vec s = svd.singularValues();
  int r = 0;
  for (Index k = 0; k < s.size(); ++k) r += s[k] > tol ? 1 : 0;
  return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
ExperimentResult localConvergenceExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 100);
  const int iters = pick(o.iters, 2000);
  const int every = defaultEvery(iters, o.every);
  const int threads = resolveThreads(o.threads);
  const Parameterization params[2] = {Parameterization::W, Parameterization::KQ};
  const char* names[2] = {"W", "KQ"};

  struct One {
    RunRecord rec;
    std::vector<double> prob, corrFro, corrNuc;
    std::string verdict;
    double finalCorrFro = kNaN, finalCorrNuc = kNaN;
    bool global = false;
  };
  struct SeedOut {
    One run[2];
    int n = 0, T = 0, d = 0;
  };
  std::vector<SeedOut> out(seeds);
  Progress progress("local-convergence", seeds, o.progress);
  parallelFor(seeds, threads, progress, [&](int k) {
    const Scenario sc = makeScenario("local-convergence", seedOptions(o, k));
    SeedOut& so = out[k];
    so.n = sc.data.n;
    so.T = sc.data.T;
    so.d = sc.data.d;
    std::map<std::vector<int>, std::pair<std::optional<Mat>, std::optional<Mat>>> refs;
    std::map<std::vector<int>, std::string> verdicts;
    for (int p = 0; p < 2; ++p) {
      ModelSpec spec = sc.model;
      spec.param = params[p];
      const Params& init = sc.init;  // W = 0 and small random K, Q (the scenario's starts)
      One& one = so.run[p];
      one.rec = runTraining(sc.data, spec, sc.train, init, iters, every);
      const std::vector<int>& sel = one.rec.finalSelection;
      if (!refs.count(sel)) {
        const SelectionReport rep = analyzeSelection(sc.data, spec.attention, sel);
        std::optional<Mat> fro;
        if (rep.svm.status == SolveStatus::Optimal) fro = rep.svm.W;
        std::optional<Mat> nuc = rep.feasible ? svmDirection(sc.data, spec, sel, NormKind::Nuclear) : std::nullopt;
        refs[sel] = {fro, nuc};
        verdicts[sel] = toString(rep.verdict);
      }
      const auto& [fro, nuc] = refs[sel];
      one.verdict = verdicts[sel];
      one.global = isGlobal(sc.data, sel);
      one.prob = one.rec.meanProb;
      one.corrFro = corrSeries(one.rec, fro ? &*fro : nullptr);
      one.corrNuc = corrSeries(one.rec, nuc ? &*nuc : nullptr);
      one.finalCorrFro = one.corrFro.back();
      one.finalCorrNuc = one.corrNuc.back();
      one.rec.weights.clear();
      one.rec.weights.shrink_to_fit();
    }
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("local-convergence", o, seeds, iters, threads);
  j["settings"]["every"] = every;
  j["settings"]["scenario"] = "local-convergence";
  j["settings"]["n"] = out[0].n;
  j["settings"]["T"] = out[0].T;
  j["settings"]["d"] = out[0].d;
  j["settings"]["init"] = "the scenario's: W = 0; K, Q with i.i.d. N(0, 0.1^2) entries";
  SeriesBlock block;
  block.iteration = out[0].run[0].rec.iteration;
  json summary, runs = json::array();
  for (int p = 0; p < 2; ++p) {
    std::vector<std::vector<double>> prob, cf, cn;
    std::vector<double> fprob, fcf, fcn;
    int global = 0, local = 0;
    for (const SeedOut& so : out) {
      prob.push_back(so.run[p].prob);
      cf.push_back(so.run[p].corrFro);
      cn.push_back(so.run[p].corrNuc);
      fprob.push_back(so.run[p].prob.back());
      fcf.push_back(so.run[p].finalCorrFro);
      fcn.push_back(so.run[p].finalCorrNuc);
      global += so.run[p].global ? 1 : 0;
      local += so.run[p].verdict == std::string(toString(Verdict::LocallyOptimal)) ? 1 : 0;
    }
    const std::string n = names[p];
    block.add(n + "_softmax", prob);
    block.add(n + "_corr_fro", cf);
    block.add(n + "_corr_nuclear", cn);
    summary[n] = {{"softmax_selected", statsJson(stats(fprob))},
                  {"corr_fro", statsJson(stats(fcf))},
                  {"corr_nuclear", statsJson(stats(fcn))},
                  {"fraction_globally_optimal", static_cast<double>(global) / seeds},
                  {"fraction_locally_optimal", static_cast<double>(local) / seeds}};
  }
  for (int k = 0; k < seeds; ++k) {
    json r;
    r["seed"] = o.seedBase + k;
    for (int p = 0; p < 2; ++p) {
      const One& one = out[k].run[p];
      r[names[p]] = {{"selection", one.rec.finalSelection},
                     {"verdict", one.verdict},
                     {"softmax_selected", one.prob.back()},
                     {"corr_fro", one.finalCorrFro},
                     {"corr_nuclear", one.finalCorrNuc},
                     {"loss", one.rec.finalLoss}};
      if (!one.rec.stopReason.empty()) r[names[p]]["stop_reason"] = one.rec.stopReason;
    }
    runs.push_back(std::move(r));
  }
  j["summary"] = std::move(summary);
  j["series"] = block.toJson();
  j["runs"] = std::move(runs);
  j["seconds"] = seconds(t0);
  res.csv = block.csv();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult rankExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int instances = pick(o.seeds, 100);
  const std::vector<int> dims = o.dims.empty() ? std::vector<int>{1, 2, 3, 4, 5, 10, 15, 20} : o.dims;
  const std::vector<std::pair<int, int>> configs = {{5, 5}, {10, 5}, {15, 5}, {5, 10}, {5, 15}};
  const int threads = resolveThreads(o.threads);
  const int maxAttempts = std::max(20 * instances, 200);
  struct Cell {
    int n = 0, T = 0, d = 0, attempts = 0;
    std::vector<std::uint64_t> seeds;
    std::vector<int> rankFro, rankNuc;
    std::vector<double> gapNuc;
    int nucFailures = 0;
  };
  std::vector<Cell> cells;
  for (const auto& [n, T] : configs)
    for (int d : dims) {
      Cell c;
      c.n = n;
      c.T = T;
      c.d = d;
      cells.push_back(c);
    }
  // Heavy cells first for load balance is not needed for determinism; each cell is independent.
  Progress progress("rank", static_cast<long>(cells.size()), o.progress);
  parallelFor(static_cast<int>(cells.size()), threads, progress, [&](int k) {
    Cell& c = cells[k];
    SolverSettings fro;
    SolverSettings nuc;
    nuc.norm = NormKind::Nuclear;
    for (int a = 0; a < maxAttempts && static_cast<int>(c.rankFro.size()) < instances; ++a) {
      ScenarioOptions so;
      so.seed = o.seedBase + static_cast<std::uint64_t>(a);
      so.n = c.n;
      so.T = c.T;
      so.d = c.d;
      const Scenario sc = makeScenario("rank", so);
      ++c.attempts;
      const MarginProblem prob = attentionSvmProblem(sc.data, AttentionKind::Cross, sc.data.alpha);
      const MarginSolution sf = solveMargin(prob, fro);
      if (sf.status != SolveStatus::Optimal) continue;
      const MarginSolution sn = solveMargin(prob, nuc);
      c.seeds.push_back(so.seed);
      c.rankFro.push_back(matrixRank(sf.W, o.rankTol));
      if (sn.status == SolveStatus::Optimal) {
        c.rankNuc.push_back(matrixRank(sn.W, o.rankTol));
        c.gapNuc.push_back(sn.gap);
      } else {
        c.rankNuc.push_back(-1);
        c.gapNuc.push_back(kNaN);
        ++c.nucFailures;
      }
    }
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("rank", o, instances, -1, threads);
  j["settings"]["instances"] = instances;
  j["settings"]["dims"] = dims;
  j["settings"]["configs"] = json::array();
  for (const auto& [n, T] : configs) j["settings"]["configs"].push_back({{"n", n}, {"T", T}});
  j["settings"]["rank_tol"] = o.rankTol;
  j["settings"]["max_attempts"] = maxAttempts;
  j["settings"]["scenario"] = "rank";
  json rows = json::array();
  std::ostringstream csv;
  csv << "n,T,d,instances,attempts,rank_fro_mean,rank_fro_std,rank_nuclear_mean,rank_nuclear_std,fraction_nuclear_lower,"
         "fraction_nuclear_le,nuclear_failures\n";
  for (const Cell& c : cells) {
    std::vector<double> rf, rn;
    int lower = 0, le = 0, counted = 0;
    for (std::size_t k = 0; k < c.rankFro.size(); ++k) {
      rf.push_back(c.rankFro[k]);
      if (c.rankNuc[k] < 0) continue;
      rn.push_back(c.rankNuc[k]);
      ++counted;
      lower += c.rankNuc[k] < c.rankFro[k] ? 1 : 0;
      le += c.rankNuc[k] <= c.rankFro[k] ? 1 : 0;
    }
    const Stats sf = stats(rf), sn = stats(rn);
    const double fl = counted ? static_cast<double>(lower) / counted : kNaN;
    const double fle = counted ? static_cast<double>(le) / counted : kNaN;
    json r;
    r["n"] = c.n;
    r["T"] = c.T;
    r["d"] = c.d;
    r["instances"] = static_cast<int>(c.rankFro.size());
    r["attempts"] = c.attempts;
    r["rank_fro"] = statsJson(sf);
    r["rank_nuclear"] = statsJson(sn);
    r["fraction_nuclear_lower"] = fl;
    r["fraction_nuclear_le"] = fle;
    r["nuclear_failures"] = c.nucFailures;
    r["nuclear_gap_max"] = stats(c.gapNuc).max;
    r["ranks_fro"] = c.rankFro;
    r["ranks_nuclear"] = c.rankNuc;
    r["seeds"] = c.seeds;
    rows.push_back(std::move(r));
    csv << c.n << "," << c.T << "," << c.d << "," << c.rankFro.size() << "," << c.attempts << "," << csvNum(sf.mean)
        << "," << csvNum(sf.std) << "," << csvNum(sn.mean) << "," << csvNum(sn.std) << "," << csvNum(fl) << ","
        << csvNum(fle) << "," << c.nucFailures << "\n";
  }
  j["cells"] = std::move(rows);
  j["seconds"] = seconds(t0);
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult multitokenExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int instances = pick(o.seeds, 500);
  const int iters = pick(o.iters, 2001);
  const int every = defaultEvery(iters, o.every);
  const std::vector<int> dims = o.dims.empty() ? std::vector<int>{4, 6, 8, 10} : o.dims;
  const int threads = resolveThreads(o.threads);
  const int items = instances * static_cast<int>(dims.size());
  struct Item {
    std::vector<int> iteration;
    std::vector<double> gen, mm, one;  // 1 - corr series
    double R = kNaN;
    double meanSetSize = 0.0;
    bool dirOk = false;
    std::vector<std::vector<int>> sets;
  };
  std::vector<Item> out(items);
  Progress progress("multitoken", items, o.progress);
  parallelFor(items, threads, progress, [&](int idx) {
    const int di = idx / instances, k = idx % instances;
    ScenarioOptions so;
    so.seed = o.seedBase + static_cast<std::uint64_t>(k);
    so.d = dims[di];
    const Scenario sc = makeScenario("multitoken", so);
    RunRecord rec = runTraining(sc.data, sc.model, sc.train, sc.init, iters, every);
    Item& it = out[idx];
    it.iteration = rec.iteration;
    SolverSettings settings;
    GeneralizedSvm g;
    try {
      g = generalizedSvm(sc.data, rec.finalSoftmax, 1e-3, settings);
    } catch (const NumericalError&) {
      g.direction.status = SolveStatus::MaxIterations;  // counted as not solved
    }
    it.sets = g.selectedSets;
    double size = 0.0;
    for (const auto& s : g.selectedSets) size += static_cast<double>(s.size());
    it.meanSetSize = g.selectedSets.empty() ? kNaN : size / g.selectedSets.size();
    std::optional<Mat> pred;
    if (g.direction.status == SolveStatus::Optimal) {
      it.dirOk = true;
      const Mat W = rec.weights.back();
      it.R = fitRadius(g, W);
      pred = g.finite + it.R * g.direction.W;
    }
    const std::optional<Mat> mm = svmDirection(sc.data, sc.model, sc.data.alpha, NormKind::Frobenius);
    const std::optional<Mat> one = svmDirection(sc.data, sc.model, rec.finalSelection, NormKind::Frobenius);
    it.gen = corrSeries(rec, pred ? &*pred : nullptr, true);
    it.mm = corrSeries(rec, mm ? &*mm : nullptr, true);
    it.one = corrSeries(rec, one ? &*one : nullptr, true);
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("multitoken", o, instances, iters, threads);
  j["settings"]["instances"] = instances;
  j["settings"]["dims"] = dims;
  j["settings"]["every"] = every;
  j["settings"]["threshold"] = 1e-3;
  j["settings"]["scenario"] = "multitoken";
  j["settings"]["references"] = {
      {"generalized", "W_fin + R W_dir of the generalized SVM of the final softmax (threshold 1e-3), R fitted by least squares"},
      {"wmm", "Frobenius Att-SVM of the data's optimal tokens (alpha)"},
      {"one_token", "Frobenius Att-SVM of the final argmax selection"}};
  json perD = json::array();
  std::string csv;
  for (std::size_t di = 0; di < dims.size(); ++di) {
    SeriesBlock block;
    block.iteration = out[di * instances].iteration;
    std::vector<std::vector<double>> gen, mm, one;
    std::vector<double> fg, fm, fo, sizes;
    int dirOk = 0;
    for (int k = 0; k < instances; ++k) {
      const Item& it = out[di * instances + k];
      gen.push_back(it.gen);
      mm.push_back(it.mm);
      one.push_back(it.one);
      fg.push_back(it.gen.back());
      fm.push_back(it.mm.back());
      fo.push_back(it.one.back());
      sizes.push_back(it.meanSetSize);
      dirOk += it.dirOk ? 1 : 0;
    }
    block.add("one_minus_corr_generalized", gen);
    block.add("one_minus_corr_wmm", mm);
    block.add("one_minus_corr_one_token", one);
    json r;
    r["d"] = dims[di];
    r["final"] = {{"one_minus_corr_generalized", statsJson(stats(fg))},
                  {"one_minus_corr_wmm", statsJson(stats(fm))},
                  {"one_minus_corr_one_token", statsJson(stats(fo))}};
    std::vector<double> sfg = fg;
    std::sort(sfg.begin(), sfg.end(), [](double a, double b) {
      if (!std::isfinite(a)) return false;
      if (!std::isfinite(b)) return true;
      return a < b;
    });
    const int finite = stats(fg).count;
    r["median_one_minus_corr_generalized"] = finite ? sfg[finite / 2] : kNaN;
    r["mean_selected_set_size"] = statsJson(stats(sizes));
    r["generalized_direction_solved"] = dirOk;
    r["series"] = block.toJson();
    json finals = json::array();
    for (int k = 0; k < instances; ++k) {
      const Item& it = out[di * instances + k];
      finals.push_back({{"seed", o.seedBase + k},
                        {"one_minus_corr_generalized", it.gen.back()},
                        {"one_minus_corr_wmm", it.mm.back()},
                        {"one_minus_corr_one_token", it.one.back()},
                        {"R", it.R},
                        {"selected_sets", it.sets}});
    }
    r["runs"] = std::move(finals);
    perD.push_back(std::move(r));
    csv += block.csv("d", std::to_string(dims[di]), di == 0);
  }
  j["per_d"] = std::move(perD);
  j["seconds"] = seconds(t0);
  res.csv = csv;
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult mirrorDescentExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 20);
  const std::vector<double> ps = o.ps.empty() ? std::vector<double>{1.75, 2.0, 3.0} : o.ps;
  const int threads = resolveThreads(o.threads);
  const Scenario probe = makeScenario("mirror-descent", seedOptions(o, 0));
  const int iters = pick(o.iters, probe.iterations);
  const int every = defaultEvery(iters, o.every);
  const int items = seeds * static_cast<int>(ps.size());
  struct Item {
    std::vector<int> iteration;
    std::vector<double> corrLp, corrFro;
    std::vector<int> selection;
    double sparsity = kNaN, sparsitySvm = kNaN;
    Mat W, Wmm;
    std::string verdict;
  };
  std::vector<Item> out(items);
  Progress progress("mirror-descent", items, o.progress);
  auto sparsity = [](const Mat& W) {
    const double m = W.cwiseAbs().maxCoeff();
    if (!(m > 0)) return kNaN;
    return static_cast<double>((W.cwiseAbs().array() <= 1e-2 * m).count()) / static_cast<double>(W.size());
  };
  parallelFor(items, threads, progress, [&](int idx) {
    const int pi = idx / seeds, k = idx % seeds;
    const Scenario sc = makeScenario("mirror-descent", seedOptions(o, k));
    TrainSettings ts = sc.train;
    if (ts.optimizer != Optimizer::MD && ts.optimizer != Optimizer::NMD) ts.optimizer = Optimizer::MD;
    ts.p = ps[pi];
    RunRecord rec = runTraining(sc.data, sc.model, ts, sc.init, iters, every);
    Item& it = out[idx];
    it.iteration = rec.iteration;
    it.selection = rec.finalSelection;
    const std::optional<Mat> lp = svmDirection(sc.data, sc.model, rec.finalSelection, NormKind::Lp, ps[pi]);
    const std::optional<Mat> fro = svmDirection(sc.data, sc.model, rec.finalSelection, NormKind::Frobenius);
    it.corrLp = corrSeries(rec, lp ? &*lp : nullptr);
    it.corrFro = corrSeries(rec, fro ? &*fro : nullptr);
    it.W = rec.weights.back();
    it.sparsity = sparsity(it.W);
    if (lp) {
      it.Wmm = *lp;
      it.sparsitySvm = sparsity(*lp);
    }
    it.verdict = verdictName(sc.data, sc.model, rec.finalSelection);
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("mirror-descent", o, seeds, iters, threads);
  j["settings"]["ps"] = ps;
  j["settings"]["every"] = every;
  j["settings"]["lr"] = probe.train.lr;
  j["settings"]["scenario"] = "mirror-descent";
  j["settings"]["n"] = probe.data.n;
  j["settings"]["T"] = probe.data.T;
  j["settings"]["d"] = probe.data.d;
  j["settings"]["sparsity"] = "fraction of entries with |W_jk| <= 0.01 max |W|";
  json perP = json::array();
  std::string csv;
  for (std::size_t pi = 0; pi < ps.size(); ++pi) {
    SeriesBlock block;
    block.iteration = out[pi * seeds].iteration;
    std::vector<std::vector<double>> cl, cf;
    std::vector<double> fl, ff, sp, sps;
    json runs = json::array();
    for (int k = 0; k < seeds; ++k) {
      const Item& it = out[pi * seeds + k];
      cl.push_back(it.corrLp);
      cf.push_back(it.corrFro);
      fl.push_back(it.corrLp.back());
      ff.push_back(it.corrFro.back());
      sp.push_back(it.sparsity);
      sps.push_back(it.sparsitySvm);
      runs.push_back({{"seed", o.seedBase + k},
                      {"selection", it.selection},
                      {"verdict", it.verdict},
                      {"corr_lp", it.corrLp.back()},
                      {"corr_fro", it.corrFro.back()},
                      {"sparsity", it.sparsity}});
    }
    block.add("corr_lp", cl);
    block.add("corr_fro", cf);
    json r;
    r["p"] = ps[pi];
    r["final"] = {{"corr_lp", statsJson(stats(fl))},
                  {"corr_fro", statsJson(stats(ff))},
                  {"sparsity", statsJson(stats(sp))},
                  {"sparsity_svm", statsJson(stats(sps))}};
    const Item& first = out[pi * seeds];
    r["heatmap_seed0"] = {{"W", toJson(first.W.size() ? Mat(first.W / first.W.norm()) : first.W)},
                          {"Wmm_p", toJson(first.Wmm.size() ? Mat(first.Wmm / first.Wmm.norm()) : first.Wmm)}};
    r["series"] = block.toJson();
    r["runs"] = std::move(runs);
    perP.push_back(std::move(r));
    csv += block.csv("p", csvNum(ps[pi]), pi == 0);
  }
  j["per_p"] = std::move(perP);
  j["seconds"] = seconds(t0);
  res.csv = csv;
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult overparamExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 200);
  const int iters = pick(o.iters, 2000);
  const std::vector<int> dims = o.dims.empty() ? std::vector<int>{2, 4, 6, 8, 10, 16, 32} : o.dims;
  const int threads = resolveThreads(o.threads);
  const int items = seeds * static_cast<int>(dims.size());
  struct Item {
    bool global = false;
    std::string verdict;
    double prob = kNaN;
    int n = 0, T = 0;
  };
  std::vector<Item> out(items);
  Progress progress("overparam", items, o.progress);
  // Heaviest (largest d) first would balance better, but order does not affect results.
  parallelFor(items, threads, progress, [&](int idx) {
    const int di = idx / seeds, k = idx % seeds;
    ScenarioOptions so;
    so.seed = o.seedBase + static_cast<std::uint64_t>(k);
    so.d = dims[di];
    const Scenario sc = makeScenario("overparam", so);
    const RunRecord rec = runTraining(sc.data, sc.model, sc.train, sc.init, iters, iters);
    Item& it = out[idx];
    it.n = sc.data.n;
    it.T = sc.data.T;
    it.global = isGlobal(sc.data, rec.finalSelection);
    it.verdict = it.global ? toString(Verdict::GloballyOptimal)
                           : verdictName(sc.data, sc.model, rec.finalSelection);
    it.prob = rec.finalProb.size() ? rec.finalProb.minCoeff() : kNaN;
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("overparam", o, seeds, iters, threads);
  j["settings"]["dims"] = dims;
  j["settings"]["n"] = out[0].n;
  j["settings"]["T"] = out[0].T;
  j["settings"]["init"] = "W0 = 0";
  j["settings"]["scenario"] = "overparam";
  j["reference_independent_implementation"] = {{"4", 0.35}, {"6", 0.5}, {"10", 0.68}, {"16", 0.81}, {"32", 0.9}};
  json rows = json::array();
  std::ostringstream csv;
  csv << "d,seeds,fraction_global,fraction_local,fraction_other,min_softmax_mean\n";
  for (std::size_t di = 0; di < dims.size(); ++di) {
    int global = 0, local = 0;
    std::vector<double> probs;
    std::vector<int> flags;
    for (int k = 0; k < seeds; ++k) {
      const Item& it = out[di * seeds + k];
      global += it.global ? 1 : 0;
      local += (!it.global && it.verdict == std::string(toString(Verdict::LocallyOptimal))) ? 1 : 0;
      probs.push_back(it.prob);
      flags.push_back(it.global ? 1 : 0);
    }
    const double fg = static_cast<double>(global) / seeds, fl = static_cast<double>(local) / seeds;
    const double se = std::sqrt(fg * (1 - fg) / seeds);
    rows.push_back({{"d", dims[di]},
                    {"fraction_global", fg},
                    {"fraction_global_stderr", se},
                    {"fraction_local", fl},
                    {"fraction_other", 1.0 - fg - fl},
                    {"min_softmax", statsJson(stats(probs))},
                    {"global_per_seed", flags}});
    csv << dims[di] << "," << seeds << "," << csvNum(fg) << "," << csvNum(fl) << "," << csvNum(1.0 - fg - fl) << ","
        << csvNum(stats(probs).mean) << "\n";
  }
  j["per_d"] = std::move(rows);
  j["seconds"] = seconds(t0);
  res.csv = csv.str();
  return res;
}

// ---------------------------------------------------------------------------------------------
ExperimentResult ratesExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 20);
  const int iters = pick(o.iters, 2000);
  const int threads = resolveThreads(o.threads);
  struct Method {
    const char* name;
    Optimizer opt;
    double lr, p;
    NormKind norm;
  };
  const std::vector<Method> methods = {{"gd", Optimizer::GD, 1.0, 2.0, NormKind::Frobenius},
                                       {"ngd", Optimizer::NGD, 0.1, 2.0, NormKind::Frobenius},
                                       {"md_p1.75", Optimizer::MD, 1.0, 1.75, NormKind::Lp},
                                       {"md_p3", Optimizer::MD, 1.0, 3.0, NormKind::Lp}};
  const std::vector<int> schedule = logSchedule(iters);
  const int items = seeds * static_cast<int>(methods.size());
  struct Item {
    std::vector<int> iteration;
    std::vector<double> oneMinus;
  };
  std::vector<Item> out(items);
  Progress progress("rates", items, o.progress);
  parallelFor(items, threads, progress, [&](int idx) {
    const int mi = idx / seeds, k = idx % seeds;
    const Method& m = methods[mi];
    const Scenario sc = makeScenario("local-convergence", seedOptions(o, k));
    TrainSettings ts = sc.train;
    ts.optimizer = m.opt;
    ts.lr = m.lr;
    ts.p = m.p;
    RunRecord rec = runTraining(sc.data, sc.model, ts, sc.init, iters, 1, false, &schedule);
    const std::optional<Mat> ref = svmDirection(sc.data, sc.model, rec.finalSelection, m.norm, m.p);
    out[idx].iteration = rec.iteration;
    out[idx].oneMinus = corrSeries(rec, ref ? &*ref : nullptr, true);
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("rates", o, seeds, iters, threads);
  j["settings"]["scenario"] = "local-convergence";
  j["settings"]["reference"] = "SVM of the final selection in the method's norm (Frobenius for gd/ngd, l_p for md)";
  json perM = json::array();
  std::string csv;
  for (std::size_t mi = 0; mi < methods.size(); ++mi) {
    SeriesBlock block;
    block.iteration = out[mi * seeds].iteration;
    std::vector<std::vector<double>> series;
    std::vector<double> finals;
    for (int k = 0; k < seeds; ++k) {
      series.push_back(out[mi * seeds + k].oneMinus);
      finals.push_back(out[mi * seeds + k].oneMinus.back());
    }
    block.add("one_minus_corr", series);
    // log-log slope of the mean over the last decade of iterations
    double slope = kNaN;
    const auto& it = block.iteration;
    const auto& mean = block.means[0];
    if (it.size() > 2) {
      const std::size_t last = it.size() - 1;
      std::size_t first = last;
      while (first > 0 && it[first - 1] * 10 >= it[last] && it[first - 1] > 0) --first;
      if (first < last && mean[first] > 0 && mean[last] > 0)
        slope = (std::log(mean[last]) - std::log(mean[first])) / (std::log(it[last]) - std::log(it[first]));
    }
    perM.push_back({{"method", methods[mi].name},
                    {"optimizer", methods[mi].opt == Optimizer::GD ? "gd" : methods[mi].opt == Optimizer::NGD ? "ngd" : "md"},
                    {"lr", methods[mi].lr},
                    {"p", methods[mi].p},
                    {"final_one_minus_corr", statsJson(stats(finals))},
                    {"loglog_slope_last_decade", slope},
                    {"series", block.toJson()}});
    csv += block.csv("method", methods[mi].name, mi == 0);
  }
  j["methods"] = std::move(perM);
  j["seconds"] = seconds(t0);
  res.csv = csv;
  return res;
}

}  // namespace attnsvm::cli
