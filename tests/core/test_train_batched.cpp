// Batched trainer (issue 18): K runs advanced together agree with K single-run Trainers up to
// floating-point reassociation (final parameters to 1e-12 relative, equal selections and stop
// reasons), for every optimizer, parameterization, attention kind and loss it covers; NMD against
// a reference step written here from SPEC section 2 (gradient over its dual norm + eps); the
// snapshot records of runTrainingBatched against runTraining; errors and the fallback.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_md.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"
#include "attnsvm/train/correlation.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"
#include "model/model_internal.hpp"

namespace attnsvm {
namespace {

struct Case {
  Parameterization param = Parameterization::W;
  AttentionKind attention = AttentionKind::Cross;
  LossKind loss = LossKind::Logistic;
  Optimizer opt = Optimizer::NGD;
  double lr = 0.1, p = 2.0;
  double beta1 = 0.9, beta2 = 0.999;  // Adam
  int n = 6, T = 8, d = 10, m = 0;
  std::uint64_t seed0 = 11;
};

// K seeds of the sphere scenario with the case's model; the prompt gets a random Wk and start.
struct Runs {
  std::vector<Model> models;
  std::vector<Params> inits;
  TrainSettings settings;
};
Runs makeRuns(const Case& c, int K) {
  const std::uint64_t seed0 = c.seed0;
  Runs out;
  for (int r = 0; r < K; ++r) {
    ScenarioOptions o;
    o.seed = seed0 + r;
    o.n = c.n;
    o.T = c.T;
    o.d = c.d;
    Scenario sc = makeScenario("sphere", o);
    ModelSpec spec = sc.model;
    spec.param = c.param;
    spec.attention = c.attention;
    spec.loss = c.loss;
    spec.m = c.m;
    Params init = sc.init;
    Rng rng(seed0 * 977 + r);
    if (c.param == Parameterization::W) init.W = 0.1 * rng.normalMatrix(c.d, c.d);
    if (c.param == Parameterization::KQ && c.m != 0) {
      init.K = 0.1 * rng.normalMatrix(c.d, c.m);
      init.Q = 0.1 * rng.normalMatrix(c.d, c.m);
    }
    if (c.param == Parameterization::Prompt) {
      spec.Wk = rng.normalMatrix(c.d, c.d);
      init.p = 0.1 * rng.normalVector(c.d);
    }
    out.models.emplace_back(sc.data, spec);
    out.inits.push_back(init);
  }
  out.settings.optimizer = c.opt;
  out.settings.lr = c.lr;
  out.settings.p = c.p;
  out.settings.adamBeta1 = c.beta1;
  out.settings.adamBeta2 = c.beta2;
  out.settings.traceEvery = 1 << 30;
  return out;
}

double relDiff(const Mat& a, const Mat& b) {
  const double scale = std::max(a.norm(), b.norm());
  return scale > 0 ? (a - b).norm() / scale : 0.0;
}

std::vector<double> flat(const Params& p, Parameterization param) {
  std::vector<double> v;
  auto add = [&](const auto& m) { v.insert(v.end(), m.data(), m.data() + m.size()); };
  if (param == Parameterization::W) add(p.W);
  if (param == Parameterization::KQ) {
    add(p.K);
    add(p.Q);
  }
  if (param == Parameterization::Prompt) add(p.p);
  return v;
}

double relDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den = std::max(den, std::max(a[i] * a[i], b[i] * b[i]));
  }
  return den > 0 ? std::sqrt(num / (den * a.size())) : 0.0;
}

// How far Trainer itself moves when the start changes by one rounding (relative 2^-52 on every
// entry): the size of difference that reassociation alone can cause on this trajectory.
double roundingSensitivity(const Runs& runs, int r, Parameterization param, int steps) {
  Trainer a(runs.models[r], runs.settings, runs.inits[r]);
  Params nudged = runs.inits[r];
  const double f = 1.0 + std::numeric_limits<double>::epsilon();
  nudged.W *= f;
  nudged.K *= f;
  nudged.Q *= f;
  nudged.p *= f;
  Trainer b(runs.models[r], runs.settings, nudged);
  a.step(steps);
  b.step(steps);
  return relDiff(flat(a.params(), param), flat(b.params(), param));
}

