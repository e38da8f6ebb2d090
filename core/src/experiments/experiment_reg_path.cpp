// The regularization-path experiment (experiment_reg_path.hpp, SPEC section 5.3).
#include "attnsvm/experiments/experiment_reg_path.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "base/svd.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

namespace {

using experiment_detail::kNaN;

// SVM directions of selections, solved once per (selection, norm, p).
class SvmCache {
 public:
  SvmCache(const Dataset& data, const ModelSpec& spec) : data_(data), spec_(spec) {}
  const std::optional<Mat>& get(const std::vector<int>& sel, NormKind norm, double p) {
    const Key key{sel, {static_cast<int>(norm), norm == NormKind::Lp ? p : 2.0}};
    auto found = cache_.find(key);
    if (found == cache_.end())
      found = cache_.emplace(key, svmDirection(data_, spec_, sel, norm, p)).first;
    return found->second;
  }

 private:
  using Key = std::pair<std::vector<int>, std::pair<int, double>>;
  const Dataset& data_;
  const ModelSpec& spec_;
  std::map<Key, std::optional<Mat>> cache_;
};

// The globally optimal selection (first optimal token of each unit), or empty where the notion
// is per (sequence, query) and the caller has not given one.
std::vector<int> globalSelection(const Dataset& data, const ModelSpec& spec) {
  if (spec.param == Parameterization::Prompt || spec.attention == AttentionKind::Cross ||
      spec.attention == AttentionKind::Self)
    return optimalTokens(data).opt;
  Dataset plain = data;
  plain.alpha.clear();
  return defaultSelection(plain, spec.attention);
}

double corrOrNaN(const Mat& W, const std::optional<Mat>& ref) {
  return ref ? correlation(W, *ref) : kNaN;
}

std::vector<double> column(const std::vector<PathPoint>& pts, double (*f)(const PathPoint&)) {
  std::vector<double> out;
  out.reserve(pts.size());
  for (const PathPoint& p : pts) out.push_back(f(p));
  return out;
}

}  // namespace

const std::vector<RegPathBall>& regPathBalls() {
  static const std::vector<RegPathBall> balls = {
      {"fro", BallNorm::Frobenius, 2.0, NormKind::Frobenius},
      {"nuclear", BallNorm::Nuclear, 2.0, NormKind::Nuclear},
      {"p1.75", BallNorm::Lp, 1.75, NormKind::Lp},
      {"p3", BallNorm::Lp, 3.0, NormKind::Lp}};
  return balls;
}

std::vector<double> regPathRadii() { return geometricRadii(1.0, 1e4, 17); }

int relativeRank(const Mat& W, double tol) {
  if (W.size() == 0) return 0;
  Vec s;
  detail::thinSvd(W, s, nullptr, nullptr);
  if (!(s[0] > 0.0)) return 0;
  int r = 0;
  for (Index k = 0; k < s.size(); ++k) r += s[k] > tol * s[0] ? 1 : 0;
  return r;
}

void annotatePath(const Dataset& data, const ModelSpec& spec, NormKind svmNorm, double p,
                  std::vector<PathPoint>& points) {
  SvmCache cache(data, spec);
  const std::vector<int> global = globalSelection(data, spec);
  const std::optional<Mat>& globalSvm = cache.get(global, svmNorm, p);
  for (PathPoint& pt : points) {
    pt.corrOwn = corrOrNaN(pt.W, cache.get(pt.selection, svmNorm, p));
    pt.corrGlobal = corrOrNaN(pt.W, globalSvm);
    pt.globallyOptimal = spec.param == Parameterization::Prompt ||
                                 spec.attention == AttentionKind::Cross ||
                                 spec.attention == AttentionKind::Self
                             ? isGloballyOptimal(data, pt.selection)
                             : pt.selection == global;
  }
}

