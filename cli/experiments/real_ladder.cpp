// experiment real-ladder (SPEC 6.2): the SVM theory's regime on real images. The plan, the runs
// and the table are the core's (attnsvm/experiments/real_ladder.hpp); here the settings from the
// command line, the run loop shared with real-phase (runLadderShapedPlan), the JSON notes, the CSV.
#include <chrono>
#include <sstream>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "common.hpp"
#include "json_io.hpp"
#include "real_ladder_runs.hpp"

namespace attnsvm::cli {

namespace {

RealLadderSettings ladderSettings(const ExperimentOptions& o) {
  RealLadderSettings s;
  if (!o.settings.empty()) {
    s = fieldsFromJson<RealLadderSettings>(settingsOption(o.settings), "settings");
  }
  applyClasses(o, s.classA, s.classB);
  if (o.seeds != -1) s.seeds = o.seeds;
  if (o.seedBase != 0) s.seedBase = o.seedBase;
  if (!o.dims.empty()) s.sizes = o.dims;  // --dims: the ladder's sizes n
  if (o.tokenDim != -1) s.dim = o.tokenDim;
  return s;
}

}  // namespace

void applyClasses(const ExperimentOptions& o, int& classA, int& classB) {
  if (o.classes.empty()) return;
  if (o.classes.size() != 2)
    throw InputError("--classes needs two classes A,B (0..9), got " +
                     std::to_string(o.classes.size()));
  classA = o.classes[0];
  classB = o.classes[1];
}

LadderRunsOutcome runLadderRuns(const ImageSet& images, const std::vector<RealLadderRun>& runs,
                                int threads, const std::string& name, bool progressShown) {
  LadderRunsOutcome out;
  out.results.resize(runs.size());
  out.trainSeconds.resize(runs.size());
  out.analysisSeconds.resize(runs.size());
  Progress progress(name, static_cast<long>(runs.size()), progressShown);
  parallelFor(static_cast<int>(runs.size()), threads, progress, [&](int k) {
    RealLadderRunner runner(images, runs[k]);
    const double a = threadCpuSeconds();
    runner.advance(runs[k].steps);
    const double b = threadCpuSeconds();
    runner.analyze();
    out.trainSeconds[k] = b - a;
    out.analysisSeconds[k] = threadCpuSeconds() - b;
    out.results[k] = runner.result();
  });
  progress.finish();
  return out;
}

void putLadderRuns(json& j, const std::vector<RealLadderRun>& runs, const LadderRunsOutcome& o) {
  json out = json::array();
  double train = 0, analysis = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    json run = fieldsToJson(runs[k]);
    run["result"] = fieldsToJson(o.results[k]);
    run["trainSeconds"] = o.trainSeconds[k];
    run["analysisSeconds"] = o.analysisSeconds[k];
    train += o.trainSeconds[k];
    analysis += o.analysisSeconds[k];
    out.push_back(std::move(run));
  }
  j["runs"] = std::move(out);
  j["trainCpuSeconds"] = train;
  j["analysisCpuSeconds"] = analysis;
}

std::string ladderRowCsvHeader() {
  return "head,method,n,steps,seeds,endedByBudget,feasible,infeasible,undecided,feasibleLp,"
         "limitReached,corrMean,corrStd,corrMin,corrFroMean,divergenceMean,minSoftmax,meanSoftmax,"
         "trainAccuracy,gammaOptimal,globallyOptimal,locallyOptimal,neither,verdictInfeasible,"
         "verdictUndecided,failDegenerate,failInfeasible,failUndecided,failNoPositiveToken,"
         "failHeadFaster,failSelectionMoving,failNotSeparated,failSlow";
}

std::string ladderRowCsv(const RealLadderRow& r) {
  std::ostringstream os;
  os << r.head << "," << r.method << "," << r.n << "," << r.steps << "," << r.seeds << ","
     << r.endedByBudget << "," << r.feasible << "," << r.infeasible << "," << r.undecided << ","
     << r.feasibleLp << "," << r.limitReached << "," << csvNum(r.corrMean) << ","
     << csvNum(r.corrStd) << "," << csvNum(r.corrMin) << "," << csvNum(r.corrFroMean) << ","
     << csvNum(r.divergenceMean) << "," << csvNum(r.minSoftmax) << "," << csvNum(r.meanSoftmax)
     << "," << csvNum(r.trainAccuracy) << "," << csvNum(r.gammaOptimal) << "," << r.globallyOptimal
     << "," << r.locallyOptimal << "," << r.neither << "," << r.verdictInfeasible << ","
     << r.verdictUndecided << "," << r.failDegenerate << "," << r.failInfeasible << ","
     << r.failUndecided << "," << r.failNoPositiveToken << "," << r.failHeadFaster << ","
     << r.failSelectionMoving << "," << r.failNotSeparated << "," << r.failSlow;
  return os.str();
}

ExperimentResult realLadderExperiment(const ExperimentOptions& o) {
  auto describe = [](json& s) {
    s["model"] =
        "cross attention, z_i = mean token, linear head v, logistic loss; W from 0; head frozen "
        "(headSteps of normalized GD on v alone with W = 0, i.e. on the mean-pooled tokens) or "
        "joint (W and v from 0 with the same optimizer and lr)";
    s["certificate"] =
        "feasible = solver status optimal with relative duality gap and max constraint violation "
        "<= certifyTol; any status other than optimal or infeasible is reported as undecided";
  };
  auto csv = [](const std::vector<RealLadderRow>& rows) {
    std::string out = ladderRowCsvHeader() + "\n";
    for (const RealLadderRow& r : rows) out += ladderRowCsv(r) + "\n";
    return out;
  };
  return runLadderShapedPlan<RealLadder>(o, "real-ladder", ladderSettings(o), describe, csv);
}

}  // namespace attnsvm::cli
