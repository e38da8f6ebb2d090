// The wire field lists of the public structs: for each struct one function that calls a visitor
// once per field, in order, with the field's wire name (camelCase, the convention of the CLI's
// JSON and the JS API alike; docs/NAMES.md). The CLI's JSON reader and writer (cli/json_fields.cpp)
// and the wasm conversions (wasm/convert_read.cpp, convert_write.cpp) are visitors over these
// lists, so a field is named and shaped in one place, and a key of an input object that no list
// names is an error listing the fields (notAField below). `engine.vocabulary()` returns the lists
// (fieldNames), and a test checks the .d.ts interfaces against them.
//
// Input structs (Dataset, ModelSpec, TrainSettings, Params, InitSettings, SolverSettings,
// SolveRequest; and ScenarioOptions, whose list is in scenarios.hpp with the experiments) are read
// and written through the same function:
// visitFields(s, v) takes the struct or a const struct. Readers get non-const references and set a
// field only when the input has it, so every default lives in the struct; writers get const ones.
// A visitor provides, for each field type T,
//   v(name, T& x, bool written = true)     written: whether a writer writes the field for this
//   value
//                                          (e.g. not an absent optional matrix); readers ignore it
//   v.object(name, fn, bool written = true)  a nested object; fn(sub) visits its fields with a
//                                            visitor of the same kind
// with T one of double, int, bool, std::uint64_t, std::string, an enum of names.hpp (by its wire
// names), std::optional of such an enum, Mat, Vec, std::vector<int>, and TokensRef (a dataset's X
// with its shape). Result structs (MarginSolution, SelectionReport) are written only, from const
// structs, and add std::vector<std::vector<int>> (ragged lists), IndexPairs ((i, t) pairs) and
// std::vector<double>.
//
// The experiments' settings and results have lists of the same kind beside their structs:
// SeedOptions and SeedsRequest (experiment.hpp), BasinMapRequest (experiment_basin.hpp),
// RealImagesSettings, RealImagesFrame and RealImagesAnalysis (real_images.hpp); the attnsvm-
// experiments module's experimentVocabulary() returns them.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/path.hpp"
#include "attnsvm/train/real_train.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"

namespace attnsvm {

// The InputError for a key of an input object that is not one of its fields, e.g.
// "train.learningRate is not a field; expected one of optimizer, lr, p, ...". `path` is the key
// with the object's path in front.
[[noreturn]] void notAField(const std::string& path, const std::vector<std::string>& accepted);

struct IndexPairs {
  std::vector<std::array<int, 2>> pairs;
};

// A dataset's tokens X ((n*T) x d, token (i, t) is row i*T + t) with its shape n x T x d: one field
// on the wire (nested n x T x d arrays in the CLI's JSON, {n, T, d, data} in wasm). M, I are
// Mat, int (read into) or const Mat, const int (written from).
template <class M, class I>
struct TokensRef {
  M& X;
  I& n;
  I& T;
  I& d;
};

namespace detail {
// visitFields(S& s, V& v) for S = T or const T only.
template <class S, class T>
using IfStruct = std::enable_if_t<std::is_same_v<std::remove_const_t<S>, T>>;
}  // namespace detail

// ---------------------------------------------------------------------------------- input structs

// Dataset: X, Z, query, Y, v, alpha. `attention` (default: defaultAttention, i.e. cross when the
// dataset has Z) decides what a writer writes: Z only for cross attention and query only for self
// attention, the one place that decides it for every producer (the CLI's files, engine.scenario(),
// engine.sphere()). Readers accept every field whatever the attention.
template <class S, class V>
auto visitFields(S& d, V& v, std::optional<AttentionKind> attention = std::nullopt)
    -> detail::IfStruct<S, Dataset> {
  const AttentionKind kind = attention.value_or(defaultAttention(d));
  using M = std::remove_reference_t<decltype((d.X))>;
  using I = std::remove_reference_t<decltype((d.n))>;
  v("X", TokensRef<M, I>{d.X, d.n, d.T, d.d});
  v("Z", d.Z, kind == AttentionKind::Cross && d.Z.size() > 0);
  v("query", d.query, kind == AttentionKind::Self);
  v("Y", d.Y);
  v("v", d.v);
  v("alpha", d.alpha, !d.alpha.empty());
}

// ModelSpec: attention, param, head, loss, m (0: d), Wk (prompt), V (relu head).
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, ModelSpec> {
  v("attention", s.attention);
  v("param", s.param);
  v("head", s.head);
  v("loss", s.loss);
  v("m", s.m, s.m > 0);
  v("Wk", s.Wk, s.Wk.size() > 0);
  v("V", s.V, s.V.size() > 0);
}

// TrainSettings: optimizer, lr, p, balance, trainHead, headOptimizer, headLr, headP, adamBeta1,
// adamBeta2, adamEps, traceEvery, traceSoftmax, traceP, maxNorm (the meaning of each in train.hpp).
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, TrainSettings> {
  v("optimizer", s.optimizer);
  v("lr", s.lr);
  v("p", s.p);
  v("balance", s.balance);
  v("trainHead", s.trainHead);
  v("headOptimizer", s.headOptimizer);
  v("headLr", s.headLr);
  v("headP", s.headP);
  v("adamBeta1", s.adamBeta1);
  v("adamBeta2", s.adamBeta2);
  v("adamEps", s.adamEps);
  v("traceEvery", s.traceEvery);
  v("traceSoftmax", s.traceSoftmax);
  v("traceP", s.traceP);
  v("maxNorm", s.maxNorm);
}

// Params: W, K, Q, p, v (each written when it is set).
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, Params> {
  v("W", s.W, s.W.size() > 0);
  v("K", s.K, s.K.size() > 0);
  v("Q", s.Q, s.Q.size() > 0);
  v("p", s.p, s.p.size() > 0);
  v("v", s.v, s.v.size() > 0);
}

// InitSettings: kind, seed, scale, direction, coneNoise, given. A writer writes the fields the kind
// uses: seed and scale for random and cone starts, direction and coneNoise for cone, given for
// given.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, InitSettings> {
  const bool drawn = s.kind == InitKind::Random || s.kind == InitKind::Cone;
  v("kind", s.kind);
  v("seed", s.seed, drawn);
  v("scale", s.scale, drawn);
  v("direction", s.direction, s.kind == InitKind::Cone && s.direction.size() > 0);
  v("coneNoise", s.coneNoise, s.kind == InitKind::Cone);
  v.object(
      "given", [&](auto& sub) { visitFields(s.given, sub); }, s.kind == InitKind::Given);
}