// Every run of the batch against its own Trainer after `steps` steps (taken in two calls): final
// parameters within 1e-12 relative, or within 10 times Trainer's own sensitivity to one rounding of
// the start where that is larger (a trajectory that amplifies rounding; reported).
void expectAgreesWithTrainer(const Case& c, int K, int steps) {
  Runs runs = makeRuns(c, K);
  BatchedTrainer bt(runs.models, runs.settings, runs.inits);
  bt.step(steps / 3);
  bt.step(steps - steps / 3);
  for (int r = 0; r < K; ++r) {
    Trainer tr(runs.models[r], runs.settings, runs.inits[r]);
    tr.step(steps);
    SCOPED_TRACE("run " + std::to_string(r) + ", optimizer " + wireName(c.opt));
    EXPECT_EQ(bt.iteration(r), tr.iteration());
    EXPECT_EQ(bt.stopReason(r), tr.stopReason());
    const Params pb = bt.params(r), pt = tr.params();
    const double diff = std::max(relDiff(flat(pb, c.param), flat(pt, c.param)),
                                 relDiff(bt.weights(r), tr.weights()));
#ifdef ATTNSVM_WASM
    // wasm: libm's pow/exp differ from the batched lane functions by an ulp more often than glibc's
    // do, and a (K,Q) run carries that over 200 steps: one nmd-fro run ends 1.8e-12 apart (Trainer
    // against itself from a start one rounding away: 6e-14). Natively the bar stays 1e-12.
    double tol = 5e-12;
#else
    double tol = 1e-12;
#endif
    if (diff > tol) {
      const double sens = roundingSensitivity(runs, r, c.param, steps);
      tol = std::max(tol, 10.0 * sens);
      std::printf(
          "[ note ] %s run %d: batched vs Trainer %.2e; Trainer vs Trainer from a start one "
          "rounding away %.2e\n",
          wireName(c.opt), r, diff, sens);
    }
    if (std::getenv("BATCHED_SHOW"))
      std::printf("[ show ] %s run %d: %.2e\n", wireName(c.opt), r, diff);
    EXPECT_LE(diff, tol);
    const Forward fb = runs.models[r].forward(pb), ft = runs.models[r].forward(pt);
    EXPECT_EQ(fb.selected, ft.selected);
    EXPECT_NEAR(bt.loss(r), ft.loss, 1e-12 * std::max(1.0, ft.loss));
    Vec prob(runs.models[r].units());
    bt.selectedProbability(r, prob);
    for (int u = 0; u < prob.size(); ++u) EXPECT_NEAR(prob[u], ft.selectedProbability[u], 1e-12);
  }
}

TEST(BatchedTrainer, AgreesWithTrainerForEveryOptimizerOnW) {
  for (Optimizer o : {Optimizer::GD, Optimizer::NGD, Optimizer::MD, Optimizer::NMDFro}) {
    Case c;
    c.opt = o;
    c.lr = isNormalizedOptimizer(o) ? 0.1 : 1.0;
    c.p = isMirrorOptimizer(o) ? 3.0 : 2.0;
    expectAgreesWithTrainer(c, 5, 600);
  }
  Case md175;  // p < 2: the mirror map's small entries grow fastest
  md175.opt = Optimizer::MD;
  md175.lr = 1.0;
  md175.p = 1.75;
  expectAgreesWithTrainer(md175, 3, 400);
}

TEST(BatchedTrainer, AgreesWithTrainerOnKQAndPrompt) {
  for (Optimizer o : {Optimizer::NGD, Optimizer::GD, Optimizer::NMDFro}) {
    Case c;
    c.param = Parameterization::KQ;
    c.opt = o;
    c.lr = isNormalizedOptimizer(o) ? 0.1 : 1.0;
    c.p = isMirrorOptimizer(o) ? 3.0 : 2.0;
    expectAgreesWithTrainer(c, 4, 500);
  }
  Case lowRank;  // m < d
  lowRank.param = Parameterization::KQ;
  lowRank.m = 3;
  expectAgreesWithTrainer(lowRank, 3, 300);
  for (Optimizer o : {Optimizer::NGD, Optimizer::MD}) {
    Case c;
    c.param = Parameterization::Prompt;
    c.opt = o;
    c.lr = o == Optimizer::MD ? 1.0 : 0.1;
    c.p = o == Optimizer::MD ? 3.0 : 2.0;
    c.n = 4;
    c.T = 5;
    c.d = 6;
    // Not seed 11: its fourth run (random Wk) is unstable under Trainer itself, which turns a
    // 1e-15 relative change of the start into 1e-6 within 25 steps (from step ~100 on); no
    // reassociation-level agreement can hold on such a trajectory.
    c.seed0 = 31;
    expectAgreesWithTrainer(c, 4, 500);
  }
}

