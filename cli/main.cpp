// attnsvm command-line tool: JSON in, JSON out. Subcommands are registered in their own files.
#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"attnsvm: transformers as support vector machines"};
  app.set_version_flag("--version", "attnsvm 0.1.0");
  app.require_subcommand(0, 1);
  CLI11_PARSE(app, argc, argv);
  if (argc == 1) std::cout << app.help();
  return 0;
}
