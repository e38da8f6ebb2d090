// The regime ladder (attnsvm/experiments/real_ladder.hpp) on synthetic images (no files: natively
// and in wasm): every SVM the ladder calls feasible is certified, checked here independently of the
// solver (the constraints <A_it, W> >= 1 from the data and the selection, and the duality gap from
// the multipliers: sum(lambda) / ||sum lambda_it A_it||_F is a lower bound on the optimum); the
// corr series against the SVM; the failing conditions; the plan and its table.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "attnsvm/experiments/real_phase.hpp"

namespace attnsvm {
namespace {

ImageSet ladderTestFile(int perClass, std::uint64_t seed) {
  ImageSet s;
  s.rows = s.cols = 28;
  Rng rng(seed);
  for (int k = 0; k < 2 * perClass; ++k) {
    const int label = k % 2 ? 9 : 7;
    s.labels.push_back(label);
    for (int r = 0; r < 28; ++r)
      for (int c = 0; c < 28; ++c) {
        const std::uint64_t u = rng.nextU64();
        const bool lit = (label == 7) == (r < 14);
        s.pixels.push_back(u % 3 == 0 ? 0
                                      : static_cast<std::uint8_t>((lit ? 100 : 20) + (u >> 57)));
      }
  }
  return s;
}

// The Frobenius Att-SVM certificate of W for `selection`, from the data alone: the smallest
// constraint value <A_it, W> = (x_alpha - x_t)^T W z_i over i and t != alpha_i, and the gap to the
// dual bound of the multipliers (lambda indexed as the solver's constraints: i-major, t != alpha).
struct Check {
  double minConstraint = 0, gap = 0;
};
Check checkFrobenius(const Dataset& data, const std::vector<int>& selection,
                     const MarginSolution& s) {
  Check c;
  c.minConstraint = INFINITY;
  Mat G = Mat::Zero(data.d, data.d);
  double lambdaSum = 0;
  int j = 0;
  for (int i = 0; i < data.n; ++i) {
    const Vec xa = data.token(i, selection[i]).transpose();
    const Vec z = data.Z.row(i).transpose();
    for (int t = 0; t < data.T; ++t) {
      if (t == selection[i]) continue;
      const Vec dx = xa - data.token(i, t).transpose();
      c.minConstraint = std::min(c.minConstraint, dx.dot(s.W * z));
      if (j < s.lambda.size()) {
        G += s.lambda[j] * dx * z.transpose();
        lambdaSum += s.lambda[j];
      }
      ++j;
    }
  }
  const double bound = lambdaSum / G.norm();
  c.gap = (s.W.norm() - bound) / s.W.norm();
  return c;
}

TEST(RealLadder, EveryFeasibleSvmIsCertified) {
  const ImageSet file = ladderTestFile(40, 7);
  int feasible = 0;
  for (const char* head : {"frozen", "joint"})
    for (const char* method : {"nmd:2", "nmd:1.5"}) {
      RealLadderRun run;
      run.n = 8;
      run.head = head;
      run.method = method;
      run.optimizer = Optimizer::NMD;
      run.p = std::string(method) == "nmd:2" ? 2.0 : 1.5;
      run.steps = 3000;
      run.headSteps = 300;
      run.seed = 2;
      RealLadderRunner r(file, run);
      r.advance(1000);
      EXPECT_FALSE(r.trained());
      r.advance(5000);
      ASSERT_TRUE(r.trained());
      r.analyze();
      const RealLadderRunResult res = r.result();
      SCOPED_TRACE(std::string(head) + " " + method + ": " + res.verdict + " " + res.failing);
      EXPECT_EQ(res.steps, 3000);
      ASSERT_EQ(res.snapshotSteps.size(), res.corrFro.size());
      EXPECT_EQ(res.snapshotSteps.back(), 3000);
      EXPECT_EQ(res.normW.size(), res.snapshotSteps.size());
      if (res.feasible) {
        ++feasible;
        const Check c = checkFrobenius(r.data(), r.selection(), r.svmFro());
        EXPECT_GE(c.minConstraint, 1.0 - run.certifyTol);
        EXPECT_LE(c.gap, run.certifyTol);
        EXPECT_GE(c.gap, -1e-9);
        EXPECT_NEAR(res.corrFro.back(),
                    r.W().cwiseProduct(r.svmFro().W).sum() / (r.W().norm() * r.svmFro().W.norm()),
                    1e-12);
        if (run.p != 2.0 && res.feasibleLp) {
          // the l_p SVM is feasible too: its constraints from the data
          Check lp = checkFrobenius(r.data(), r.selection(), r.svmLp());
          EXPECT_GE(lp.minConstraint, 1.0 - run.certifyTol);
        }
      } else {
        EXPECT_TRUE(std::isnan(res.corr));
        EXPECT_FALSE(res.failing.empty());
      }
      if (!res.limitReached) EXPECT_FALSE(res.failing.empty());
      // a run at chance is degenerate: labelled so, never the limit
      EXPECT_EQ(res.degenerate, !(res.trainAccuracy > 0.5));
      if (res.degenerate) {
        EXPECT_FALSE(res.limitReached);
        EXPECT_NE(res.failing.find("degenerate"), std::string::npos) << res.failing;
      }
      EXPECT_EQ(res.endedBy, res.stopReason.empty() ? "budget" : res.stopReason);
      if (res.limitReached) EXPECT_GE(res.corr, run.corrTarget);
      EXPECT_GE(res.minSoftmax, 1.0 / 49 - 1e-12);
      EXPECT_LE(res.minSoftmax, res.meanSoftmax + 1e-15);
    }
  EXPECT_GT(feasible, 0);  // the selection W reaches is W's own argmax: a feasible SVM
}

TEST(RealLadder, PlanAndTable) {
  RealLadderSettings s;
  s.sizes = {8, 4};
  s.seeds = 2;
  s.heads = "frozen";
  s.methods = "nmd:2";
  s.maxSteps = 400;
  s.minSteps = 100;
  s.work = 2000;  // n = 4: 400 steps (capped), n = 8: 250
  s.headSteps = 50;
  RealLadder ladder(s);
  EXPECT_EQ(ladder.plannedRuns(), 4);
  const std::vector<RealLadderRun> runs = ladder.take(10);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].n, 8);  // the largest first
  EXPECT_EQ(runs[0].steps, 250);
  EXPECT_EQ(runs[3].n, 4);
  EXPECT_EQ(runs[3].steps, 400);
  const ImageSet file = ladderTestFile(20, 3);
  for (const RealLadderRun& r : runs) ladder.submit(runRealLadderRun(file, r));
  ASSERT_TRUE(ladder.done());
  const std::vector<RealLadderRow> rows = ladder.table();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].n, 4);
  EXPECT_EQ(rows[1].n, 8);
  for (const RealLadderRow& row : rows) {
    EXPECT_EQ(row.seeds, 2);
    EXPECT_EQ(row.feasible + row.infeasible + row.undecided, 2);
    EXPECT_EQ(row.corrAlongK.size(), row.snapshotSteps.size());
    EXPECT_EQ(row.globallyOptimal + row.locallyOptimal + row.neither + row.verdictInfeasible +
                  row.verdictUndecided,
              2);
  }
  const std::vector<RealLadderSummary> summary = ladder.summary();
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].head, "frozen");
  RealLadderRunResult again;
  again.id = 0;
  EXPECT_THROW(ladder.submit(again), InputError);  // twice
  RealLadderSettings bad = s;
  bad.sizes = {7};
  EXPECT_THROW(RealLadder{bad}, InputError);
  bad = s;
  bad.heads = "loose";
  EXPECT_THROW(RealLadder{bad}, InputError);
  bad = s;
  bad.methods = "adam";
  EXPECT_THROW(RealLadder{bad}, InputError);
}