TEST(BatchedTrainer, AgreesWithTrainerForEveryAttentionKindAndLoss) {
  for (AttentionKind a : {AttentionKind::Self, AttentionKind::SeqToSeq, AttentionKind::Causal}) {
    Case c;
    c.attention = a;
    c.n = 4;
    c.T = 5;
    c.d = 6;
    expectAgreesWithTrainer(c, 3, 300);
  }
  for (LossKind l : {LossKind::Exponential, LossKind::Correlation}) {
    Case c;
    c.loss = l;
    expectAgreesWithTrainer(c, 3, 300);
  }
}

// The paper's shape at the experiment's length: 2000 normalized steps on W and (K,Q).
TEST(BatchedTrainer, AgreesWithTrainerAtTheLocalConvergenceSetting) {
  Case w;
  expectAgreesWithTrainer(w, 8, 2000);
  Case kq;
  kq.param = Parameterization::KQ;
  expectAgreesWithTrainer(kq, 4, 2000);
}

// Every run of the batch stops within `steps` steps, with Trainer's reason at Trainer's iteration.
void expectStopsAsTrainer(const Runs& runs, int steps) {
  BatchedTrainer bt(runs.models, runs.settings, runs.inits);
  bt.step(steps);
  for (int r = 0; r < bt.runs(); ++r) {
    Trainer tr(runs.models[r], runs.settings, runs.inits[r]);
    tr.step(steps);
    SCOPED_TRACE("stopping run " + std::to_string(r));
    EXPECT_TRUE(bt.stopped(r));
    EXPECT_EQ(bt.stopReason(r), tr.stopReason());
    EXPECT_EQ(bt.iteration(r), tr.iteration());
    if (std::getenv("BATCHED_SHOW")) std::printf("[ show ] stop at %d\n", tr.iteration());
    EXPECT_LE(relDiff(bt.weights(r), tr.weights()), 1e-13);
  }
}

// Adam (per-run moments, bias corrections by each run's own iteration) on every parameterization,
// at several learning rates and moment decays, and at a second shape and attention kind.
TEST(BatchedTrainer, AdamAgreesWithTrainerOnEveryParameterization) {
  struct Setting {
    double lr, beta1, beta2;
  };
  for (Setting st :
       {Setting{0.01, 0.9, 0.999}, Setting{0.05, 0.5, 0.99}, Setting{0.02, 0.8, 0.99}}) {
    for (Parameterization param :
         {Parameterization::W, Parameterization::KQ, Parameterization::Prompt}) {
      Case c;
      c.opt = Optimizer::Adam;
      c.param = param;
      c.lr = st.lr;
      c.beta1 = st.beta1;
      c.beta2 = st.beta2;
      if (param == Parameterization::Prompt) {  // the prompt case of the NGD/MD test above
        c.n = 4;
        c.T = 5;
        c.d = 6;
        c.seed0 = 31;
      }
      SCOPED_TRACE("lr " + std::to_string(st.lr) + ", beta1 " + std::to_string(st.beta1));
      expectAgreesWithTrainer(c, param == Parameterization::W ? 5 : 4, 400);
    }
  }
  Case lowRank;  // (K,Q) with m < d
  lowRank.opt = Optimizer::Adam;
  lowRank.lr = 0.01;
  lowRank.param = Parameterization::KQ;
  lowRank.m = 3;
  expectAgreesWithTrainer(lowRank, 3, 300);
  Case other;  // another shape and attention kind, a short run
  other.opt = Optimizer::Adam;
  other.lr = 0.02;
  other.attention = AttentionKind::Causal;
  other.n = 4;
  other.T = 5;
  other.d = 6;
  expectAgreesWithTrainer(other, 3, 150);
}

// The local-convergence shape at the experiment's length (2000 steps) with Adam, W and (K,Q); and
// runs stopping at maxNorm at different iterations.
TEST(BatchedTrainer, AdamAgreesWithTrainerAtTheLocalConvergenceSetting) {
  Case w;
  w.opt = Optimizer::Adam;
  w.lr = 0.01;
  expectAgreesWithTrainer(w, 8, 2000);
  Case kq = w;
  kq.param = Parameterization::KQ;
  expectAgreesWithTrainer(kq, 4, 2000);

  Runs runs = makeRuns(w, 4);
  runs.settings.lr = 0.05;
  runs.settings.maxNorm = 3.0;
  expectStopsAsTrainer(runs, 300);
}

