// Max-margin solvers: certificates on seeded random instances, closed forms, infeasibility.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/solvers/norms.hpp"
#include "attnsvm/vocab/names.hpp"
#include "registry_test.hpp"
#include "svm_test_data.hpp"

using namespace attnsvm;

namespace {

MarginSolution solveCross(const Dataset& data, NormKind norm, double p = 2.0) {
  SolverSettings st;
  st.norm = norm;
  st.p = p;
  return solveMargin(attentionSvmProblem(data, AttentionKind::Cross, data.alpha), st);
}

int numericalRank(const Mat& W, double relTol = 1e-7) {
  Eigen::JacobiSVD<Mat> svd(W);
  const Vec s = svd.singularValues();
  int r = 0;
  for (Index k = 0; k < s.size(); ++k)
    if (s(k) > relTol * s(0)) ++r;
  return r;
}

struct Size {
  int n, T, d, seeds;
};

}  // namespace

// The norm registry is the one list: in the enum's order, named as the vocabulary names them; each
// entry's dual norm satisfies Hoelder's inequality <A, B> <= ||A|| ||B||_* on random pairs with
// equality at a known maximizer (a wrong dual fails), and its solver returns a certified optimum.
TEST(NormRegistry, DualNormsAndSolversOfEveryEntry) {
  test::expectNamedRegistry<NormKind>(normRegistry(), normInfo, "norm");
  svmtest::TestRng rng(17);
  auto randomMat = [&](int r, int c) {
    Mat m(r, c);
    for (Index j = 0; j < m.size(); ++j) m.data()[j] = rng.normal();
    return m;
  };
  const Dataset data = svmtest::sphere(3, 4, 5, 29);
  for (const NormInfo& info : normRegistry()) {
    SCOPED_TRACE(info.names[0]);
    const double p = info.usesP ? 3.0 : 2.0;
    for (int trial = 0; trial < 20; ++trial) {
      const Mat a = randomMat(4, 3), b = randomMat(4, 3);
      EXPECT_LE((a.array() * b.array()).sum(),
                matrixNorm(a, info.kind, p) * dualNorm(b, info.kind, p) * (1 + 1e-12));
    }
    // the maximizer of <A, B> / ||B||_* : A itself (fro), U V^T (nuclear), sign(A)|A|^{p-1} (lp)
    const Mat a = randomMat(4, 3);
    Eigen::JacobiSVD<Mat> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Mat maximizer = info.kind == NormKind::Nuclear
                              ? Mat(svd.matrixU() * svd.matrixV().transpose())
                          : info.kind == NormKind::Lp ? Mat(a.unaryExpr([&](double x) {
                              return std::copysign(std::pow(std::abs(x), p - 1), x);
                            }))
                                                      : a;
    EXPECT_NEAR((a.array() * maximizer.array()).sum(),
                matrixNorm(a, info.kind, p) * dualNorm(maximizer, info.kind, p),
                1e-10 * matrixNorm(a, info.kind, p) * dualNorm(maximizer, info.kind, p));
    const MarginSolution sol = solveCross(data, info.kind, p);
    ASSERT_EQ(sol.status, SolveStatus::Optimal);
    EXPECT_LE(sol.gap, 1e-6);
    EXPECT_NEAR(sol.objective, matrixNorm(sol.W, info.kind, p), 1e-12 * sol.objective);
  }
}

TEST(Frobenius, CertificatesOnRandomInstances) {
  const Size sizes[] = {{2, 3, 2, 40},  {3, 4, 3, 40},  {5, 5, 5, 40},   {6, 8, 10, 40},
                        {10, 5, 4, 30}, {8, 10, 6, 30}, {15, 15, 20, 8}, {12, 15, 3, 10}};
  int optimal = 0, infeasible = 0;
  double worstGap = 0.0, worstViol = 0.0;
  for (const Size& s : sizes)
    for (int seed = 0; seed < s.seeds; ++seed) {
      const Dataset data =
          svmtest::sphere(s.n, s.T, s.d, 1000u * s.n + 37u * s.T + s.d + 7919u * seed);
      const MarginSolution sol = solveCross(data, NormKind::Frobenius);
      if (sol.status == SolveStatus::Infeasible) {
        ++infeasible;
        continue;
      }
      ASSERT_EQ(sol.status, SolveStatus::Optimal)
          << s.n << " " << s.T << " " << s.d << " seed " << seed;
      ++optimal;
      EXPECT_LE(sol.gap, 1e-8) << s.n << " " << s.T << " " << s.d << " seed " << seed;
      EXPECT_LE(sol.maxViolation, 1e-9) << s.n << " " << s.T << " " << s.d << " seed " << seed;
      EXPECT_GE(sol.gap, -1e-8);
      EXPECT_FALSE(sol.support.empty());
      worstGap = std::max(worstGap, sol.gap);
      worstViol = std::max(worstViol, sol.maxViolation);
    }
  EXPECT_GE(optimal, 200);
  std::printf("Frobenius: %d optimal, %d infeasible, worst gap %.3g, worst violation %.3g\n",
              optimal, infeasible, worstGap, worstViol);
}

