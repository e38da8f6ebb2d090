// Training: optimizers (MD p=2 is GD bit for bit), mirror maps, traces, stop reasons, settings
// errors, initializations, the regularization path, and local convergence on the paper setting.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/train/optimizers.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"
#include "engine_test_data.hpp"
#include "registry_test.hpp"

namespace attnsvm {
namespace {

TrainSettings settingsFor(Optimizer o, double lr, double p = 2.0) {
  TrainSettings s;
  s.optimizer = o;
  s.lr = lr;
  s.p = p;
  return s;
}

bool traceHasNaN(const Trace& t) {
  for (const auto* v :
       {&t.loss, &t.normFro, &t.normNuc, &t.normLp, &t.selectedProbability, &t.corr, &t.softmax})
    for (double x : *v)
      if (!std::isfinite(x)) return true;
  return false;
}

TEST(Mirror, RoundTripForManyP) {
  Rng rng(1);
  const Mat W = 3.0 * rng.normalMatrix(5, 4);
  for (double p : {1.1, 1.5, 1.75, 2.0, 3.0, 4.0, 10.0}) {
    const Mat back = inverseMirrorMap(mirrorMap(W, p), p);
    for (Index k = 0; k < W.size(); ++k)
      EXPECT_NEAR(back(k), W(k), 2e-14 * std::max(1.0, std::abs(W(k)))) << "p = " << p;
    const Mat U = mirrorMap(W, p);
    EXPECT_NEAR(U(0, 0), std::copysign(std::pow(std::abs(W(0, 0)), p - 1), W(0, 0)), 1e-13);
  }
  EXPECT_EQ(mirrorMap(W, 2.0), W);
  EXPECT_THROW(mirrorMap(W, 1.0), InputError);
  EXPECT_THROW(inverseMirrorMap(W, 0.5), InputError);
}

// The optimizer registry is the one list: in the enum's order, each entry's wire name is the
// vocabulary's (aliases resolve to it), its properties answer isMirrorOptimizer /
// isNormalizedOptimizer, and the Trainer takes finite steps with every entry, alone and as the
// head's optimizer.
TEST(OptimizerRegistry, EveryEntryIsNamedAndTrains) {
  test::expectNamedRegistry<Optimizer>(optimizerRegistry(), optimizerInfo, "optimizer");
  const Dataset data = sphereDataset(3, 4, 3, 1);
  for (const OptimizerInfo& info : optimizerRegistry()) {
    SCOPED_TRACE(info.names[0]);
    EXPECT_EQ(isMirrorOptimizer(info.kind), info.mirror);
    EXPECT_EQ(isNormalizedOptimizer(info.kind),
              info.scale == StepScale::Frobenius || info.scale == StepScale::DualNorm);
    ModelSpec spec;
    TrainSettings s;
    s.optimizer = info.kind;
    s.p = 1.5;
    s.trainHead = true;
    s.headOptimizer = info.kind;
    InitSettings init;
    init.kind = InitKind::Random;
    init.seed = 4;
    const Model model(data, spec);
    Trainer tr(model, s, initialParams(model, init));
    EXPECT_EQ(tr.step(5), 5) << tr.stopReason();
    EXPECT_TRUE(tr.params().W.allFinite() && tr.params().v.allFinite());
  }
}

TEST(Train, MirrorDescentWithP2IsGradientDescentBitForBit) {
  const Dataset data = sphereDataset(4, 5, 3, 2);
  const Model model(data, ModelSpec{});
  // The Frobenius-normalized MD (nmd-fro) at p = 2 is NGD exactly; the paper's dual-norm NMD adds
  // eps to the normalizer (test_mirror.cpp checks it against NGD where eps is below an ulp).
  for (auto [md, gd] :
       {std::pair{Optimizer::MD, Optimizer::GD}, std::pair{Optimizer::NMDFro, Optimizer::NGD}}) {
    Trainer a(model, settingsFor(md, 0.5, 2.0), model.zeroParams());
    Trainer b(model, settingsFor(gd, 0.5), model.zeroParams());
    a.step(50);
    b.step(50);
    EXPECT_EQ(a.params().W, b.params().W);
  }
}

TEST(Train, MirrorDescentStepMatchesDefinition) {
  const Dataset data = sphereDataset(3, 4, 3, 5);
  const Model model(data, ModelSpec{});
  Rng rng(2);
  Params init = model.zeroParams();
  init.W = rng.normalMatrix(3, 3);
  const double p = 3.0, lr = 0.3;
  Trainer tr(model, settingsFor(Optimizer::MD, lr, p), init);
  tr.step(1);
  Gradient g;
  model.gradient(init, g);
  const Mat expected = inverseMirrorMap(mirrorMap(init.W, p) - lr * std::exp(g.logScale) * g.W, p);
  EXPECT_LE((tr.params().W - expected).norm(), 1e-14 * expected.norm());
}

TEST(Train, NormalizedStepHasLengthLr) {
  const Dataset data = sphereDataset(3, 4, 3, 6);
  const Model model(data, ModelSpec{});
  Trainer tr(model, settingsFor(Optimizer::NGD, 0.25), model.zeroParams());
  tr.step(1);
  EXPECT_NEAR(tr.params().W.norm(), 0.25, 1e-15);
}

TEST(Train, TraceLayoutAndContents) {
  const Dataset data = sphereDataset(3, 4, 3, 7);
  const Model model(data, ModelSpec{});
  TrainSettings s = settingsFor(Optimizer::NGD, 0.1);
  s.traceEvery = 10;
  s.traceSoftmax = true;
  Trainer tr(model, s, model.zeroParams());
  Rng rng(3);
  const Mat ref = rng.normalMatrix(3, 3);
  tr.addReference("random", ref);
  EXPECT_EQ(tr.step(100), 100);
  EXPECT_THROW(tr.addReference("late", ref), InputError);
  const Trace t = tr.takeTrace();
  ASSERT_EQ(t.frames(), 11);
  EXPECT_EQ(t.iteration.front(), 0);
  EXPECT_EQ(t.iteration.back(), 100);
  EXPECT_EQ(t.units, 3);
  EXPECT_EQ(t.references, 1);
  EXPECT_EQ(t.selected.size(), 33u);
  EXPECT_EQ(t.selectedProbability.size(), 33u);
  EXPECT_EQ(t.corr.size(), 11u);
  EXPECT_EQ(t.softmax.size(), 11u * 3 * 4);
  EXPECT_FALSE(traceHasNaN(t));
  EXPECT_EQ(t.normFro[0], 0.0);
  EXPECT_NEAR(t.selectedProbability[0], 0.25, 1e-15);  // W = 0: uniform over T = 4
  // The last frame describes the trainer's current state.
  const Mat W = tr.weights();
  EXPECT_NEAR(t.normFro.back(), W.norm(), 1e-12);
  EXPECT_NEAR(t.normLp.back(), W.norm(), 1e-12);
  Eigen::JacobiSVD<Mat> svd(W);
  EXPECT_NEAR(t.normNuc.back(), svd.singularValues().sum(), 1e-7 * W.norm());
  EXPECT_NEAR(t.corr.back(), correlation(W, ref), 1e-14);
  const Forward fw = model.forward(tr.params());
  for (int u = 0; u < 3; ++u) {
    EXPECT_EQ(t.selected[10 * 3 + u], fw.selected[u]);
    EXPECT_NEAR(t.selectedProbability[10 * 3 + u], fw.selectedProbability[u], 1e-15);
  }
  EXPECT_NEAR(t.loss.back(), fw.loss, 1e-15);
  // Draining: the next call returns only new frames.
  tr.step(5);
  EXPECT_EQ(tr.takeTrace().frames(), 0);
  tr.step(5);
  const Trace t2 = tr.takeTrace();
  ASSERT_EQ(t2.frames(), 1);
  EXPECT_EQ(t2.iteration[0], 110);
}

TEST(Train, TraceLpNormUsesMirrorExponent) {
  const Dataset data = sphereDataset(3, 4, 3, 8);
  const Model model(data, ModelSpec{});
  Trainer tr(model, settingsFor(Optimizer::NMD, 0.1, 3.0), model.zeroParams());
  tr.step(20);
  const Trace t = tr.takeTrace();
  const Mat W = tr.weights();
  EXPECT_NEAR(t.normLp.back(), std::pow(W.cwiseAbs().array().pow(3.0).sum(), 1.0 / 3.0), 1e-12);
}

TEST(Train, CorrelationFunction) {
  const Mat a = Mat::Identity(2, 2);
  EXPECT_NEAR(correlation(a, 2.0 * a), 1.0, 1e-15);
  EXPECT_NEAR(correlation(a, -a), -1.0, 1e-15);
  EXPECT_EQ(correlation(a, Mat::Zero(2, 2)), 0.0);
  EXPECT_NEAR(correlation(1e300 * a, 1e300 * a), 1.0, 1e-15);  // no overflow
  EXPECT_THROW(correlation(a, Mat::Zero(3, 2)), InputError);
}

TEST(Train, SettingsErrors) {
  const Dataset data = sphereDataset(3, 4, 3, 1);
  const Model model(data, ModelSpec{});
  const Params init = model.zeroParams();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::GD, 0.0), init), InputError);
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::GD, -1.0), init), InputError);
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::GD, nan), init), InputError);
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::MD, 0.1, 1.0), init), InputError);
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::NMD, 0.1, 0.5), init), InputError);
  TrainSettings s = settingsFor(Optimizer::NGD, 0.1);
  s.traceEvery = 0;
  EXPECT_THROW(Trainer(model, s, init), InputError);
  s = settingsFor(Optimizer::NGD, 0.1);
  s.trainHead = true;
  s.headLr = 0.0;
  EXPECT_THROW(Trainer(model, s, init), InputError);
  s.headLr = 0.1;
  s.headP = 1.0;
  EXPECT_THROW(Trainer(model, s, init), InputError);
  Params badInit = init;
  badInit.W(1, 1) = nan;
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::NGD, 0.1), badInit), InputError);
  badInit = init;
  badInit.W = Mat::Zero(2, 2);
  EXPECT_THROW(Trainer(model, settingsFor(Optimizer::NGD, 0.1), badInit), InputError);
  Trainer ok(model, settingsFor(Optimizer::NGD, 0.1), init);
  EXPECT_THROW(ok.addReference("wrong shape", Mat::Zero(3, 1)), InputError);
  EXPECT_THROW(ok.step(-1), InputError);
}

