// Runs of the single-run experiments (see experiment_prompt.hpp). Moved from the CLI
// (cli/experiments/prompt.cpp) so that the lab runs the same code; the arithmetic is unchanged.
#include "attnsvm/experiments/experiment_prompt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

namespace {

using experiment_detail::kNaN;

ScenarioOptions seeded(std::uint64_t seed) {
  ScenarioOptions so;
  so.seed = seed;
  return so;
}

// Named columns of a SeedResult over the longest snapshot schedule of the runs (NaN-padded).
struct Columns {
  SeedResult r;
  void series(const std::string& name, const std::vector<double>& s) {
    if (s.size() > r.iteration.size())
      throw NumericalError("single-run experiment: schedules differ");
    std::vector<double> padded(r.iteration.size(), kNaN);
    std::copy(s.begin(), s.end(), padded.begin());
    r.seriesNames.push_back(name);
    r.series.push_back(std::move(padded));
  }
  void value(const std::string& name, double v) {
    r.valueNames.push_back(name);
    r.values.push_back(v);
  }
};

void schedule(Columns& c, const std::vector<const RunRecord*>& recs, int iters, int every) {
  for (const RunRecord* rec : recs)
    if (rec->iteration.size() > c.r.iteration.size()) c.r.iteration = rec->iteration;
  c.r.iters = iters;
  c.r.every = every;
}

int itersOr(int iters, const char* scenario) {
  return iters == -1 ? scenarioIterations(scenario) : iters;
}

}  // namespace

int scenarioIterations(const char* name) { return makeScenario(name).iterations; }

std::vector<double> corrToSnapshots(const RunRecord& r, const std::optional<Mat>& ref) {
  std::vector<double> s(r.weights.size(), kNaN);
  if (!ref) return s;
  for (std::size_t k = 0; k < r.weights.size(); ++k) s[k] = correlation(r.weights[k], *ref);
  return s;
}

std::vector<double> headCorrToSnapshots(const RunRecord& r, const std::optional<Mat>& ref) {
  std::vector<double> s(r.heads.size(), kNaN);
  if (!ref) return s;
  for (std::size_t k = 0; k < r.heads.size(); ++k) s[k] = correlation(r.heads[k], *ref);
  return s;
}

PromptStartRun promptGlobalLocalRun(std::uint64_t seed, bool localCase, int start, int iters,
                                    int every) {
  ScenarioOptions so = seeded(seed);
  so.localCase = localCase;
  so.start = start;
  const Scenario sc = makeScenario("prompt-global-local", so);
  PromptStartRun it;
  it.p0 = sc.init.p;
  it.rec = runTraining(sc.data, sc.model, sc.train, sc.init, iters, every);
  it.global = isGloballyOptimal(sc.data, it.rec.finalSelection);
  it.own = svmDirection(sc.data, sc.model, it.rec.finalSelection, NormKind::Frobenius);
  it.best = svmDirection(sc.data, sc.model, optimalTokens(sc.data).opt, NormKind::Frobenius);
  return it;
}

const std::vector<double>& lossFunctionCs() {
  static const std::vector<double> Cs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100};
  return Cs;
}

LossRun lossFunctionRun(std::uint64_t seed, LossKind loss, double C, int iters, int every) {
  ScenarioOptions so = seeded(seed);
  so.C = C;
  const Scenario sc = makeScenario("loss-function", so);
  ModelSpec spec = sc.model;
  spec.loss = loss;
  LossRun out;
  out.rec = runTraining(sc.data, spec, sc.train, sc.init, iters, every);
  out.mm = svmDirection(sc.data, spec, optimalTokens(sc.data).opt, NormKind::Frobenius);
  return out;
}

JointPvRun jointPvRun(std::uint64_t seed, int variant, int iters, int every) {
  ScenarioOptions so = seeded(seed);
  so.variant = variant;
  JointPvRun it;
  it.sc = makeScenario("joint-pv", so);
  const Scenario& sc = it.sc;
  TrainSettings ts = sc.train;
  ts.trainHead = true;
  it.rec = runTraining(sc.data, sc.model, ts, sc.init, iters, every, true);
  const std::vector<int>& sel = it.rec.finalSelection;
  SolverSettings settings;
  const MarginProblem hp = headSvmProblem(sc.data, sel);
  const MarginSolution hs = solveMargin(hp, settings);
  if (hs.status == SolveStatus::Optimal) {
    it.vmm = hs.W;
    for (int c : hs.support) it.headSupport.push_back(hp.label[c].sequence);
    std::sort(it.headSupport.begin(), it.headSupport.end());
    it.headSupport.erase(std::unique(it.headSupport.begin(), it.headSupport.end()),
                         it.headSupport.end());
    const MarginSolution rs =
        solveMargin(relaxedPromptSvmProblem(sc.data, sc.model.Wk, sel, it.headSupport), settings);
    if (rs.status == SolveStatus::Optimal) it.relaxed = rs.W;
  }
  it.plain = svmDirection(sc.data, sc.model, sel, NormKind::Frobenius);
  // Logistic probabilities 1 / (1 + exp(-Y f)) at the end.
  Model model(sc.data, sc.model);
  const Forward fw = model.forward(it.rec.finalParams);
  it.logistic.resize(fw.output.size());
  for (Index u = 0; u < fw.output.size(); ++u) {
    const double yf = sc.data.Y[model.unitSequence(static_cast<int>(u))] * fw.output[u];
    it.logistic[u] = 1.0 / (1.0 + std::exp(-yf));
  }
  return it;
}