TEST(Frobenius, SingleConstraintClosedForm) {
  MarginProblem pb;
  pb.rows = 3;
  pb.cols = 2;
  pb.U = Mat(1, 3);
  pb.U << 1.0, -2.0, 0.5;
  pb.Wq = Mat(1, 2);
  pb.Wq << 0.3, 4.0;
  pb.b = Vec::Constant(1, 2.0);
  pb.label.resize(1);
  const MarginSolution sol = solveMargin(pb, SolverSettings{});
  ASSERT_EQ(sol.status, SolveStatus::Optimal);
  const Mat A = pb.U.row(0).transpose() * pb.Wq.row(0);
  const Mat expected = 2.0 * A / A.squaredNorm();
  EXPECT_LE((sol.W - expected).norm(), 1e-12 * expected.norm());
  EXPECT_LE(sol.gap, 1e-12);
}

TEST(Frobenius, DuplicateConstraintsAndSingularGram) {
  // m = n (T - 1) = 60 constraints in d^2 = 4 dimensions, plus duplicated tokens in every sequence.
  Dataset data = svmtest::sphere(10, 7, 2, 99);
  for (int i = 0; i < data.n; ++i) {
    const int a = data.alpha[static_cast<std::size_t>(i)];
    const int other = (a + 1) % data.T;
    const int copy = (a + 2) % data.T;
    data.X.row(static_cast<Index>(i) * data.T + copy) = data.token(i, other);
  }
  const MarginSolution sol = solveCross(data, NormKind::Frobenius);
  if (sol.status == SolveStatus::Optimal) {
    EXPECT_LE(sol.gap, 1e-8);
    EXPECT_LE(sol.maxViolation, 1e-9);
  } else {
    ASSERT_EQ(sol.status, SolveStatus::Infeasible);
    const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
    const Mat M = pb.U.transpose() * (sol.farkas.asDiagonal() * pb.Wq);
    EXPECT_GT(sol.farkas.dot(pb.b), 0.0);
    EXPECT_LE(M.norm(), 1e-9 * sol.farkas.cwiseAbs().sum());
    EXPECT_GE(sol.farkas.minCoeff(), 0.0);
  }
}

// min ||W|| s.t. <A_0, W> = -0.5, <A_3, W> = 1, <A_j, W> >= 1 otherwise, on random rank-one
// constraints (4 x 3 W, 6 constraints).
static MarginProblem equalityProblem() {
  svmtest::TestRng rng(5);
  MarginProblem pb;
  pb.rows = 4;
  pb.cols = 3;
  const int m = 6;
  pb.U.resize(m, 4);
  pb.Wq.resize(m, 3);
  for (int j = 0; j < m; ++j) {
    pb.U.row(j) = rng.unit(4).transpose();
    pb.Wq.row(j) = rng.unit(3).transpose();
  }
  pb.b = Vec::Ones(m);
  pb.b(0) = -0.5;
  pb.equality.assign(m, false);
  pb.equality[0] = true;
  pb.equality[3] = true;
  pb.label.resize(m);
  return pb;
}

TEST(Frobenius, EqualityConstraints) {
  const MarginProblem pb = equalityProblem();
  const MarginSolution sol = solveMargin(pb, SolverSettings{});
  ASSERT_EQ(sol.status, SolveStatus::Optimal);
  EXPECT_LE(sol.maxViolation, 1e-10);
  EXPECT_LE(sol.gap, 1e-10);
}

