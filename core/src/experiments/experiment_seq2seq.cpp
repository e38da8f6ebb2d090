// seq2seq-convergence (experiment_seq2seq.hpp): four NGD runs per seed (seq2seq and causal
// self-attention, W and (K, Q)) on the same sphere data, each compared with the SAtt-SVMs of the
// selection it ends at. The SVMs and the verdict are the core's (attentionSvmProblem and
// analyzeSelection already take one unit per (sequence, query)); here only the bookkeeping.
#include "attnsvm/experiments/experiment_seq2seq.hpp"

#include <Eigen/SVD>
#include <map>
#include <optional>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

namespace {

using experiment_detail::kNaN;

struct Run {
  AttentionKind attention;
  Parameterization param;
};
constexpr Run kRuns[4] = {{AttentionKind::SeqToSeq, Parameterization::W},
                          {AttentionKind::SeqToSeq, Parameterization::KQ},
                          {AttentionKind::Causal, Parameterization::W},
                          {AttentionKind::Causal, Parameterization::KQ}};

// Mean selected softmax over the units that choose among two or more tokens, at every snapshot
// (the RunRecord's mean counts causal query 0, whose one token has probability 1).
std::vector<double> meanSelectedSoftmax(const Model& model, const RunRecord& rec) {
  // The snapshots hold the effective W (K Q^T for (K, Q)): evaluate them as W.
  ModelSpec spec = model.spec();
  spec.param = Parameterization::W;
  const Model evalModel(model.data(), spec);
  std::vector<int> sel(evalModel.units());
  Vec prob(evalModel.units());
  Params at = evalModel.zeroParams();
  std::vector<double> out;
  out.reserve(rec.weights.size());
  for (const Mat& W : rec.weights) {
    at.W = W;
    evalModel.selection(at, sel, prob);
    double sum = 0.0;
    int count = 0;
    for (int u = 0; u < evalModel.units(); ++u)
      if (evalModel.unitTokenCount(u) > 1) {
        sum += prob[u];
        ++count;
      }
    out.push_back(count ? sum / count : kNaN);
  }
  return out;
}

double minNontrivial(const Model& model, const Vec& prob) {
  double m = kNaN;
  for (int u = 0; u < model.units(); ++u)
    if (model.unitTokenCount(u) > 1 && !(prob[u] >= m)) m = prob[u];
  return m;
}

int numericalRank(const Mat& W) {
  if (W.size() == 0) return 0;
  const Vec s = Eigen::JacobiSVD<Mat>(W).singularValues();
  if (!(s[0] > 0.0)) return 0;
  int r = 0;
  for (Index k = 0; k < s.size(); ++k) r += s[k] > 1e-7 * s[0] ? 1 : 0;
  return r;
}

std::vector<double> corrSeries(const RunRecord& r, const std::optional<Mat>& ref) {
  std::vector<double> s(r.weights.size(), kNaN);
  if (!ref) return s;
  for (std::size_t k = 0; k < r.weights.size(); ++k) s[k] = correlation(r.weights[k], *ref);
  return s;
}

// The SAtt-SVMs of one selection (both runs of an attention often end at the same selection).
struct Refs {
  SelectionReport report;       // Frobenius SVM, verdict, support tokens, violators
  std::optional<Mat> fro, nuc;  // certified solutions (status optimal)
  double gapNuclear = kNaN;
};

}  // namespace

const std::vector<std::string>& seq2seqScopes() {
  static const std::vector<std::string> scopes = {"seq2seq/W", "seq2seq/KQ", "causal/W",
                                                  "causal/KQ"};
  return scopes;
}

