// loadProblem (problem_source.hpp): a named scenario or a problem file.
#include "problem_source.hpp"

#include "attnsvm/base/errors.hpp"

namespace attnsvm::cli {

LoadedProblem loadProblem(const std::string& command, const std::string& file,
                          const std::string& scenarioName, const ScenarioOptions& so) {
  LoadedProblem lp;
  if (!scenarioName.empty()) {
    lp.scenario = makeScenario(scenarioName, so);
    return lp;
  }
  if (file.empty()) throw InputError(command + " needs FILE (or --scenario NAME)");
  lp.input = readProblemFile(file);
  lp.file = problemFromJson(lp.input);
  return lp;
}

}  // namespace attnsvm::cli