namespace {

// Every solve must be certified below `looseBar`; at least `fraction` of them below `gapBar`
// (the bar, 1e-6; the defaults make it strict: every instance). Misses are printed.
void checkNormOnRandom(NormKind norm, double p, const std::vector<Size>& sizes, double gapBar,
                       double looseBar = 1e-6, double fraction = 1.0) {
  int optimal = 0, missed = 0;
  double worstGap = 0.0, worstViol = 0.0;
  long iterations = 0;
  for (const Size& s : sizes)
    for (int seed = 0; seed < s.seeds; ++seed) {
      const Dataset data =
          svmtest::sphere(s.n, s.T, s.d, 500u * s.n + 31u * s.T + s.d + 104729u * seed);
      SolverSettings st;
      st.norm = norm;
      st.p = p;
      const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
      const MarginSolution sol = solveMargin(pb, st);
      if (sol.status == SolveStatus::Infeasible) continue;
      ++optimal;
      if (sol.gap > gapBar) {
        ++missed;
        std::printf("  miss: p %.3g n,T,d %d,%d,%d seed %d gap %.3g (%s)\n", p, s.n, s.T, s.d, seed,
                    sol.gap, sol.message.c_str());
      }
      EXPECT_LE(sol.gap, std::max(gapBar, looseBar))
          << "p " << p << " n,T,d " << s.n << "," << s.T << "," << s.d << " seed " << seed;
      EXPECT_LE(sol.maxViolation, 1e-9) << "p " << p << " seed " << seed;
      // Independent check of the certificate from the returned (W, lambda).
      MarginSolution again;
      again.W = sol.W;
      again.lambda = sol.lambda;
      certify(pb, st, again);
      EXPECT_NEAR(again.gap, sol.gap, 1e-12);
      worstGap = std::max(worstGap, sol.gap);
      worstViol = std::max(worstViol, sol.maxViolation);
      iterations += sol.iterations;
    }
  EXPECT_GE(optimal, 1);
  EXPECT_LE(missed, static_cast<int>((1.0 - fraction) * optimal + 1e-9))
      << missed << " of " << optimal;
  std::printf("%s p=%.3g: %d solved, worst gap %.3g, worst violation %.3g, mean iterations %.1f\n",
              norm == NormKind::Nuclear ? "nuclear" : "lp", p, optimal, worstGap, worstViol,
              optimal ? static_cast<double>(iterations) / optimal : 0.0);
}

}  // namespace

// Hundreds of seeded instances per norm (the bar): every one certified at gap <= 1e-6.
const std::vector<Size> kMany = {{2, 3, 2, 40}, {3, 4, 3, 40},  {5, 5, 5, 40},   {6, 8, 10, 40},
                                 {8, 6, 4, 40}, {4, 6, 12, 40}, {10, 10, 15, 4}, {15, 15, 20, 2}};

TEST(Nuclear, CertificatesOnRandomInstances) {
  checkNormOnRandom(NormKind::Nuclear, 1.0, kMany, 1e-6);
}

class LpRandom : public ::testing::TestWithParam<double> {};
TEST_P(LpRandom, CertificatesOnRandomInstances) {
  checkNormOnRandom(NormKind::Lp, GetParam(), kMany, 1e-6);
}
// p = 10 used to stall in the dual (q = 1.11); the primal active-set solve on the support fixed it,
// and the primal-dual method on the primal (p > 2) made it fast (docs/SOLVERS.md).
INSTANTIATE_TEST_SUITE_P(Ps, LpRandom, ::testing::Values(1.1, 1.5, 1.75, 3.0, 4.0, 10.0));

TEST(Lp, TwoEqualsFrobenius) {
  for (int seed = 0; seed < 20; ++seed) {
    const Dataset data = svmtest::sphere(4, 5, 4, 77 + seed);
    const MarginSolution fro = solveCross(data, NormKind::Frobenius);
    const MarginSolution lp2 = solveCross(data, NormKind::Lp, 2.0);
    if (fro.status != SolveStatus::Optimal) continue;
    ASSERT_EQ(lp2.status, SolveStatus::Optimal);
    EXPECT_LE((lp2.W - fro.W).norm(), 1e-8 * fro.W.norm());
    EXPECT_NEAR(lp2.objective, fro.objective, 1e-10 * fro.objective);
  }
}