TEST(Train, DivergentRunStopsWithReasonAndNoNaN) {
  const Dataset data = sphereDataset(4, 5, 3, 3);
  const Model model(data, ModelSpec{});
  // A huge plain-GD step overflows the parameters (or their norm) on the first iteration.
  Trainer a(model, settingsFor(Optimizer::GD, 1e308), model.zeroParams());
  EXPECT_LT(a.step(100), 100);
  EXPECT_TRUE(a.stopped());
  EXPECT_FALSE(a.stopReason().empty());
  EXPECT_TRUE(a.params().W.allFinite());
  EXPECT_FALSE(traceHasNaN(a.takeTrace()));
  // A large but finite step exceeds maxNorm: the run stops and says so.
  TrainSettings s = settingsFor(Optimizer::GD, 1e20);
  Trainer b(model, s, model.zeroParams());
  b.step(10);
  EXPECT_TRUE(b.stopped());
  EXPECT_NE(b.stopReason().find("maxNorm"), std::string::npos) << b.stopReason();
  const Trace tb = b.takeTrace();
  EXPECT_FALSE(traceHasNaN(tb));
  EXPECT_EQ(tb.iteration.back(), 1);  // the last (finite) state is recorded
  // Joint training with the exponential loss and a huge head step: stops, never NaN.
  ModelSpec expSpec;
  expSpec.loss = LossKind::Exponential;
  const Model expModel(data, expSpec);
  TrainSettings js = settingsFor(Optimizer::NGD, 0.1);
  js.trainHead = true;
  js.headOptimizer = Optimizer::GD;
  js.headLr = 1e300;
  Trainer c(expModel, js, expModel.zeroParams());
  c.step(50);
  EXPECT_TRUE(c.stopped());
  EXPECT_FALSE(traceHasNaN(c.takeTrace()));
  EXPECT_EQ(c.step(5), 0);  // a stopped run takes no more steps
}

