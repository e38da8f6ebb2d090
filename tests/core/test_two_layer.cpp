// The two-layer attention model (SPEC 5.3 "Two layers"): its gradient against central finite
// differences for every loss, at a start and in a sharp (nearly saturated) regime; the checks of
// its input; its NGD step.
#include <gtest/gtest.h>

#include <cmath>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/model/two_layer.hpp"
#include "attnsvm/train/two_layer_train.hpp"
#include "finite_difference.hpp"
#include "relative_error.hpp"

namespace attnsvm {
namespace {

using test::relErr;

TwoLayerParams randomParams(const Dataset& data, double scale, std::uint64_t seed) {
  Rng rng(seed);
  TwoLayerParams p;
  p.W1 = scale * rng.normalMatrix(data.d, data.d);
  p.W2 = scale * rng.normalMatrix(data.d, data.d);
  p.v = rng.normalVector(data.d);
  return p;
}

void expectGradientMatches(const TwoLayerModel& model, const TwoLayerParams& p, double tol) {
  TwoLayerGradient g;
  model.gradient(p, g);
  EXPECT_NEAR(g.loss, model.loss(p), 1e-14 * std::max(1.0, std::abs(g.loss)));
  const double h = 1e-6;
  EXPECT_LT(relErr(g.W1, finiteDifference(model, p, &TwoLayerParams::W1, h)), tol) << "W1";
  EXPECT_LT(relErr(g.W2, finiteDifference(model, p, &TwoLayerParams::W2, h)), tol) << "W2";
  EXPECT_LT(relErr(g.v, finiteDifference(model, p, &TwoLayerParams::v, h)), tol) << "v";
}

TEST(TwoLayer, GradientMatchesFiniteDifferencesForEveryLoss) {
  for (LossKind loss : {LossKind::Logistic, LossKind::Exponential, LossKind::Correlation}) {
    SCOPED_TRACE(static_cast<int>(loss));
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      const Dataset data = sphereDataset(3, 4, 5, seed);
      const TwoLayerModel model(data, loss);
      expectGradientMatches(model, randomParams(data, 1.0, 100 + seed), 1e-6);
    }
  }
}

// Larger weights: the softmaxes are sharp (1 - max ~ 1e-3 .. 1e-6) and the gradient is small; the
// backward pass that forms no 1 - s_alpha must still match.
TEST(TwoLayer, GradientMatchesInASharpRegime) {
  const Dataset data = sphereDataset(2, 5, 4, 7);
  const TwoLayerModel model(data);
  const TwoLayerParams p = randomParams(data, 6.0, 8);
  const TwoLayerForward fw = model.forward(p);
  EXPECT_LT(fw.residual1.minCoeff(), 1e-2);  // the regime is what the test claims
  expectGradientMatches(model, p, 1e-5);
}

TEST(TwoLayer, ForwardIsTheDefinition) {
  // A hand-computed sequence: T = 2, d = 1, tokens 1 and -1, W1 = W2 = 1, v = 1, Y = 1.
  Dataset data;
  data.n = 1;
  data.T = 2;
  data.d = 1;
  data.X = (Mat(2, 1) << 1.0, -1.0).finished();
  data.Y = Vec::Ones(1);
  data.v = Vec::Ones(1);
  const TwoLayerModel model(data);
  TwoLayerParams p = model.zeroParams();
  p.W1.setConstant(1.0);
  p.W2.setConstant(1.0);
  const TwoLayerForward fw = model.forward(p);
  // Query 0 (x = 1): scores (1, -1), so h_0 = tanh(1); query 1: h_1 = -tanh(1).
  const double h0 = std::tanh(1.0), h1 = -h0;
  EXPECT_NEAR(fw.H(0, 0), h0, 1e-15);
  EXPECT_NEAR(fw.H(1, 0), h1, 1e-15);
  // Layer 2: query h_0, scores (h0 h0, h1 h0).
  const double e0 = std::exp(h0 * h0), e1 = std::exp(h1 * h0);
  const double f = (e0 * h0 + e1 * h1) / (e0 + e1);
  EXPECT_NEAR(fw.output[0], f, 1e-15);
  EXPECT_NEAR(fw.loss, std::log1p(std::exp(-f)), 1e-15);
  EXPECT_EQ(fw.selected1, (std::vector<int>{0, 1}));
  EXPECT_EQ(fw.selected2[0], 0);
  EXPECT_NEAR(fw.residual2[0], e1 / (e0 + e1), 1e-15);
}

TEST(TwoLayer, BadInputNamesTheField) {
  const Dataset data = sphereDataset(2, 3, 4, 1);
  const TwoLayerModel model(data);
  TwoLayerParams p = model.zeroParams();
  p.W1 = Mat::Zero(3, 4);
  try {
    (void)model.loss(p);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("W1 is 3 x 4"), std::string::npos) << e.what();
  }
  p = model.zeroParams();
  p.W2(1, 2) = std::nan("");
  EXPECT_THROW((void)model.loss(p), InputError);
  Dataset bad = data;
  bad.X(4, 2) = std::nan("");
  try {
    TwoLayerModel m(bad);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("X[1][1][2]"), std::string::npos) << e.what();
  }
}

TEST(TwoLayer, NgdStepsLowerTheLossAndStopOnAZeroGradient) {
  const Dataset data = sphereDataset(4, 5, 6, 3);
  const TwoLayerModel model(data);
  TwoLayerParams p = randomParams(data, 0.1, 4);
  p.v = data.v;
  TwoLayerGradient g;
  TwoLayerTrainSettings ts;
  const double before = model.loss(p);
  for (int k = 0; k < 200; ++k) ASSERT_EQ(twoLayerNgdStep(model, ts, p, g), "");
  EXPECT_LT(model.loss(p), before);
  EXPECT_EQ(p.v, data.v);  // the head is not trained unless asked
  // Each block moves by exactly eta per step (its own normalization).
  TwoLayerParams q = p;
  ASSERT_EQ(twoLayerNgdStep(model, ts, q, g), "");
  EXPECT_NEAR((q.W1 - p.W1).norm(), ts.lr, 1e-12);
  EXPECT_NEAR((q.W2 - p.W2).norm(), ts.lr, 1e-12);
  // v = 0: f = 0 for every sequence and every W, so the gradient is exactly zero.
  TwoLayerParams z = p;
  z.v.setZero();
  EXPECT_NE(twoLayerNgdStep(model, ts, z, g).find("gradient underflow"), std::string::npos);
  EXPECT_EQ(z.W1, p.W1);
}

}  // namespace
}  // namespace attnsvm