// The summary's largest n is the last n before the first that some seed misses, and a degenerate
// row (limit not reached, failing "degenerate") counts as a miss: the first ladder named n = 256
// for a frozen l_1.1 row at chance accuracy whose smaller n had failed.
TEST(RealLadder, SummaryStopsAtTheFirstMissAndCountsDegenerateRuns) {
  RealLadderSettings s;
  s.sizes = {4, 8, 16};
  s.seeds = 1;
  s.heads = "frozen";
  s.methods = "nmd:2";
  RealLadder ladder(s);
  for (const RealLadderRun& r : ladder.take(3)) {
    RealLadderRunResult res;
    res.id = r.id;
    res.snapshotSteps = {1};
    res.corrFro = {0.999};
    res.divergence = {0.0};
    res.corr = 0.999;
    res.trainAccuracy = r.n == 8 ? 0.5 : 1.0;
    res.degenerate = r.n == 8;
    res.limitReached = r.n != 8;
    res.failing = r.n == 8 ? "degenerate" : "";
    ladder.submit(res);
  }
  const std::vector<RealLadderRow> rows = ladder.table();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].n, 8);
  EXPECT_EQ(rows[1].failDegenerate, 1);
  EXPECT_EQ(rows[1].limitReached, 0);
  ASSERT_EQ(ladder.summary().size(), 1u);
  EXPECT_EQ(ladder.summary()[0].largestN, 4);  // not 16
  // and the degenerate run is named as the failure at the first failing n
  EXPECT_EQ(ladder.summary()[0].firstFailingN, 8);
  EXPECT_EQ(ladder.summary()[0].failingBeyond, "degenerate 1");
}