// SolverSettings: norm, p, tolerance, feasibilityTol, supportTol, maxIterations.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, SolverSettings> {
  v("norm", s.norm);
  v("p", s.p);
  v("tolerance", s.tolerance);
  v("feasibilityTol", s.feasibilityTol);
  v("supportTol", s.supportTol);
  v("maxIterations", s.maxIterations);
}

// SolveRequest: dataset, problem, attention, selection, Wk, headSupport and the solver settings'
// fields (norm, p, tolerance, feasibilityTol, supportTol, maxIterations) beside them.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, SolveRequest> {
  v.object("dataset", [&](auto& sub) { visitFields(s.dataset, sub, s.attention); });
  v("problem", s.problem);
  v("attention", s.attention);
  v("selection", s.selection, !s.selection.empty());
  v("Wk", s.Wk, s.Wk.size() > 0);
  v("headSupport", s.headSupport, !s.headSupport.empty());
  visitFields(s.solver, v);
}

// ---------------------------------------------------------------------------------- result structs

// MarginSolution: status, W, lambda, objective, lowerBound, gap, maxViolation, support ((sequence,
// token) pairs of the active constraints), supportQuery (the query position k of each, -1 unless
// seq2seq/causal), supportIndex (the constraint index j of each), iterations, seconds, message,
// constraints (m), when infeasible farkas (one weight per constraint: lambda >= 0 with
// sum lambda_j A_j = 0 and sum lambda_j b_j > 0), and where the large-problem path measured them
// marginLower, marginUpper (bounds on the feasibility margin, margin.hpp).
template <class Visitor>
void visitFields(const MarginSolution& s, const MarginProblem& problem, Visitor& v) {
  IndexPairs support;
  std::vector<int> supportQuery, supportIndex;
  for (int j : s.support) {
    if (j < 0 || j >= static_cast<int>(problem.label.size())) continue;
    const ConstraintLabel& l = problem.label[j];
    support.pairs.push_back({l.sequence, l.token});
    supportQuery.push_back(l.query);
    supportIndex.push_back(j);
  }
  v("status", s.status);
  v("W", s.W);
  v("lambda", s.lambda);
  v("objective", s.objective);
  v("lowerBound", s.lowerBound);
  v("gap", s.gap);
  v("maxViolation", s.maxViolation);
  v("support", std::as_const(support));
  v("supportQuery", std::as_const(supportQuery));
  v("supportIndex", std::as_const(supportIndex));
  v("iterations", s.iterations);
  v("seconds", s.seconds);
  v("message", s.message);
  v("constraints", problem.constraints());
  v("farkas", s.farkas, s.farkas.size() > 0);
  v("marginLower", s.marginLower, std::isfinite(s.marginLower));
  v("marginUpper", s.marginUpper, std::isfinite(s.marginUpper));
}

