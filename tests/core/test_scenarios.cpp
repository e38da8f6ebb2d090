// Scenarios of SPEC section 5: every name builds a valid, trainable problem with the papers'
// settings; data are deterministic from the seed (golden values guard the cross-platform stream).
#include <gtest/gtest.h>

#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/scenarios.hpp"

namespace attnsvm {
namespace {

TEST(Scenarios, SphereGoldenValues) {
  // Recorded natively; wasm must agree to 1e-14 (std::log/cos/sin may differ in the last ulp).
  const Dataset d = sphereDataset(6, 8, 10, 0);
  EXPECT_NEAR(d.v[0], -0.0061007418332130513, 1e-14);
  EXPECT_NEAR(d.X(0, 0), 0.15612830001298061, 1e-14);
  EXPECT_NEAR(d.X(47, 9), 0.50107543495803508, 1e-14);
  EXPECT_NEAR(d.Z(5, 3), -0.30650369753981549, 1e-14);
  EXPECT_EQ(d.alpha, (std::vector<int>{2, 0, 1, 3, 7, 2}));
  EXPECT_EQ(d.Y[2], -1.0);
}

TEST(Scenarios, SphereDataProperties) {
  const Dataset d = sphereDataset(5, 4, 3, 17);
  EXPECT_NO_THROW(validate(d, AttentionKind::Cross));
  EXPECT_NEAR(d.v.norm(), 1.0, 1e-15);
  for (Index r = 0; r < d.X.rows(); ++r) EXPECT_NEAR(d.X.row(r).norm(), 1.0, 1e-15);
  for (Index r = 0; r < d.Z.rows(); ++r) EXPECT_NEAR(d.Z.row(r).norm(), 1.0, 1e-15);
  for (int i = 0; i < d.n; ++i) EXPECT_TRUE(d.Y[i] == 1.0 || d.Y[i] == -1.0);
  EXPECT_EQ(d.alpha, optimalTokens(d).opt);
  EXPECT_THROW(sphereDataset(0, 4, 3, 1), InputError);
}

TEST(Scenarios, EveryNameBuildsAndTrains) {
  const std::vector<std::string> names = scenarioNames();
  EXPECT_EQ(names.size(), 15u);
  for (const std::string& name : names) {
    const Scenario sc = makeScenario(name);
    EXPECT_EQ(sc.name, name);
    EXPECT_FALSE(sc.title.empty());
    EXPECT_GT(sc.iterations, 0);
    const Model model(sc.data, sc.model);
    Trainer tr(model, sc.train, sc.init);
    EXPECT_EQ(tr.step(20), 20) << name << ": " << tr.stopReason();
    EXPECT_LT(tr.takeTrace().loss.back(), model.loss(sc.init) + 1e-12) << name;
  }
}

// Issue 40: the self-attention presets at the sizes of seq2seq-convergence.
TEST(Scenarios, SequenceToSequenceAndCausalPresets) {
  for (const auto& [name, kind] : {std::pair{"seq2seq", AttentionKind::SeqToSeq},
                                   std::pair{"causal", AttentionKind::Causal}}) {
    const Scenario sc = makeScenario(name);
    EXPECT_EQ(sc.model.attention, kind) << name;
    EXPECT_EQ(sc.data.n, 4);
    EXPECT_EQ(sc.data.T, 5);
    EXPECT_EQ(sc.data.d, 10);
    EXPECT_EQ(sc.train.optimizer, Optimizer::NGD);
    EXPECT_EQ(sc.iterations, 2000);
    EXPECT_EQ(Model(sc.data, sc.model).units(), 20) << name;  // one unit per (sequence, query)
  }
}

TEST(Scenarios, DeterministicFromTheSeed) {
  for (const std::string& name : scenarioNames()) {
    ScenarioOptions a, b;
    a.seed = b.seed = 5;
    const Scenario x = makeScenario(name, a), y = makeScenario(name, b);
    EXPECT_EQ(x.data.X, y.data.X) << name;
    EXPECT_EQ(x.init.K, y.init.K) << name;
    EXPECT_EQ(x.model.V, y.model.V) << name;
  }
  ScenarioOptions a, b;
  a.seed = 1;
  b.seed = 2;
  EXPECT_NE(makeScenario("paths2d", a).data.X, makeScenario("paths2d", b).data.X);
}

TEST(Scenarios, PaperSettings) {
  const Scenario lc = makeScenario("local-convergence");
  EXPECT_EQ(lc.data.n, 6);
  EXPECT_EQ(lc.data.T, 8);
  EXPECT_EQ(lc.data.d, 10);
  EXPECT_EQ(lc.train.optimizer, Optimizer::NGD);
  EXPECT_EQ(lc.train.lr, 0.1);
  EXPECT_EQ(lc.iterations, 2000);
  EXPECT_EQ(lc.init.W.norm(), 0.0);
  EXPECT_EQ(lc.init.K.rows(), 10);  // (K,Q) start for callers that switch the parameterization

  const Scenario p2 = makeScenario("paths2d");
  EXPECT_EQ(p2.data.n, 2);
  EXPECT_EQ(p2.data.T, 3);
  EXPECT_EQ(p2.data.d, 2);
  EXPECT_EQ(p2.init.Q.norm(), 0.0);
  EXPECT_GT(p2.init.K.norm(), 0.0);
  EXPECT_LT(p2.data.X.topRows(3).col(0).mean(), 0.0);     // sequence 0 around (-1, 0)
  EXPECT_GT(p2.data.X.bottomRows(3).col(0).mean(), 0.0);  // sequence 1 around (+1, 0)

  const Scenario t5 = makeScenario("paths2d-t5");
  EXPECT_EQ(t5.data.T, 5);
  EXPECT_EQ(t5.data.X(0, 1), 0.5);
  EXPECT_EQ(t5.data.X(5, 1), -0.5);

  ScenarioOptions local;
  local.localCase = true;
  local.start = 4;
  const Scenario pg = makeScenario("prompt-global-local", local);
  EXPECT_EQ(pg.model.param, Parameterization::Prompt);
  EXPECT_EQ(pg.data.X.row(2).norm(), 0.0);
  EXPECT_EQ(pg.init.p, Vec(Eigen::Vector3d(0, -1, 0)));
  EXPECT_EQ(pg.model.Wk(2, 2), 0.0);

  ScenarioOptions c;
  c.C = 100;
  c.variant = 1;
  const Scenario lf = makeScenario("loss-function", c);
  EXPECT_EQ(lf.data.X(1, 2), 100.0);
  EXPECT_EQ(lf.model.loss, LossKind::Correlation);

  const Scenario jp = makeScenario("joint-pv");
  EXPECT_TRUE(jp.train.trainHead);
  EXPECT_EQ(jp.init.p, Vec(Eigen::Vector2d(0, -1)));
  EXPECT_EQ(jp.init.v, Vec(Eigen::Vector2d(-1, 0)));

  const Scenario md = makeScenario("mirror-descent");
  EXPECT_EQ(md.train.optimizer, Optimizer::MD);
  EXPECT_EQ(md.train.p, 3.0);

  ScenarioOptions big;
  big.d = 8;
  const Scenario mt = makeScenario("multitoken", big);
  EXPECT_EQ(mt.model.head, HeadKind::ReluMLP);
  EXPECT_EQ(mt.data.d, 8);
  EXPECT_EQ(mt.data.v, Vec::Ones(8));
  for (int j = 0; j < 8; ++j) EXPECT_NEAR(mt.model.V.row(j).norm(), 1.0, 1e-15);

  const Scenario rk = makeScenario("rank");
  EXPECT_EQ(rk.data.n, 5);
  EXPECT_EQ(rk.data.T, 5);
  EXPECT_EQ(rk.data.d, 4);
}

TEST(Scenarios, BadOptions) {
  try {
    makeScenario("no-such-scenario");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("local-convergence"), std::string::npos);
  }
  ScenarioOptions o;
  o.start = 6;
  EXPECT_THROW(makeScenario("prompt-global-local", o), InputError);
  ScenarioOptions shape;
  shape.n = 4;
  EXPECT_THROW(makeScenario("joint-pv", shape), InputError);
  shape.n = 0;
  EXPECT_THROW(makeScenario("sphere", shape), InputError);
  ScenarioOptions v;
  v.variant = 2;
  EXPECT_THROW(makeScenario("joint-pv", v), InputError);
}

}  // namespace
}  // namespace attnsvm
