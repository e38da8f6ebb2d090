// The top-level parser: registers the subcommands, runs the parsed one, maps errors to exit codes.
#include <exception>
#include <iostream>

#include "attnsvm/base/errors.hpp"
#include "commands.hpp"

namespace attnsvm::cli {

int runCli(int argc, const char* const* argv) {
  CLI::App app{"attnsvm: transformers as support vector machines (JSON in, JSON out)"};
  app.set_version_flag("--version", "attnsvm 0.1.0");
  app.require_subcommand(0, 1);
  std::vector<Command> commands;
  commands.push_back(addSolveCommand(app));
  commands.push_back(addAnalyzeCommand(app));
  commands.push_back(addTrainCommand(app));
  commands.push_back(addScenarioCommand(app));
  commands.push_back(addGenerateCommand(app));
  commands.push_back(addExperimentCommand(app));
  commands.push_back(addPathCommand(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help / version / the error
    return code == 0 ? 0 : 1;
  }
  try {
    for (const Command& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const InputError& e) {
    std::cerr << "attnsvm: error: " << e.what() << "\n";
    return 1;
  } catch (const NumericalError& e) {
    std::cerr << "attnsvm: numerical error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "attnsvm: error: " << e.what() << "\n";
    return 1;
  }
  std::cout << app.help();
  return 0;
}

int runCli(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  argv.push_back("attnsvm");
  for (const std::string& a : args) argv.push_back(a.c_str());
  return runCli(static_cast<int>(argv.size()), argv.data());
}

}  // namespace attnsvm::cli
