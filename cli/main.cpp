// attnsvm command-line tool: JSON in, JSON out. Subcommands are registered in their own files
// (cmd_*.cpp); runCli lives in cli.cpp so the tests can call it without a process.
#include "commands.hpp"

int main(int argc, char** argv) { return attnsvm::cli::runCli(argc, argv); }