SeedResult regPathSeed(std::uint64_t seed, const SeedOptions& o) {
  const std::string dataName = o.method.empty() ? "local-convergence" : o.method;
  if (dataName != "local-convergence" && dataName != "paths2d" && dataName != "paths2d-t5")
    throw InputError("reg-path: method = " + dataName +
                     " is not a data set of the experiment (local-convergence, paths2d, "
                     "paths2d-t5)");
  ScenarioOptions so;
  so.seed = seed;
  const Scenario sc = makeScenario(dataName, so);
  ModelSpec spec = sc.model;
  spec.param = Parameterization::W;
  const Model model(sc.data, spec);
  const std::vector<double> radii = regPathRadii();
  PathSettings ps;
  ps.iterationsPerRadius = kRegPathIterations;
  if (o.iters != -1) {
    if (o.iters < 1 || o.iters > 100000)
      throw InputError("reg-path: iters = " + std::to_string(o.iters) +
                       " (Frank-Wolfe iterations per radius) is out of range 1..100000");
    ps.iterationsPerRadius = o.iters;
  }

  // The GD limits of local-convergence on the same seed: normalized GD on W and on (K, Q) from
  // the scenario's start, for the scenario's iteration count.
  const int gdIters = sc.iterations;
  RunRecord gd[2];
  for (int k = 0; k < 2; ++k) {
    ModelSpec s = sc.model;
    s.param = k == 0 ? Parameterization::W : Parameterization::KQ;
    gd[k] = runTraining(sc.data, s, sc.train, sc.init, gdIters, gdIters);
  }

  SeedResult r;
  r.experiment = "reg-path";
  r.seed = seed;
  r.n = sc.data.n;
  r.T = sc.data.T;
  r.d = sc.data.d;
  r.iters = ps.iterationsPerRadius;
  r.every = 1;
  for (int k = 0; k < static_cast<int>(radii.size()); ++k) r.iteration.push_back(k);
  r.addSeries("radius", radii);
  SvmCache cache(sc.data, spec);
  for (const RegPathBall& b : regPathBalls()) {
    ps.norm = b.ball;
    ps.p = b.p;
    std::vector<PathPoint> pts = regularizationPathPoints(model, radii, ps);
    annotatePath(sc.data, spec, b.svmNorm, b.p, pts);
    const std::string n = b.name;
    for (const RegPathBall& c : regPathBalls()) {
      std::vector<double> s;
      for (const PathPoint& pt : pts)
        s.push_back(1.0 - corrOrNaN(pt.W, cache.get(pt.selection, c.svmNorm, c.p)));
      r.addSeries(columnName({n, "oneMinusCorr", c.name}), std::move(s));
    }
    r.addSeries(columnName({n, "rank"}),
                column(pts, [](const PathPoint& p) { return double(relativeRank(p.W)); }));
    r.addSeries(columnName({n, "global"}),
                column(pts, [](const PathPoint& p) { return p.globallyOptimal ? 1.0 : 0.0; }));
    r.addSeries(columnName({n, "relativeGap"}),
                column(pts, [](const PathPoint& p) { return p.relativeGap; }));
    r.addSeries(columnName({n, "certified"}),
                column(pts, [](const PathPoint& p) { return p.certified ? 1.0 : 0.0; }));
    r.addSeries(columnName({n, "lossResolved"}),
                column(pts, [](const PathPoint& p) { return p.lossResolved ? 1.0 : 0.0; }));
    const PathPoint& last = pts.back();
    const RunRecord& g = gd[b.ball == BallNorm::Nuclear ? 1 : 0];
    r.addValue(columnName({n, "oneMinusCorrOwn"}), 1.0 - last.corrOwn);
    r.addValue(columnName({n, "global"}), last.globallyOptimal ? 1.0 : 0.0);
    r.addValue(columnName({n, "rank"}), relativeRank(last.W));
    r.addValue(columnName({n, "relativeGap"}), last.relativeGap);
    r.addValue(columnName({n, "sameSelectionAsGd"}),
               last.selection == g.finalSelection ? 1.0 : 0.0);
    r.addValue(columnName({n, "oneMinusCorrWithGd"}), 1.0 - correlation(last.W, g.weights.back()));
    r.selectionNames.push_back(n);
    r.selections.push_back(last.selection);
  }
  const char* gdNames[2] = {"W", "KQ"};
  for (int k = 0; k < 2; ++k) {
    r.addValue(columnName({"gd", gdNames[k], "global"}),
               isGloballyOptimal(sc.data, gd[k].finalSelection) ? 1.0 : 0.0);
    r.selectionNames.push_back(columnName({"gd", gdNames[k]}));
    r.selections.push_back(gd[k].finalSelection);
  }
  return r;
}

}  // namespace attnsvm