SeedResult seq2seqConvergenceSeed(std::uint64_t seed, const SeedOptions& o) {
  const Seq2seqSizes def;
  ScenarioOptions so;
  so.seed = seed;
  so.n = o.n == -1 ? def.n : o.n;
  so.T = o.T == -1 ? def.T : o.T;
  so.d = o.d == -1 ? def.d : o.d;
  if (so.n < 1 || so.T < 2 || so.d < 1)
    throw InputError("seq2seq-convergence: n >= 1, T >= 2 and d >= 1 are needed (got n = " +
                     std::to_string(so.n) + ", T = " + std::to_string(so.T) +
                     ", d = " + std::to_string(so.d) + ")");
  // The sphere scenario: its data, NGD eta 0.1, W = 0 and small random (K, Q).
  const Scenario sc = makeScenario("sphere", so);
  const int iters = o.iters == -1 ? kSeq2seqIters : o.iters;
  const int every = defaultEvery(iters, o.every);

  SeedResult r;
  r.n = sc.data.n;
  r.T = sc.data.T;
  r.d = sc.data.d;
  r.iters = iters;
  r.every = every;
  std::map<std::pair<int, std::vector<int>>, Refs> cache;
  std::vector<std::vector<double>> finals;
  const char* fields[] = {"softmaxSelected", "corrFro",      "corrNuclear",  "corrOwn",
                          "minSoftmax",      "loss",         "shareOptimal", "shareLocal",
                          "feasible",        "global",       "local",        "gapFro",
                          "gapNuclear",      "violationFro", "rankW"};
  for (int k = 0; k < 4; ++k) {
    const std::string scope = seq2seqScopes()[k];
    ModelSpec spec = sc.model;
    spec.attention = kRuns[k].attention;
    spec.param = kRuns[k].param;
    const Model model(sc.data, spec);
    const RunRecord rec = runTraining(sc.data, spec, sc.train, sc.init, iters, every);
    const std::vector<int>& sel = rec.finalSelection;
    const auto key = std::make_pair(static_cast<int>(spec.attention), sel);
    auto found = cache.find(key);
    if (found == cache.end()) {
      Refs ref;
      ref.report = analyzeSelection(sc.data, spec.attention, sel);
      if (ref.report.feasible) {
        ref.fro = ref.report.svm.W;
        MarginSolution nuc;
        ref.nuc = svmDirection(sc.data, spec, sel, NormKind::Nuclear, 2.0, &nuc);
        if (ref.nuc) ref.gapNuclear = nuc.gap;
      }
      found = cache.emplace(key, std::move(ref)).first;
    }
    const Refs& ref = found->second;
    const SelectionReport& rep = ref.report;

    // Per-unit optimality (units with one token are trivially optimal and left out of the shares).
    int units = 0, optimal = 0, local = 0;
    std::vector<bool> violated(sel.size(), false);
    for (const auto& v : rep.violators) violated[static_cast<std::size_t>(v.first)] = true;
    for (int u = 0; u < model.units(); ++u) {
      if (model.unitTokenCount(u) < 2) continue;
      ++units;
      bool best = false;
      for (int t : rep.ties[static_cast<std::size_t>(u)]) best = best || t == sel[u];
      optimal += best ? 1 : 0;
      local += violated[static_cast<std::size_t>(u)] ? 0 : 1;
    }
    const std::vector<double> soft = meanSelectedSoftmax(model, rec);
    std::vector<double> cf = corrSeries(rec, ref.fro), cn = corrSeries(rec, ref.nuc);
    const bool isW = spec.param == Parameterization::W;
    const double cOwn = isW ? cf.back() : cn.back();
    finals.push_back({soft.back(), cf.back(), cn.back(), cOwn, minNontrivial(model, rec.finalProb),
                      rec.finalLoss, units ? static_cast<double>(optimal) / units : kNaN,
                      rep.feasible && units ? static_cast<double>(local) / units : kNaN,
                      rep.feasible ? 1.0 : 0.0, rep.verdict == Verdict::GloballyOptimal ? 1.0 : 0.0,
                      rep.verdict == Verdict::LocallyOptimal ? 1.0 : 0.0,
                      rep.feasible ? rep.svm.gap : kNaN, ref.gapNuclear,
                      rep.feasible ? rep.svm.maxViolation : kNaN,
                      static_cast<double>(numericalRank(rec.weights.back()))});
    if (k == 0) r.iteration = rec.iteration;
    r.addSeries(columnName({scope, "softmax"}), soft);
    r.addSeries(columnName({scope, "corrFro"}), std::move(cf));
    r.addSeries(columnName({scope, "corrNuclear"}), std::move(cn));
    r.addLabel(columnName({scope, "verdict"}), toString(rep.verdict));
    r.addLabel(columnName({scope, "stopReason"}), rec.stopReason);
    r.selectionNames.push_back(scope);
    r.selections.push_back(sel);
  }
  for (int k = 0; k < 4; ++k)
    for (std::size_t f = 0; f < std::size(fields); ++f)
      r.addValue(columnName({seq2seqScopes()[k], fields[f]}), finals[k][f]);
  return r;
}

}  // namespace attnsvm