// Normalized l_p mirror descent as SPEC section 2 states it: U = grad psi(W) - eta g / (||g||_q +
// eps), 1/p + 1/q = 1, written here from the formula on the true (unscaled) gradient.
Mat referenceNmd(const Model& model, Mat W, double lr, double p, int steps) {
  const double q = p / (p - 1.0), eps = std::numeric_limits<double>::epsilon();
  Params params = model.zeroParams();
  Gradient g;
  for (int k = 0; k < steps; ++k) {
    params.W = W;
    model.gradient(params, g);
    const Mat grad = std::exp(g.logScale) * g.W;
    const double dual = std::pow(grad.array().abs().pow(q).sum(), 1.0 / q);
    Mat U = W.unaryExpr([p](double x) { return std::copysign(std::pow(std::abs(x), p - 1.0), x); });
    U -= (lr / (dual + eps)) * grad;
    W = U.unaryExpr(
        [p](double x) { return std::copysign(std::pow(std::abs(x), 1.0 / (p - 1.0)), x); });
  }
  return W;
}

TEST(BatchedTrainer, NmdTakesTheDualNormStepOfTheSpec) {
  for (double p : {1.75, 3.0}) {
    Case c;
    c.opt = Optimizer::NMD;
    c.p = p;
    c.lr = 0.1;
    Runs runs = makeRuns(c, 3);
    BatchedTrainer bt(runs.models, runs.settings, runs.inits);
    bt.step(300);
    for (int r = 0; r < 3; ++r) {
      const Mat ref = referenceNmd(runs.models[r], runs.inits[r].W, c.lr, p, 300);
      EXPECT_LE(relDiff(bt.weights(r), ref), 1e-11) << "p = " << p << ", run " << r;
      EXPECT_EQ(runs.models[r].forward(bt.params(r)).selected, runs.models[r]
                                                                   .forward([&] {
                                                                     Params x = bt.params(r);
                                                                     x.W = ref;
                                                                     return x;
                                                                   }())
                                                                   .selected);
    }
  }
  // At p = 2 the dual norm is the Frobenius norm: normalized GD up to the eps in the denominator.
  Case c;
  c.opt = Optimizer::NMD;
  Runs runs = makeRuns(c, 2);
  BatchedTrainer nmd(runs.models, runs.settings, runs.inits);
  runs.settings.optimizer = Optimizer::NGD;
  BatchedTrainer ngd(runs.models, runs.settings, runs.inits);
  nmd.step(200);
  ngd.step(200);
  for (int r = 0; r < 2; ++r) EXPECT_LE(relDiff(nmd.weights(r), ngd.weights(r)), 1e-12);
}

TEST(BatchedTrainer, StopsAsTrainerDoes) {
  // maxNorm reached after a few steps; a divergent plain GD; runs stopping at different iterations.
  Case c;
  Runs runs = makeRuns(c, 4);
  runs.settings.maxNorm = 1.0;
  expectStopsAsTrainer(runs, 100);
  // The zero start of (K,Q) is a saddle: the normalized step is undefined at once.
  Case kq;
  kq.param = Parameterization::KQ;
  Runs zero = makeRuns(kq, 2);
  for (Params& p : zero.inits) {
    p.K.setZero();
    p.Q.setZero();
  }
  BatchedTrainer bz(zero.models, zero.settings, zero.inits);
  bz.step(5);
  Trainer tz(zero.models[0], zero.settings, zero.inits[0]);
  tz.step(5);
  EXPECT_EQ(bz.stopReason(0), tz.stopReason());
  EXPECT_EQ(bz.iteration(0), 0);
}

