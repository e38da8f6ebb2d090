// Shared option parsing helpers of the subcommands.
#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"

namespace attnsvm::cli {

// Enum options go through the core's one table of names (attnsvm/vocab/names.hpp): canonical names
// and aliases are accepted, an unknown one lists the accepted ones.
inline NormKind parseNorm(const std::string& s) { return parseWireName<NormKind>(s, "--norm"); }

inline void checkP(double p, const std::string& option = "--p") {
  if (!std::isfinite(p) || p <= 1.0)
    throw InputError(option + " = " + std::to_string(p) +
                     " is out of range: p must be > 1 (and finite)");
  if (p > 1e6) throw InputError(option + " = " + std::to_string(p) + " is too large (limit 1e6)");
}

inline Optimizer parseOptimizerOption(const std::string& s) {
  return parseWireName<Optimizer>(s, "--optimizer");
}

inline LossKind parseLoss(const std::string& s) { return parseWireName<LossKind>(s, "--loss"); }

inline AttentionKind parseAttentionKind(const std::string& s) {
  return parseWireName<AttentionKind>(s, "--attention");
}

// --param: W or KQ (a prompt needs its key matrix Wk, which only the scenarios provide).
inline Parameterization parseTrainParam(const std::string& s) {
  const Parameterization p = parseWireName<Parameterization>(s, "--param");
  if (p == Parameterization::Prompt)
    throw InputError(
        "--param prompt needs the key matrix Wk: use --scenario with a prompt scenario");
  return p;
}
inline HeadKind parseHead(const std::string& s) { return parseWireName<HeadKind>(s, "--head"); }

// The scenario options shared by `scenario` and `train` (fields n, T, d, C, start, localCase,
// variant of the command's option struct); registered here once so the two cannot drift apart.
template <class Options>
void addScenarioOptions(CLI::App* sub, Options& o) {
  sub->add_option("--n", o.n, "scenario: number of sequences (default: the scenario's)");
  sub->add_option("--T", o.T, "scenario: tokens per sequence");
  sub->add_option("--d", o.d, "scenario: dimension");
  sub->add_option("--C", o.C, "loss-function scenario: C");
  sub->add_option("--start", o.start, "prompt scenarios: initial prompt 0..5");
  sub->add_flag("--local", o.localCase, "prompt-global-local: the local-case data");
  sub->add_option("--variant", o.variant, "joint-pv: 0 or 1");
}

}  // namespace attnsvm::cli
