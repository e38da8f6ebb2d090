// The model's forward pass against a direct (naive) evaluation, unit bookkeeping, stability at
// large scores, and the model-level input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/model/model.hpp"
#include "engine_test_data.hpp"

namespace attnsvm {
namespace {

ModelSpec specFor(AttentionKind a, Parameterization p = Parameterization::W) {
  ModelSpec s;
  s.attention = a;
  s.param = p;
  return s;
}

// Direct evaluation of one unit: the textbook softmax (max subtracted) and loss.
struct Naive {
  Vec s;
  double f, loss;
};
Naive naiveUnit(const Mat& Xu, const Vec& q, double y, const Vec& v, LossKind loss) {
  Vec a = Xu * q;
  Vec s = (a.array() - a.maxCoeff()).exp();
  s /= s.sum();
  const double f = v.dot(Xu.transpose() * s);
  double l = 0;
  if (loss == LossKind::Logistic) l = std::log1p(std::exp(-y * f));
  if (loss == LossKind::Exponential) l = std::exp(-y * f);
  if (loss == LossKind::Correlation) l = -y * f;
  return {s, f, l};
}

TEST(Model, UnitsPerAttentionKind) {
  const Dataset data = testdata::gaussianDataset(3, 4, 2, 1);
  EXPECT_EQ(Model(data, specFor(AttentionKind::Cross)).units(), 3);
  EXPECT_EQ(Model(data, specFor(AttentionKind::Self)).units(), 3);
  const Model seq(data, specFor(AttentionKind::SeqToSeq));
  EXPECT_EQ(seq.units(), 12);
  EXPECT_EQ(seq.unitSequence(5), 1);
  EXPECT_EQ(seq.unitTokenCount(5), 4);
  const Model causal(data, specFor(AttentionKind::Causal));
  EXPECT_EQ(causal.unitTokenCount(5), 2);  // sequence 1, query position 1: tokens 0..1
  EXPECT_EQ(causal.unitTokenCount(0), 1);
}

TEST(Model, ForwardMatchesNaiveEvaluation) {
  const Dataset data = testdata::gaussianDataset(3, 4, 3, 2);
  Rng rng(3);
  const Mat W = rng.normalMatrix(3, 3);
  for (auto kind :
       {AttentionKind::Cross, AttentionKind::Self, AttentionKind::SeqToSeq, AttentionKind::Causal})
    for (auto loss : {LossKind::Logistic, LossKind::Exponential, LossKind::Correlation}) {
      ModelSpec spec = specFor(kind);
      spec.loss = loss;
      const Model model(data, spec);
      Params params = model.zeroParams();
      params.W = W;
      const Forward fw = model.forward(params);
      double total = 0;
      for (int u = 0; u < model.units(); ++u) {
        const int i = model.unitSequence(u), tau = model.unitTokenCount(u);
        const Mat Xu = data.tokens(i).topRows(tau);
        Vec z;
        if (kind == AttentionKind::Cross)
          z = data.Z.row(i).transpose();
        else if (kind == AttentionKind::Self)
          z = data.token(i, data.query).transpose();
        else
          z = data.token(i, u % data.T).transpose();
        const Naive ref = naiveUnit(Xu, W * z, data.Y[i], data.v, loss);
        for (int t = 0; t < data.T; ++t)
          EXPECT_NEAR(fw.softmax(u, t), t < tau ? ref.s[t] : 0.0, 1e-14);
        EXPECT_NEAR(fw.output[u], ref.f, 1e-13);
        Index best;
        ref.s.maxCoeff(&best);
        EXPECT_EQ(fw.selected[u], best);
        EXPECT_NEAR(fw.selectedProbability[u], ref.s[best], 1e-14);
        total += ref.loss;
      }
      EXPECT_NEAR(fw.loss, total / model.units(), 1e-13);
      EXPECT_NEAR(model.loss(params), fw.loss, 1e-15);
      std::vector<int> sel;
      Vec prob(model.units());
      model.selection(params, sel, prob);
      EXPECT_EQ(sel, fw.selected);
      EXPECT_EQ(prob, fw.selectedProbability);
    }
}

TEST(Model, PromptAndKQMatchTheirEffectiveW) {
  const Dataset data = testdata::gaussianDataset(3, 4, 3, 4);
  Rng rng(8);
  // (K,Q) is the W model at W = K Q^T.
  ModelSpec kq = specFor(AttentionKind::Cross, Parameterization::KQ);
  kq.m = 2;
  const Model mkq(data, kq);
  Params pkq = mkq.zeroParams();
  pkq.K = rng.normalMatrix(3, 2);
  pkq.Q = rng.normalMatrix(3, 2);
  const Model mw(data, specFor(AttentionKind::Cross));
  Params pw = mw.zeroParams();
  pw.W = effectiveWeights(kq, pkq);
  EXPECT_NEAR(mkq.loss(pkq), mw.loss(pw), 1e-14);
  // A prompt is cross attention with W z_i replaced by Wk^T p for every sequence.
  ModelSpec pr = specFor(AttentionKind::Cross, Parameterization::Prompt);
  pr.Wk = rng.normalMatrix(3, 3);
  const Model mp(data, pr);
  Params pp = mp.zeroParams();
  pp.p = rng.normalVector(3);
  Dataset shared = data;
  for (int i = 0; i < data.n; ++i) shared.Z.row(i) = (pr.Wk.transpose() * pp.p).transpose();
  const Model mshared(shared, specFor(AttentionKind::Cross));
  Params pid = mshared.zeroParams();
  pid.W = Mat::Identity(3, 3);
  EXPECT_NEAR(mp.loss(pp), mshared.loss(pid), 1e-14);
  EXPECT_EQ(effectiveWeights(pr, pp).cols(), 1);
}

TEST(Model, FiniteAtScoresOfMagnitude1e4) {
  const Dataset data = testdata::gaussianDataset(4, 6, 3, 5);
  for (auto loss : {LossKind::Logistic, LossKind::Exponential, LossKind::Correlation})
    for (auto head : {HeadKind::Linear, HeadKind::ReluMLP}) {
      ModelSpec spec;
      spec.loss = loss;
      spec.head = head;
      spec.V = Mat::Identity(3, 3);
      const Model model(data, spec);
      Params params = model.zeroParams();
      Rng rng(6);
      params.W = rng.normalMatrix(3, 3);
      params.W *= 1e4 / params.W.norm();
      const Forward fw = model.forward(params);
      EXPECT_TRUE(std::isfinite(fw.loss));
      EXPECT_TRUE(fw.softmax.allFinite());
      EXPECT_GT(fw.selectedProbability.minCoeff(), 0.0);
      for (int u = 0; u < model.units(); ++u) EXPECT_NEAR(fw.softmax.row(u).sum(), 1.0, 1e-14);
      Gradient g;
      model.gradient(params, g, true);
      EXPECT_TRUE(g.W.allFinite());
      EXPECT_TRUE(g.v.allFinite());
      EXPECT_FALSE(std::isnan(g.logScale));
    }
}

TEST(Model, LogisticLossIsStableForLargeMargins) {
  // One token per sequence: f = v . x exactly, so Y f can be made huge through v.
  Dataset data;
  data.n = 2;
  data.T = 1;
  data.d = 1;
  data.X = Mat::Constant(2, 1, 1.0);
  data.Z = Mat::Constant(2, 1, 1.0);
  data.Y = Eigen::Vector2d(1, -1);
  data.v = Vec::Constant(1, 800.0);
  const Model model(data, ModelSpec{});
  const Params params = model.zeroParams();
  // Sequence 0: l(800) ~ e^-800 (underflows to 0 in double); sequence 1: l(-800) = 800.
  EXPECT_NEAR(model.loss(params), 400.0, 1e-12);
  Gradient g;
  model.gradient(params, g);
  EXPECT_EQ(g.logScale, -std::numeric_limits<double>::infinity());  // T = 1: no attention gradient
  EXPECT_TRUE(g.W.allFinite());
}

TEST(Model, InputErrors) {
  const Dataset data = testdata::gaussianDataset(2, 3, 2, 1);
  ModelSpec prompt = specFor(AttentionKind::SeqToSeq, Parameterization::Prompt);
  prompt.Wk = Mat::Identity(2, 2);
  EXPECT_THROW(Model(data, prompt), InputError);
  prompt.attention = AttentionKind::Causal;
  EXPECT_THROW(Model(data, prompt), InputError);
  prompt.attention = AttentionKind::Cross;
  prompt.Wk = Mat::Identity(3, 3);
  EXPECT_THROW(Model(data, prompt), InputError);
  ModelSpec relu;
  relu.head = HeadKind::ReluMLP;  // V missing
  EXPECT_THROW(Model(data, relu), InputError);
  relu.V = Mat::Identity(2, 2);
  relu.V(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(Model(data, relu), InputError);
  ModelSpec kq = specFor(AttentionKind::Cross, Parameterization::KQ);
  kq.m = -1;
  EXPECT_THROW(Model(data, kq), InputError);
  Dataset bad = data;
  bad.Z.row(1).setZero();
  EXPECT_THROW(Model(bad, ModelSpec{}), InputError);

  const Model model(data, ModelSpec{});
  Params params = model.zeroParams();
  params.W = Mat::Zero(3, 3);
  EXPECT_THROW(model.loss(params), InputError);
  Gradient g;
  EXPECT_THROW(model.gradient(params, g), InputError);
  params = model.zeroParams();
  params.v = Vec::Zero(5);
  EXPECT_THROW(model.forward(params), InputError);
  // Prompt data need no queries at all.
  Dataset noZ = data;
  noZ.Z.resize(0, 0);
  prompt.Wk = Mat::Identity(2, 2);
  EXPECT_NO_THROW(Model(noZ, prompt));
}

TEST(Model, GradientDoesNotDependOnScratchState) {
  // The same Model evaluated at alternating parameters, and a copy, give identical results.
  const Dataset data = testdata::gaussianDataset(3, 4, 3, 9);
  ModelSpec spec = specFor(AttentionKind::SeqToSeq);
  const Model model(data, spec);
  Params a = model.zeroParams(), b = model.zeroParams();
  Rng rng(1);
  a.W = rng.normalMatrix(3, 3);
  b.W = rng.normalMatrix(3, 3);
  Gradient ga1, ga2, gb;
  model.gradient(a, ga1, true);
  model.gradient(b, gb, true);
  const Model copy = model;
  copy.gradient(a, ga2, true);
  EXPECT_EQ(ga1.W, ga2.W);
  EXPECT_EQ(ga1.v, ga2.v);
  EXPECT_EQ(ga1.logScale, ga2.logScale);
}

}  // namespace
}  // namespace attnsvm