TEST(Train, ZeroGradientDirectionStopsNormalizedGD) {
  // Every token of every sequence equal: the loss does not depend on W.
  Dataset data = sphereDataset(2, 3, 2, 4);
  for (int i = 0; i < 2; ++i)
    for (int t = 1; t < 3; ++t) data.X.row(i * 3 + t) = data.X.row(i * 3);
  const Model model(data, ModelSpec{});
  Trainer ngd(model, settingsFor(Optimizer::NGD, 0.1), model.zeroParams());
  EXPECT_EQ(ngd.step(10), 0);
  EXPECT_NE(ngd.stopReason().find("zero gradient"), std::string::npos);
  // Plain GD takes (exact) zero steps instead.
  Trainer gd(model, settingsFor(Optimizer::GD, 0.1), model.zeroParams());
  EXPECT_EQ(gd.step(10), 10);
  EXPECT_EQ(gd.params().W.norm(), 0.0);
}

TEST(Train, GDWithUnderflowingGradientTakesZeroSteps) {
  const Dataset data = sphereDataset(6, 8, 10, 0);
  const Model model(data, ModelSpec{});
  Trainer ngd(model, settingsFor(Optimizer::NGD, 2.0), model.zeroParams());
  ngd.step(2000);  // ||W|| about 4000: the true gradient is far below 1e-300
  Gradient g;
  model.gradient(ngd.params(), g);
  ASSERT_LT(g.logScale, -745.0);
  Trainer gd(model, settingsFor(Optimizer::GD, 1.0), ngd.params());
  gd.step(3);
  EXPECT_FALSE(gd.stopped());
  EXPECT_EQ(gd.params().W, ngd.params().W);
  // Normalized GD keeps moving: the direction is still accurate.
  Trainer more(model, settingsFor(Optimizer::NGD, 0.5), ngd.params());
  more.step(1);
  EXPECT_NEAR((more.params().W - ngd.params().W).norm(), 0.5, 1e-12);
}

