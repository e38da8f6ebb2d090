// Shared option parsing helpers of the subcommands.
#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

#include "attnsvm/errors.hpp"
#include "attnsvm/margin.hpp"
#include "attnsvm/model.hpp"
#include "attnsvm/train.hpp"

namespace attnsvm::cli {

inline NormKind parseNorm(const std::string& s) {
  if (s == "fro" || s == "frobenius") return NormKind::Frobenius;
  if (s == "nuclear" || s == "nuc") return NormKind::Nuclear;
  if (s == "lp") return NormKind::Lp;
  throw InputError("--norm " + s + " is unknown; expected fro, nuclear or lp");
}

inline void checkP(double p, const std::string& option = "--p") {
  if (!std::isfinite(p) || p <= 1.0)
    throw InputError(option + " = " + std::to_string(p) + " is out of range: p must be > 1 (and finite)");
  if (p > 1e6) throw InputError(option + " = " + std::to_string(p) + " is too large (limit 1e6)");
}

inline Optimizer parseOptimizerOption(const std::string& s) { return parseOptimizer(s, "--optimizer"); }

inline LossKind parseLoss(const std::string& s) {
  if (s == "logistic") return LossKind::Logistic;
  if (s == "exp" || s == "exponential") return LossKind::Exponential;
  if (s == "correlation" || s == "linear" || s == "-u") return LossKind::Correlation;
  throw InputError("--loss " + s + " is unknown; expected logistic, exp or correlation");
}

inline AttentionKind parseAttentionKind(const std::string& s) {
  if (s == "cross") return AttentionKind::Cross;
  if (s == "self") return AttentionKind::Self;
  if (s == "seq2seq") return AttentionKind::SeqToSeq;
  if (s == "causal") return AttentionKind::Causal;
  throw InputError("--attention " + s + " is unknown; expected cross, self, seq2seq or causal");
}

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
