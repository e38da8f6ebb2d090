// Where a command's problem comes from: a named scenario (`--scenario NAME` with the scenario
// options of addScenarioOptions) or a problem file. `train` and `path` load through loadProblem,
// `scenario` builds its options through scenarioOptionsOf, so the three read the same options the
// same way and give the same messages.
#pragma once
#include <optional>
#include <string>

#include "attnsvm/experiments/scenarios.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

// The ScenarioOptions of a command's option struct (fields seed, n, T, d, C, start, localCase,
// variant: those addScenarioOptions registers, and the seed).
template <class Options>
ScenarioOptions scenarioOptionsOf(const Options& o) {
  ScenarioOptions so;
  so.seed = o.seed;
  so.n = o.n;
  so.T = o.T;
  so.d = o.d;
  so.C = o.C;
  so.start = o.start;
  so.localCase = o.localCase;
  so.variant = o.variant;
  return so;
}

// A loaded problem: the scenario (when one was named) or the file's JSON and what it holds.
struct LoadedProblem {
  std::optional<Scenario> scenario;
  json input;         // the file's top-level object (empty for a scenario)
  ProblemInput file;  // its dataset and attention kind (empty for a scenario)
};

// The scenario `scenarioName` built from the options `so` when it is not empty, else the problem
// file `file` (read with readProblemFile, validated by problemFromJson). No file and no scenario:
// InputError "<command> needs FILE (or --scenario NAME)".
LoadedProblem loadProblem(const std::string& command, const std::string& file,
                          const std::string& scenarioName, const ScenarioOptions& so);

}  // namespace attnsvm::cli