// Series "<case>/<start>/corrOwnSvm" and "<case>/<start>/corrGlobalSvm" (case global or local,
// start 0..5); values the same finals and "<case>/<start>/global" (1 when the start reaches the
// globally optimal token).
SeedResult promptGlobalLocalSeed(std::uint64_t seed, int iters, int every) {
  iters = itersOr(iters, "prompt-global-local");
  every = defaultEvery(iters, every);
  std::vector<PromptStartRun> runs;
  for (int idx = 0; idx < 2 * kPromptStarts; ++idx)
    runs.push_back(
        promptGlobalLocalRun(seed, idx >= kPromptStarts, idx % kPromptStarts, iters, every));
  Columns c;
  std::vector<const RunRecord*> recs;
  for (const auto& it : runs) recs.push_back(&it.rec);
  schedule(c, recs, iters, every);
  for (int idx = 0; idx < 2 * kPromptStarts; ++idx) {
    const PromptStartRun& it = runs[idx];
    const std::string kase = idx >= kPromptStarts ? "local" : "global",
                      start = std::to_string(idx % kPromptStarts);
    const std::vector<double> own = corrToSnapshots(it.rec, it.own),
                              best = corrToSnapshots(it.rec, it.best);
    c.series(columnName({kase, start, "corrOwnSvm"}), own);
    c.series(columnName({kase, start, "corrGlobalSvm"}), best);
    c.value(columnName({kase, start, "global"}), it.global ? 1.0 : 0.0);
    c.value(columnName({kase, start, "corrOwnSvm"}), own.back());
    c.value(columnName({kase, start, "corrGlobalSvm"}), best.back());
  }
  return c.r;
}

// Series "<loss>/C<C>/corrPmm" (loss: correlation, logistic; e.g. "logistic/C10/corrPmm"); values
// the finals under the same names.
SeedResult lossFunctionSeed(std::uint64_t seed, int iters, int every) {
  iters = itersOr(iters, "loss-function");
  every = defaultEvery(iters, every);
  const LossKind losses[2] = {LossKind::Correlation, LossKind::Logistic};
  const char* names[2] = {"correlation", "logistic"};
  std::vector<LossRun> runs;
  for (int li = 0; li < 2; ++li)
    for (double C : lossFunctionCs())
      runs.push_back(lossFunctionRun(seed, losses[li], C, iters, every));
  Columns c;
  std::vector<const RunRecord*> recs;
  for (const auto& it : runs) recs.push_back(&it.rec);
  schedule(c, recs, iters, every);
  const std::size_t nc = lossFunctionCs().size();
  for (std::size_t idx = 0; idx < runs.size(); ++idx) {
    const std::string name =
        columnName({names[idx / nc],
                    "C" + std::to_string(static_cast<int>(lossFunctionCs()[idx % nc])), "corrPmm"});
    const std::vector<double> s = corrToSnapshots(runs[idx].rec, runs[idx].mm);
    c.series(name, s);
    c.value(name, s.back());
  }
  return c.r;
}

