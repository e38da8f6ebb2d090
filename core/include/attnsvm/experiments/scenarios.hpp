// Named datasets and whole scenarios of SPEC section 5 (one source of truth for the CLI, the
// experiments and the web lab, which reaches them through wasm).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "attnsvm/data/dataset.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

// The "sphere" generator: v ~ N(0,I) normalized; Y_i = +-1 with probability 1/2; tokens and
// queries N(0,I) normalized to unit length; alpha_i = argmax_t Y_i v^T x_it.
// Draw order (fixed, part of the contract): v, then for each i: Y_i, the T tokens, z_i.
Dataset sphereDataset(int n, int T, int d, std::uint64_t seed);

// A complete, runnable scenario: data, model, training settings and initial parameters.
struct Scenario {
  std::string name;
  std::string title;  // one line for a menu
  Dataset data;
  ModelSpec model;
  TrainSettings train;
  Params init;
  int iterations = 2000;  // the paper's iteration count
};

struct ScenarioOptions {
  std::uint64_t seed = 0;
  int n = -1, T = -1, d = -1;  // -1: the scenario's default
  double C = 1.0;              // loss-function scenario: the third coordinate of token (1,1,C)
  int start = 0;               // prompt scenarios: which of the paper's initial prompts (0..5)
  bool localCase = false;      // global-vs-local prompt: use the local-case data
  int variant = 0;             // joint (p, v): 0 -> third token (0.5, 1), 1 -> (0.5, 1.5)
};

// The field list of ScenarioOptions (the visitor protocol of attnsvm/vocab/fields.hpp): seed, n, T,
// d, C, start, localCase, variant.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, ScenarioOptions> {
  v("seed", s.seed);
  v("n", s.n);
  v("T", s.T);
  v("d", s.d);
  v("C", s.C);
  v("start", s.start);
  v("localCase", s.localCase);
  v("variant", s.variant);
}

// Names: "paths2d", "paths2d-t5", "local-convergence", "rank", "multitoken", "prompt-global-local",
// "loss-function", "joint-pv", "mirror-descent", "md-convergence", "joint-wv", "overparam",
// "sphere", "seq2seq", "causal". Throws InputError listing the valid names on an unknown one.
Scenario makeScenario(const std::string& name, const ScenarioOptions& options = {});
std::vector<std::string> scenarioNames();

}  // namespace attnsvm