TEST(BatchedTrainer, RunTrainingBatchedGivesRunTrainingsRecords) {
  struct Setup {
    Parameterization param;
    Optimizer opt;
  };
  for (Setup setup :
       {Setup{Parameterization::W, Optimizer::NGD}, Setup{Parameterization::KQ, Optimizer::NGD},
        Setup{Parameterization::W, Optimizer::Adam}}) {
    const Parameterization param = setup.param;
    const int K = 5, iters = 700, every = 50;
    std::vector<Scenario> scs;
    std::vector<const Dataset*> data;
    std::vector<Params> inits;
    for (int r = 0; r < K; ++r)
      scs.push_back(makeScenario("local-convergence", {static_cast<std::uint64_t>(r)}));
    for (const Scenario& sc : scs) {
      data.push_back(&sc.data);
      inits.push_back(sc.init);
    }
    ModelSpec spec = scs[0].model;
    spec.param = param;
    TrainSettings ts = scs[0].train;  // the scenario's settings (equal for every seed)
    ts.optimizer = setup.opt;
    if (setup.opt == Optimizer::Adam) ts.lr = 0.01;
    const std::vector<RunRecord> batched = runTrainingBatched(data, spec, ts, inits, iters, every);
    ASSERT_EQ(static_cast<int>(batched.size()), K);
    for (int r = 0; r < K; ++r) {
      SCOPED_TRACE(std::string(wireName(setup.opt)) + " run " + std::to_string(r));
      const RunRecord one = runTraining(scs[r].data, spec, ts, scs[r].init, iters, every);
      const RunRecord& b = batched[r];
      EXPECT_EQ(b.iteration, one.iteration);
      ASSERT_EQ(b.weights.size(), one.weights.size());
      for (std::size_t f = 0; f < b.weights.size(); ++f)
        EXPECT_LE(relDiff(b.weights[f], one.weights[f]), 1e-12);
      for (std::size_t f = 0; f < b.meanProb.size(); ++f) {
        EXPECT_NEAR(b.meanProb[f], one.meanProb[f], 1e-12);
        EXPECT_NEAR(b.minProb[f], one.minProb[f], 1e-12);
      }
      EXPECT_EQ(b.finalSelection, one.finalSelection);
      EXPECT_NEAR(b.finalLoss, one.finalLoss, 1e-12);
      EXPECT_EQ(b.stopReason, one.stopReason);
    }
  }
}

TEST(BatchedTrainer, RejectsWhatItCannotRunAndMismatchedRuns) {
  Case c;
  Runs runs = makeRuns(c, 2);
  TrainSettings head = runs.settings;
  head.trainHead = true;
  EXPECT_THROW(BatchedTrainer(runs.models, head, runs.inits), InputError);
  EXPECT_FALSE(batchedUnsupported(runs.models[0].spec(), head).empty());
  TrainSettings badLr = runs.settings;
  badLr.lr = -1.0;
  EXPECT_THROW(BatchedTrainer(runs.models, badLr, runs.inits), InputError);
  std::vector<Params> one(runs.inits.begin(), runs.inits.begin() + 1);
  EXPECT_THROW(BatchedTrainer(runs.models, runs.settings, one), InputError);
  Case other = c;
  other.d = 7;
  Runs mixed = makeRuns(other, 1);
  std::vector<Model> models = {runs.models[0], mixed.models[0]};
  std::vector<Params> inits = {runs.inits[0], mixed.inits[0]};
  try {
    BatchedTrainer bad(models, runs.settings, inits);
    FAIL() << "mismatched shapes accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("run 1"), std::string::npos) << e.what();
  }
  std::vector<Params> nan = runs.inits;
  nan[1].W(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(BatchedTrainer(runs.models, runs.settings, nan), InputError);
}

TEST(BatchedTrainer, FallsBackToRunTrainingForTheReluHead) {
  const Scenario sc = makeScenario("multitoken", {3});
  ASSERT_EQ(sc.model.head, HeadKind::ReluMLP);
  const std::vector<const Dataset*> data = {&sc.data};
  const std::vector<RunRecord> b = runTrainingBatched(data, sc.model, sc.train, {sc.init}, 200, 50);
  const RunRecord one = runTraining(sc.data, sc.model, sc.train, sc.init, 200, 50);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].finalSelection, one.finalSelection);
  EXPECT_EQ(relDiff(b[0].weights.back(), one.weights.back()), 0.0);
}

