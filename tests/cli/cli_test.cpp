// The CLI contract through runCli (no process): exit codes, JSON keys, messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "json_io.hpp"

using namespace attnsvm::cli;

namespace {

struct CliRun {
  int code;
  std::string out, err;
};

CliRun run(const std::vector<std::string>& args) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = runCli(args);
  CliRun r{code, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
  return r;
}

// The test data folder: $ATTNSVM_CLI_TEST_DATA (ctest sets it, tests/cli/CMakeLists.txt), else
// tests/cli/data under the working directory (the binary run from the repository's root).
std::string data(const std::string& name) {
  const char* dir = std::getenv("ATTNSVM_CLI_TEST_DATA");
  return std::string(dir && *dir ? dir : "tests/cli/data") + "/" + name;
}

}  // namespace

TEST(Cli, SolvePrintsTheContractKeys) {
  for (const char* norm : {"fro", "nuclear", "lp"}) {
    const CliRun r = run({"solve", "--norm", norm, "--p", "1.5", data("small.json")});
    ASSERT_EQ(r.code, 0) << norm << ": " << r.err;
    const json j = json::parse(r.out);
    for (const char* key : {"status", "W", "objective", "lowerBound", "gap", "maxViolation",
                            "support", "lambda", "iterations", "seconds"})
      EXPECT_TRUE(j.contains(key)) << norm << " lacks " << key;
    EXPECT_EQ(j["status"], "optimal");
    EXPECT_EQ(j["W"].size(), 2u);
    EXPECT_LE(j["maxViolation"].get<double>(), 1e-8);
    EXPECT_LE(j["gap"].get<double>(), 1e-5);
    EXPECT_FALSE(j["support"].empty());
    EXPECT_EQ(j["support"][0].size(), 2u);  // [i, t]
  }
}

TEST(Cli, SolveInfeasibleExitsTwoWithMessage) {
  const CliRun r = run({"solve", data("infeasible.json")});
  EXPECT_EQ(r.code, 2);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["status"], "infeasible");
  EXPECT_FALSE(j["message"].get<std::string>().empty());
}