// SelectionReport: selection, optimal, ties, feasible, verdict, supportTokens (per sequence),
// violators ((sequence, token) pairs), explanation, svm (the MarginSolution of the selection).
template <class Visitor>
void visitFields(const SelectionReport& r, const MarginProblem& problem, Visitor& v) {
  IndexPairs violators;
  for (const auto& [i, t] : r.violators) violators.pairs.push_back({i, t});
  v("selection", r.selection);
  v("optimal", r.optimal);
  v("ties", r.ties);
  v("feasible", r.feasible);
  v("verdict", r.verdict);
  v("supportTokens", r.supportTokens);
  v("violators", std::as_const(violators));
  v("explanation", r.explanation);
  v.object("svm", [&](Visitor& sub) { visitFields(r.svm, problem, sub); });
}

// ---------------------------------------------------------------------------------- names

// A visitor that only collects the names, in list order (every field, whatever `written`).
struct FieldNames {
  std::vector<std::string> names;
  template <class T>
  void operator()(const char* name, T&&, bool = true) {
    add(name);
  }
  template <class Fn>
  void object(const char* name, Fn&&, bool = true) {
    add(name);
  }
  void add(const char* name);  // out of line (names.cpp): one call per field
};

// The wire names of T's fields (extra: the arguments its list takes beside the struct, such as
// the MarginProblem of a solution).
template <class T, class... Extra>
std::vector<std::string> fieldNames(const Extra&... extra) {
  const T s{};
  FieldNames v;
  visitFields(s, extra..., v);
  return v.names;
}

// Keys a dataset file (the CLI's input, the lab's "Dataset JSON" box) may hold besides the
// dataset's fields: the attention kind, train's V (--head relu), analyze's W, and what
// `attnsvm scenario` writes beside the dataset (so that its output is valid input everywhere).
// Any other key is an error listing the fields and these.
// (An array of literals, not a function-local static vector: no guard and initializer code in the
// page's wasm module, whose size is bounded.)
inline constexpr const char* kDatasetFileExtras[] = {
    "attention", "V", "W", "scenario", "title", "iterations", "model", "train", "init"};

// (Moved here from train/real_train.hpp, which sits below this layer.)
// The field list of RealTrainSettings: optimizer, p (unless Adam), lr, batch, trainW, trainHead,
// initScale, seed, adamBeta1, adamBeta2, adamEps (the three Adam fields only for Adam),
// normEpsilon (nmd only).
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealTrainSettings> {
  const bool adam = s.optimizer == Optimizer::Adam;
  v("optimizer", s.optimizer);
  v("p", s.p, !adam);
  v("lr", s.lr);
  v("batch", s.batch);
  v("trainW", s.trainW);
  v("trainHead", s.trainHead);
  v("initScale", s.initScale);
  v("seed", s.seed);
  v("adamBeta1", s.adamBeta1, adam);
  v("adamBeta2", s.adamBeta2, adam);
  v("adamEps", s.adamEps, adam);
  v("normEpsilon", s.normEpsilon, s.optimizer == Optimizer::NMD || s.optimizer == Optimizer::NGD);
}

// The field list of a path point (written only): radius, W, loss, selection, corrOwn, corrGlobal,
// globallyOptimal, gap, relativeGap, logGradDual, norm, iterations, certified, lossResolved.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, PathPoint> {
  v("radius", s.radius);
  v("W", s.W);
  v("loss", s.loss);
  v("selection", s.selection);
  v("corrOwn", s.corrOwn);
  v("corrGlobal", s.corrGlobal);
  v("globallyOptimal", s.globallyOptimal);
  v("gap", s.gap);
  v("relativeGap", s.relativeGap);
  v("logGradDual", s.logGradDual);
  v("norm", s.norm);
  v("iterations", s.iterations);
  v("certified", s.certified);
  v("lossResolved", s.lossResolved);
}

}  // namespace attnsvm