TEST(Lp, SingleConstraintClosedForm) {
  // One constraint <A, W> >= 1:  W = sign(a)|a|^{q-1} / ||a||_q^q with a = vec(A).
  MarginProblem pb;
  pb.rows = 3;
  pb.cols = 2;
  pb.U = Mat(1, 3);
  pb.U << 1.0, -2.0, 0.5;
  pb.Wq = Mat(1, 2);
  pb.Wq << 0.3, -4.0;
  pb.b = Vec::Constant(1, 1.0);
  const Mat A = pb.U.row(0).transpose() * pb.Wq.row(0);
  for (double p : {1.1, 1.5, 1.75, 3.0, 4.0, 10.0}) {
    const double q = p / (p - 1.0);
    const Mat expected =
        (A.array().sign() * A.array().abs().pow(q - 1.0)).matrix() / A.array().abs().pow(q).sum();
    SolverSettings st;
    st.norm = NormKind::Lp;
    st.p = p;
    const MarginSolution sol = solveMargin(pb, st);
    ASSERT_EQ(sol.status, SolveStatus::Optimal) << p;
    EXPECT_LE((sol.W - expected).norm(), 1e-6 * expected.norm()) << "p = " << p;
    EXPECT_LE(sol.gap, 1e-6);
  }
}

TEST(Lp, EqualityConstraintsTakeTheDualPath) {
  // The primal-dual method for p > 2 does not handle equalities: these solves exercise its fallback
  // (the dual interior point and the active-set finish). Same problem as
  // Frobenius.EqualityConstraints.
  const MarginProblem pb = equalityProblem();
  for (double p : {1.5, 3.0, 10.0}) {
    SolverSettings st;
    st.norm = NormKind::Lp;
    st.p = p;
    const MarginSolution sol = solveMargin(pb, st);
    ASSERT_EQ(sol.status, SolveStatus::Optimal) << p;
    EXPECT_LE(sol.gap, 1e-6) << p;
    EXPECT_LE(sol.maxViolation, 1e-9) << p;
  }
}

TEST(Nuclear, SingleConstraintClosedForm) {
  // One constraint <u w^T, W> >= b: W = b u w^T / (||u||^2 ||w||^2), nuclear norm b / (||u||
  // ||w||).
  MarginProblem pb;
  pb.rows = 3;
  pb.cols = 2;
  pb.U = Mat(1, 3);
  pb.U << 1.0, -2.0, 0.5;
  pb.Wq = Mat(1, 2);
  pb.Wq << 0.3, -4.0;
  pb.b = Vec::Constant(1, 1.5);
  SolverSettings st;
  st.norm = NormKind::Nuclear;
  const MarginSolution sol = solveMargin(pb, st);
  ASSERT_EQ(sol.status, SolveStatus::Optimal);
  const Mat A = pb.U.row(0).transpose() * pb.Wq.row(0);
  const Mat expected = 1.5 * A / A.squaredNorm();
  EXPECT_NEAR(sol.objective, 1.5 / (pb.U.row(0).norm() * pb.Wq.row(0).norm()),
              1e-6 * sol.objective);
  EXPECT_LE((sol.W - expected).norm(), 1e-5 * expected.norm());
}

TEST(Nuclear, RankAtMostFrobeniusRank) {
  // SPEC rank setting: sphere data, n = 5, T = 5, several d. Every feasible instance is certified
  // optimal: the SDP interior point solves all 19 (docs/SOLVERS.md; the dual barrier method it
  // replaced stalled at gap 1.4e-4 on d = 10, seed 1, which this test used to tolerate).
  int compared = 0, strictlyLower = 0;
  for (int d : {2, 3, 5, 10}) {
    for (int seed = 0; seed < 6; ++seed) {
      const Dataset data = svmtest::sphere(5, 5, d, 4242 + 17 * d + seed);
      const MarginSolution fro = solveCross(data, NormKind::Frobenius);
      if (fro.status != SolveStatus::Optimal) continue;
      const MarginSolution nuc = solveCross(data, NormKind::Nuclear);
      ASSERT_EQ(nuc.status, SolveStatus::Optimal)
          << "d = " << d << " seed " << seed << ": gap " << nuc.gap << " " << nuc.message;
      const int rf = numericalRank(fro.W), rn = numericalRank(nuc.W, 1e-5);
      EXPECT_LE(rn, rf) << "d = " << d << " seed " << seed;
      ++compared;
      if (rn < rf) ++strictlyLower;
    }
  }
  EXPECT_GE(compared, 10);
  std::printf("nuclear rank < Frobenius rank on %d of %d instances\n", strictlyLower, compared);
}

