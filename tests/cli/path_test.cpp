// `attnsvm path` and `attnsvm experiment reg-path` through runCli / the experiment function: the
// output keys, a certificate per radius (radii up to 30, where every ball meets the bound; beyond,
// docs/RESULTS.md gives the certified fractions), and bad options naming themselves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "commands.hpp"
#include "experiment_test_util.hpp"
#include "experiments.hpp"

using namespace attnsvm::cli;
using nlohmann::json;

namespace {

struct PathRun {
  int code;
  std::string out, err;
};

PathRun runPath(const std::vector<std::string>& args) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = runCli(args);
  return {code, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
}

}  // namespace

TEST(PathCli, EveryRadiusHasItsCertificate) {
  for (const std::string norm : {"fro", "nuclear", "lp"}) {
    const PathRun r = runPath({"path", "--scenario", "local-convergence", "--seed", "2", "--norm",
                               norm, "--p", "3", "--r0", "1", "--r1", "30", "--count", "4"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_TRUE(j["allCertified"].get<bool>()) << norm;
    ASSERT_EQ(j["points"].size(), 4u);
    double previous = 0;
    for (const json& p : j["points"]) {
      EXPECT_LE(p["relativeGap"].get<double>(), j["gapTolerance"].get<double>());
      EXPECT_TRUE(p["certified"].get<bool>());
      EXPECT_EQ(p["W"].size(), 10u);
      EXPECT_EQ(p["selection"].size(), 6u);
      EXPECT_LE(p["norm"].get<double>(), p["radius"].get<double>() * (1 + 1e-9));
      EXPECT_GT(p["radius"].get<double>(), previous);
      previous = p["radius"].get<double>();
      for (const char* k : {"loss", "corrOwn", "corrGlobal", "gap", "logGradDual", "iterations",
                            "lossResolved", "globallyOptimal", "rank"})
        EXPECT_TRUE(p.contains(k)) << k;
    }
  }
}

TEST(PathCli, ExplicitRadiiAndBadOptions) {
  const PathRun ok = runPath({"path", "--scenario", "paths2d", "--radii", "1,10", "--no-w"});
  ASSERT_EQ(ok.code, 0) << ok.err;
  const json j = json::parse(ok.out);
  EXPECT_EQ(j["points"].size(), 2u);
  EXPECT_FALSE(j["points"][0].contains("W"));
  const PathRun down = runPath({"path", "--scenario", "paths2d", "--radii", "10,1"});
  EXPECT_EQ(down.code, 1);
  EXPECT_NE(down.err.find("radii[1]"), std::string::npos) << down.err;
  const PathRun both = runPath({"path", "--scenario", "paths2d", "--radii", "1", "--r1", "5"});
  EXPECT_EQ(both.code, 1);
  const PathRun p = runPath({"path", "--scenario", "paths2d", "--norm", "lp", "--p", "1"});
  EXPECT_EQ(p.code, 1);
  EXPECT_NE(p.err.find("--p"), std::string::npos) << p.err;
  const PathRun none = runPath({"path"});
  EXPECT_EQ(none.code, 1);
}

// The experiment at reduced size: its keys, certificates everywhere, and the theorem's order at
// the largest radius (each ball's own SVM closest, Frobenius against nuclear).
TEST(PathCli, RegPathExperimentAtReducedSize) {
  const ExperimentResult r = regPathExperiment(test::small(3, -1));
  const json& lc = r.json["data"]["localConvergence"];
  EXPECT_EQ(lc["seeds"].get<int>(), 3);
  EXPECT_EQ(lc["radius"].size(), 17u);
  for (const char* ball : {"fro", "nuclear", "p1.75", "p3"}) {
    const json& s = lc["summary"][ball];
    // Certified up to R ~ 30 on every ball, on most seeds beyond (RESULTS: 58-74 % overall).
    EXPECT_GE(s["fractionCertified"].get<double>(), 7.0 / 17.0) << ball;  // R <= 31.6 at least
    EXPECT_LT(s["maxRelativeGap"].get<double>(), 1.0) << ball;
    EXPECT_TRUE(s["atLargestRadius"]["oneMinusCorr"].contains(ball));
  }
  const json& fro = lc["summary"]["fro"]["atLargestRadius"]["oneMinusCorr"];
  const json& nuc = lc["summary"]["nuclear"]["atLargestRadius"]["oneMinusCorr"];
  EXPECT_LT(fro["fro"]["mean"].get<double>(), fro["nuclear"]["mean"].get<double>());
  EXPECT_LT(nuc["nuclear"]["mean"].get<double>(), nuc["fro"]["mean"].get<double>());
  EXPECT_TRUE(r.json["data"].contains("paths2d"));
  EXPECT_TRUE(r.json["data"].contains("paths2dT5"));
  EXPECT_NE(r.csv.find("fro/oneMinusCorr/fro/mean"), std::string::npos);
  const ExperimentResult one = regPathExperiment(test::small(3, -1, 1));
  EXPECT_EQ(test::stripTiming(one.json).dump(), test::stripTiming(r.json).dump());
}
