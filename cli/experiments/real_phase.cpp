// experiment real-phase (SPEC 6.5 with 6.2): the (d, n) phase diagram of the SVM regime on real
// images. The plan, the runs (the ladder's) and the table are the core's
// (attnsvm/experiments/real_phase.hpp); here the threads, progress, JSON/CSV.
#include <chrono>
#include <sstream>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_phase.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

RealPhaseSettings phaseSettings(const ExperimentOptions& o) {
  RealPhaseSettings s;
  if (!o.settings.empty())
    s = fieldsFromJson<RealPhaseSettings>(settingsOption(o.settings), "settings");
  if (!o.classes.empty()) {
    if (o.classes.size() != 2)
      throw InputError("--classes needs two classes A,B (0..9), got " +
                       std::to_string(o.classes.size()));
    s.classA = o.classes[0];
    s.classB = o.classes[1];
  }
  if (o.seeds != -1) s.seeds = o.seeds;
  if (o.seedBase != 0) s.seedBase = o.seedBase;
  if (o.iters != -1) s.steps = o.iters;
  if (!o.dims.empty()) s.dims = o.dims;  // --dims: the token dimensions d
  return s;
}

std::string phaseCsv(const std::vector<RealPhaseRow>& rows) {
  std::ostringstream os;
  os << "dim,head,method,n,steps,seeds,endedByBudget,degenerate,feasible,infeasible,undecided,"
        "feasibleLp,limitReached,corrMean,corrMin,divergenceMean,minSoftmax,meanSoftmax,"
        "trainAccuracy,gammaOptimal,failInfeasible,failUndecided,failNoPositiveToken,"
        "failHeadFaster,failSelectionMoving,failNotSeparated,failSlow\n";
  for (const RealPhaseRow& p : rows) {
    const RealLadderRow& r = p.row;
    os << p.dim << "," << r.head << "," << r.method << "," << r.n << "," << r.steps << ","
       << r.seeds << "," << p.endedByBudget << "," << p.degenerate << "," << r.feasible << ","
       << r.infeasible << "," << r.undecided << "," << r.feasibleLp << "," << r.limitReached << ","
       << csvNum(r.corrMean) << "," << csvNum(r.corrMin) << "," << csvNum(r.divergenceMean) << ","
       << csvNum(r.minSoftmax) << "," << csvNum(r.meanSoftmax) << "," << csvNum(r.trainAccuracy)
       << "," << csvNum(r.gammaOptimal) << "," << r.failInfeasible << "," << r.failUndecided << ","
       << r.failNoPositiveToken << "," << r.failHeadFaster << "," << r.failSelectionMoving << ","
       << r.failNotSeparated << "," << r.failSlow << "\n";
  }
  return os.str();
}

}  // namespace

ExperimentResult realPhaseExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const RealPhaseSettings settings = phaseSettings(o);
  RealPhase phase(settings);
  const int threads = resolveThreads(o.threads);
  const ImageSet images = readFashionMnist("train", o.dataDir);
  const std::vector<RealLadderRun> runs = phase.take(phase.plannedRuns());
  std::vector<RealLadderRunResult> results(runs.size());
  std::vector<std::pair<double, double>> timing(runs.size());
  Progress progress("real-phase", static_cast<long>(runs.size()), o.progress);
  parallelFor(static_cast<int>(runs.size()), threads, progress, [&](int k) {
    RealLadderRunner runner(images, runs[k]);
    const double a = threadCpuSeconds();
    runner.advance(runs[k].steps);
    const double b = threadCpuSeconds();
    runner.analyze();
    timing[k] = {b - a, threadCpuSeconds() - b};
    results[k] = runner.result();
  });
  progress.finish();
  for (const RealLadderRunResult& r : results) phase.submit(r);

  ExperimentResult res;
  json& j = res.json;
  json s = settingsJson("real-phase", o, settings.seeds, -1, threads);
  s.update(fieldsToJson(settings));
  s["model"] =
      "tokens of dimension d (SPEC 6.5: d = 18 the patches, else sqrt(2/d) relu(R^T u + b)); "
      "cross attention, z_i = mean embedded token, linear head v, logistic loss; W from 0; head "
      "frozen (headSteps of NGD on v alone with W = 0) or joint; every run `steps` steps (the "
      "same budget for every n and d) unless the trainer stops it (endedBy)";
  s["degenerate"] = "training accuracy <= 0.5 (chance): a failure of its own, never the limit";
  j["settings"] = std::move(s);
  json table = json::array();
  for (const RealPhaseRow& r : phase.table()) table.push_back(fieldsToJson(r));
  j["table"] = std::move(table);
  json summary = json::array();
  for (const RealPhaseSummary& r : phase.summary()) summary.push_back(fieldsToJson(r));
  j["summary"] = std::move(summary);
  json out = json::array();
  double train = 0, analysis = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    json run = fieldsToJson(runs[k]);
    run["result"] = fieldsToJson(results[k]);
    run["trainSeconds"] = timing[k].first;
    run["analysisSeconds"] = timing[k].second;
    train += timing[k].first;
    analysis += timing[k].second;
    out.push_back(std::move(run));
  }
  j["runs"] = std::move(out);
  j["trainCpuSeconds"] = train;
  j["analysisCpuSeconds"] = analysis;
  j["seconds"] = secondsSince(t0);
  res.csv = phaseCsv(phase.table());
  return res;
}

}  // namespace attnsvm::cli
