// What `experiment real-ladder` and `experiment real-phase` share (the phase runs its cells as one
// ladder per d): running a plan of ladder runs on threads with their CPU times, the runs' JSON, the
// CSV of the ladder's rows, and the settings the two take from the command line.
#pragma once
#include <string>
#include <vector>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "common.hpp"

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

}  // namespace attnsvm::cli
