// The wire names of the public enums (see attnsvm/vocab/names.hpp): the first name of each row is
// canonical, the others are accepted aliases. The tables of the model's and training's enums are
// here; the solvers' (SolveStatus, SvmProblemKind: solvers/wire_names.cpp) and the analysis'
// (Verdict: analysis/selection.cpp) beside their enums, the optimizers' and norms' read from their
// registries. Also the field lists' error (notAField).
#include "attnsvm/vocab/names.hpp"

#include <string>
#include <utility>
#include <vector>

#include "analysis/verdict_names.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/norms.hpp"
#include "attnsvm/train/optimizers.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "solvers/wire_names.hpp"

namespace attnsvm {

namespace {

// A table is a constant array of rows (base/wire_table.hpp: no initialization code, one
// copy of the lookups for every enum: they work on the value as an int).
using Row = WireRow;
using Table = WireTable;

template <class E>
Table table();

#define ATTNSVM_TABLE(E, ...)                                        \
  template <>                                                        \
  Table table<E>() {                                                 \
    static constexpr Row rows[] = {__VA_ARGS__};                     \
    return {rows, static_cast<int>(sizeof(rows) / sizeof(rows[0]))}; \
  }
#define ATTNSVM_ROW(value, ...)              \
  {                                          \
    static_cast<int>(value), { __VA_ARGS__ } \
  }

ATTNSVM_TABLE(AttentionKind, ATTNSVM_ROW(AttentionKind::Cross, "cross"),
              ATTNSVM_ROW(AttentionKind::Self, "self"),
              ATTNSVM_ROW(AttentionKind::SeqToSeq, "seq2seq"),
              ATTNSVM_ROW(AttentionKind::Causal, "causal"))
ATTNSVM_TABLE(Parameterization, ATTNSVM_ROW(Parameterization::W, "W", "w"),
              ATTNSVM_ROW(Parameterization::KQ, "KQ", "kq"),
              ATTNSVM_ROW(Parameterization::Prompt, "prompt"))
ATTNSVM_TABLE(HeadKind, ATTNSVM_ROW(HeadKind::Linear, "linear"),
              ATTNSVM_ROW(HeadKind::ReluMLP, "relu"))
ATTNSVM_TABLE(LossKind, ATTNSVM_ROW(LossKind::Logistic, "logistic"),
              ATTNSVM_ROW(LossKind::Exponential, "exponential", "exp"),
              ATTNSVM_ROW(LossKind::Correlation, "correlation", "linear", "-u"))
ATTNSVM_TABLE(InitKind, ATTNSVM_ROW(InitKind::Zero, "zero"),
              ATTNSVM_ROW(InitKind::Random, "random"), ATTNSVM_ROW(InitKind::Given, "given"),
              ATTNSVM_ROW(InitKind::Cone, "cone"))
#undef ATTNSVM_ROW
#undef ATTNSVM_TABLE

// The lower layers' tables, beside their enums.
template <>
Table table<SvmProblemKind>() {
  return svmProblemKindNames();
}
template <>
Table table<SolveStatus>() {
  return solveStatusNames();
}
template <>
Table table<Verdict>() {
  return verdictNames();
}

// The optimizers' and the norms' names are their registries' (attnsvm/train/optimizers.hpp,
// attnsvm/solvers/norms.hpp): rows made once from the entries' kind and names.
template <class Entry>
Table tableOf(const std::vector<Entry>& registry) {
  static const std::vector<Row> rows = [&] {
    std::vector<Row> out;
    for (const Entry& e : registry)
      out.push_back({static_cast<int>(e.kind), {e.names[0], e.names[1], e.names[2]}});
    return out;
  }();
  return {rows.data(), static_cast<int>(rows.size())};
}
template <>
Table table<Optimizer>() {
  return tableOf(optimizerRegistry());
}
template <>
Table table<NormKind>() {
  return tableOf(normRegistry());
}

const char* nameOf(Table t, int value) { return canonicalName(t, value); }

int valueOf(Table t, const std::string& name, const std::string& what) {
  std::string accepted;
  for (int r = 0; r < t.size; ++r) {
    for (const char* n : t.rows[r].names)
      if (n && name == n) return t.rows[r].value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(t.rows[r].names[0]);
  }
  throw InputError(what + " = \"" + name + "\" is unknown; expected one of " + accepted);
}

std::vector<std::string> canonicalNames(Table t) {
  std::vector<std::string> out;
  for (int r = 0; r < t.size; ++r) out.emplace_back(t.rows[r].names[0]);
  return out;
}

}  // namespace

const char* wireName(AttentionKind v) {
  return nameOf(table<AttentionKind>(), static_cast<int>(v));
}
const char* wireName(Parameterization v) {
  return nameOf(table<Parameterization>(), static_cast<int>(v));
}
const char* wireName(HeadKind v) { return nameOf(table<HeadKind>(), static_cast<int>(v)); }
const char* wireName(LossKind v) { return nameOf(table<LossKind>(), static_cast<int>(v)); }
const char* wireName(Optimizer v) { return nameOf(table<Optimizer>(), static_cast<int>(v)); }
const char* wireName(InitKind v) { return nameOf(table<InitKind>(), static_cast<int>(v)); }
const char* wireName(NormKind v) { return nameOf(table<NormKind>(), static_cast<int>(v)); }
const char* wireName(SvmProblemKind v) {
  return nameOf(table<SvmProblemKind>(), static_cast<int>(v));
}
const char* wireName(SolveStatus v) { return nameOf(table<SolveStatus>(), static_cast<int>(v)); }
const char* wireName(Verdict v) { return nameOf(table<Verdict>(), static_cast<int>(v)); }

template <class E>
E parseWireName(const std::string& name, const std::string& what) {
  return static_cast<E>(valueOf(table<E>(), name, what));
}

template <class E>
std::vector<std::string> wireNames() {
  return canonicalNames(table<E>());
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

void FieldNames::add(const char* name) { names.emplace_back(name); }

void notAField(const std::string& path, const std::vector<std::string>& accepted) {
  std::string list;
  for (const std::string& name : accepted) list += (list.empty() ? "" : ", ") + name;
  throw InputError(path + " is not a field; expected one of " + list);
}

}  // namespace attnsvm
