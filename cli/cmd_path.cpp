// attnsvm path [FILE | --scenario NAME] --norm fro|nuclear|lp [--p P] (--radii R1,R2,... |
// --r0 A --r1 B --count N): the regularization path W(R) = argmin_{||W|| <= R} L(W) with, per
// radius, the loss, the selection, corr with the Att-SVM (in the ball's norm) of that selection
// and of the globally optimal one, and the Frank-Wolfe certificate (attnsvm/train/path.hpp).
#include <cmath>
#include <iostream>
#include <memory>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment_reg_path.hpp"
#include "attnsvm/train/path.hpp"
#include "commands.hpp"
#include "json_io.hpp"
#include "options.hpp"
#include "problem_source.hpp"

namespace attnsvm::cli {

namespace {
struct PathOptions {
  std::string file;
  std::string scenario;
  std::string norm = "fro";
  std::string loss = "logistic";
  double p = 2.0;
  std::vector<double> radii;
  double r0 = 1.0, r1 = 1e4;
  int count = 17;
  int iterations = 500;  // PathSettings' default
  double gapTol = kPathGapTolerance;
  std::uint64_t seed = 0;
  bool pretty = false;
  bool withW = true;
  // scenario options (addScenarioOptions)
  int n = -1, T = -1, d = -1, start = 0, variant = 0;
  double C = 1.0;
  bool localCase = false;
};

constexpr const char* kGuarantee =
    "Frank-Wolfe from W = 0 at the first radius, each later radius warm-started at the previous "
    "W(R). The problem is non-convex: each W(R) is certified stationary on its ball (relative "
    "Frank-Wolfe gap <= gapTolerance, certified = true), not globally optimal. The relative gap "
    "is computed from the log-domain gradient direction and is exact at every radius; once "
    "lossResolved = false the loss no longer changes measurably inside the ball (R ||grad L||_dual "
    "< eps L) and the printed loss is its saturated limit.";

struct PathProblem {
  Dataset data;
  ModelSpec spec;
};

PathProblem problemOf(const PathOptions& o, const CLI::App& sub) {
  PathProblem pp;
  if (!o.scenario.empty() && !o.file.empty())
    throw InputError("path: give FILE or --scenario, not both");
  LoadedProblem lp = loadProblem("path", o.file, o.scenario, scenarioOptionsOf(o));
  if (lp.scenario) {
    pp.data = std::move(lp.scenario->data);
    pp.spec = std::move(lp.scenario->model);
    // The path is over W (the nuclear ball stands for (K,Q)); a prompt scenario keeps its prompt.
    if (pp.spec.param == Parameterization::KQ) pp.spec.param = Parameterization::W;
  } else {
    pp.data = std::move(lp.file.data);
    pp.spec.attention = lp.file.kind;
  }
  if (sub.count("--loss") || o.scenario.empty()) pp.spec.loss = parseLoss(o.loss);
  return pp;
}

std::vector<double> radiiOf(const PathOptions& o, const CLI::App& sub) {
  const bool schedule = sub.count("--r0") || sub.count("--r1") || sub.count("--count");
  if (!o.radii.empty()) {
    if (schedule) throw InputError("path: give --radii or --r0/--r1/--count, not both");
    return o.radii;  // checked by the core (positive, finite, not decreasing)
  }
  return geometricRadii(o.r0, o.r1, o.count);
}

BallNorm ballOf(NormKind n) {
  return n == NormKind::Nuclear ? BallNorm::Nuclear
         : n == NormKind::Lp    ? BallNorm::Lp
                                : BallNorm::Frobenius;
}
}  // namespace

Command addPathCommand(CLI::App& app) {
  auto o = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "path",
      "Regularization path W(R) = argmin_{||W|| <= R} L(W) (Frank-Wolfe, warm-started) with a "
      "stationarity certificate per radius; prints one JSON object");
  sub->add_option("FILE", o->file,
                  "input JSON ({X, Z|query, Y, v}); - for stdin; omit with --scenario");
  sub->add_option("--scenario", o->scenario,
                  "take data and model from a named scenario (see `attnsvm scenario --list`)");
  sub->add_option("--seed", o->seed, "seed of the scenario's data")->capture_default_str();
  addScenarioOptions(sub, *o);
  sub->add_option("--norm", o->norm,
                  "the ball: fro (Frobenius: W's path), nuclear (the (K,Q) path), lp (entrywise)")
      ->capture_default_str();
  sub->add_option("--p", o->p, "p of the l_p ball, p > 1 (with --norm lp)")->capture_default_str();
  sub->add_option("--loss", o->loss, "logistic, exp or correlation")->capture_default_str();
  sub->add_option("--radii", o->radii, "radii, increasing (e.g. --radii 1,10,100)")->delimiter(',');
  sub->add_option("--r0", o->r0, "first radius of the geometric schedule")->capture_default_str();
  sub->add_option("--r1", o->r1, "last radius of the geometric schedule")->capture_default_str();
  sub->add_option("--count", o->count, "number of radii of the schedule")->capture_default_str();
  sub->add_option("--iterations", o->iterations, "Frank-Wolfe iterations per radius at most")
      ->capture_default_str();
  sub->add_option("--gap-tol", o->gapTol,
                  "stop a radius at this relative Frank-Wolfe gap (the certificate's bound)")
      ->capture_default_str();
  sub->add_flag(
      "--no-w", [o](std::int64_t) { o->withW = false; },
      "leave the matrices W(R) out of the output");
  sub->add_flag("--pretty", o->pretty, "indent the JSON output");
  Command c;
  c.app = sub;
  c.run = [o, sub]() {
    const NormKind norm = parseNorm(o->norm);
    PathSettings ps;
    ps.norm = ballOf(norm);
    if (norm == NormKind::Lp) checkP(o->p);
    ps.p = norm == NormKind::Lp ? o->p : 2.0;
    ps.iterationsPerRadius = o->iterations;
    PathProblem pp = problemOf(*o, *sub);
    const std::vector<double> radii = radiiOf(*o, *sub);
    const Model model(pp.data, pp.spec);
    std::vector<PathPoint> points = regularizationPathPoints(model, radii, ps, o->gapTol);
    annotatePath(pp.data, pp.spec, norm, ps.p, points);
    json out;
    out["norm"] = toString(norm);
    if (norm == NormKind::Lp) out["p"] = ps.p;
    if (!o->scenario.empty()) out["scenario"] = o->scenario;
    out["iterationsPerRadius"] = ps.iterationsPerRadius;
    out["gapTolerance"] = o->gapTol;
    out["guarantee"] = kGuarantee;
    bool all = true;
    json pts = json::array();
    for (const PathPoint& pt : points) {
      json j = fieldsToJson(pt);
      if (!o->withW) j.erase("W");
      j["rank"] = relativeRank(pt.W);
      all = all && pt.certified;
      pts.push_back(std::move(j));
    }
    out["allCertified"] = all;
    out["points"] = std::move(pts);
    std::cout << out.dump(o->pretty ? 2 : -1) << "\n";
    if (!all)
      std::cerr << "attnsvm: warning: some radii are not certified (relative gap above "
                << o->gapTol << " after " << ps.iterationsPerRadius << " iterations)\n";
    return 0;
  };
  return c;
}

}  // namespace attnsvm::cli
