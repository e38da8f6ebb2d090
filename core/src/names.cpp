// The one table of the public enums' wire names (see attnsvm/names.hpp): the first name of each row
// is canonical, the others are accepted aliases.
#include "attnsvm/names.hpp"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "attnsvm/errors.hpp"
#include "attnsvm/fields.hpp"

namespace attnsvm {

namespace {

template <class E>
struct Row {
  E value;
  std::vector<const char*> names;  // canonical first
};

template <class E>
const std::vector<Row<E>>& table();

template <>
const std::vector<Row<AttentionKind>>& table() {
  static const std::vector<Row<AttentionKind>> t = {{AttentionKind::Cross, {"cross"}},
                                                    {AttentionKind::Self, {"self"}},
                                                    {AttentionKind::SeqToSeq, {"seq2seq"}},
                                                    {AttentionKind::Causal, {"causal"}}};
  return t;
}
template <>
const std::vector<Row<Parameterization>>& table() {
  static const std::vector<Row<Parameterization>> t = {{Parameterization::W, {"W", "w"}},
                                                       {Parameterization::KQ, {"KQ", "kq"}},
                                                       {Parameterization::Prompt, {"prompt"}}};
  return t;
}
template <>
const std::vector<Row<HeadKind>>& table() {
  static const std::vector<Row<HeadKind>> t = {{HeadKind::Linear, {"linear"}},
                                               {HeadKind::ReluMLP, {"relu"}}};
  return t;
}
template <>
const std::vector<Row<LossKind>>& table() {
  static const std::vector<Row<LossKind>> t = {
      {LossKind::Logistic, {"logistic"}},
      {LossKind::Exponential, {"exponential", "exp"}},
      {LossKind::Correlation, {"correlation", "linear", "-u"}}};
  return t;
}
template <>
const std::vector<Row<Optimizer>>& table() {
  static const std::vector<Row<Optimizer>> t = {{Optimizer::GD, {"gd"}},
                                                {Optimizer::NGD, {"ngd"}},
                                                {Optimizer::MD, {"md"}},
                                                {Optimizer::NMD, {"nmd"}},
                                                {Optimizer::NMDFro, {"nmd-fro", "nmd_fro"}},
                                                {Optimizer::Adam, {"adam"}}};
  return t;
}
template <>
const std::vector<Row<InitKind>>& table() {
  static const std::vector<Row<InitKind>> t = {{InitKind::Zero, {"zero"}},
                                               {InitKind::Random, {"random"}},
                                               {InitKind::Given, {"given"}},
                                               {InitKind::Cone, {"cone"}}};
  return t;
}
template <>
const std::vector<Row<NormKind>>& table() {
  static const std::vector<Row<NormKind>> t = {{NormKind::Frobenius, {"fro", "frobenius"}},
                                               {NormKind::Nuclear, {"nuclear", "nuc"}},
                                               {NormKind::Lp, {"lp"}}};
  return t;
}
template <>
const std::vector<Row<SvmProblemKind>>& table() {
  static const std::vector<Row<SvmProblemKind>> t = {
      {SvmProblemKind::Attention, {"attention"}},
      {SvmProblemKind::Prompt, {"prompt"}},
      {SvmProblemKind::RelaxedPrompt, {"relaxed-prompt"}},
      {SvmProblemKind::Head, {"head"}}};
  return t;
}
template <>
const std::vector<Row<SolveStatus>>& table() {
  static const std::vector<Row<SolveStatus>> t = {{SolveStatus::Optimal, {"optimal"}},
                                                  {SolveStatus::Infeasible, {"infeasible"}},
                                                  {SolveStatus::MaxIterations, {"max_iterations"}}};
  return t;
}
template <>
const std::vector<Row<Verdict>>& table() {
  static const std::vector<Row<Verdict>> t = {{Verdict::GloballyOptimal, {"globally_optimal"}},
                                              {Verdict::LocallyOptimal, {"locally_optimal"}},
                                              {Verdict::Neither, {"neither"}},
                                              {Verdict::Infeasible, {"infeasible"}}};
  return t;
}

template <class E>
const char* nameOf(E v) {
  for (const Row<E>& row : table<E>())
    if (row.value == v) return row.names.front();
  return table<E>().front().names.front();  // unreachable for valid enum values
}

}  // namespace

const char* wireName(AttentionKind v) { return nameOf(v); }
const char* wireName(Parameterization v) { return nameOf(v); }
const char* wireName(HeadKind v) { return nameOf(v); }
const char* wireName(LossKind v) { return nameOf(v); }
const char* wireName(Optimizer v) { return nameOf(v); }
const char* wireName(InitKind v) { return nameOf(v); }
const char* wireName(NormKind v) { return nameOf(v); }
const char* wireName(SvmProblemKind v) { return nameOf(v); }
const char* wireName(SolveStatus v) { return nameOf(v); }
const char* wireName(Verdict v) { return nameOf(v); }

template <class E>
E parseWireName(const std::string& name, const std::string& what) {
  std::string accepted;
  for (const Row<E>& row : table<E>()) {
    for (const char* n : row.names)
      if (name == n) return row.value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(row.names.front());
  }
  throw InputError(what + " = \"" + name + "\" is unknown; expected one of " + accepted);
}

template <class E>
std::vector<std::string> wireNames() {
  std::vector<std::string> out;
  for (const Row<E>& row : table<E>()) out.emplace_back(row.names.front());
  return out;
}

#define ATTNSVM_NAMES_INSTANTIATE(E)                                             \
  template E parseWireName<E>(const std::string& name, const std::string& what); \
  template std::vector<std::string> wireNames<E>();
ATTNSVM_NAMES_INSTANTIATE(AttentionKind)
ATTNSVM_NAMES_INSTANTIATE(Parameterization)
ATTNSVM_NAMES_INSTANTIATE(HeadKind)
ATTNSVM_NAMES_INSTANTIATE(LossKind)
ATTNSVM_NAMES_INSTANTIATE(Optimizer)
ATTNSVM_NAMES_INSTANTIATE(InitKind)
ATTNSVM_NAMES_INSTANTIATE(NormKind)
ATTNSVM_NAMES_INSTANTIATE(SvmProblemKind)
ATTNSVM_NAMES_INSTANTIATE(SolveStatus)
ATTNSVM_NAMES_INSTANTIATE(Verdict)
#undef ATTNSVM_NAMES_INSTANTIATE

void notAField(const std::string& path, const std::vector<std::string>& accepted) {
  std::string list;
  for (const std::string& name : accepted) list += (list.empty() ? "" : ", ") + name;
  throw InputError(path + " is not a field; expected one of " + list);
}

// Declared in train.hpp (used widely before the general table existed).
const char* optimizerName(Optimizer o) { return nameOf(o); }
Optimizer parseOptimizer(const std::string& name, const std::string& what) {
  return parseWireName<Optimizer>(name, what);
}
bool isMirrorOptimizer(Optimizer o) {
  return o == Optimizer::MD || o == Optimizer::NMD || o == Optimizer::NMDFro;
}
bool isNormalizedOptimizer(Optimizer o) {
  return o == Optimizer::NGD || o == Optimizer::NMD || o == Optimizer::NMDFro;
}

}  // namespace attnsvm
