// The product's vocabulary: one table per public enum with its wire names (the first canonical, the
// others accepted aliases). The CLI's options and JSON, the wasm API and the docs all go through
// these functions, so a spelling exists in one place: core/src/vocab/names.cpp, or beside the enum
// in a lower layer (SolveStatus, SvmProblemKind, Verdict; the optimizers' and norms' registries).
// Unknown names throw InputError naming the field and listing the accepted ones.
#pragma once
#include <string>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"

namespace attnsvm {

// Canonical names:
//   AttentionKind     cross, self, seq2seq, causal
//   Parameterization  W, KQ, prompt                 (aliases w, kq)
//   HeadKind          linear, relu
//   LossKind          logistic, exponential, correlation   (aliases exp; linear, -u)
//   Optimizer         gd, ngd, md, nmd, nmd-fro, adam       (declared in train.hpp)
//   InitKind          zero, random, given, cone
//   NormKind          fro, nuclear, lp              (aliases frobenius; nuc)
//   SvmProblemKind    attention, prompt, relaxed-prompt, head
//   SolveStatus       optimal, infeasible, max_iterations, boundary
//   Verdict           globally_optimal, locally_optimal, neither, infeasible, boundary, undecided
const char* wireName(AttentionKind v);
const char* wireName(Parameterization v);
const char* wireName(HeadKind v);
const char* wireName(LossKind v);
const char* wireName(Optimizer v);
const char* wireName(InitKind v);
const char* wireName(NormKind v);
const char* wireName(SvmProblemKind v);
const char* wireName(SolveStatus v);
const char* wireName(Verdict v);

// parseWireName<E>(name, what): the value named `name` (canonical or alias); `what` is the field or
// option in the error message, e.g. `--param` or `model.param`.
template <class E>
E parseWireName(const std::string& name, const std::string& what);
// The canonical names of E in table order (for help texts and the .d.ts check).
template <class E>
std::vector<std::string> wireNames();

}  // namespace attnsvm
