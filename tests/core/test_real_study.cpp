// The real-images study (attnsvm/experiments/real_study.hpp): validation and test disjoint from
// training by image index, the grid-extension rule and the step choice on validation accuracy
// (driven with hand-made results), the paired differences and their t intervals, and a run advanced
// in chunks against one run in one go (synthetic images: the suite runs natively and in wasm
// without files).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/real_study.hpp"

namespace attnsvm {
namespace {

// `perClass` images of each of the classes 0..9 in an interleaved file order (class k % 10 at
// position k), pixels from Rng(seed)'s integers; class 7 brighter on the left, 9 on the right.
ImageSet studyTestFile(int perClass, std::uint64_t seed) {
  ImageSet s;
  s.rows = s.cols = 28;
  Rng rng(seed);
  for (int k = 0; k < 10 * perClass; ++k) {
    const int label = k % 10;
    s.labels.push_back(label);
    for (int r = 0; r < 28; ++r)
      for (int c = 0; c < 28; ++c) {
        const std::uint64_t u = rng.nextU64();
        const bool lit = (label == 7) == (c < 14);
        s.pixels.push_back(u % 4 == 0 ? 0
                                      : static_cast<std::uint8_t>((lit ? 110 : 30) + (u >> 58)));
      }
  }
  return s;
}

TEST(RealStudy, ValidationAndTestAreDisjointFromTrainingByImageIndex) {
  const ImageSet file = studyTestFile(1200, 1);
  for (std::uint64_t seed : {0, 1, 2, 17}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const SplitIndices s = splitIndices(file, 7, 9, 1000, 500, seed);
    ASSERT_EQ(s.train.size(), 1000u);
    ASSERT_EQ(s.validation.size(), 500u);
    std::set<int> train(s.train.begin(), s.train.end()),
        val(s.validation.begin(), s.validation.end());
    EXPECT_EQ(train.size(), 1000u);  // no image twice
    EXPECT_EQ(val.size(), 500u);
    for (int k : s.validation) EXPECT_EQ(train.count(k), 0u) << "image " << k << " in both";
    int a = 0, b = 0;
    for (int k : s.train) (file.labels[k] == 7 ? a : b) += 1;
    EXPECT_EQ(a, 500);
    EXPECT_EQ(b, 500);
    for (int k : s.validation) EXPECT_TRUE(file.labels[k] == 7 || file.labels[k] == 9);
    EXPECT_TRUE(std::is_sorted(s.train.begin(), s.train.end()));  // file order
    // binarySubset is the training part whatever the validation size
    const ImageSet sub = binarySubset(file, 7, 9, 1000, seed);
    EXPECT_EQ(sub.pixels, imageSubset(file, s.train).pixels);
    EXPECT_EQ(splitIndices(file, 7, 9, 1000, 0, seed).train, s.train);
    // seeded splits draw from the pool: the first kSplitPool images of each class
    if (seed != 0) {
      std::vector<int> ofClass;
      for (int k = 0; k < file.count(); ++k)
        if (file.labels[k] == 7) ofClass.push_back(k);
      const int lastInPool = ofClass[kSplitPool - 1];
      for (int k : s.validation)
        if (file.labels[k] == 7) EXPECT_LE(k, lastInPool);
    }
  }
  // The run's split: the runner's indices, and the test set is another file.
  const ImageSet testFile = studyTestFile(120, 2);
  RealStudyRun run;
  run.nTrain = 40;
  run.nValidation = 20;
  run.nTest = 20;
  run.epochs = 1;
  run.train.seed = 5;
  RealStudyRunner runner({file, testFile}, run);
  const SplitIndices& s = runner.split();
  for (int k : s.validation) EXPECT_EQ(std::count(s.train.begin(), s.train.end(), k), 0);
  // too large a validation set for the pool is an error that says so
  EXPECT_THROW(splitIndices(file, 7, 9, 1000, 1200, 3), InputError);
}

TEST(RealStudy, StudentT) {
  EXPECT_NEAR(studentT975(1), 12.706205, 1e-6);
  EXPECT_NEAR(studentT975(2), 4.302653, 1e-6);
  EXPECT_NEAR(studentT975(9), 2.262157, 1e-6);
  EXPECT_NEAR(studentT975(29), 2.045230, 1e-6);
  EXPECT_NEAR(studentT975(1000), 1.962339, 1e-6);
}

// A result whose best validation accuracy is a given function of the run's step.
RealStudyRunResult fakeResult(const RealStudyRun& r, double validation, double test) {
  RealStudyRunResult x;
  x.id = r.id;
  x.epochs = 3;
  x.bestEpoch = 2;
  x.bestValidationAccuracy = validation;
  x.testAccuracyBest = test;
  x.testAccuracyFinal = test - 0.01;
  return x;
}

TEST(RealStudy, GridExtensionRuleAndChoiceOnValidation) {
  RealStudySettings s;
  s.tasks = "7v9";
  s.design = "main-only";
  s.methods = "md:2,md:3,md:1.1,nmd:2";
  s.gridPoints = 3;
  s.gridRatio = 10.0;
  s.gridCenters = "md:2=1,md:3=1,md:1.1=1,nmd:2=1";
  s.seeds = 4;
  s.tuneSeeds = 2;
  s.maxExtensions = 2;
  // md:2 peaks at lr = 1 (inside the grid 0.1, 1, 10); md:3 increases with lr (the choice sits at
  // the top edge: extended to 100, 1000, then reported at the edge); md:1.1 peaks at 0.01 (below
  // the grid: extended to 0.01, where it is again at the edge, then to 0.001, which is worse);
  // nmd:2 is flat (nothing learns: every step ties), so its grid is not extended: the smallest step
  // is chosen and reported at the edge.
  RealStudy study(s);
  auto validationOf = [](const RealStudyRun& r) {
    const double l = std::log10(r.train.lr);
    if (r.method == "md:2") return 0.8 - 0.01 * l * l;
    if (r.method == "md:3") return 0.5 + 0.01 * l;
    if (r.method == "nmd:2") return 0.5;
    return 0.8 - 0.01 * (l + 2) * (l + 2);  // md:1.1: best at 0.01
  };
  auto testOf = [](const RealStudyRun& r) {
    const double base = r.method == "md:2"    ? 0.80
                        : r.method == "md:3"  ? 0.82
                        : r.method == "nmd:2" ? 0.5
                                              : 0.79;
    return base + 0.002 * static_cast<double>(r.train.seed);  // paired: the same seed effect
  };
  int rounds = 0;
  while (!study.done() && ++rounds < 100) {
    const std::vector<RealStudyRun> runs = study.take(1000);
    ASSERT_FALSE(runs.empty());
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
      study.submit(fakeResult(*it, validationOf(*it), testOf(*it)));
  }
  ASSERT_TRUE(study.done());
  const std::vector<RealStudyRow> rows = study.table();
  ASSERT_EQ(rows.size(), 4u);
  const RealStudyRow& gd = rows[0];
  EXPECT_EQ(gd.method, "md:2");
  EXPECT_EQ(gd.grid.size(), 3u);
  EXPECT_DOUBLE_EQ(gd.lr, 1.0);
  EXPECT_EQ(gd.extendedDown + gd.extendedUp, 0);
  EXPECT_FALSE(gd.atEdge);
  const RealStudyRow& p3 = rows[1];
  EXPECT_EQ(p3.method, "md:3");
  EXPECT_EQ(p3.extendedUp, 2);
  EXPECT_EQ(p3.extendedDown, 0);
  EXPECT_TRUE(p3.atEdge);
  EXPECT_EQ(p3.grid.size(), 5u);
  EXPECT_NEAR(p3.lr, 1000.0, 1e-9);
  const RealStudyRow& p11 = rows[2];
  EXPECT_EQ(p11.extendedDown, 2);
  EXPECT_EQ(p11.extendedUp, 0);
  EXPECT_FALSE(p11.atEdge);
  EXPECT_NEAR(p11.lr, 0.01, 1e-12);
  ASSERT_EQ(p11.gridValidation.size(), 5u);
  EXPECT_NEAR(p11.gridValidation[0], 0.79, 1e-12);  // 0.001
  EXPECT_NEAR(p11.gridValidation[1], 0.8, 1e-12);   // 0.01, the best
  const RealStudyRow& flat = rows[3];
  EXPECT_EQ(flat.extendedDown + flat.extendedUp, 0);
  EXPECT_TRUE(flat.atEdge);
  EXPECT_NEAR(flat.lr, 0.1, 1e-12);
  // The planned runs: (3 + 5 + 5 + 3 points) x 2 tuning seeds, and 2 final seeds per configuration.
  EXPECT_EQ(static_cast<int>(study.runs().size()), (3 + 5 + 5 + 3) * 2 + 4 * 2);
  // Every row has the 4 seeds at its chosen step; the paired difference to GD of a constant
  // per-seed offset has no spread: the interval is the point.
  EXPECT_EQ(p3.testAccuracyBest.n, 4);
  EXPECT_EQ(p3.vsGdBest.n, 4);
  EXPECT_NEAR(p3.vsGdBest.mean, 0.02, 1e-12);
  EXPECT_NEAR(p3.vsGdBest.lo, 0.02, 1e-12);
  EXPECT_NEAR(p3.vsGdBest.hi, 0.02, 1e-12);
  EXPECT_EQ(gd.vsGdBest.n, 0);  // GD itself has no difference
  EXPECT_NEAR(p11.vsGdBest.mean, -0.01, 1e-12);
  // Errors: a result for a run never handed out, twice, and bad settings.
  RealStudyRunResult stray;
  stray.id = 100000;
  EXPECT_THROW(study.submit(stray), InputError);
  RealStudySettings bad = s;
  bad.methods = "md:1";
  EXPECT_THROW(RealStudy{bad}, InputError);
  bad = s;
  bad.tasks = "7v7";
  EXPECT_THROW(RealStudy{bad}, InputError);
  bad = s;
  bad.tuneSeeds = 9;
  EXPECT_THROW(RealStudy{bad}, InputError);
}

TEST(RealStudy, PairedDifferenceHasTheTInterval) {
  RealStudySettings s;
  s.tasks = "7v9";
  s.design = "main-only";
  s.methods = "md:2,adam";
  s.gridPoints = 3;
  s.seeds = 5;
  s.tuneSeeds = 5;
  const double diffs[5] = {0.01, 0.03, -0.02, 0.00, 0.04};
  RealStudy study(s);
  while (!study.done()) {
    for (const RealStudyRun& r : study.take(1000)) {
      const double l = std::log10(r.train.lr) - std::log10(r.method == "adam" ? 0.01 : 1.0);
      const int k = static_cast<int>(r.train.seed - s.seedBase);
      const double test = 0.8 + (r.method == "adam" ? diffs[k] : 0.0);
      study.submit(fakeResult(r, 0.8 - l * l, test));
    }
  }
  const std::vector<RealStudyRow> rows = study.table();
  const RealStudyRow& adam = rows[1];
  ASSERT_EQ(adam.method, "adam");
  EXPECT_EQ(adam.extendedDown + adam.extendedUp, 0);
  double mean = 0, sq = 0;
  for (double d : diffs) mean += d / 5;
  for (double d : diffs) sq += (d - mean) * (d - mean);
  const double half = 2.776445105 * std::sqrt(sq / 4) / std::sqrt(5.0);
  EXPECT_NEAR(adam.vsGdBest.mean, mean, 1e-12);
  EXPECT_NEAR(adam.vsGdBest.lo, mean - half, 1e-8);
  EXPECT_NEAR(adam.vsGdBest.hi, mean + half, 1e-8);
}

TEST(RealStudy, RunInChunksEqualsRunInOneGo) {
  const RealStudyImages images{studyTestFile(60, 3), studyTestFile(30, 4)};
  RealStudyRun run;
  run.nTrain = 40;
  run.nValidation = 20;
  run.nTest = 20;
  run.epochs = 6;
  run.train.optimizer = Optimizer::NMD;
  run.train.p = 1.1;
  run.train.lr = 0.05;
  run.train.batch = 10;
  run.train.initScale = 0.01;
  run.train.seed = 3;
  const RealStudyRunResult one = runRealStudyRun(images, run);
  RealStudyRunner chunks(images, run);
  int calls = 0;
  while (!chunks.advance(1)) ++calls;
  EXPECT_EQ(calls, 5);
  const RealStudyRunResult two = chunks.result();
  EXPECT_EQ(one.epochs, 6);
  EXPECT_EQ(two.epochs, 6);
  EXPECT_EQ(one.testAccuracyBest, two.testAccuracyBest);
  EXPECT_EQ(one.testLossFinal, two.testLossFinal);
  EXPECT_EQ(one.bestEpoch, two.bestEpoch);
  EXPECT_EQ(one.bestValidationAccuracy, two.bestValidationAccuracy);
  EXPECT_GE(one.bestEpoch, 1);
  EXPECT_GE(one.testAccuracyBest, 0.0);
  EXPECT_LE(one.testAccuracyBest, 1.0);
  EXPECT_GE(one.sparsityFinal, 0.0);
  EXPECT_GT(one.maxSoftmaxFinal, 1.0 / 49 - 1e-12);
  // a run that reaches the stop accuracy ends early
  run.stopAccuracy = 0.01;
  const RealStudyRunResult early = runRealStudyRun(images, run);
  EXPECT_EQ(early.epochs, 1);
  EXPECT_TRUE(early.reachedStop);
}

// The study at the authors' stopping rule: every run ends at the first epoch whose training
// accuracy reaches stopAccuracy (rerun one epoch shorter, it has not reached it) or at its budget
// without reaching it; the rows count the runs that stopped; the full-batch ablation gets the
// minibatch setting's number of updates (epochs x ceil(nTrain / batch)), and nmd is among the
// ablations by default.
TEST(RealStudy, TheStudyStopsAtTheAccuracyRule) {
  EXPECT_NE(RealStudySettings{}.ablationMethods.find("nmd:2"), std::string::npos);
  const RealStudyImages images{studyTestFile(60, 3), studyTestFile(20, 4)};
  RealStudySettings s;
  s.tasks = "7v9";
  s.nTrain = 40;
  s.nValidation = 20;
  s.nTest = 20;
  s.batch = 10;
  s.epochs = 6;
  s.stopAccuracy = 0.9;
  s.design = "main";
  s.methods = "nmd:2,md:2";
  s.ablationMethods = "nmd:2";
  s.gridPoints = 2;
  s.maxExtensions = 0;
  s.seeds = 3;
  s.tuneSeeds = 2;
  RealStudy study(s);
  int stopped = 0, full = 0;
  while (!study.done()) {
    const std::vector<RealStudyRun> runs = study.take(100);
    ASSERT_FALSE(runs.empty());
    for (const RealStudyRun& run : runs) {
      const int budget = run.train.batch > 0 ? s.epochs : s.epochs * 4;  // 40 images, batches of 10
      EXPECT_EQ(run.epochs, budget) << run.setting;
      EXPECT_EQ(run.stopAccuracy, 0.9);
      full += run.setting == "full-random";
      const RealStudyRunResult r = runRealStudyRun(images, run);
      if (r.reachedStop) {
        ++stopped;
        EXPECT_GE(r.epochTrainAccuracy, 0.9);
        EXPECT_LE(r.epochs, budget);
        if (r.epochs > 1) {  // one epoch shorter: not yet at the rule
          RealStudyRun shorter = run;
          shorter.epochs = r.epochs - 1;
          const RealStudyRunResult e = runRealStudyRun(images, shorter);
          EXPECT_FALSE(e.reachedStop);
          EXPECT_LT(e.maxEpochTrainAccuracy, 0.9);
        }
      } else if (r.stopReason.empty()) {
        EXPECT_EQ(r.epochs, budget);
        EXPECT_LT(r.maxEpochTrainAccuracy, 0.9);
      }
      study.submit(r);
    }
  }
  EXPECT_GT(stopped, 0);  // the rule fired (else this test would show nothing)
  EXPECT_GT(full, 0);
  int rowsStopped = 0;
  for (const RealStudyRow& row : study.table()) rowsStopped += row.reachedStop;
  EXPECT_GT(rowsStopped, 0);
}

}  // namespace
}  // namespace attnsvm
