// What `experiment real-ladder` and `experiment real-phase` share (the phase runs its cells as one
// ladder per d): the whole experiment as one template over the plan (runLadderShapedPlan), which
// runs the plan's ladder runs on threads with their CPU times and writes the runs' JSON; the CSV
// of the ladder's rows; and the settings the two take from the command line.
#pragma once
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

struct LadderRunsOutcome {
  std::vector<RealLadderRunResult> results;           // by the runs' order
  std::vector<double> trainSeconds, analysisSeconds;  // CPU seconds per run
};

// Every run trained to its steps then analyzed (the solves), on `threads` threads.
LadderRunsOutcome runLadderRuns(const ImageSet& images, const std::vector<RealLadderRun>& runs,
                                int threads, const std::string& name, bool progress);

// j["runs"] (each run with its result and CPU seconds), j["trainCpuSeconds"],
// j["analysisCpuSeconds"].
void putLadderRuns(json& j, const std::vector<RealLadderRun>& runs, const LadderRunsOutcome& o);

// The CSV header of a ladder row and one row (no newline), for a prefix of columns of the caller's.
std::string ladderRowCsvHeader();
std::string ladderRowCsv(const RealLadderRow& r);

// --classes A,B into (classA, classB) (two classes or an InputError).
void applyClasses(const ExperimentOptions& o, int& classA, int& classB);

// Runs a ladder-shaped plan (RealLadder, RealPhase: every run handed out at once, trained and
// analyzed on threads, submitted; a table and a summary of field-listed rows) and writes what the
// two experiments share: settings (settingsJson, the plan's settings, then `describe(settings)`
// adds the experiment's notes), table, summary, runs (putLadderRuns), seconds, and the CSV
// `csv(table)`. Only the plan's type, its notes and its CSV differ between the two.
template <class Plan, class Settings, class Describe, class Csv>
ExperimentResult runLadderShapedPlan(const ExperimentOptions& o, const std::string& name,
                                     const Settings& settings, Describe describe, Csv csv) {
  const auto t0 = std::chrono::steady_clock::now();
  Plan plan(settings);  // checks the settings before the images are read
  const int threads = resolveThreads(o.threads);
  const ImageSet images = readFashionMnist("train", o.dataDir);
  const auto runs = plan.take(plan.plannedRuns());
  const LadderRunsOutcome outcome = runLadderRuns(images, runs, threads, name, o.progress);
  for (const RealLadderRunResult& r : outcome.results) plan.submit(r);

  ExperimentResult res;
  json& j = res.json;
  json s = settingsJson(name, o, settings.seeds, -1, threads);
  s.update(fieldsToJson(settings));
  describe(s);
  j["settings"] = std::move(s);
  const auto rows = plan.table();
  json table = json::array();
  for (const auto& r : rows) table.push_back(fieldsToJson(r));
  j["table"] = std::move(table);
  json summary = json::array();
  for (const auto& r : plan.summary()) summary.push_back(fieldsToJson(r));
  j["summary"] = std::move(summary);
  putLadderRuns(j, runs, outcome);
  j["seconds"] = secondsSince(t0);
  res.csv = csv(rows);
  return res;
}

}  // namespace attnsvm::cli