#include "attnsvm/experiments/scenarios.hpp"

TEST(Frobenius, DegenerateLowDimensionNoCorruption) {
  // Regression (docs/RESULTS.md): d = 2, 3 with n = 15, T = 5 (m = 60 constraints in 4 or 9
  // dimensions, repeated-looking tokens). A nearly dependent constraint accepted as independent
  // used to overflow the active-set storage. Every instance must end optimal and certified, or
  // infeasible with a valid Farkas certificate.
  int optimal = 0, infeasible = 0;
  for (int d : {2, 3}) {
    for (int seed = 0; seed < 150; ++seed) {
      const Dataset data = seed % 2
                               ? sphereDataset(15, 5, d, static_cast<std::uint64_t>(seed))
                               : svmtest::sphere(15, 5, d, 9000u + static_cast<unsigned>(seed));
      const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
      const MarginSolution sol = solveMargin(pb, SolverSettings{});
      if (sol.status == SolveStatus::Infeasible) {
        ++infeasible;
        EXPECT_GT(sol.farkas.dot(pb.b), 0.0);
        EXPECT_GE(sol.farkas.minCoeff(), 0.0);
        continue;
      }
      ASSERT_EQ(sol.status, SolveStatus::Optimal)
          << "d " << d << " seed " << seed << " " << sol.message;
      ++optimal;
      EXPECT_LE(sol.gap, 1e-8) << "d " << d << " seed " << seed;
      EXPECT_LE(sol.maxViolation, 1e-9) << "d " << d << " seed " << seed;
    }
  }
  const Dataset reported = sphereDataset(15, 5, 2, 135);
  const MarginSolution sol = solveMargin(
      attentionSvmProblem(reported, AttentionKind::Cross, reported.alpha), SolverSettings{});
  EXPECT_TRUE(sol.status == SolveStatus::Optimal || sol.status == SolveStatus::Infeasible);
  std::printf("degenerate d = 2, 3: %d optimal, %d infeasible\n", optimal, infeasible);
}

