// Subcommands of the attnsvm tool. Each add* function registers a CLI11 subcommand and returns
// the function that runs it after parsing (returning the exit code). Errors are thrown as
// attnsvm::InputError (exit 1, message on stderr) by the runners.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace attnsvm::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command addSolveCommand(CLI::App& app);
Command addAnalyzeCommand(CLI::App& app);
Command addTrainCommand(CLI::App& app);
Command addScenarioCommand(CLI::App& app);
Command addGenerateCommand(CLI::App& app);
Command addExperimentCommand(CLI::App& app);
Command addPathCommand(CLI::App& app);  // cmd_path.cpp

// Runs the tool on argv-style arguments (used by main and by the tests). Returns the exit code:
// 0 success, 1 bad input or options (message on stderr), 2 infeasible (solve), 3 solver stopped
// at its iteration limit.
int runCli(int argc, const char* const* argv);
int runCli(const std::vector<std::string>& args);  // args without the program name

}  // namespace attnsvm::cli
