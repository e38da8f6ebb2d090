// Stress test of the nuclear-norm Att-SVM solver (issue 16): on every feasible instance of each
// family the solve must end `optimal` with a certificate (SPEC section 3) of relative gap <= 1e-8
// and violation <= 1e-9, recomputed here by certify() from (W, lambda) alone.
//
// Families: seeded random sphere instances with n, T uniform in 2..15 and d in 2..20 (150 in the
// default suite, 1000 with ATTNSVM_STRESS=1), the two instances of the issue, the rank
// experiment's degenerate low-dimensional instances (d = 2, 3), nearly equal tokens
// (||W^mm|| ~ 100), and tokens scaled by 1e-3 and 1e3.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "svm_test_data.hpp"

using namespace attnsvm;

namespace {

bool fullStress() {
  const char* v = std::getenv("ATTNSVM_STRESS");
  return v != nullptr && std::string(v) == "1";
}

// Worst values over one family, printed at the end of each test.
struct Tally {
  const char* name;
  int solved = 0, infeasible = 0;
  double worstGap = 0.0, worstViol = 0.0, seconds = 0.0, worstSeconds = 0.0;
  ~Tally() {
    std::printf(
        "nuclear stress %s: %d certified, %d infeasible skipped, worst gap %.3g, worst violation "
        "%.3g, "
        "%.3f s in all, slowest %.1f ms\n",
        name, solved, infeasible, worstGap, worstViol, seconds, 1e3 * worstSeconds);
  }
};

// Solves the cross-attention Att-SVM of data's selection in the nuclear norm and checks the
// certificate; returns false (and counts it) if the instance is infeasible.
bool checkNuclear(const Dataset& data, const std::string& what, Tally& tally) {
  const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
  if (solveMargin(pb, SolverSettings{}).status == SolveStatus::Infeasible) {
    ++tally.infeasible;
    return false;
  }
  SolverSettings st;
  st.norm = NormKind::Nuclear;
  const MarginSolution sol = solveMargin(pb, st);
  EXPECT_EQ(sol.status, SolveStatus::Optimal)
      << what << ": " << sol.message << " (gap " << sol.gap << ")";
  // The certificate again, from (W, lambda) alone.
  MarginSolution check;
  check.W = sol.W;
  check.lambda = sol.lambda;
  certify(pb, st, check);
  EXPECT_LE(check.gap, 1e-8) << what;
  EXPECT_GE(check.gap, -1e-12) << what;  // a lower bound above the objective would be a bug
  EXPECT_LE(check.maxViolation, 1e-9) << what;
  EXPECT_NEAR(check.objective, sol.objective, 1e-12 * sol.objective) << what;
  ++tally.solved;
  tally.worstGap = std::max(tally.worstGap, check.gap);
  tally.worstViol = std::max(tally.worstViol, check.maxViolation);
  tally.seconds += sol.seconds;
  tally.worstSeconds = std::max(tally.worstSeconds, sol.seconds);
  return true;
}

std::string label(const char* family, int n, int T, int d, std::uint64_t seed) {
  return std::string(family) + " n=" + std::to_string(n) + " T=" + std::to_string(T) +
         " d=" + std::to_string(d) + " seed=" + std::to_string(seed);
}

}  // namespace

// The two instances of issue 16 (`attnsvm generate sphere ...`), which ended `max_iterations`
// with certified gaps 4.9e-4 and 6.9e-5 under the barrier method on the dual.
TEST(NuclearStress, IssueInstances) {
  Tally tally{"issue instances"};
  EXPECT_TRUE(checkNuclear(sphereDataset(9, 12, 14, 65271), "9,12,14 seed 65271", tally));
  EXPECT_TRUE(checkNuclear(sphereDataset(15, 6, 18, 384512), "15,6,18 seed 384512", tally));
}

TEST(NuclearStress, RandomSphereInstances) {
  const int wanted = fullStress() ? 1000 : 150;
  Tally tally{"random sphere"};
  svmtest::TestRng rng(16);
  int attempts = 0;
  while (tally.solved < wanted && attempts < 4 * wanted) {
    ++attempts;
    const int n = 2 + static_cast<int>(rng.next() % 14), T = 2 + static_cast<int>(rng.next() % 14),
              d = 2 + static_cast<int>(rng.next() % 19);
    const std::uint64_t seed = rng.next() % 1000000;
    checkNuclear(sphereDataset(n, T, d, seed), label("sphere", n, T, d, seed), tally);
  }
  EXPECT_EQ(tally.solved, wanted);
}

