// Real-image stress family of the max-margin solvers (issue 26): Fashion-MNIST Att-SVMs
// (tests/core/real_svm_data.hpp: T = 49 patch tokens, d = 18, z = the mean token) for every norm
// (fro, nuclear, l_p with p in {1.1, 1.5, 2, 3}). Every solve must be decided and carry its proof,
// recomputed here from the returned arrays alone:
//   optimal     certify() of (W, lambda): relative gap <= 1e-8, violation <= 1e-9;
//   infeasible  the Farkas certificate summed here: mu >= 0, sum mu_j b_j > 0 and
//               ||sum mu_j A_j||_F <= 1e-9 sum mu_j ||A_j||_F (the documented tolerance);
//   boundary    the measured margin bounds 0 <= lower <= upper <= 1e-6 (and no W certified);
// never max_iterations, and the same decision for every norm (the feasible set does not depend on
// it). The default suite runs a reduced family (the issue's reproducers and a few sizes; about 10 s
// under the sanitizers); ATTNSVM_STRESS=1 runs the full family: n in {20, 50, 100, 200, 500, 1000},
// classes 7 vs 9 and 6 vs 0, the optimal selection and that of a trained W.
// Native only: the WebAssembly gtest reads no files (the wasm family runs in
// tests/wasm/real-svm.test.mjs on instances the native driver builds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "attnsvm/solvers/margin.hpp"
#include "real_svm_data.hpp"

using namespace attnsvm;

namespace {

bool realFullStress() {
  const char* v = std::getenv("ATTNSVM_STRESS");
  return v != nullptr && std::string(v) == "1";
}

struct NormCase {
  NormKind norm;
  double p;
  const char* name;
};
const std::vector<NormCase>& norms() {
  static const std::vector<NormCase> all = {
      {NormKind::Frobenius, 2.0, "fro"}, {NormKind::Nuclear, 2.0, "nuclear"},
      {NormKind::Lp, 1.1, "lp1.1"},      {NormKind::Lp, 1.5, "lp1.5"},
      {NormKind::Lp, 2.0, "lp2"},        {NormKind::Lp, 3.0, "lp3"}};
  return all;
}

// Worst values over the family, printed at the end.
struct RealTally {
  int optimal = 0, infeasible = 0, boundary = 0;
  double worstGap = 0.0, worstViolation = 0.0, worstFarkas = 0.0, seconds = 0.0, slowest = 0.0;
  std::string slowestWhat, worstGapWhat;
  ~RealTally() {
    std::printf(
        "real-image SVMs: %d optimal, %d infeasible, %d boundary solves; worst gap %.2e (%s), "
        "worst "
        "violation %.2e, worst Farkas residual %.2e; %.2f s in all, slowest %.3f s (%s)\n",
        optimal, infeasible, boundary, worstGap, worstGapWhat.c_str(), worstViolation, worstFarkas,
        seconds, slowest, slowestWhat.c_str());
  }
};

// ||sum mu_j A_j||_F / sum mu_j ||A_j||_F, summed here from the problem's rows.
double farkasResidual(const MarginProblem& pb, const Vec& mu) {
  Mat M = Mat::Zero(pb.rows, pb.cols);
  double scale = 0.0;
  for (Index j = 0; j < pb.b.size(); ++j) {
    M += mu(j) * pb.U.row(j).transpose() * pb.Wq.row(j);
    scale += std::abs(mu(j)) * pb.U.row(j).norm() * pb.Wq.row(j).norm();
  }
  return scale > 0.0 ? M.norm() / scale : 1.0;
}

// Solves the instance in every norm and checks each result's proof; returns the decision.
SolveStatus checkInstance(const svmtest::RealSvmSpec& spec, RealTally& tally) {
  const Dataset data = svmtest::realSvmDataset(spec);
  const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
  SolveStatus decision = SolveStatus::MaxIterations;
  bool first = true;
  for (const NormCase& nc : norms()) {
    SolverSettings st;
    st.norm = nc.norm;
    st.p = nc.p;
    const MarginSolution sol = solveMargin(pb, st);
    const std::string what = spec.name() + " " + nc.name;
    SCOPED_TRACE(what + ": " + sol.message);
    tally.seconds += sol.seconds;
    if (sol.seconds > tally.slowest) {
      tally.slowest = sol.seconds;
      tally.slowestWhat = what;
    }
    EXPECT_NE(sol.status, SolveStatus::MaxIterations);
    if (first) decision = sol.status;
    EXPECT_EQ(sol.status, decision) << "the decision must not depend on the norm";
    first = false;
    if (sol.status == SolveStatus::Optimal) {
      MarginSolution check;
      check.W = sol.W;
      check.lambda = sol.lambda;
      certify(pb, st, check);
      EXPECT_LE(check.gap, 1e-8);
      EXPECT_GE(check.gap, -1e-12);  // a lower bound above the objective would be a bug
      EXPECT_LE(check.maxViolation, 1e-9);
      ++tally.optimal;
      if (check.gap > tally.worstGap) {
        tally.worstGap = check.gap;
        tally.worstGapWhat = what;
      }
      tally.worstViolation = std::max(tally.worstViolation, check.maxViolation);
    } else if (sol.status == SolveStatus::Infeasible) {
      EXPECT_EQ(sol.farkas.size(), pb.b.size());
      if (sol.farkas.size() != pb.b.size()) continue;
      EXPECT_GE(sol.farkas.minCoeff(), 0.0);
      EXPECT_GT(sol.farkas.dot(pb.b), 0.0);
      const double residual = farkasResidual(pb, sol.farkas);
      EXPECT_LE(residual, 1e-9);
      ++tally.infeasible;
      tally.worstFarkas = std::max(tally.worstFarkas, residual);
    } else if (sol.status == SolveStatus::Boundary) {
      EXPECT_GE(sol.marginLower, 0.0);
      EXPECT_LE(sol.marginLower, sol.marginUpper);
      EXPECT_LE(sol.marginUpper, 1e-6);
      EXPECT_NE(sol.message.find("boundary of feasibility"), std::string::npos);
      ++tally.boundary;
    }
  }
  return decision;
}

svmtest::RealSvmSpec spec(int a, int b, int n, int trained = 0, int pool = 0,
                          std::uint64_t seed = 0) {
  svmtest::RealSvmSpec s;
  s.classA = a;
  s.classB = b;
  s.n = n;
  s.trainIterations = trained;
  s.pool = pool;
  s.seed = seed;
  return s;
}

}  // namespace