TEST(Cli, BadInputExitsOneNamingTheField) {
  CliRun r = run({"solve", data("nan.json")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("Y[1] is NaN"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = run({"solve", data("ragged.json")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("X[1] has 2 tokens, expected 3"), std::string::npos) << r.err;
  r = run({"solve", data("alpha_range.json")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("alpha[1] = 9 is out of range 0..1"), std::string::npos) << r.err;
  r = run({"solve", "--norm", "lp", "--p", "0.5", data("small.json")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("p must be > 1"), std::string::npos) << r.err;
  r = run({"solve", "--norm", "max", data("small.json")});
  EXPECT_EQ(r.code, 1);
  r = run({"train", "--optimizer", "md", "--p", "1", data("small.json")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("p must be > 1"), std::string::npos) << r.err;
}

TEST(Cli, AnalyzeReportsVerdictAndSupport) {
  const CliRun r = run({"analyze", "--enumerate", data("small.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["optimal"], json({0, 1}));
  EXPECT_TRUE(j["feasible"].get<bool>());
  EXPECT_TRUE(j.contains("verdict"));
  EXPECT_EQ(j["supportTokens"].size(), 2u);
  EXPECT_FALSE(j["locallyOptimal"].empty());
}

TEST(Cli, TrainReportsSelectionVerdictAndCorrelations) {
  const CliRun r = run({"train", "--param", "w", "--optimizer", "ngd", "--lr", "0.1", "--iters",
                        "300", data("small.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  for (const char* key :
       {"selection", "softmaxSelected", "verdict", "corr", "W", "loss", "seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["selection"].size(), 2u);
  EXPECT_TRUE(j["corr"].contains("fro"));
  EXPECT_TRUE(j["corr"].contains("nuclear"));
  const CliRun md = run({"train", "--param", "w", "--optimizer", "md", "--p", "3", "--lr", "0.5",
                         "--iters", "100", data("small.json")});
  ASSERT_EQ(md.code, 0) << md.err;
  EXPECT_TRUE(json::parse(md.out)["corr"].contains("lp"));
  const CliRun kq =
      run({"train", "--param", "kq", "--iters", "100", "--seed", "4", data("self.json")});
  ASSERT_EQ(kq.code, 0) << kq.err;
}

// The --trace CSV's columns are the train JSON's names (docs/NAMES.md: camelCase, composed with
// '/'), one value per column on every row, the last row at the last iteration.
TEST(Cli, TraceCsvHasTheJsonNamesAndOneRowPerSnapshot) {
  const std::string path = testing::TempDir() + "attnsvm-trace.csv";
  const CliRun r =
      run({"train", "--param", "w", "--optimizer", "md", "--p", "3", "--lr", "0.5", "--iters",
           "100", "--trace", path, "--trace-every", "10", data("small.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 12u);  // header, iterations 0, 10, ..., 100
  EXPECT_EQ(lines[0],
            "iteration,loss,normFro,normNuc,softmaxSelected/min,softmaxSelected/mean,corr/fro,"
            "corr/nuclear,corr/lp,divergence/fro,divergence/nuclear,divergence/lp");
  const auto columns = [](const std::string& line) {
    return std::count(line.begin(), line.end(), ',') + 1;
  };
  for (const std::string& line : lines) EXPECT_EQ(columns(line), columns(lines[0])) << line;
  EXPECT_EQ(lines.back().substr(0, 4), "100,");
  std::remove(path.c_str());
}

TEST(Cli, ScenarioOutputIsValidSolveInput) {
  const CliRun s = run({"scenario", "local-convergence", "--seed", "7"});
  ASSERT_EQ(s.code, 0) << s.err;
  const json j = json::parse(s.out);
  const ProblemInput in = problemFromJson(j);
  EXPECT_EQ(in.data.n, 6);
  EXPECT_EQ(in.data.T, 8);
  EXPECT_EQ(in.data.d, 10);
  const CliRun unknown = run({"scenario", "nope"});
  EXPECT_EQ(unknown.code, 1);
}

TEST(Cli, UnknownKeysInAFileExitOneListingTheFields) {
  const std::string path = testing::TempDir() + "attnsvm_unknown_key.json";
  {
    json j = json::parse(R"({"X": [[[1,0],[0,1],[-1,-0.5]], [[0.5,0.5],[-1,0.2],[0.3,-1]]],
      "Z": [[1,0],[0,1]], "Y": [1,-1], "v": [1,0.5]})");
    j["alpah"] = {0, 1};
    std::ofstream(path) << j.dump();
  }
  for (const char* command : {"solve", "analyze", "train"}) {
    const CliRun r = run({command, path});
    EXPECT_EQ(r.code, 1) << command;
    EXPECT_NE(
        r.err.find("alpah is not a field; expected one of X, Z, query, Y, v, alpha, attention, "
                   "V, W, scenario, title, iterations, model, train, init"),
        std::string::npos)
        << command << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << command;
  }
}

TEST(Cli, ScenarioFileIsReadByEveryCommand) {
  // multitoken: a relu head (V at the top of the file and in the model)
  for (const char* name : {"multitoken", "local-convergence", "paths2d"}) {
    const CliRun s = run({"scenario", name});
    ASSERT_EQ(s.code, 0) << s.err;
    const std::string path = testing::TempDir() + "attnsvm_scenario_" + name + ".json";
    std::ofstream(path) << s.out;
    const json j = json::parse(s.out);
    EXPECT_EQ(j["train"].size(), 15u) << name;
    EXPECT_EQ(j["model"].size(), j["model"].contains("V") + j["model"].contains("Wk") + 4u) << name;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"solve", path},
          {"analyze", path},
          {"train", "--iters", "5", "--head", j["model"]["head"].get<std::string>(), path}}) {
      const CliRun r = run(args);
      EXPECT_NE(r.code, 1) << name << " " << args[0] << ": " << r.err;  // read (2: infeasible)
    }
  }
}

TEST(Cli, GenerateIsDeterministic) {
  const CliRun a = run({"generate", "sphere", "--n", "3", "--T", "4", "--d", "5", "--seed", "11"});
  const CliRun b = run({"generate", "sphere", "--n", "3", "--T", "4", "--d", "5", "--seed", "11"});
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  const CliRun c = run({"generate", "sphere", "--n", "0"});
  EXPECT_EQ(c.code, 1);
}

TEST(Cli, ExperimentBadOptionsExitOne) {
  EXPECT_EQ(run({"experiment", "nope"}).code, 1);
  EXPECT_EQ(run({"experiment", "local-convergence", "--seeds", "0"}).code, 1);
  EXPECT_EQ(run({"experiment", "local-convergence", "--seeds", "100000000"}).code, 1);
  EXPECT_EQ(run({"experiment", "local-convergence", "--iters", "-5"}).code, 1);
  EXPECT_EQ(run({"experiment", "rank", "--dims", "3,x"}).code, 1);
  EXPECT_EQ(run({"experiment", "mirror-descent", "--ps", "1"}).code, 1);
  const CliRun list = run({"experiment", "--list"});
  EXPECT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("basin-map"), std::string::npos);
}