// md-convergence trains its seeds together (mdConvergenceSeeds): every seed's columns as the
// per-seed run gives them (selections and labels equal, values within 1e-9 relative), for the
// training ps whose batched mirror map is special-cased (3) and general (1.75).
TEST(BatchedTrainer, MdConvergenceSeedsEqualThePerSeedRuns) {
  for (double p : {1.75, 3.0}) {
    SeedOptions o;
    o.p = p;
    o.iters = 300;
    const std::vector<SeedResult> batched = mdConvergenceSeeds(5, 3, o);
    ASSERT_EQ(batched.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      const SeedResult single = mdConvergenceSeed(5 + k, o);
      EXPECT_EQ(batched[k].selections, single.selections);
      EXPECT_EQ(batched[k].labels, single.labels);
      ASSERT_EQ(batched[k].values.size(), single.values.size());
      for (std::size_t v = 0; v < single.values.size(); ++v) {
        const double a = batched[k].values[v], b = single.values[v];
        if (std::isnan(b)) {
          EXPECT_TRUE(std::isnan(a)) << single.valueNames[v];
          continue;
        }
        EXPECT_NEAR(a, b, 1e-9 * std::max(1.0, std::abs(b))) << single.valueNames[v] << " p " << p;
      }
    }
  }
}

// The snapshot arena (local-convergence's storage) holds the same bits as RunRecord::weights, for
// the batched path (W, (K,Q)) and the fallback (relu head), across calls that reuse it.
TEST(BatchedTrainer, SnapshotArenaHoldsTheRecordsWeights) {
  SnapshotArena arena;
  std::vector<Scenario> scs;
  for (std::uint64_t seed = 0; seed < 3; ++seed)
    scs.push_back(makeScenario("local-convergence", {seed}));
  std::vector<const Dataset*> data;
  std::vector<Params> inits;
  for (const Scenario& sc : scs) {
    data.push_back(&sc.data);
    inits.push_back(sc.init);
  }
  for (Parameterization param : {Parameterization::KQ, Parameterization::W}) {
    ModelSpec spec = scs[0].model;
    spec.param = param;
    const std::vector<RunRecord> plain =
        runTrainingBatched(data, spec, scs[0].train, inits, 300, 20);
    const std::vector<RunRecord> inArena =
        runTrainingBatched(data, spec, scs[0].train, inits, 300, 20, &arena);
    ASSERT_EQ(inArena.size(), plain.size());
    for (std::size_t r = 0; r < plain.size(); ++r) {
      EXPECT_TRUE(inArena[r].weights.empty());
      ASSERT_EQ(inArena[r].iteration, plain[r].iteration);
      ASSERT_LE(plain[r].weights.size(), static_cast<std::size_t>(arena.perRun()));
      for (std::size_t k = 0; k < plain[r].weights.size(); ++k)
        EXPECT_TRUE(arena.at(static_cast<int>(r), static_cast<int>(k)) == plain[r].weights[k])
            << "run " << r << " snapshot " << k;
    }
  }
  EXPECT_THROW(arena.at(3, 0), InputError);
  EXPECT_THROW(arena.at(0, arena.perRun()), InputError);
  const Scenario relu = makeScenario("multitoken", {3});
  const std::vector<const Dataset*> one = {&relu.data};
  const RunRecord plain = runTraining(relu.data, relu.model, relu.train, relu.init, 200, 50);
  const std::vector<RunRecord> b =
      runTrainingBatched(one, relu.model, relu.train, {relu.init}, 200, 50, &arena);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].weights.empty());
  for (std::size_t k = 0; k < plain.weights.size(); ++k)
    EXPECT_TRUE(arena.at(0, static_cast<int>(k)) == plain.weights[k]) << "snapshot " << k;
}

// CorrelationWith gives correlation's bits (the experiments' JSON stays byte for byte), 0 against a
// zero or non-finite reference or for a zero snapshot, and rejects a shape mismatch.
TEST(BatchedTrainer, CorrelationWithIsCorrelation) {
  Rng rng(7);
  Mat ref(4, 5);
  for (Index i = 0; i < ref.size(); ++i) ref(i) = rng.normal();
  const CorrelationWith corr(ref);
  for (int k = 0; k < 20; ++k) {
    Mat a(4, 5);
    for (Index i = 0; i < a.size(); ++i) a(i) = rng.normal() * std::pow(10.0, k - 10);
    EXPECT_EQ(corr(a), correlation(a, ref));
  }
  EXPECT_EQ(corr(Mat::Zero(4, 5)), 0.0);
  EXPECT_NEAR(corr(2.0 * ref), 1.0, 1e-15);
  EXPECT_EQ(CorrelationWith(Mat::Zero(4, 5))(ref), 0.0);
  Mat nan = ref;
  nan(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(CorrelationWith(nan)(ref), correlation(ref, nan));
  EXPECT_THROW(corr(Mat::Zero(5, 4)), InputError);
}

}  // namespace
}  // namespace attnsvm
