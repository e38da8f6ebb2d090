// experiment real-phase (SPEC 6.5 with 6.2): the (d, n) phase diagram of the SVM regime on real
// images. The plan, the runs (the ladder's) and the table are the core's
// (attnsvm/experiments/real_phase.hpp); here the threads, progress, JSON/CSV.
#include <chrono>
#include <sstream>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_phase.hpp"
#include "common.hpp"
#include "json_io.hpp"
#include "real_ladder_runs.hpp"

namespace attnsvm::cli {

namespace {

RealPhaseSettings phaseSettings(const ExperimentOptions& o) {
  RealPhaseSettings s;
  if (!o.settings.empty())
    s = fieldsFromJson<RealPhaseSettings>(settingsOption(o.settings), "settings");
  applyClasses(o, s.classA, s.classB);
  if (o.seeds != -1) s.seeds = o.seeds;
  if (o.seedBase != 0) s.seedBase = o.seedBase;
  if (o.iters != -1) s.steps = o.iters;
  if (!o.dims.empty()) s.dims = o.dims;  // --dims: the token dimensions d
  return s;
}

// The ladder's columns after d (the phase's CSV had its own list, which lacked corrStd, the
// verdicts and failDegenerate's name: one formatter for both now).
std::string phaseCsv(const std::vector<RealPhaseRow>& rows) {
  std::string csv = "dim," + ladderRowCsvHeader() + "\n";
  for (const RealPhaseRow& p : rows)
    csv += std::to_string(p.dim) + "," + ladderRowCsv(p.row) + "\n";
  return csv;
}

}  // namespace

ExperimentResult realPhaseExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const RealPhaseSettings settings = phaseSettings(o);
  RealPhase phase(settings);
  const int threads = resolveThreads(o.threads);
  const ImageSet images = readFashionMnist("train", o.dataDir);
  const std::vector<RealLadderRun> runs = phase.take(phase.plannedRuns());
  const LadderRunsOutcome outcome = runLadderRuns(images, runs, threads, "real-phase", o.progress);
  for (const RealLadderRunResult& r : outcome.results) phase.submit(r);

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
  putLadderRuns(j, runs, outcome);
  j["seconds"] = secondsSince(t0);
  res.csv = phaseCsv(phase.table());
  return res;
}

}  // namespace attnsvm::cli