TEST(Train, JointTrainingMovesTheHead) {
  const Scenario sc = makeScenario("joint-pv");
  const Model model(sc.data, sc.model);
  Trainer tr(model, sc.train, sc.init);
  tr.step(200);
  EXPECT_FALSE(tr.stopped()) << tr.stopReason();
  EXPECT_GT((tr.params().v - sc.init.v).norm(), 1.0);
  EXPECT_LT(tr.takeTrace().loss.back(), model.loss(sc.init));
}

TEST(Train, KQFactorsAreNormalizedSeparately) {
  const Dataset data = sphereDataset(3, 4, 3, 9);
  ModelSpec spec;
  spec.param = Parameterization::KQ;
  const Model model(data, spec);
  InitSettings init;
  init.kind = InitKind::Random;
  init.seed = 4;
  const Params p0 = initialParams(model, init);
  TrainSettings s = settingsFor(Optimizer::NGD, 0.05);
  s.balance = 0.0;
  Trainer tr(model, s, p0);
  tr.step(1);
  EXPECT_NEAR((tr.params().K - p0.K).norm(), 0.05, 1e-15);
  EXPECT_NEAR((tr.params().Q - p0.Q).norm(), 0.05, 1e-15);
  // With Q = 0, grad_K = grad_W Q = 0: only Q moves (K stays) and the run continues.
  Params saddle = p0;
  saddle.Q.setZero();
  Trainer tr2(model, s, saddle);
  EXPECT_EQ(tr2.step(1), 1);
  EXPECT_EQ(tr2.params().K, saddle.K);
  EXPECT_NEAR(tr2.params().Q.norm(), 0.05, 1e-15);
}

TEST(Train, BalanceTermIsAddedInTheLogDomain) {
  const Dataset data = sphereDataset(3, 4, 3, 10);
  ModelSpec spec;
  spec.param = Parameterization::KQ;
  const Model model(data, spec);
  InitSettings init;
  init.kind = InitKind::Random;
  init.seed = 5;
  const Params p0 = initialParams(model, init);
  Gradient g;
  model.gradient(p0, g);
  // Plain GD with a large balance: the step is the data gradient plus 2 balance K exactly.
  TrainSettings s = settingsFor(Optimizer::GD, 0.1);
  s.balance = 0.3;
  Trainer tr(model, s, p0);
  tr.step(1);
  const Mat expectedK = p0.K - 0.1 * (std::exp(g.logScale) * g.K + 2 * 0.3 * p0.K);
  EXPECT_LE((tr.params().K - expectedK).norm(), 1e-14 * expectedK.norm());
}