// The rank experiment's instances at d = 2, 3 (its five (n, T) configurations, seeds from 1 until
// `wanted` feasible ones): nearly equal tokens and ||W^mm|| up to the hundreds. Most draws are
// infeasible at d = 2 (n = 15 or T = 15: hardly any feasible draw).
TEST(NuclearStress, RankScenarioLowDimension) {
  const int wanted = fullStress() ? 100 : 8;
  Tally tally{"rank scenario d = 2, 3"};
  for (int d : {2, 3})
    for (const auto& [n, T] :
         std::vector<std::pair<int, int>>{{5, 5}, {10, 5}, {15, 5}, {5, 10}, {5, 15}}) {
      int feasible = 0;
      for (int seed = 1; feasible < wanted && seed <= 40 * wanted; ++seed) {
        ScenarioOptions so;
        so.seed = static_cast<std::uint64_t>(seed);
        so.n = n;
        so.T = T;
        so.d = d;
        if (checkNuclear(makeScenario("rank", so).data, label("rank", n, T, d, so.seed), tally))
          ++feasible;
      }
      std::printf("rank scenario n=%d T=%d d=%d: %d feasible\n", n, T, d, feasible);
    }
  EXPECT_GE(tally.solved, 6 * wanted);  // some configurations are almost never feasible at d = 2
}

// One non-selected token of every sequence moved to within 1e-2 of the selected one: the margin
// constraints need ||W|| ~ 100.
TEST(NuclearStress, NearlyEqualTokens) {
  const int count = fullStress() ? 200 : 30;
  Tally tally{"nearly equal tokens"};
  svmtest::TestRng rng(1616);
  double largest = 0.0;
  for (int k = 0; k < count; ++k) {
    const int n = 2 + static_cast<int>(rng.next() % 9), T = 2 + static_cast<int>(rng.next() % 9),
              d = 2 + static_cast<int>(rng.next() % 12);
    const std::uint64_t seed = rng.next() % 1000000;
    Dataset data = sphereDataset(n, T, d, seed);
    for (int i = 0; i < n; ++i) {
      const int a = data.alpha[static_cast<std::size_t>(i)], t = (a + 1) % T;
      const Vec xa = data.token(i, a).transpose();
      data.X.row(static_cast<Index>(i) * T + t) =
          (xa + 1e-2 * (data.token(i, t).transpose() - xa)).transpose();
    }
    if (checkNuclear(data, label("nearly equal", n, T, d, seed), tally)) {
      const MarginSolution fro = solveMargin(
          attentionSvmProblem(data, AttentionKind::Cross, data.alpha), SolverSettings{});
      largest = std::max(largest, fro.objective);
    }
  }
  EXPECT_GE(tally.solved, count / 2);
  EXPECT_GE(largest, 50.0);  // the family does reach ||W^mm|| ~ 100
}

// Tokens multiplied by 1e-3 and 1e3 (W^mm scales by 1e3 and 1e-3).
TEST(NuclearStress, ScaledTokens) {
  const int count = fullStress() ? 200 : 30;
  for (double factor : {1e-3, 1e3}) {
    Tally tally{factor < 1.0 ? "tokens x 1e-3" : "tokens x 1e3"};
    svmtest::TestRng rng(factor < 1.0 ? 3 : 4);
    for (int k = 0; k < count; ++k) {
      const int n = 2 + static_cast<int>(rng.next() % 14),
                T = 2 + static_cast<int>(rng.next() % 14),
                d = 2 + static_cast<int>(rng.next() % 19);
      const std::uint64_t seed = rng.next() % 1000000;
      Dataset data = sphereDataset(n, T, d, seed);
      data.X *= factor;
      checkNuclear(data, label(factor < 1.0 ? "x1e-3" : "x1e3", n, T, d, seed), tally);
    }
    EXPECT_GE(tally.solved, count / 2);
  }
}
