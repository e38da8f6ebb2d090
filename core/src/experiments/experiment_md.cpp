// md-convergence and joint-wv, the mirror-descent paper's synthetic experiments (SPEC 5.2; see
// experiment_md.hpp for the columns). The divergence is always taken in the training run's p, with
// the SVM solution first and the iterate second, as the paper reports it.
#include "attnsvm/experiments/experiment_md.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment_prompt.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "experiments/experiment_internal.hpp"
#include "model/mirror_internal.hpp"

namespace attnsvm {

namespace {

using experiment_detail::kNaN;
using experiment_detail::sparsity;

// corr and D_p (SVM first) of every snapshot; NaN everywhere without a reference.
void againstReference(const std::vector<Mat>& snaps, const std::optional<Mat>& ref, double p,
                      std::vector<double>& corr, std::vector<double>& div) {
  corr.assign(snaps.size(), kNaN);
  div.assign(snaps.size(), kNaN);
  if (!ref) return;
  for (std::size_t k = 0; k < snaps.size(); ++k) corr[k] = correlation(snaps[k], *ref);
  // directionDivergence of every snapshot, the reference's part once and the powers vectorized.
  div = directionDivergences(*ref, snaps, p);
}

double lastOr(const std::vector<double>& s) { return s.empty() ? kNaN : s.back(); }

void requireExponent(double p) {
  if (!(p > 1.0) || !std::isfinite(p) || p > 1e3)
    throw InputError("p = " + std::to_string(p) + " must be in (1, 1000]");
}

}  // namespace

const std::vector<double>& mdExponents() {
  static const std::vector<double> ps = {1.75, 2.0, 3.0};
  return ps;
}

int mdIterations(double p) {
  if (p == 1.75) return 1500;
  if (p == 3.0) return 20000;
  return 2000;
}

std::string exponentName(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", p);
  return buf;
}

namespace {

// The training run of one md-convergence seed, planned apart from running it (so that many seeds
// can be trained together).
struct MdPlan {
  Scenario sc;
  TrainSettings ts;
  int iters = 0, every = 0;
};

MdPlan planMd(std::uint64_t seed, const SeedOptions& o) {
  ScenarioOptions so;
  so.seed = seed;
  MdPlan pl{makeScenario("md-convergence", so), {}, 0, 0};
  const double p = o.p == 0.0 ? 1.75 : o.p;
  requireExponent(p);
  pl.iters = o.iters == -1 ? mdIterations(p) : o.iters;
  pl.every = defaultEvery(pl.iters, o.every);
  pl.ts = pl.sc.train;
  pl.ts.p = p;
  return pl;
}

// The seed's columns from its trained run.
SeedResult mdConvergenceFrom(const MdPlan& pl, const RunRecord& rec) {
  const Scenario& sc = pl.sc;
  const double p = pl.ts.p;
  const int iters = pl.iters, every = pl.every;
  const std::vector<int>& sel = rec.finalSelection;

  std::vector<double> qs = mdExponents();
  bool listed = false;
  for (double q : qs) listed = listed || q == p;
  if (!listed) qs.push_back(p);

  SeedResult r;
  r.n = sc.data.n;
  r.T = sc.data.T;
  r.d = sc.data.d;
  r.iters = iters;
  r.every = every;
  r.iteration = rec.iteration;
  const Mat& W = rec.weights.back();
  std::vector<std::optional<Mat>> svms;
  for (double q : qs) {
    // q = 2 is the Frobenius Att-SVM (the l_2 solver would return the same W, slower).
    svms.push_back(q == 2.0 ? svmDirection(sc.data, sc.model, sel, NormKind::Frobenius)
                            : svmDirection(sc.data, sc.model, sel, NormKind::Lp, q));
  }
  std::vector<double> finalsDiv, finalsCorr;
  for (std::size_t k = 0; k < qs.size(); ++k) {
    std::vector<double> corr, div;
    againstReference(rec.weights, svms[k], p, corr, div);
    const std::string q = "q" + exponentName(qs[k]);
    finalsDiv.push_back(lastOr(div));
    finalsCorr.push_back(lastOr(corr));
    r.addSeries(columnName({q, "div"}), std::move(div));
    r.addSeries(columnName({q, "corr"}), std::move(corr));
  }
  r.addSeries("softmax", rec.meanProb);
  for (std::size_t k = 0; k < qs.size(); ++k) {
    const std::string q = "q" + exponentName(qs[k]);
    r.addValue(columnName({q, "div"}), finalsDiv[k]);
    r.addValue(columnName({q, "corr"}), finalsCorr[k]);
  }
  r.addValue("sparsityW", sparsity(W));
  for (std::size_t k = 0; k < qs.size(); ++k)
    r.addValue(columnName({"q" + exponentName(qs[k]), "sparsitySvm"}),
               svms[k] ? sparsity(*svms[k]) : kNaN);
  r.addValue("softmax", lastOr(rec.meanProb));
  r.addValue("loss", rec.finalLoss);
  r.addValue("global", isGloballyOptimal(sc.data, sel) ? 1.0 : 0.0);
  r.addLabel("verdict", verdictName(sc.data, sc.model, sel));
  r.addLabel("stopReason", rec.stopReason);
  r.selectionNames.push_back("W");
  r.selections.push_back(sel);
  r.matrixNames.push_back("W");
  r.matrices.push_back(W);
  for (std::size_t k = 0; k < qs.size(); ++k) {
    r.matrixNames.push_back(columnName({"q" + exponentName(qs[k]), "Wmm"}));
    r.matrices.push_back(svms[k] ? *svms[k] : Mat());
  }
  return r;
}

}  // namespace

SeedResult mdConvergenceSeed(std::uint64_t seed, const SeedOptions& o) {
  const MdPlan pl = planMd(seed, o);
  return mdConvergenceFrom(
      pl, runTraining(pl.sc.data, pl.sc.model, pl.ts, pl.sc.init, pl.iters, pl.every));
}

std::vector<SeedResult> mdConvergenceSeeds(std::uint64_t first, int count, const SeedOptions& o) {
  if (count < 0) throw InputError("seed count = " + std::to_string(count) + ": must be >= 0");
  std::vector<MdPlan> plans;
  plans.reserve(count);
  std::vector<const Dataset*> data;
  std::vector<Params> inits;
  for (int k = 0; k < count; ++k) plans.push_back(planMd(first + k, o));
  for (const MdPlan& pl : plans) {
    data.push_back(&pl.sc.data);
    inits.push_back(pl.sc.init);
  }
  std::vector<SeedResult> out;
  if (count == 0) return out;
  const MdPlan& p0 = plans[0];
  const std::vector<RunRecord> recs =
      runTrainingBatched(data, p0.sc.model, p0.ts, inits, p0.iters, p0.every);
  out.reserve(count);
  for (int k = 0; k < count; ++k) out.push_back(mdConvergenceFrom(plans[k], recs[k]));
  return out;
}

JointWvRun jointWvRun(double p, int iters, int every) {
  requireExponent(p);
  JointWvRun it;
  it.p = p;
  it.sc = makeScenario("joint-wv");
  const Scenario& sc = it.sc;
  TrainSettings ts = sc.train;
  ts.p = p;
  ts.headP = p;
  it.rec = runTraining(sc.data, sc.model, ts, sc.init, iters, every, true);
  const std::vector<int>& sel = it.rec.finalSelection;
  it.wmm = p == 2.0 ? svmDirection(sc.data, sc.model, sel, NormKind::Frobenius)
                    : svmDirection(sc.data, sc.model, sel, NormKind::Lp, p);
  SolverSettings settings;
  settings.norm = p == 2.0 ? NormKind::Frobenius : NormKind::Lp;
  settings.p = p;
  try {
    const MarginSolution hs = solveMargin(headSvmProblem(sc.data, sel), settings);
    if (hs.status == SolveStatus::Optimal) it.vmm = hs.W;
  } catch (const NumericalError&) {
    // reported as no reference (NaN columns)
  }
  const Model model(sc.data, sc.model);
  const Forward fw = model.forward(it.rec.finalParams);
  it.softmax = fw.selectedProbability;
  it.logistic.resize(fw.output.size());
  for (Index u = 0; u < fw.output.size(); ++u)
    it.logistic[u] = 1.0 / (1.0 + std::exp(-sc.data.Y[u] * fw.output[u]));
  return it;
}

SeedResult jointWvSeed(std::uint64_t /*seed*/, int iters, int every) {
  iters = iters == -1 ? makeScenario("joint-wv").iterations : iters;
  every = defaultEvery(iters, every);
  SeedResult r;
  std::vector<JointWvRun> runs;
  for (double p : mdExponents()) runs.push_back(jointWvRun(p, iters, every));
  const Dataset& data = runs[0].sc.data;
  r.n = data.n;
  r.T = data.T;
  r.d = data.d;
  r.iters = iters;
  r.every = every;
  // Every run has the same schedule unless one stopped early: pad with NaN to the longest.
  std::size_t longest = 0;
  for (const JointWvRun& it : runs)
    if (it.rec.iteration.size() > longest) {
      longest = it.rec.iteration.size();
      r.iteration = it.rec.iteration;
    }
  auto padded = [&](std::vector<double> s) {
    s.resize(longest, kNaN);
    return s;
  };
  for (const JointWvRun& it : runs) {
    const std::string P = "p" + exponentName(it.p);  // the run's scope
    const Model model(it.sc.data, it.sc.model);
    std::vector<double> corrW, divW, corrV, divV;
    againstReference(it.rec.weights, it.wmm, it.p, corrW, divW);
    std::vector<Mat> heads;
    for (const Vec& v : it.rec.heads) heads.push_back(v);
    std::optional<Mat> vmm;
    if (it.vmm) vmm = *it.vmm;
    againstReference(heads, vmm, it.p, corrV, divV);
    // Mean logistic probability of the model's output at each snapshot.
    std::vector<double> logistic;
    for (std::size_t k = 0; k < it.rec.weights.size(); ++k) {
      Params at = model.zeroParams();
      at.W = it.rec.weights[k];
      at.v = it.rec.heads[k];
      const Forward fw = model.forward(at);
      double s = 0.0;
      for (Index u = 0; u < fw.output.size(); ++u)
        s += 1.0 / (1.0 + std::exp(-data.Y[u] * fw.output[u]));
      logistic.push_back(s / static_cast<double>(fw.output.size()));
    }
    r.addValue(columnName({P, "corrW"}), lastOr(corrW));
    r.addValue(columnName({P, "divW"}), lastOr(divW));
    r.addValue(columnName({P, "corrV"}), lastOr(corrV));
    r.addValue(columnName({P, "divV"}), lastOr(divV));
    r.addSeries(columnName({P, "corrW"}), padded(std::move(corrW)));
    r.addSeries(columnName({P, "divW"}), padded(std::move(divW)));
    r.addSeries(columnName({P, "corrV"}), padded(std::move(corrV)));
    r.addSeries(columnName({P, "divV"}), padded(std::move(divV)));
    r.addSeries(columnName({P, "meanSoftmax"}), padded(it.rec.meanProb));
    r.addSeries(columnName({P, "meanLogistic"}), padded(std::move(logistic)));
    for (int i = 0; i < data.n; ++i) {
      const Vec z = data.Z.row(i).transpose();
      for (Index a = 0; a < data.d; ++a) {
        std::vector<double> s;
        for (const Mat& W : it.rec.weights) s.push_back((W * z)[a]);
        r.addSeries(columnName({P, indexedName("Wz", {i, a})}), padded(std::move(s)));
      }
    }
    for (Index a = 0; a < data.d; ++a) {
      std::vector<double> s;
      for (const Vec& v : it.rec.heads) s.push_back(v[a]);
      r.addSeries(columnName({P, indexedName("v", {a})}), padded(std::move(s)));
    }
    for (int i = 0; i < data.n; ++i) {
      r.addValue(columnName({P, indexedName("softmax", {i})}), it.softmax[i]);
      r.addValue(columnName({P, indexedName("logistic", {i})}), it.logistic[i]);
    }
    for (int i = 0; i < data.n; ++i) {
      const Vec q = it.wmm ? Vec(*it.wmm * data.Z.row(i).transpose()) : Vec::Constant(data.d, kNaN);
      for (Index a = 0; a < data.d; ++a)
        r.addValue(columnName({P, indexedName("Wmmz", {i, a})}), q[a]);
    }
    for (Index a = 0; a < data.d; ++a)
      r.addValue(columnName({P, indexedName("vmm", {a})}), it.vmm ? (*it.vmm)(a, 0) : kNaN);
    r.addLabel(columnName({P, "stopReason"}), it.rec.stopReason);
    r.selectionNames.push_back(P);
    r.selections.push_back(it.rec.finalSelection);
  }
  for (int i = 0; i < data.n; ++i)
    for (int t = 0; t < data.T; ++t)
      for (Index a = 0; a < data.d; ++a)
        r.addValue(indexedName("X", {i, t, a}), data.X(i * data.T + t, a));
  return r;
}

}  // namespace attnsvm