TEST(Frobenius, ReportedHeapCorruptionReproducer) {
  // `attnsvm scenario rank --seed 135 --n 15 --T 5 --d 2` (docs/RESULTS.md): used to overflow the
  // active-set storage (a nearly dependent constraint accepted beyond rows*cols). Now: infeasible,
  // with a valid Farkas certificate, for every norm.
  Dataset data;
  data.n = 15;
  data.T = 5;
  data.d = 2;
  data.X.resize(75, 2);
  data.Z.resize(15, 2);
  const double x[] = {
      0.9999756059486791,   0.0069848054784611,   0.021886853002581537,   0.9997604541417126,
      -0.6259697450006334,  -0.7798473429741503,  -0.28354326313576356,   -0.9589594454044045,
      0.5318798835179342,   -0.8468198093508139,  -0.5627882405998427,    -0.8266011107193925,
      -0.8412249064641761,  0.5406853583594974,   -0.6568119422639785,    0.75405442277028,
      -0.3636079642053678,  0.9315520642274527,   0.10625788511614978,    0.9943386052299504,
      -0.7102393685778083,  -0.7039602540784502,  -0.7795136586167931,    -0.626385229734755,
      -0.9699616362822623,  -0.24325793746687122, 0.9862797223282527,     -0.16508273478503058,
      0.2552124728524445,   -0.9668849950746679,  -0.28532856831505876,   0.9584297616952839,
      -0.9454532006870144,  -0.32575795509961075, 0.6976158992703121,     0.716471951359768,
      0.1542379154113492,   0.9880337369996843,   0.7054599644588514,     -0.7087497714607858,
      0.12415130620102503,  -0.9922632983077522,  0.1247814745965622,     0.9921842488154644,
      -0.1420724580449682,  0.989856260608105,    -0.7213957410855381,    0.6925230571927893,
      -0.4357893935135399,  0.9000486678514119,   -0.17928207054872047,   -0.9837977125302557,
      0.7603123540263759,   -0.6495576374078522,  0.8118602519067107,     -0.5838518060038628,
      -0.4773445765019641,  -0.878716197235581,   0.25761271349097803,    0.9662482547709027,
      -0.6060727668503669,  -0.795409203669621,   0.7993648997488382,     0.6008458679640977,
      -0.8989251478367896,  -0.4381022467262705,  -0.9992841237618993,    0.03783173267791281,
      0.2817220242364825,   0.959496066203556,    -0.0015503817164510057, 0.9999987981575444,
      0.7918138672247756,   0.6107624740196023,   -0.036016838212691006,  -0.999351183200961,
      -0.9592641177624369,  -0.2825108004545195,  -0.9941258763487311,    0.10823004191936454,
      0.6496781144789723,   -0.7602094103383932,  0.9024953496267876,     0.43069959821437326,
      0.653914591590183,    -0.7565683755652521,  -0.2308261069120648,    0.9729950197035029,
      -0.05621129296315314, -0.9984188953257096,  -0.9694757888509009,    0.24518706089825248,
      -0.20529225518937003, -0.9787007152134215,  -0.5010297685179911,    -0.8654300497780327,
      0.8325048130050514,   0.5540178122799161,   -0.9795755938886522,    -0.20107624389194848,
      -0.9952849022860933,  -0.09699465594228225, 0.015913888692248572,   -0.9998733660552673,
      -0.9955516424774833,  0.09421744615720139,  -0.3676307237722356,    0.9299718549175036,
      -0.467720105990054,   -0.8838766330504799,  -0.9307735743883166,    -0.3655961613862989,
      -0.9178666523395089,  -0.3968889120686832,  0.42726617946442164,    -0.9041258827651582,
      0.45956510880665014,  -0.8881440822116262,  -0.4665550880197954,    -0.8844921423296201,
      0.6344386084645289,   -0.7729732544464861,  -0.9904421719295118,    -0.1379286194506108,
      0.9415583721928091,   -0.3368498653014834,  0.9755876248407312,     0.21961053312084247,
      -0.7659153106581272,  -0.6429414723747913,  -0.999980686867025,     -0.006214973286568021,
      0.804946467780533,    0.5933474395391314,   -0.34205510850995796,   0.9396798937628924,
      0.5908097600766509,   0.8068108994046685,   -0.999782637895199,     -0.020848907964629324,
      -0.23890682695408227, 0.9710424954834531,   0.9997642787082835,     -0.02171144902823237,
      -0.5798012249071798,  0.8147579638126491,   -0.9656333529800041,    0.2599081137875359,
      0.3563110915103714,   0.9343673828140021};
  const double z[] = {
      -0.8223683142101929, 0.5689554954327145,  -0.5875578175130557, 0.8091821865805591,
      0.12794844088282084, 0.991780820784338,   -0.3921881048125051, 0.9198850419718626,
      0.13676422995304754, 0.9906036267879045,  -0.3762197969044099, 0.9265304444092513,
      0.8388600338664048,  -0.5443471719239976, 0.9241484784052958,  0.38203349311438184,
      0.9544386637582964,  -0.298407166675463,  -0.9996485760528477, 0.026508949347600494,
      -0.99756543346499,   0.06973669016956813, 0.35363875869573674, -0.9353820761315337,
      0.15736718192563007, -0.9875401612353725, 0.9514635312491705,  -0.30776151270563173,
      0.2879128547023506,  0.9576566128300599};
  for (int r = 0; r < 75; ++r) data.X.row(r) << x[2 * r], x[2 * r + 1];
  for (int r = 0; r < 15; ++r) data.Z.row(r) << z[2 * r], z[2 * r + 1];
  data.alpha = {1, 0, 3, 2, 0, 4, 1, 2, 4, 3, 4, 3, 4, 3, 4};
  const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
  for (NormKind norm : {NormKind::Frobenius, NormKind::Nuclear, NormKind::Lp}) {
    SolverSettings st;
    st.norm = norm;
    st.p = 1.75;
    const MarginSolution sol = solveMargin(pb, st);
    ASSERT_EQ(sol.status, SolveStatus::Infeasible);
    EXPECT_GT(sol.farkas.dot(pb.b), 0.0);
    EXPECT_GE(sol.farkas.minCoeff(), 0.0);
    const Mat M = pb.U.transpose() * (sol.farkas.asDiagonal() * pb.Wq);
    EXPECT_LE(M.norm(), 1e-9 * sol.farkas.cwiseAbs().sum());
    EXPECT_NE(sol.message.find("sequence"), std::string::npos);
  }
}
