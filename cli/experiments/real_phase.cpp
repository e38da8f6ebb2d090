// experiment real-phase (SPEC 6.5 with 6.2): the (d, n) phase diagram of the SVM regime on real
// images. The plan, the runs (the ladder's) and the table are the core's
// (attnsvm/experiments/real_phase.hpp), the run loop and the JSON the ladder's
// (runLadderShapedPlan); here the settings from the command line, the notes and the CSV.
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
  auto describe = [](json& s) {
    s["model"] =
        "tokens of dimension d (SPEC 6.5: d = 18 the patches, else sqrt(2/d) relu(R^T u + b)); "
        "cross attention, z_i = mean embedded token, linear head v, logistic loss; W from 0; head "
        "frozen (headSteps of NGD on v alone with W = 0) or joint; every run `steps` steps (the "
        "same budget for every n and d) unless the trainer stops it (endedBy)";
    s["degenerate"] = "training accuracy <= 0.5 (chance): a failure of its own, never the limit";
  };
  return runLadderShapedPlan<RealPhase>(o, "real-phase", phaseSettings(o), describe, phaseCsv);
}

}  // namespace attnsvm::cli
