// Wire <-> core conversions (see convert.hpp). Arrays cross in bulk: typed arrays are copied with
// one TypedArray.set into C++ storage (convertJSArrayToNumberVector), and results are copied into
// fresh JS typed arrays with one constructor call, so no JS object ever aliases the wasm heap
// (which memory growth would detach).
#include "convert.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <limits>

#include "attnsvm/errors.hpp"

namespace attnsvm::wire {

using emscripten::typed_memory_view;
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

namespace {

[[noreturn]] void bad(const std::string& message) { throw InputError(message); }

const val& f64Ctor() {
  static const val ctor = val::global("Float64Array");
  return ctor;
}
const val& i32Ctor() {
  static const val ctor = val::global("Int32Array");
  return ctor;
}

}  // namespace

// ---------------------------------------------------------------- reading

bool has(const val& o, const char* key) {
  if (o.isUndefined() || o.isNull()) return false;
  const val v = o[key];
  return !v.isUndefined() && !v.isNull();
}

double number(const val& o, const char* key, double fallback) {
  if (!has(o, key)) return fallback;
  const val v = o[key];
  if (!v.isNumber()) bad(std::string(key) + " must be a number");
  return v.as<double>();
}

int integer(const val& o, const char* key, int fallback) {
  const double x = number(o, key, fallback);
  if (!std::isfinite(x) || x != std::floor(x) || std::abs(x) > 2147483647.0)
    bad(std::string(key) + " = " + std::to_string(x) + " must be an integer");
  return static_cast<int>(x);
}

bool boolean(const val& o, const char* key, bool fallback) {
  if (!has(o, key)) return fallback;
  return o[key].as<bool>();
}

std::string string(const val& o, const char* key, const std::string& fallback) {
  if (!has(o, key)) return fallback;
  const val v = o[key];
  if (!v.isString()) bad(std::string(key) + " must be a string");
  return v.as<std::string>();
}

std::vector<double> doubles(const val& array) {
  return emscripten::convertJSArrayToNumberVector<double>(array);
}

std::vector<int> ints(const val& array) { return emscripten::convertJSArrayToNumberVector<int>(array); }

Mat matrix(const val& m, const std::string& what) {
  const int rows = integer(m, "rows", -1), cols = integer(m, "cols", -1);
  if (rows < 0 || cols < 0 || !has(m, "data")) bad(what + " is not a matrix");
  const std::vector<double> data = doubles(m["data"]);
  if (data.size() != static_cast<std::size_t>(rows) * cols)
    bad(what + " has " + std::to_string(data.size()) + " entries, expected " + std::to_string(rows) +
        " x " + std::to_string(cols));
  return Eigen::Map<const RowMat>(data.data(), rows, cols);
}

Vec vector(const val& a) {
  const std::vector<double> data = doubles(a);
  return Eigen::Map<const Vec>(data.data(), static_cast<Index>(data.size()));
}

Dataset dataset(const val& o) {
  if (o.isUndefined() || o.isNull()) bad("dataset is missing");
  Dataset d;
  d.n = integer(o, "n", 0);
  d.T = integer(o, "T", 0);
  d.d = integer(o, "d", 0);
  // Sizes are checked by attnsvm::validate; here only what a Map needs to stay in bounds.
  if (d.n < 0 || d.T < 0 || d.d < 0) bad("dataset sizes must be non-negative");
  const std::vector<double> X = has(o, "X") ? doubles(o["X"]) : std::vector<double>{};
  const std::size_t tokens = static_cast<std::size_t>(d.n) * d.T;
  if (X.size() != tokens * d.d)
    bad("X has " + std::to_string(X.size()) + " numbers, expected n*T*d = " +
        std::to_string(tokens * d.d));
  d.X = Eigen::Map<const RowMat>(X.data(), static_cast<Index>(tokens), d.d);
  if (has(o, "Z")) {
    const std::vector<double> Z = doubles(o["Z"]);
    if (Z.size() != static_cast<std::size_t>(d.n) * d.d)
      bad("Z has " + std::to_string(Z.size()) + " numbers, expected n*d = " +
          std::to_string(static_cast<std::size_t>(d.n) * d.d));
    d.Z = Eigen::Map<const RowMat>(Z.data(), d.n, d.d);
  }
  d.query = integer(o, "query", 0);
  if (has(o, "Y")) d.Y = vector(o["Y"]);
  if (has(o, "v")) d.v = vector(o["v"]);
  if (has(o, "alpha")) d.alpha = ints(o["alpha"]);
  return d;
}

AttentionKind attentionKind(const std::string& s) {
  if (s == "cross") return AttentionKind::Cross;
  if (s == "self") return AttentionKind::Self;
  if (s == "seq2seq") return AttentionKind::SeqToSeq;
  if (s == "causal") return AttentionKind::Causal;
  bad("unknown attention kind '" + s + "' (expected cross, self, seq2seq or causal)");
}

static const char* name(AttentionKind k) {
  switch (k) {
    case AttentionKind::Cross: return "cross";
    case AttentionKind::Self: return "self";
    case AttentionKind::SeqToSeq: return "seq2seq";
    case AttentionKind::Causal: return "causal";
  }
  return "cross";
}

NormKind normKind(const std::string& s) {
  if (s == "fro") return NormKind::Frobenius;
  if (s == "nuclear") return NormKind::Nuclear;
  if (s == "lp") return NormKind::Lp;
  bad("unknown norm '" + s + "' (expected fro, nuclear or lp)");
}

static Parameterization parameterization(const std::string& s) {
  if (s == "W") return Parameterization::W;
  if (s == "KQ") return Parameterization::KQ;
  if (s == "prompt") return Parameterization::Prompt;
  bad("unknown parameterization '" + s + "' (expected W, KQ or prompt)");
}
static const char* name(Parameterization p) {
  return p == Parameterization::KQ ? "KQ" : p == Parameterization::Prompt ? "prompt" : "W";
}

static HeadKind headKind(const std::string& s) {
  if (s == "linear") return HeadKind::Linear;
  if (s == "relu") return HeadKind::ReluMLP;
  bad("unknown head '" + s + "' (expected linear or relu)");
}
static const char* name(HeadKind h) { return h == HeadKind::ReluMLP ? "relu" : "linear"; }

static LossKind lossKind(const std::string& s) {
  if (s == "logistic") return LossKind::Logistic;
  if (s == "exponential") return LossKind::Exponential;
  if (s == "correlation") return LossKind::Correlation;
  bad("unknown loss '" + s + "' (expected logistic, exponential or correlation)");
}
static const char* name(LossKind l) {
  return l == LossKind::Exponential ? "exponential" : l == LossKind::Correlation ? "correlation" : "logistic";
}

static Optimizer optimizer(const std::string& s) {
  if (s == "gd") return Optimizer::GD;
  if (s == "ngd") return Optimizer::NGD;
  if (s == "md") return Optimizer::MD;
  if (s == "nmd") return Optimizer::NMD;
  bad("unknown optimizer '" + s + "' (expected gd, ngd, md or nmd)");
}
static const char* name(Optimizer o) {
  switch (o) {
    case Optimizer::GD: return "gd";
    case Optimizer::NGD: return "ngd";
    case Optimizer::MD: return "md";
    case Optimizer::NMD: return "nmd";
  }
  return "ngd";
}

ModelSpec modelSpec(const val& o) {
  ModelSpec s;
  if (o.isUndefined() || o.isNull()) return s;
  s.attention = attentionKind(string(o, "attention", "cross"));
  s.param = parameterization(string(o, "param", "W"));
  s.head = headKind(string(o, "head", "linear"));
  s.loss = lossKind(string(o, "loss", "logistic"));
  s.m = integer(o, "m", 0);
  if (has(o, "Wk")) s.Wk = matrix(o["Wk"], "Wk");
  if (has(o, "V")) s.V = matrix(o["V"], "V");
  return s;
}

TrainSettings trainSettings(const val& o) {
  TrainSettings s;
  if (o.isUndefined() || o.isNull()) return s;
  s.optimizer = optimizer(string(o, "optimizer", "ngd"));
  s.lr = number(o, "lr", s.lr);
  s.p = number(o, "p", s.p);
  s.balance = number(o, "balance", s.balance);
  s.trainHead = boolean(o, "trainHead", s.trainHead);
  s.headOptimizer = optimizer(string(o, "headOptimizer", name(s.headOptimizer)));
  s.headLr = number(o, "headLr", s.headLr);
  s.headP = number(o, "headP", s.headP);
  s.traceEvery = integer(o, "traceEvery", s.traceEvery);
  s.traceSoftmax = boolean(o, "traceSoftmax", s.traceSoftmax);
  s.traceP = number(o, "traceP", s.traceP);
  s.maxNorm = number(o, "maxNorm", s.maxNorm);
  return s;
}

Params params(const val& o) {
  Params p;
  if (o.isUndefined() || o.isNull()) return p;
  if (has(o, "W")) p.W = matrix(o["W"], "W");
  if (has(o, "K")) p.K = matrix(o["K"], "K");
  if (has(o, "Q")) p.Q = matrix(o["Q"], "Q");
  if (has(o, "p")) p.p = vector(o["p"]);
  if (has(o, "v")) p.v = vector(o["v"]);
  return p;
}

InitSettings initSettings(const val& o) {
  InitSettings s;
  if (o.isUndefined() || o.isNull()) return s;
  const std::string kind = string(o, "kind", "zero");
  if (kind == "zero") s.kind = InitKind::Zero;
  else if (kind == "random") s.kind = InitKind::Random;
  else if (kind == "given") s.kind = InitKind::Given;
  else if (kind == "cone") s.kind = InitKind::Cone;
  else bad("unknown init kind '" + kind + "' (expected zero, random, given or cone)");
  const double seed = number(o, "seed", 0);
  if (!(seed >= 0) || seed != std::floor(seed) || seed > 9007199254740991.0)
    bad("seed must be an integer in 0..2^53-1");
  s.seed = static_cast<std::uint64_t>(seed);
  s.scale = number(o, "scale", s.scale);
  if (has(o, "direction")) s.direction = matrix(o["direction"], "direction");
  s.coneNoise = number(o, "coneNoise", s.coneNoise);
  if (has(o, "given")) s.given = params(o["given"]);
  return s;
}

// ---------------------------------------------------------------- writing

val f64(const double* data, std::size_t n) { return f64Ctor().new_(typed_memory_view(n, data)); }
val f64(const std::vector<double>& v) { return f64(v.data(), v.size()); }
val f64(const Vec& v) { return f64(v.data(), static_cast<std::size_t>(v.size())); }
val i32(const std::vector<int>& v) { return i32Ctor().new_(typed_memory_view(v.size(), v.data())); }

val matrix(const Mat& m) {
  const RowMat r = m;  // Eigen is column-major; the wire is row-major
  val o = val::object();
  o.set("rows", static_cast<int>(m.rows()));
  o.set("cols", static_cast<int>(m.cols()));
  o.set("data", f64(r.data(), static_cast<std::size_t>(r.size())));
  return o;
}

val ragged(const std::vector<std::vector<int>>& lists) {
  std::vector<int> offsets{0}, values;
  for (const auto& l : lists) {
    values.insert(values.end(), l.begin(), l.end());
    offsets.push_back(static_cast<int>(values.size()));
  }
  val o = val::object();
  o.set("offsets", i32(offsets));
  o.set("values", i32(values));
  return o;
}

val dataset(const Dataset& d) {
  val o = val::object();
  o.set("n", d.n);
  o.set("T", d.T);
  o.set("d", d.d);
  o.set("X", matrix(d.X)["data"]);
  if (d.Z.size() > 0) o.set("Z", matrix(d.Z)["data"]);
  o.set("query", d.query);
  o.set("Y", f64(d.Y));
  o.set("v", f64(d.v));
  if (!d.alpha.empty()) o.set("alpha", i32(d.alpha));
  return o;
}

val modelSpec(const ModelSpec& s) {
  val o = val::object();
  o.set("attention", std::string(name(s.attention)));
  o.set("param", std::string(name(s.param)));
  o.set("head", std::string(name(s.head)));
  o.set("loss", std::string(name(s.loss)));
  if (s.m > 0) o.set("m", s.m);
  if (s.Wk.size() > 0) o.set("Wk", matrix(s.Wk));
  if (s.V.size() > 0) o.set("V", matrix(s.V));
  return o;
}

val trainSettings(const TrainSettings& s) {
  val o = val::object();
  o.set("optimizer", std::string(name(s.optimizer)));
  o.set("lr", s.lr);
  o.set("p", s.p);
  o.set("balance", s.balance);
  o.set("trainHead", s.trainHead);
  o.set("headOptimizer", std::string(name(s.headOptimizer)));
  o.set("headLr", s.headLr);
  o.set("headP", s.headP);
  o.set("traceEvery", s.traceEvery);
  o.set("traceSoftmax", s.traceSoftmax);
  o.set("traceP", s.traceP);
  o.set("maxNorm", s.maxNorm);
  return o;
}

val params(const Params& p) {
  val o = val::object();
  if (p.W.size() > 0) o.set("W", matrix(p.W));
  if (p.K.size() > 0) o.set("K", matrix(p.K));
  if (p.Q.size() > 0) o.set("Q", matrix(p.Q));
  if (p.p.size() > 0) o.set("p", f64(p.p));
  if (p.v.size() > 0) o.set("v", f64(p.v));
  return o;
}

static const char* statusName(SolveStatus s) {
  switch (s) {
    case SolveStatus::Optimal: return "optimal";
    case SolveStatus::Infeasible: return "infeasible";
    case SolveStatus::MaxIterations: return "max_iterations";
  }
  return "max_iterations";
}

val solution(const MarginSolution& s, const MarginProblem& problem) {
  // Support constraints as (sequence, token) pairs, plus the query for seq2seq/causal units.
  std::vector<int> pairs, queries;
  for (int j : s.support) {
    if (j < 0 || j >= static_cast<int>(problem.label.size())) continue;
    const ConstraintLabel& l = problem.label[j];
    pairs.push_back(l.sequence);
    pairs.push_back(l.token);
    queries.push_back(l.query);
  }
  val o = val::object();
  o.set("status", std::string(statusName(s.status)));
  o.set("W", matrix(s.W));
  o.set("lambda", f64(s.lambda));
  o.set("objective", s.objective);
  o.set("lowerBound", s.lowerBound);
  o.set("gap", s.gap);
  o.set("maxViolation", s.maxViolation);
  o.set("support", i32(pairs));
  o.set("supportIndex", i32(s.support));  // constraint indices (the only labels of generalized SVMs)
  o.set("supportQuery", i32(queries));
  o.set("iterations", s.iterations);
  o.set("seconds", s.seconds);
  o.set("message", s.message);
  if (s.farkas.size() > 0) o.set("farkas", f64(s.farkas));
  o.set("constraints", problem.constraints());
  return o;
}

static const char* verdictName(Verdict v) {
  switch (v) {
    case Verdict::GloballyOptimal: return "globally_optimal";
    case Verdict::LocallyOptimal: return "locally_optimal";
    case Verdict::Neither: return "neither";
    case Verdict::Infeasible: return "infeasible";
  }
  return "neither";
}

val selectionReport(const SelectionReport& r, const MarginProblem& problem) {
  std::vector<int> violators;
  for (const auto& [i, t] : r.violators) {
    violators.push_back(i);
    violators.push_back(t);
  }
  val o = val::object();
  o.set("selection", i32(r.selection));
  o.set("optimal", i32(r.optimal));
  o.set("ties", ragged(r.ties));
  o.set("feasible", r.feasible);
  o.set("verdict", std::string(verdictName(r.verdict)));
  o.set("supportTokens", ragged(r.supportTokens));
  o.set("violators", i32(violators));
  o.set("explanation", r.explanation);
  o.set("svm", solution(r.svm, problem));
  return o;
}

val forward(const Forward& f) {
  val o = val::object();
  o.set("softmax", matrix(f.softmax));
  o.set("output", f64(f.output));
  o.set("selected", i32(f.selected));
  o.set("selectedProbability", f64(f.selectedProbability));
  o.set("loss", f.loss);
  return o;
}

val seedResults(const std::vector<SeedResult>& rs) {
  val o = val::object();
  const auto strings = [](const std::vector<std::string>& v) {
    val a = val::array();
    for (const std::string& x : v) a.call<void>("push", x);
    return a;
  };
  std::vector<double> seeds, series, values;
  std::vector<std::vector<int>> selections;
  val labels = val::array();
  for (const SeedResult& r : rs) {
    seeds.push_back(static_cast<double>(r.seed));
    for (const auto& s : r.series) series.insert(series.end(), s.begin(), s.end());
    values.insert(values.end(), r.values.begin(), r.values.end());
    selections.insert(selections.end(), r.selections.begin(), r.selections.end());
    labels.call<void>("push", strings(r.labels));
  }
  const SeedResult empty;
  const SeedResult& first = rs.empty() ? empty : rs.front();
  o.set("experiment", first.experiment);
  o.set("count", static_cast<int>(rs.size()));
  o.set("n", first.n);
  o.set("T", first.T);
  o.set("d", first.d);
  o.set("iters", first.iters);
  o.set("every", first.every);
  o.set("seeds", f64(seeds));
  o.set("iteration", i32(first.iteration));
  o.set("seriesNames", strings(first.seriesNames));
  o.set("series", f64(series));
  o.set("valueNames", strings(first.valueNames));
  o.set("values", f64(values));
  o.set("labelNames", strings(first.labelNames));
  o.set("labels", labels);
  o.set("selectionNames", strings(first.selectionNames));
  o.set("selections", ragged(selections));
  return o;
}

}  // namespace attnsvm::wire
