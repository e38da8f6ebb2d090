// Named datasets and scenarios of SPEC section 5: the papers' settings, deterministic from the
// seed.
#include "attnsvm/experiments/scenarios.hpp"

#include <cmath>
#include <functional>
#include <map>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "cold.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  Dataset sphereDataset(int n, int T, int d, std::uint64_t seed) {
    if (n < 1 || T < 1 || d < 1)
      throw InputError("sphere dataset: n, T, d must be >= 1 (got n = " + std::to_string(n) +
                       ", T = " + std::to_string(T) + ", d = " + std::to_string(d) + ")");
    Rng rng(seed);
    Dataset data;
    data.n = n;
    data.T = T;
    data.d = d;
    data.X.resize(static_cast<Index>(n) * T, d);
    data.Z.resize(n, d);
    data.Y.resize(n);
    // Draw order (contract): v, then per sequence: Y_i, its T tokens, z_i.
    data.v = rng.unitVector(d);
    for (int i = 0; i < n; ++i) {
      data.Y[i] = rng.uniform() < 0.5 ? 1.0 : -1.0;
      for (int t = 0; t < T; ++t)
        data.X.row(static_cast<Index>(i) * T + t) = rng.unitVector(d).transpose();
      data.Z.row(i) = rng.unitVector(d).transpose();
    }
    data.alpha = optimalTokens(data).opt;
    return data;
  }

  namespace {

  // Seeds of the auxiliary streams (initial factors, relu matrix) are derived from the scenario
  // seed with fixed offsets so that the data stream above stays exactly the sphere generator's.
  constexpr std::uint64_t kInitStream = 0x243f6a8885a308d3ULL;
  constexpr std::uint64_t kHeadStream = 0x13198a2e03707344ULL;
  constexpr std::uint64_t kMdStream = 0xa4093822299f31d0ULL;  // md-convergence's W0

  int pick(int option, int fallback, const char* what, const std::string& name) {
    if (option == -1) return fallback;
    if (option < 1)
      throw InputError(std::string("scenario ") + name + ": " + what + " = " +
                       std::to_string(option) + " must be >= 1");
    return option;
  }

  void requireDefaultShape(const ScenarioOptions& o, const std::string& name) {
    if (o.n != -1 || o.T != -1 || o.d != -1)
      throw InputError("scenario " + name +
                       " has fixed hand-made data: n, T, d cannot be overridden");
  }

  // W from zero; (K,Q) from small random factors K, Q with i.i.d. N(0, 0.1^2) entries (the papers'
  // "small random" start; zero is a saddle of (K,Q)). A caller switching the parameterization finds
  // the matching start in the same Params.
  Params defaultInit(int d, std::uint64_t seed) {
    Params p;
    p.W = Mat::Zero(d, d);
    Rng rng(seed ^ kInitStream);
    p.K = 0.1 * rng.normalMatrix(d, d);
    p.Q = 0.1 * rng.normalMatrix(d, d);
    return p;
  }

  TrainSettings ngd(double lr) {
    TrainSettings s;
    s.optimizer = Optimizer::NGD;
    s.lr = lr;
    return s;
  }

  Scenario sphereScenario(const std::string& name, const std::string& title,
                          const ScenarioOptions& o, int n, int T, int d, int iterations) {
    Scenario sc;
    sc.name = name;
    sc.title = title;
    n = pick(o.n, n, "n", name);
    T = pick(o.T, T, "T", name);
    d = pick(o.d, d, "d", name);
    sc.data = sphereDataset(n, T, d, o.seed);
    sc.train = ngd(0.1);
    sc.init = defaultInit(d, o.seed);
    sc.init.v = sc.data.v;
    sc.iterations = iterations;
    return sc;
  }

  // Two sequences of 2-D tokens (SPEC "GD paths in 2D"); z and v unit Gaussian; Y = 1.
  // Draw order: tokens (sequence-major, x then y), then z_0, z_1, then v, then K.
  Scenario paths2d(const ScenarioOptions& o, bool t5) {
    const std::string name = t5 ? "paths2d-t5" : "paths2d";
    requireDefaultShape(o, name);
    const int n = 2, T = t5 ? 5 : 3, d = 2;
    Rng rng(o.seed);
    Dataset data;
    data.n = n;
    data.T = T;
    data.d = d;
    data.X.resize(n * T, d);
    const double spread = t5 ? 0.5 : 0.3;
    for (int i = 0; i < n; ++i)
      for (int t = 0; t < T; ++t) {
        const double x = spread * rng.normal(), y = spread * rng.normal();
        // paths2d: sequence 0 around (-1,0), sequence 1 around (+1,0).
        // paths2d-t5: the first token of each sequence is fixed, the others around (-1,0).
        const double shift = t5 ? -1.0 : (i == 0 ? -1.0 : 1.0);
        data.X.row(i * T + t) << x + shift, y;
      }
    if (t5) {
      data.X.row(0) << 1.0, 0.5;
      data.X.row(T) << 1.0, -0.5;
    }
    data.Z.resize(n, d);
    for (int i = 0; i < n; ++i) data.Z.row(i) = rng.unitVector(d).transpose();
    data.v = rng.unitVector(d);
    data.Y = Vec::Ones(n);
    data.alpha = optimalTokens(data).opt;

    Scenario sc;
    sc.name = name;
    sc.title = t5 ? "GD paths in 2-D, T = 5, with the separating hyperplanes"
                  : "GD paths in 2-D: W (Frobenius SVM) vs (K,Q) (nuclear SVM)";
    sc.data = data;
    sc.train = ngd(0.1);
    sc.iterations = 2000;
    // W from 0; (K,Q): Q = 0, K = 0.1 N(0,1) (the papers' setting for this figure).
    sc.init.W = Mat::Zero(d, d);
    sc.init.K = 0.1 * rng.normalMatrix(d, d);
    sc.init.Q = Mat::Zero(d, d);
    sc.init.v = data.v;
    return sc;
  }

  // One sequence of three 3-D tokens with a prompt (SPEC "global vs local").
  Scenario promptGlobalLocal(const ScenarioOptions& o) {
    const std::string name = "prompt-global-local";
    requireDefaultShape(o, name);
    static const double starts[6][3] = {{0, 1, 0},    {0, 0.5, 0}, {0, 0, 0},
                                        {0, -0.5, 0}, {0, -1, 0},  {0, -1.5, 0}};
    if (o.start < 0 || o.start > 5)
      throw InputError("scenario " + name + ": start = " + std::to_string(o.start) +
                       " is out of range 0..5");
    Dataset data;
    data.n = 1;
    data.T = 3;
    data.d = 3;
    data.X.resize(3, 3);
    data.X << -0.1, 1, 1,  //
        1, 0, 0.9,         //
        0, 0, 0.9;
    if (o.localCase) data.X.row(2) << 0, 0, 0;
    data.Y = Vec::Ones(1);
    data.v = Vec::Zero(3);
    data.v[2] = 1.0;
    data.alpha = optimalTokens(data).opt;

    Scenario sc;
    sc.name = name;
    sc.title = "Prompt p: global or local max-margin direction depending on the start";
    sc.data = data;
    sc.model.param = Parameterization::Prompt;
    sc.model.Wk = Vec(Eigen::Vector3d(1, 1, 0)).asDiagonal();
    sc.train = ngd(0.1);
    sc.iterations = 1000;
    sc.init.p = Eigen::Vector3d(starts[o.start][0], starts[o.start][1], starts[o.start][2]);
    sc.init.v = data.v;
    return sc;
  }

  // Two sequences of two 3-D tokens; the loss is logistic (variant 0) or correlation -u (variant
  // 1).
  Scenario lossFunction(const ScenarioOptions& o) {
    const std::string name = "loss-function";
    requireDefaultShape(o, name);
    if (!std::isfinite(o.C)) throw InputError("scenario " + name + ": C must be finite");
    if (o.variant < 0 || o.variant > 1)
      throw InputError("scenario " + name + ": variant = " + std::to_string(o.variant) +
                       " (0: logistic loss, 1: correlation loss -u)");
    Dataset data;
    data.n = 2;
    data.T = 2;
    data.d = 3;
    data.X.resize(4, 3);
    data.X << 0, 0, 0,  //
        1, 1, o.C,      //
        0, 0, 0,        //
        1, -1, 1;
    data.Y = Vec::Ones(2);
    data.v = Eigen::Vector3d(0, 0, 1);
    data.alpha = optimalTokens(data).opt;

    Scenario sc;
    sc.name = name;
    sc.title = "Loss function: logistic finds the max-margin prompt whatever C; -u does not";
    sc.data = data;
    sc.model.param = Parameterization::Prompt;
    sc.model.loss = o.variant == 0 ? LossKind::Logistic : LossKind::Correlation;
    sc.model.Wk = Vec(Eigen::Vector3d(1, 1, 0)).asDiagonal();
    sc.train = ngd(0.1);
    sc.iterations = 1000;
    sc.init.p = Vec::Zero(3);
    sc.init.v = data.v;
    return sc;
  }

  // Joint training of the prompt p and the head v (SPEC "joint (p, v)").
  Scenario jointPV(const ScenarioOptions& o) {
    const std::string name = "joint-pv";
    requireDefaultShape(o, name);
    if (o.variant < 0 || o.variant > 1)
      throw InputError("scenario " + name + ": variant = " + std::to_string(o.variant) +
                       " (0: third token (0.5, 1), 1: (0.5, 1.5))");
    Dataset data;
    data.n = 3;
    data.T = 2;
    data.d = 2;
    data.X.resize(6, 2);
    data.X << 0, 0, 1, 1,  //
        0, 0, 1, -1,       //
        0, 0, 0.5, o.variant == 0 ? 1.0 : 1.5;
    data.Y = Eigen::Vector3d(1, -1, 1);
    data.v = Eigen::Vector2d(-1, 0);  // v0: also the head's initial value
    data.alpha = optimalTokens(data).opt;

    Scenario sc;
    sc.name = name;
    sc.title = "Joint training of prompt p and head v: each tends to its own max-margin solution";
    sc.data = data;
    sc.model.param = Parameterization::Prompt;
    sc.model.Wk = Mat::Identity(2, 2);
    sc.train = ngd(0.1);
    sc.train.trainHead = true;
    sc.train.headOptimizer = Optimizer::NGD;
    sc.train.headLr = 0.1;
    sc.iterations = 1000;
    sc.init.p = Eigen::Vector2d(0, -1);
    sc.init.v = data.v;
    return sc;
  }

  // The mirror-descent paper's l_p-AttGD against every l_q SVM (SPEC 5.2): sphere data, W0 with
  // i.i.d. N(0, 1) entries (drawn from the seed's init stream), normalized l_p MD with the dual
  // norm, eta = 0.1. p = 1.75 here (1500 iterations, the paper's count for it); the experiment sets
  // p and the iterations per run (experiment_md.cpp).
  Scenario mdConvergence(const ScenarioOptions& o) {
    Scenario sc = sphereScenario(
        "md-convergence", "Mirror-descent paper: normalized l_p MD (dual norm) from W0 ~ N(0,1)", o,
        6, 8, 10, 1500);
    const int d = sc.data.d;
    Rng rng(o.seed ^ kMdStream);
    sc.init.W = rng.normalMatrix(d, d);
    sc.train.optimizer = Optimizer::NMD;
    sc.train.lr = 0.1;
    sc.train.p = 1.75;
    return sc;
  }

  // The mirror-descent paper's joint l_p training of W and v (SPEC 5.2): n = 2, T = 3, d = 2, the
  // query of each sequence is its first token, W0 = 0, v0 = 0, normalized l_p MD on both (p = 1.75
  // here), eta = 0.1, 1500 iterations. v0 = 0 makes every token score 0: the data's "optimal
  // tokens" are all tied; the selection that matters is the one training reaches.
  Scenario jointWV(const ScenarioOptions& o) {
    const std::string name = "joint-wv";
    requireDefaultShape(o, name);
    Dataset data;
    data.n = 2;
    data.T = 3;
    data.d = 2;
    data.X.resize(6, 2);
    data.X << -2.7, 1.2, 1.4, 2.1, 1.3, -0.1,  //
        0.4, -2.2, -1.1, -0.4, 0.9, 0.1;
    data.Y = Eigen::Vector2d(1, -1);
    data.Z.resize(2, 2);
    data.Z.row(0) = data.X.row(0);
    data.Z.row(1) = data.X.row(3);
    data.v = Vec::Zero(2);
    data.alpha = optimalTokens(data).opt;

    Scenario sc;
    sc.name = name;
    sc.title =
        "Mirror-descent paper: joint l_p training of W and v from 0 (each tends to its l_p SVM)";
    sc.data = data;
    sc.train.optimizer = Optimizer::NMD;
    sc.train.lr = 0.1;
    sc.train.p = 1.75;
    sc.train.trainHead = true;
    sc.train.headOptimizer = Optimizer::NMD;
    sc.train.headLr = 0.1;
    sc.train.headP = 1.75;
    sc.iterations = 1500;
    sc.init.W = Mat::Zero(2, 2);
    sc.init.K = Mat::Zero(2, 2);
    sc.init.Q = Mat::Zero(2, 2);
    sc.init.v = Vec::Zero(2);
    return sc;
  }

  // Relu head f = v^T relu(V r) with v = ones and V Gaussian with unit-norm rows (each hidden unit
  // is a projection of r on a random unit direction). Data: the sphere generator, then v = ones.
  Scenario multitoken(const ScenarioOptions& o) {
    Scenario sc =
        sphereScenario("multitoken", "Nonlinear (relu) head: several tokens kept, generalized SVM",
                       o, 3, 4, 4, 2001);
    const int d = sc.data.d;
    sc.data.v = Vec::Ones(d);
    sc.data.alpha = optimalTokens(sc.data).opt;
    sc.init.v = sc.data.v;
    Rng rng(o.seed ^ kHeadStream);
    Mat V = rng.normalMatrix(d, d);
    for (int j = 0; j < d; ++j) V.row(j) /= V.row(j).norm();
    sc.model.head = HeadKind::ReluMLP;
    sc.model.V = V;
    return sc;
  }

  using ScenarioBuilder = std::function<Scenario(const ScenarioOptions&)>;

  const std::vector<std::pair<std::string, ScenarioBuilder>>& registry() {
    static const std::vector<std::pair<std::string, ScenarioBuilder>> table = {
        {"paths2d", [](const ScenarioOptions& o) { return paths2d(o, false); }},
        {"paths2d-t5", [](const ScenarioOptions& o) { return paths2d(o, true); }},
        {"local-convergence",
         [](const ScenarioOptions& o) {
           return sphereScenario("local-convergence",
                                 "Local convergence: sphere data, n=6, T=8, d=10, NGD", o, 6, 8, 10,
                                 2000);
         }},
        {"rank",
         [](const ScenarioOptions& o) {
           return sphereScenario("rank",
                                 "Rank of the SVM solutions: Frobenius full rank, nuclear low rank",
                                 o, 5, 5, 4, 2000);
         }},
        {"multitoken", multitoken},
        {"prompt-global-local", promptGlobalLocal},
        {"loss-function", lossFunction},
        {"joint-pv", jointPV},
        {"mirror-descent",
         [](const ScenarioOptions& o) {
           // l_p mirror descent (p = 3 by default: change train.p, keeping p > 1).
           Scenario sc =
               sphereScenario("mirror-descent", "l_p mirror descent: W tends to the l_p Att-SVM", o,
                              6, 8, 10, 2000);
           sc.train.optimizer = Optimizer::MD;
           sc.train.p = 3.0;
           sc.train.lr = 0.1;
           return sc;
         }},
        {"md-convergence", mdConvergence},
        {"joint-wv", jointWV},
        {"overparam",
         [](const ScenarioOptions& o) {
           return sphereScenario("overparam",
                                 "Overparameterization: global optimum more often as d grows", o, 6,
                                 8, 10, 2000);
         }},
        {"sphere",
         [](const ScenarioOptions& o) {
           return sphereScenario("sphere", "Sphere data (choose n, T, d)", o, 6, 8, 10, 2000);
         }},
        // Issue 40: self-attention with every position a query (SPEC 5.3), at the sizes of
        // `experiment seq2seq-convergence` (experiment_seq2seq.hpp says why these).
        {"seq2seq",
         [](const ScenarioOptions& o) {
           Scenario sc = sphereScenario(
               "seq2seq", "Sequence-to-sequence self-attention: a selection per (sequence, query)",
               o, 4, 5, 10, 2000);
           sc.model.attention = AttentionKind::SeqToSeq;
           return sc;
         }},
        {"causal",
         [](const ScenarioOptions& o) {
           Scenario sc = sphereScenario(
               "causal", "Causal self-attention: query k attends to the tokens t <= k", o, 4, 5, 10,
               2000);
           sc.model.attention = AttentionKind::Causal;
           return sc;
         }},
    };
    return table;
  }

  }  // namespace

  std::vector<std::string> scenarioNames() {
    std::vector<std::string> names;
    for (const auto& entry : registry()) names.push_back(entry.first);
    return names;
  }

  Scenario makeScenario(const std::string& name, const ScenarioOptions& options) {
    for (const auto& entry : registry())
      if (entry.first == name) return entry.second(options);
    std::string valid;
    for (const auto& entry : registry()) valid += (valid.empty() ? "" : ", ") + entry.first;
    throw InputError("unknown scenario \"" + name + "\"; valid names: " + valid);
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
