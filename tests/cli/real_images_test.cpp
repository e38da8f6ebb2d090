// experiment real-images at reduced size (SPEC section 6), on Debian's Fashion-MNIST.
#include <gtest/gtest.h>

#include <cmath>

#include "attnsvm/base/errors.hpp"
#include "experiment_test_util.hpp"
#include "experiments.hpp"

using namespace attnsvm::cli;
using nlohmann::json;

using attnsvm::cli::test::small;
using attnsvm::cli::test::stripTiming;

namespace {

// A reduced real-images run of nmd p = 1.1, nmd p = 2 and Adam (2 seeds, 100 + 100 images, the SVM
// analysis on 10) with `iters` iterations; nullopt when Debian's Fashion-MNIST is not installed.
ExperimentOptions reducedRealImages(int iters, int threads) {
  ExperimentOptions o = small(2, iters, threads);
  o.nTrain = 100;
  o.nTest = 100;
  o.nSvm = 10;
  o.ps = {1.1, 2.0};
  o.optimizers = {"nmd", "adam"};
  return o;
}

// The experiment's result, or a skip when the data is not installed (the message names the
// package).
#define RUN_OR_SKIP(result, options)                                                              \
  try {                                                                                           \
    result = realImagesExperiment(options);                                                       \
  } catch (const std::exception& e) {                                                             \
    if (std::string(e.what()).find("apt-get install dataset-fashion-mnist") != std::string::npos) \
      GTEST_SKIP() << e.what();                                                                   \
    throw;                                                                                        \
  }

json withoutTiming(json j) {
  j = stripTiming(j);
  for (json& m : j["perMethod"]) {
    m["final"].erase("trainSeconds");
    m["final"].erase("analysisSeconds");
    for (json& r : m["runs"]) {
      r.erase("trainSeconds");
      r.erase("analysisSeconds");
    }
  }
  return j;
}

}  // namespace

// real-images on Debian's Fashion-MNIST (skipped when the package is not installed): a reduced run
// of every optimizer learns the Sneaker / Ankle boot task and the JSON has what RESULTS.md quotes.
// (Two tests, so that under the sanitizers the long run and the thread comparison run in parallel.)
TEST(Experiments, RealImagesReducedRunLearns) {
  const ExperimentOptions o = reducedRealImages(200, 2);
  ExperimentResult a;
  RUN_OR_SKIP(a, o);
  const json& methods = a.json["perMethod"];
  ASSERT_EQ(methods.size(), 3u);
  EXPECT_EQ(methods[0]["method"], "nmd p=1.1");
  EXPECT_EQ(methods[2]["method"], "adam");
  for (const json& m : methods) {
    EXPECT_EQ(m["runs"].size(), 2u);
    EXPECT_EQ(m["runs"][0]["iteration"], 200);  // the last frame (RealImagesFrame's list)
    // l_1.1 MD from zero is slow and erratic at this size (its weights grow like k^10 on few
    // coordinates; RESULTS.md shows it): only GD and Adam are held to learning here.
    if (m["method"] != "nmd p=1.1") {
      EXPECT_GT(m["final"]["trainAccuracy"]["mean"].get<double>(), 0.8) << m["method"];
      EXPECT_GT(m["final"]["testAccuracy"]["mean"].get<double>(), 0.7) << m["method"];
      EXPECT_LT(m["final"]["trainLoss"]["mean"].get<double>(), 0.5) << m["method"];
    }
    EXPECT_TRUE(std::isfinite(m["final"]["trainLoss"]["mean"].get<double>())) << m["method"];
    EXPECT_EQ(m["series"]["iteration"].front(), 0);
    EXPECT_EQ(m["series"]["iteration"].back(), 200);
    EXPECT_EQ(m["runs"][0]["analysis"]["selection"].size(), 10u);
    EXPECT_EQ(m["histogramMean"].size(), 20u);
  }
  // Different seeds take different images: the two runs differ.
  EXPECT_NE(
      methods[1]["runs"][0]["testAccuracy"].dump() + methods[1]["runs"][0]["trainLoss"].dump(),
      methods[1]["runs"][1]["testAccuracy"].dump() + methods[1]["runs"][1]["trainLoss"].dump());
  EXPECT_NE(a.csv.find("method,iteration,trainLoss/mean,trainLoss/std"), std::string::npos);
  // The settings under RealImagesSettings' field list (the lab's request's names): shared ones in
  // the settings block, a method's where it differs; Adam has no p.
  const json& settings = a.json["settings"];
  EXPECT_EQ(settings["classA"], 7);
  EXPECT_EQ(settings["classB"], 9);
  EXPECT_EQ(settings["histogramBins"], 20);
  EXPECT_FALSE(settings.contains("classes"));
  EXPECT_FALSE(settings.contains("optimizer") || settings.contains("seed"));
  EXPECT_EQ(methods[0]["p"], 1.1);
  EXPECT_FALSE(methods[2].contains("p"));
  EXPECT_EQ(methods[1]["runs"][1]["seed"], 1);
  // Bad options.
  ExperimentOptions bad = o;
  bad.classes = {7};
  EXPECT_THROW(runExperiment("real-images", bad), attnsvm::InputError);
  bad = o;
  bad.nSvm = 500;
  EXPECT_THROW(runExperiment("real-images", bad), attnsvm::InputError);
  bad = o;
  bad.optimizers = {"sgd"};
  EXPECT_THROW(runExperiment("real-images", bad), attnsvm::InputError);
}

// The numbers do not depend on the thread count (every method, both seeds, JSON and CSV).
TEST(Experiments, RealImagesReducedRunIsThreadIndependent) {
  ExperimentResult one, two;
  RUN_OR_SKIP(one, reducedRealImages(40, 1));
  RUN_OR_SKIP(two, reducedRealImages(40, 2));
  EXPECT_EQ(withoutTiming(one.json).dump(), withoutTiming(two.json).dump());
  EXPECT_EQ(one.csv, two.csv);
  EXPECT_EQ(one.json["perMethod"].size(), 3u);
}