// The reproducers of issue 26 (the core's construction of its instances): n = 150 and 200 of
// Sneaker vs Ankle boot (the active set ended max_iterations on a "numerically dependent constraint
// without a valid infeasibility certificate"), n = 50 (active set "optimal" with violation 4.6e-9),
// n = 1000 (infeasible in 14 s and 150 MB) and random 60 of the first 300 (the nuclear interior
// point ended max_iterations at gaps 1e-8 .. 2e-7).
TEST(RealSvm, IssueReproducers) {
  if (!svmtest::haveFashionData()) GTEST_SKIP() << "Fashion-MNIST is not installed";
  RealTally tally;
  EXPECT_EQ(checkInstance(spec(7, 9, 150), tally), SolveStatus::Infeasible);
  EXPECT_EQ(checkInstance(spec(7, 9, 50), tally), SolveStatus::Optimal);
  EXPECT_EQ(checkInstance(spec(7, 9, 60, 0, 300, 16), tally), SolveStatus::Optimal);
  if (realFullStress()) {
    EXPECT_EQ(checkInstance(spec(7, 9, 200), tally), SolveStatus::Infeasible);
    EXPECT_EQ(checkInstance(spec(7, 9, 1000), tally), SolveStatus::Infeasible);
    for (std::uint64_t seed : {4, 13, 14, 15}) checkInstance(spec(7, 9, 60, 0, 300, seed), tally);
  }
}

// The family: sizes, two class pairs, the optimal selection and that of a trained W (100
// iterations of normalized GD on the same images).
TEST(RealSvm, Family) {
  if (!svmtest::haveFashionData()) GTEST_SKIP() << "Fashion-MNIST is not installed";
  RealTally tally;
  const std::vector<int> sizes =
      realFullStress() ? std::vector<int>{20, 50, 100, 200, 500, 1000} : std::vector<int>{20, 100};
  for (const auto& [a, b] : std::vector<std::pair<int, int>>{{7, 9}, {6, 0}})
    for (int n : sizes)
      for (int trained : {0, 100}) {
        if (!realFullStress() && a == 6 && n > 20) continue;
        checkInstance(spec(a, b, n, trained), tally);
      }
  EXPECT_GT(tally.optimal, 0);
  EXPECT_GT(tally.infeasible, 0);
}

// The l_p W-space interior point near p = 1 (issue 26, docs/SOLVERS.md "l_p on large problems"):
// on this instance p = 1.1 ended max_iterations at a certified gap of 2.5e-8 (the stationarity
// W = g*(M) was lost to rounding as mu -> 0); one solve, about 1 s, in the default suite. The full
// family (ATTNSVM_STRESS=1) also runs seed 13 and 6 vs 0, n = 100, which stalled the same way.
TEST(RealSvm, LpNearOneCertified) {
  if (!svmtest::haveFashionData()) GTEST_SKIP() << "Fashion-MNIST is not installed";
  const Dataset data = svmtest::realSvmDataset(spec(7, 9, 60, 0, 300, 14));
  const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
  SolverSettings st;
  st.norm = NormKind::Lp;
  st.p = 1.1;
  const MarginSolution sol = solveMargin(pb, st);
  SCOPED_TRACE(sol.message);
  ASSERT_EQ(sol.status, SolveStatus::Optimal);
  MarginSolution check;
  check.W = sol.W;
  check.lambda = sol.lambda;
  certify(pb, st, check);
  EXPECT_LE(check.gap, 1e-8);
  EXPECT_GE(check.gap, -1e-12);
  EXPECT_LE(check.maxViolation, 1e-9);
}