// Series "v<variant>/" + corrPRelaxed, corrPPlain, corrVHead, meanSoftmax; values the finals, plus
// "v<variant>/minLogistic" and "v<variant>/minSoftmax" (both tend to 1).
SeedResult jointPvSeed(std::uint64_t seed, int iters, int every) {
  iters = itersOr(iters, "joint-pv");
  every = defaultEvery(iters, every);
  std::vector<JointPvRun> runs;
  for (int v = 0; v < 2; ++v) runs.push_back(jointPvRun(seed, v, iters, every));
  Columns c;
  schedule(c, {&runs[0].rec, &runs[1].rec}, iters, every);
  for (int v = 0; v < 2; ++v) {
    const JointPvRun& it = runs[v];
    const std::string key = "v" + std::to_string(v);
    const std::vector<double> cv = headCorrToSnapshots(it.rec, it.vmm);
    const std::vector<double> cr = corrToSnapshots(it.rec, it.relaxed),
                              cp = corrToSnapshots(it.rec, it.plain);
    c.series(columnName({key, "corrPRelaxed"}), cr);
    c.series(columnName({key, "corrPPlain"}), cp);
    c.series(columnName({key, "corrVHead"}), cv);
    c.series(columnName({key, "meanSoftmax"}), it.rec.meanProb);
    c.value(columnName({key, "corrPRelaxed"}), cr.back());
    c.value(columnName({key, "corrPPlain"}), cp.back());
    c.value(columnName({key, "corrVHead"}), cv.empty() ? kNaN : cv.back());
    c.value(columnName({key, "minSoftmax"}),
            it.rec.finalProb.size() ? it.rec.finalProb.minCoeff() : kNaN);
    c.value(columnName({key, "minLogistic"}), it.logistic.size() ? it.logistic.minCoeff() : kNaN);
  }
  return c.r;
}

Paths2dRun paths2dRun(std::uint64_t seed, bool t5, Parameterization param, int iters, int every) {
  Paths2dRun out;
  out.sc = makeScenario(t5 ? "paths2d-t5" : "paths2d", seeded(seed));
  const Scenario& sc = out.sc;
  ModelSpec spec = sc.model;
  spec.param = param;
  Params init = sc.init;
  if (param == Parameterization::KQ && (init.K.size() == 0 || init.Q.size() == 0)) {
    // The paper: Q = 0, K = 0.1 N(0, 1).
    Rng rng(seed + 1);
    const int d = sc.data.d;
    init.K = 0.1 * rng.normalMatrix(d, d);
    init.Q = Mat::Zero(d, d);
  }
  if (param == Parameterization::W && init.W.size() == 0) init.W = Mat::Zero(sc.data.d, sc.data.d);
  out.rec = runTraining(sc.data, spec, sc.train, init, iters, every);
  out.fro = svmDirection(sc.data, spec, out.rec.finalSelection, NormKind::Frobenius);
  out.nuc = svmDirection(sc.data, spec, out.rec.finalSelection, NormKind::Nuclear);
  return out;
}

SeedResult paths2dSeed(std::uint64_t seed, bool t5, int iters, int every) {
  const char* name = t5 ? "paths2d-t5" : "paths2d";
  iters = itersOr(iters, name);
  every = defaultEvery(iters, every);
  const Parameterization params[2] = {Parameterization::W, Parameterization::KQ};
  const char* names[2] = {"W", "KQ"};
  Paths2dRun runs[2] = {paths2dRun(seed, t5, params[0], iters, every),
                        paths2dRun(seed, t5, params[1], iters, every)};
  Columns c;
  schedule(c, {&runs[0].rec, &runs[1].rec}, iters, every);
  const Dataset& data = runs[0].sc.data;
  for (int p = 0; p < 2; ++p) {
    const Paths2dRun& r = runs[p];
    const std::string P = names[p];
    for (int i = 0; i < data.n; ++i) {
      const Vec z = data.Z.row(i).transpose();
      for (Index a = 0; a < data.d; ++a) {
        std::vector<double> s;
        for (const Mat& W : r.rec.weights) s.push_back((W * z)[a]);
        c.series(columnName({P, indexedName("Wz", {i, a})}), s);
      }
    }
    c.r.selectionNames.push_back(P);  // for the margin lines x.u = x_sel.u - 1 of the lab's figure
    c.r.selections.push_back(r.rec.finalSelection);
    c.value(columnName({P, "corrFro"}), r.fro ? correlation(r.rec.weights.back(), *r.fro) : kNaN);
    c.value(columnName({P, "corrNuclear"}),
            r.nuc ? correlation(r.rec.weights.back(), *r.nuc) : kNaN);
    const std::optional<Mat>* refs[2] = {&r.fro, &r.nuc};
    const char* refNames[2] = {"fro", "nuclear"};
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < data.n; ++i) {
        const Vec q =
            *refs[k] ? Vec(**refs[k] * data.Z.row(i).transpose()) : Vec::Constant(data.d, kNaN);
        for (Index a = 0; a < data.d; ++a)
          c.value(columnName({P, refNames[k], indexedName("Wmmz", {i, a})}), q[a]);
      }
  }
  for (int i = 0; i < data.n; ++i)
    for (int t = 0; t < data.T; ++t)
      for (Index a = 0; a < data.d; ++a)
        c.value(indexedName("X", {i, t, a}), data.X(i * data.T + t, a));
  c.r.n = data.n;
  c.r.T = data.T;
  c.r.d = data.d;
  return c.r;
}

}  // namespace attnsvm