// The phase diagram: one ladder per d, every run the same budget whatever n, rows per (d, n), the
// runs of d > 18 on embedded tokens (their SVM is d x d), a summary per d.
TEST(RealPhase, PlanTableAndSummaryPerDimension) {
  RealPhaseSettings s;
  s.dims = {18, 32};
  s.sizes = {4, 8};
  s.seeds = 1;
  s.heads = "frozen";
  s.methods = "nmd:2";
  s.steps = 60;
  s.headSteps = 20;
  RealPhase phase(s);
  ASSERT_EQ(phase.plannedRuns(), 4);
  const std::vector<RealLadderRun> runs = phase.take(10);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].dim, 32);  // the dearest first
  EXPECT_EQ(runs[0].n, 8);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    EXPECT_EQ(runs[k].id, static_cast<int>(k));
    EXPECT_EQ(runs[k].steps, 60);  // independent of n
  }
  const ImageSet file = ladderTestFile(12, 5);
  for (const RealLadderRun& r : runs) {
    RealLadderRunner runner(file, r);
    runner.advance(r.steps);
    runner.analyze();
    EXPECT_EQ(runner.data().d, r.dim);
    if (runner.svmFro().status == SolveStatus::Optimal) EXPECT_EQ(runner.svmFro().W.rows(), r.dim);
    phase.submit(runner.result());
  }
  ASSERT_TRUE(phase.done());
  const std::vector<RealPhaseRow> rows = phase.table();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].dim, 18);
  EXPECT_EQ(rows[3].dim, 32);
  for (const RealPhaseRow& r : rows) {
    EXPECT_EQ(r.row.seeds, 1);
    EXPECT_EQ(r.row.steps, 60);
    EXPECT_EQ(r.row.endedByBudget, 1);
  }
  const std::vector<RealPhaseSummary> summary = phase.summary();
  ASSERT_EQ(summary.size(), 2u);
  for (const RealPhaseSummary& p : summary) {
    if (p.ladder.firstFailingN > 0) {
      EXPECT_LT(p.ladder.largestN, p.ladder.firstFailingN);
      EXPECT_FALSE(p.ladder.failingBeyond.empty());
    }
  }
  RealPhaseSettings bad = s;
  bad.dims = {18, 18};
  EXPECT_THROW(RealPhase{bad}, InputError);
  bad = s;
  bad.steps = 0;
  EXPECT_THROW(RealPhase{bad}, InputError);
}

}  // namespace
}  // namespace attnsvm
