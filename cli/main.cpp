// attnsvm command-line tool: JSON in, JSON out. Subcommands are registered in their own files
// (cmd_*.cpp); runCli lives in cli.cpp so the tests can call it without a process.
// runCli is declared here rather than through commands.hpp: that header brings CLI11, and this file
// is a translation unit of its own (the executable's), compiled apart from the library's batches
// (in the ASan unity build it took as long as a batch: 93 s of wall at load 20, for one line).
namespace attnsvm::cli {
int runCli(int argc, const char* const* argv);  // commands.hpp
}

int main(int argc, char** argv) { return attnsvm::cli::runCli(argc, argv); }