TEST(Train, Initializations) {
  const Dataset data = sphereDataset(3, 4, 3, 11);
  const Model model(data, ModelSpec{});
  InitSettings r;
  r.kind = InitKind::Random;
  r.seed = 7;
  r.scale = 0.5;
  const Params a = initialParams(model, r), b = initialParams(model, r);
  EXPECT_EQ(a.W, b.W);
  EXPECT_NEAR(a.W.norm(), 0.5 * 3, 1.0);
  EXPECT_EQ(a.v, data.v);
  InitSettings zero;
  EXPECT_EQ(initialParams(model, zero).W.norm(), 0.0);
  InitSettings cone;
  cone.kind = InitKind::Cone;
  cone.direction = Rng(1).normalMatrix(3, 3);
  cone.scale = 2.0;
  const Params c = initialParams(model, cone);
  EXPECT_NEAR(c.W.norm(), 2.0, 1e-14);
  EXPECT_NEAR(correlation(c.W, cone.direction), 1.0, 1e-14);
  cone.coneNoise = 0.1;
  const Params cn = initialParams(model, cone);
  EXPECT_NEAR((cn.W - c.W).norm(), 0.2, 1e-14);
  cone.direction = Mat::Zero(3, 3);
  EXPECT_THROW(initialParams(model, cone), InputError);
  cone.direction = Mat::Ones(3, 1);
  EXPECT_THROW(initialParams(model, cone), InputError);
  // (K,Q) in a cone: K Q^T is the scaled direction when m = d.
  ModelSpec kq;
  kq.param = Parameterization::KQ;
  const Model mkq(data, kq);
  InitSettings ckq;
  ckq.kind = InitKind::Cone;
  ckq.direction = Rng(2).normalMatrix(3, 3);
  ckq.scale = 3.0;
  const Params pkq = initialParams(mkq, ckq);
  EXPECT_LE((pkq.K * pkq.Q.transpose() - 3.0 * ckq.direction / ckq.direction.norm()).norm(), 1e-13);
  InitSettings given;
  given.kind = InitKind::Given;
  given.given.W = Mat::Ones(2, 2);
  EXPECT_THROW(initialParams(model, given), InputError);
  given.given.W = Mat::Ones(3, 3);
  EXPECT_EQ(initialParams(model, given).W, Mat::Ones(3, 3));
}

TEST(Train, RegularizationPathStaysInTheBallAndImproves) {
  const Dataset data = sphereDataset(4, 4, 3, 12);
  const Model model(data, ModelSpec{});
  const std::vector<double> radii = {0.5, 1, 2, 4};
  for (auto norm : {BallNorm::Frobenius, BallNorm::Nuclear, BallNorm::Lp}) {
    PathSettings ps;
    ps.norm = norm;
    ps.p = 3.0;
    ps.iterationsPerRadius = 100;
    const std::vector<Mat> path = regularizationPath(model, radii, ps);
    ASSERT_EQ(path.size(), radii.size());
    double previous = INFINITY;
    for (std::size_t k = 0; k < radii.size(); ++k) {
      double size = path[k].norm();
      if (norm == BallNorm::Nuclear) size = Eigen::JacobiSVD<Mat>(path[k]).singularValues().sum();
      if (norm == BallNorm::Lp)
        size = std::pow(path[k].cwiseAbs().array().pow(3.0).sum(), 1.0 / 3.0);
      EXPECT_LE(size, radii[k] * (1 + 1e-12));
      Params p = model.zeroParams();
      p.W = path[k];
      const double loss = model.loss(p);
      EXPECT_LE(loss, previous + 1e-15);
      previous = loss;
    }
  }
  PathSettings bad;
  EXPECT_THROW(regularizationPath(model, {1.0, 0.5}, bad), InputError);
  EXPECT_THROW(regularizationPath(model, {-1.0}, bad), InputError);
  bad.norm = BallNorm::Lp;
  bad.p = 1.0;
  EXPECT_THROW(regularizationPath(model, {1.0}, bad), InputError);
}

// SPEC section 5, "local convergence": n=6, T=8, d=10, normalized GD, eta 0.1, 2000 iterations,
// 20 seeds; the selected token's mean softmax probability must reach 0.99 for W and (K,Q).
// (K,Q) starts from K, Q with i.i.d. N(0, 0.1^2) entries (the scenario's default start).
TEST(Train, LocalConvergenceSelectsTokens) {
  for (auto param : {Parameterization::W, Parameterization::KQ}) {
    double sum = 0;
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      ScenarioOptions opts;
      opts.seed = seed;
      Scenario sc = makeScenario("local-convergence", opts);
      sc.model.param = param;
      sc.train.traceEvery = sc.iterations;
      const Model model(sc.data, sc.model);
      Trainer tr(model, sc.train, sc.init);
      ASSERT_EQ(tr.step(sc.iterations), sc.iterations) << tr.stopReason();
      const Trace t = tr.takeTrace();
      ASSERT_EQ(t.iteration.back(), sc.iterations);
      double mean = 0;
      for (int u = 0; u < t.units; ++u)
        mean += t.selectedProbability[(t.frames() - 1) * t.units + u];
      sum += mean / t.units;
    }
    EXPECT_GE(sum / 20, 0.99) << (param == Parameterization::W ? "W" : "KQ");
  }
}

}  // namespace
}  // namespace attnsvm
