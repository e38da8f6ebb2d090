// seq2seq-convergence and hierarchy (SPEC 5.3): sequence-to-sequence and causal NGD runs reach
// the SAtt-SVM of their selection on a reduced seed set, and the hierarchy's columns are what its
// header says, certified where it says so.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment_hierarchy.hpp"
#include "attnsvm/experiments/experiment_seq2seq.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/train/two_layer_train.hpp"

namespace attnsvm {
namespace {

// The bound: over 100 seeds at these settings the smallest corrOwn of a run is 0.952 (seq2seq W),
// the others >= 0.98, the means >= 0.994 (docs/RESULTS.md); on seeds 0..7 every run is >= 0.98.
constexpr double kRunCorr = 0.98, kMeanCorr = 0.99;

TEST(Seq2seqConvergence, RunsReachTheirSAttSvmOnEightSeeds) {
  const int seeds = 8;
  // One run per seed: a seed's run trains all four scopes (the CPU of this test under ASan was
  // four times this, each seed run once per scope: docs/BENCHMARKS.md, issue 42 asancpu).
  std::vector<SeedResult> runs;
  for (int s = 0; s < seeds; ++s)
    runs.push_back(runExperimentSeed("seq2seq-convergence", s, SeedOptions{}));
  for (const std::string& scope : seq2seqScopes()) {
    SCOPED_TRACE(scope);
    double sum = 0.0;
    for (int s = 0; s < seeds; ++s) {
      const SeedResult& r = runs[s];
      const auto v = [&](const char* f) { return r.value(columnName({scope, f})); };
      ASSERT_EQ(v("feasible"), 1.0) << "seed " << s;
      EXPECT_LE(v("gapFro"), 1e-6);
      EXPECT_GE(v("corrOwn"), kRunCorr) << "seed " << s;
      // The run's own norm's SVM is the closer one (W: Frobenius; (K, Q): nuclear).
      const bool isW = scope.find("/W") != std::string::npos;
      EXPECT_GT(isW ? v("corrFro") : v("corrNuclear"), isW ? v("corrNuclear") : v("corrFro"));
      // The direction converges: the final corr is above the corr a tenth of the way in.
      const std::vector<double>& series =
          r.seriesOf(columnName({scope, isW ? "corrFro" : "corrNuclear"}));
      EXPECT_GT(series.back(), series[series.size() / 10]);
      EXPECT_GT(v("softmaxSelected"), 0.99);
      EXPECT_TRUE(r.label(columnName({scope, "verdict"})) == "globally_optimal" ||
                  r.label(columnName({scope, "verdict"})) == "locally_optimal" ||
                  r.label(columnName({scope, "verdict"})) == "neither");
      sum += v("corrOwn");
    }
    EXPECT_GE(sum / seeds, kMeanCorr);
  }
}

TEST(Seq2seqConvergence, SelectionsArePerUnitAndCausalRespectsTheMask) {
  SeedOptions o;
  o.iters = 300;
  const SeedResult r = runExperimentSeed("seq2seq-convergence", 3, o);
  ASSERT_EQ(r.selectionNames, seq2seqScopes());
  for (std::size_t k = 0; k < r.selections.size(); ++k) {
    ASSERT_EQ(static_cast<int>(r.selections[k].size()), r.n * r.T);
    if (r.selectionNames[k].rfind("causal", 0) == 0)
      for (int u = 0; u < r.n * r.T; ++u) EXPECT_LE(r.selections[k][u], u % r.T);
  }
  // Shares are shares; a one-token causal unit is not counted.
  for (const std::string& scope : seq2seqScopes()) {
    const double share = r.value(columnName({scope, "shareOptimal"}));
    EXPECT_GE(share, 0.0);
    EXPECT_LE(share, 1.0);
  }
  SeedOptions bad;
  bad.T = 1;
  EXPECT_THROW(runExperimentSeed("seq2seq-convergence", 0, bad), InputError);
}

TEST(Hierarchy, SeedColumnsAndCertificates) {
  SeedOptions o;
  o.iters = 400;
  const SeedResult r = runExperimentSeed("hierarchy", 2, o);
  EXPECT_EQ(r.iteration.front(), 0);
  EXPECT_EQ(r.iteration.back(), 400);
  EXPECT_EQ(r.iteration.size(), 41u);  // every 400 / 40 = 10 steps
  for (const char* s : {"loss", "softmax1", "softmax2", "corrW2", "corrW1All", "corrW1Attended"})
    EXPECT_EQ(r.seriesOf(s).size(), r.iteration.size()) << s;
  // The loss goes down and both layers sharpen.
  EXPECT_LT(r.seriesOf("loss").back(), r.seriesOf("loss").front());
  EXPECT_GT(r.value("softmax1"), r.seriesOf("softmax1").front());
  EXPECT_GT(r.value("softmax2"), r.seriesOf("softmax2").front());
  // A corr is reported only with a certified SVM, and then is a correlation.
  EXPECT_EQ(std::isfinite(r.value("corrW2")), r.value("certifiedW2") == 1.0);
  EXPECT_EQ(std::isfinite(r.value("corrW1Attended")), r.value("certifiedW1Attended") == 1.0);
  for (const char* c : {"corrW2", "corrW1All", "corrW1Attended"})
    if (std::isfinite(r.value(c))) EXPECT_LE(std::abs(r.value(c)), 1.0 + 1e-12);
  ASSERT_EQ(r.selections.size(), 2u);
  EXPECT_EQ(static_cast<int>(r.selections[0].size()), r.n * r.T);
  EXPECT_EQ(static_cast<int>(r.selections[1].size()), r.n);
  // Deterministic per seed, different across seeds.
  const SeedResult again = runExperimentSeed("hierarchy", 2, o);
  EXPECT_EQ(r.series, again.series);
  EXPECT_NE(r.series, runExperimentSeed("hierarchy", 3, o).series);
}

// The layer-2 SVM the experiment builds is the SVM of the selected set on the current H: at the
// end of a run whose corr is ~1 (seed 7: 0.999), W2 separates the selected row from every row that
// copies another token (an independent check of the bookkeeping: the margins are recomputed from
// the data and a replayed run, not taken from the solver).
TEST(Hierarchy, Layer2SvmIsTheAttSvmOfTheCurrentOutputs) {
  const Dataset data = sphereDataset(4, 5, 10, 7);
  HierarchyPlan plan;
  plan.iters = 2000;
  plan.every = 2000;
  const SeedResult r = hierarchyRun(data, hierarchyInit(data, 7), plan);
  ASSERT_GT(r.value("corrW2"), 0.99);
  // Recompute the final state and check W2's margins on H by hand.
  const TwoLayerModel model(data);
  TwoLayerParams p = hierarchyInit(data, 7);
  TwoLayerGradient g;
  for (int k = 0; k < 2000; ++k)
    ASSERT_EQ(twoLayerNgdStep(model, TwoLayerTrainSettings{}, p, g), "");
  const TwoLayerForward fw = model.forward(p);
  EXPECT_EQ(fw.selected2, r.selections[1]);
  EXPECT_EQ(fw.selected1, r.selections[0]);
  double minMargin = INFINITY;
  for (int i = 0; i < data.n; ++i) {
    const auto H = fw.H.middleRows(i * data.T, data.T);
    const Vec q = p.W2 * H.row(0).transpose();
    const int b = fw.selected2[i];
    const int copied = fw.selected1[i * data.T + b];
    for (int t = 0; t < data.T; ++t)
      if (fw.selected1[i * data.T + t] != copied)
        minMargin = std::min(minMargin, (H.row(b) - H.row(t)).dot(q));
  }
  EXPECT_GT(minMargin, 0.0);
}

}  // namespace
}  // namespace attnsvm
