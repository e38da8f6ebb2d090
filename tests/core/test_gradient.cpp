// Gradient checks: central finite differences for every attention kind x parameterization x head
// x loss (and the head gradient of joint training), and the scaled direction against an
// independent long-double evaluation once the softmax saturates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/train/train.hpp"
#include "engine_test_data.hpp"
#include "finite_difference.hpp"
#include "relative_error.hpp"

namespace attnsvm {
namespace {

using Combo = std::tuple<AttentionKind, Parameterization, HeadKind, LossKind>;

std::string comboName(const ::testing::TestParamInfo<Combo>& info) {
  static const char* att[] = {"Cross", "Self", "SeqToSeq", "Causal"};
  static const char* par[] = {"W", "KQ", "Prompt"};
  static const char* head[] = {"Linear", "Relu"};
  static const char* loss[] = {"Logistic", "Exponential", "Correlation"};
  return std::string(att[static_cast<int>(std::get<0>(info.param))]) +
         par[static_cast<int>(std::get<1>(info.param))] +
         head[static_cast<int>(std::get<2>(info.param))] +
         loss[static_cast<int>(std::get<3>(info.param))];
}

// Relative error ||a - b|| / ||b||.
using test::relErr;

// Smallest |(V r)_j| over all units: FD steps must not cross a relu kink.
double reluMargin(const Model& model, const Params& params) {
  const Forward fw = model.forward(params);
  const Dataset& data = model.data();
  double margin = INFINITY;
  for (int u = 0; u < model.units(); ++u) {
    const int i = model.unitSequence(u);
    Vec r = Vec::Zero(data.d);
    for (int t = 0; t < model.unitTokenCount(u); ++t)
      r += fw.softmax(u, t) * data.token(i, t).transpose();
    margin = std::min(margin, (model.spec().V * r).cwiseAbs().minCoeff());
  }
  return margin;
}

class GradientFD : public ::testing::TestWithParam<Combo> {};

TEST_P(GradientFD, MatchesCentralDifferences) {
  const auto [attention, param, headKind, lossKind] = GetParam();
  // Draw data and parameters until no relu pre-activation is near its kink (deterministic).
  for (std::uint64_t seed = 1; seed < 50; ++seed) {
    Dataset data = testdata::gaussianDataset(3, 4, 3, seed);
    ModelSpec spec;
    spec.attention = attention;
    spec.param = param;
    spec.head = headKind;
    spec.loss = lossKind;
    spec.m = 2;  // m != d on purpose
    Rng rng(1000 + seed);
    spec.Wk = rng.normalMatrix(3, 3);
    spec.V = rng.normalMatrix(3, 3);
    const Model model(data, spec);
    Params params = model.zeroParams();
    const double scale = 0.7;
    if (param == Parameterization::W) params.W = scale * rng.normalMatrix(3, 3);
    if (param == Parameterization::KQ) {
      params.K = scale * rng.normalMatrix(3, 2);
      params.Q = scale * rng.normalMatrix(3, 2);
    }
    if (param == Parameterization::Prompt) params.p = scale * rng.normalVector(3);
    params.v = rng.normalVector(3);
    if (headKind == HeadKind::ReluMLP && reluMargin(model, params) < 1e-3) continue;

    Gradient g;
    model.gradient(params, g, /*withHead=*/true);
    ASSERT_TRUE(std::isfinite(g.logScale));
    ASSERT_TRUE(std::isfinite(g.logScaleHead));
    const double scaleQ = std::exp(g.logScale);
    const double h = 1e-5;
    switch (param) {
      case Parameterization::W:
        EXPECT_LE(relErr(scaleQ * g.W, finiteDifference(model, params, &Params::W, h)), 1e-6);
        break;
      case Parameterization::KQ:
        EXPECT_LE(relErr(scaleQ * g.K, finiteDifference(model, params, &Params::K, h)), 1e-6);
        EXPECT_LE(relErr(scaleQ * g.Q, finiteDifference(model, params, &Params::Q, h)), 1e-6);
        break;
      case Parameterization::Prompt:
        EXPECT_LE(relErr(scaleQ * g.p, finiteDifference(model, params, &Params::p, h)), 1e-6);
        break;
    }
    EXPECT_LE(
        relErr(std::exp(g.logScaleHead) * g.v, finiteDifference(model, params, &Params::v, h)),
        1e-6);
    // The by-product loss is the model's loss.
    EXPECT_NEAR(g.loss, model.loss(params), 1e-14 * std::max(1.0, std::abs(g.loss)));
    return;
  }
  FAIL() << "no kink-free relu configuration found";
}

std::vector<Combo> allCombos() {
  std::vector<Combo> out;
  for (auto a :
       {AttentionKind::Cross, AttentionKind::Self, AttentionKind::SeqToSeq, AttentionKind::Causal})
    for (auto p : {Parameterization::W, Parameterization::KQ, Parameterization::Prompt})
      for (auto hk : {HeadKind::Linear, HeadKind::ReluMLP})
        for (auto l : {LossKind::Logistic, LossKind::Exponential, LossKind::Correlation}) {
          // A prompt is one query shared by all units: only one softmax per sequence makes sense.
          if (p == Parameterization::Prompt &&
              (a == AttentionKind::SeqToSeq || a == AttentionKind::Causal))
            continue;
          out.emplace_back(a, p, hk, l);
        }
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllCombinations, GradientFD, ::testing::ValuesIn(allCombos()), comboName);

// ---- the scaled direction against an independent long-double evaluation ----

using LMat = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using LVec = Eigen::Matrix<long double, Eigen::Dynamic, 1>;

// Cross attention, W, linear head, logistic loss, in long double by a different formula: the
// pairwise form X^T ds = sum_{t<u} s_t s_u (c_t - c_u)(x_t - x_u), softmax by max subtraction.
// Returns the gradient divided by its largest entry (its true size may underflow a double).
Mat referenceDirection(const Dataset& data, const Mat& W) {
  const int n = data.n, T = data.T, d = data.d;
  const LMat Wl = W.cast<long double>();
  const LVec v = data.v.cast<long double>();
  LMat G = LMat::Zero(d, d);
  std::vector<long double> logCoef(n);
  std::vector<LVec> dirs(n);
  for (int i = 0; i < n; ++i) {
    const LMat Xi = data.tokens(i).cast<long double>();
    const LVec z = data.Z.row(i).transpose().cast<long double>();
    const LVec a = Xi * (Wl * z);
    const long double top = a.maxCoeff();
    LVec s(T);
    for (int t = 0; t < T; ++t) s[t] = std::exp(a[t] - top);
    s /= s.sum();
    const LVec c = Xi * v;
    LVec xds = LVec::Zero(d);
    for (int t = 0; t < T; ++t)
      for (int u = t + 1; u < T; ++u)
        xds += (s[t] * s[u] * (c[t] - c[u])) * (Xi.row(t) - Xi.row(u)).transpose();
    const long double f = v.dot(Xi.transpose() * s);
    const long double y = data.Y[i];
    const long double lprime = -1.0L / (1.0L + std::exp(y * f));  // logistic l'(Yf)
    G += (lprime * y / n) * xds * z.transpose();
  }
  const long double big = G.cwiseAbs().maxCoeff();
  return (G / big).cast<double>();
}

TEST(GradientDirection, MatchesLongDoubleAtLargeNorms) {
  const Dataset data = testdata::gaussianDataset(4, 5, 3, 7);
  ModelSpec spec;  // cross, W, linear, logistic
  const Model model(data, spec);
  // Among random unit directions take the one whose smallest score gap (selected token minus the
  // runner-up, over all sequences) is largest, so that every softmax saturates as ||W|| grows.
  Rng rng(99);
  Mat dir;
  double bestGap = -INFINITY;
  for (int trial = 0; trial < 200; ++trial) {
    Mat cand = rng.normalMatrix(3, 3);
    cand /= cand.norm();
    double gap = INFINITY;
    for (int i = 0; i < data.n; ++i) {
      Vec a = data.tokens(i) * (cand * data.Z.row(i).transpose());
      Index top;
      const double best = a.maxCoeff(&top);
      a[top] = -INFINITY;
      gap = std::min(gap, best - a.maxCoeff());
    }
    if (gap > bestGap) {
      bestGap = gap;
      dir = cand;
    }
  }
  for (double norm : {10.0, 100.0, 1000.0}) {
    Params params = model.zeroParams();
    params.W = norm * dir / dir.norm();
    Gradient g;
    model.gradient(params, g);
    const Mat ref = referenceDirection(data, params.W);
    const Mat ours = g.W / g.W.cwiseAbs().maxCoeff();
    const double err = (ours / ours.norm() - ref / ref.norm()).norm();
    EXPECT_LE(err, 1e-12) << "||W|| = " << norm << ", logScale = " << g.logScale;
    // At ||W|| = 1000 the true gradient is far below what a naive evaluation resolves.
    if (norm >= 1000.0) EXPECT_LT(g.logScale, -100.0) << "min gap " << bestGap;
  }
}

// The realistic case: the W reached by normalized GD on the local-convergence setting, where
// the papers' float64 PyTorch gradient is rounding noise. The direction must still be exact.
TEST(GradientDirection, MatchesLongDoubleAlongATrainedPath) {
  const Scenario sc = makeScenario("local-convergence");
  const Model model(sc.data, sc.model);
  TrainSettings s = sc.train;
  s.traceEvery = 1000000;
  Trainer tr(model, s, sc.init);
  for (int stage = 0; stage < 3; ++stage) {
    tr.step(stage == 0 ? 500 : 1000);  // iterations 500, 1500, 2500
    Gradient g;
    model.gradient(tr.params(), g);
    const Mat ref = referenceDirection(sc.data, tr.params().W);
    const Mat ours = g.W / g.W.cwiseAbs().maxCoeff();
    EXPECT_LE((ours / ours.norm() - ref / ref.norm()).norm(), 1e-12)
        << "iteration " << tr.iteration() << ", logScale " << g.logScale;
  }
}

// Many units whose contributions differ by hundreds of orders of magnitude: the direction is the
// dominant unit's, and a naive double evaluation would give exactly zero.
TEST(GradientDirection, UnderflowingGradientKeepsDirection) {
  const Dataset data = testdata::gaussianDataset(3, 4, 3, 21);
  ModelSpec spec;
  const Model model(data, spec);
  Params params = model.zeroParams();
  Rng rng(5);
  const Mat dir = rng.normalMatrix(3, 3);
  params.W = 1e4 * dir / dir.norm();
  Gradient g;
  model.gradient(params, g);
  EXPECT_TRUE(std::isfinite(g.W.norm()));
  EXPECT_GT(g.W.norm(), 0.1);
  EXPECT_LT(g.logScale, -700.0);  // exp(logScale) is 0 in double: the true gradient underflows
  EXPECT_TRUE(std::isfinite(model.loss(params)));
}

// ---- measurement for docs/NUMERICS.md (not a check; run with --gtest_also_run_disabled_tests)
// ----

// The SPEC formula in plain double: what a float64 reference implementation computes.
Mat naiveGradient(const Dataset& data, const Mat& W) {
  Mat G = Mat::Zero(data.d, data.d);
  for (int i = 0; i < data.n; ++i) {
    const Mat Xi = data.tokens(i);
    const Vec z = data.Z.row(i).transpose();
    const Vec a = Xi * (W * z);
    Vec s = (a.array() - a.maxCoeff()).exp();
    s /= s.sum();
    const Vec c = Xi * data.v;
    const Vec ds = s.array() * (c.array() - s.dot(c));
    const double f = data.v.dot(Xi.transpose() * s), y = data.Y[i];
    G += (-y / (1 + std::exp(y * f)) / data.n) * (Xi.transpose() * ds) * z.transpose();
  }
  return G;
}

TEST(GradientDirection, DISABLED_NaiveVsStableReport) {
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    ScenarioOptions o;
    o.seed = seed;
    const Scenario sc = makeScenario("local-convergence", o);
    const Model model(sc.data, sc.model);
    TrainSettings ts = sc.train;
    ts.traceEvery = 1 << 30;
    Trainer tr(model, ts, sc.init);
    Mat naiveW = Mat::Zero(sc.data.d, sc.data.d);  // an NGD run driven by the naive gradient
    int done = 0;
    for (int checkpoint : {600, 1000, 1200, 2000, 20000}) {
      tr.step(checkpoint - done);
      for (; done < checkpoint; ++done) {
        const Mat G = naiveGradient(sc.data, naiveW);
        if (G.norm() > 0) naiveW -= 0.1 * G / G.norm();
      }
      Gradient g;
      model.gradient(tr.params(), g);
      const Mat naive = naiveGradient(sc.data, tr.params().W);
      const double cosine = naive.norm() > 0 ? correlation(naive, g.W) : 0.0;
      std::printf(
          "seed %d it %5d |W| %7.1f true|grad| %.2e naive|grad| %.2e cos %+.5f corr(naive run, "
          "stable run) %.6f\n",
          static_cast<int>(seed), checkpoint, tr.params().W.norm(),
          std::exp(g.logScale) * g.W.norm(), naive.norm(), cosine,
          correlation(naiveW, tr.params().W));
    }
  }
}

}  // namespace
}  // namespace attnsvm
