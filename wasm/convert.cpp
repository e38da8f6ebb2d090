// Wire <-> core conversions (see convert.hpp). Arrays cross in bulk: typed arrays are copied with
// one TypedArray.set into C++ storage (convertJSArrayToNumberVector), and results are copied into
// fresh JS typed arrays with one constructor call, so no JS object ever aliases the wasm heap
// (which memory growth would detach).
#include "convert.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <limits>

#include "attnsvm/errors.hpp"
#include "attnsvm/fields.hpp"
#include "attnsvm/names.hpp"
#include "cold.hpp"
#include "guarded.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/src/cold.hpp)
    namespace attnsvm::wire {
  using emscripten::typed_memory_view;
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  void put(val & o, const char* key, const val& v) { o.set(key, v); }

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

  std::vector<int> ints(const val& array) {
    return emscripten::convertJSArrayToNumberVector<int>(array);
  }

  Mat matrix(const val& m, const std::string& what) {
    const int rows = integer(m, "rows", -1), cols = integer(m, "cols", -1);
    if (rows < 0 || cols < 0 || !has(m, "data")) bad(what + " is not a matrix");
    const std::vector<double> data = doubles(m["data"]);
    if (data.size() != static_cast<std::size_t>(rows) * cols)
      bad(what + " has " + std::to_string(data.size()) + " entries, expected " +
          std::to_string(rows) + " x " + std::to_string(cols));
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
      bad("X has " + std::to_string(X.size()) +
          " numbers, expected n*T*d = " + std::to_string(tokens * d.d));
    d.X = Eigen::Map<const RowMat>(X.data(), static_cast<Index>(tokens), d.d);
    if (has(o, "Z")) {
      const std::vector<double> Z = doubles(o["Z"]);
      if (Z.size() != static_cast<std::size_t>(d.n) * d.d)
        bad("Z has " + std::to_string(Z.size()) +
            " numbers, expected n*d = " + std::to_string(static_cast<std::size_t>(d.n) * d.d));
      d.Z = Eigen::Map<const RowMat>(Z.data(), d.n, d.d);
    }
    d.query = integer(o, "query", 0);
    if (has(o, "Y")) d.Y = vector(o["Y"]);
    if (has(o, "v")) d.v = vector(o["v"]);
    if (has(o, "alpha")) d.alpha = ints(o["alpha"]);
    return d;
  }

  // Enum names: the core's one table (attnsvm/names.hpp); unknown names list the accepted ones.
  AttentionKind attentionKind(const std::string& s) {
    return parseWireName<AttentionKind>(s, "attention");
  }
  static const char* name(AttentionKind k) { return wireName(k); }
  NormKind normKind(const std::string& s) { return parseWireName<NormKind>(s, "norm"); }
  static Parameterization parameterization(const std::string& s) {
    return parseWireName<Parameterization>(s, "model.param");
  }
  static const char* name(Parameterization p) { return wireName(p); }
  static HeadKind headKind(const std::string& s) {
    return parseWireName<HeadKind>(s, "model.head");
  }
  static const char* name(HeadKind h) { return wireName(h); }
  static LossKind lossKind(const std::string& s) {
    return parseWireName<LossKind>(s, "model.loss");
  }
  static const char* name(LossKind l) { return wireName(l); }
  static Optimizer optimizer(const std::string& s) {
    return parseWireName<Optimizer>(s, "optimizer");
  }
  static const char* name(Optimizer o) { return wireName(o); }

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
    s.adamBeta1 = number(o, "adamBeta1", s.adamBeta1);
    s.adamBeta2 = number(o, "adamBeta2", s.adamBeta2);
    s.adamEps = number(o, "adamEps", s.adamEps);
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
    s.kind = parseWireName<InitKind>(kind, "init.kind");
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
  val i32(const std::vector<int>& v) {
    return i32Ctor().new_(typed_memory_view(v.size(), v.data()));
  }

  val matrix(const Mat& m) {
    const RowMat r = m;  // Eigen is column-major; the wire is row-major
    val o = val::object();
    put(o, "rows", val(static_cast<int>(m.rows())));
    put(o, "cols", val(static_cast<int>(m.cols())));
    put(o, "data", val(f64(r.data(), static_cast<std::size_t>(r.size()))));
    return o;
  }

  val ragged(const std::vector<std::vector<int>>& lists) {
    std::vector<int> offsets{0}, values;
    for (const auto& l : lists) {
      values.insert(values.end(), l.begin(), l.end());
      offsets.push_back(static_cast<int>(values.size()));
    }
    val o = val::object();
    put(o, "offsets", val(i32(offsets)));
    put(o, "values", val(i32(values)));
    return o;
  }

  val dataset(const Dataset& d) {
    val o = val::object();
    put(o, "n", val(d.n));
    put(o, "T", val(d.T));
    put(o, "d", val(d.d));
    put(o, "X", val(matrix(d.X)["data"]));
    if (d.Z.size() > 0) put(o, "Z", val(matrix(d.Z)["data"]));
    put(o, "query", val(d.query));
    put(o, "Y", val(f64(d.Y)));
    put(o, "v", val(f64(d.v)));
    if (!d.alpha.empty()) put(o, "alpha", val(i32(d.alpha)));
    return o;
  }

  val modelSpec(const ModelSpec& s) {
    val o = val::object();
    put(o, "attention", val(std::string(name(s.attention))));
    put(o, "param", val(std::string(name(s.param))));
    put(o, "head", val(std::string(name(s.head))));
    put(o, "loss", val(std::string(name(s.loss))));
    if (s.m > 0) put(o, "m", val(s.m));
    if (s.Wk.size() > 0) put(o, "Wk", val(matrix(s.Wk)));
    if (s.V.size() > 0) put(o, "V", val(matrix(s.V)));
    return o;
  }

  val params(const Params& p) {
    val o = val::object();
    if (p.W.size() > 0) put(o, "W", val(matrix(p.W)));
    if (p.K.size() > 0) put(o, "K", val(matrix(p.K)));
    if (p.Q.size() > 0) put(o, "Q", val(matrix(p.Q)));
    if (p.p.size() > 0) put(o, "p", val(f64(p.p)));
    if (p.v.size() > 0) put(o, "v", val(f64(p.v)));
    return o;
  }

  namespace {
  // Writes the core's field lists (attnsvm/fields.hpp) as JS objects: names and shapes come from
  // there; bulk arrays are typed (pairs flattened, ragged lists as {offsets, values}; convert.js
  // unpacks them).
  struct ValFields {
    val& out;
    void operator()(const char* name, double x) { put(out, name, val(x)); }
    void operator()(const char* name, int x) { put(out, name, val(x)); }
    void operator()(const char* name, bool x) { put(out, name, val(x)); }
    void operator()(const char* name, const std::string& x) { put(out, name, val(x)); }
    void operator()(const char* name, const Mat& m) { put(out, name, val(matrix(m))); }
    void operator()(const char* name, const Vec& x) { put(out, name, val(f64(x))); }
    void operator()(const char* name, const std::vector<int>& x) { put(out, name, val(i32(x))); }
    void operator()(const char* name, const std::vector<std::vector<int>>& x) {
      put(out, name, val(ragged(x)));
    }
    void operator()(const char* name, const IndexPairs& x) {
      std::vector<int> flat;
      for (const auto& [i, t] : x.pairs) {
        flat.push_back(i);
        flat.push_back(t);
      }
      put(out, name, val(i32(flat)));
    }
    template <class Fn>
    void object(const char* name, Fn&& fn) {
      val sub = val::object();
      ValFields v{sub};
      fn(v);
      put(out, name, sub);
    }
  };
  }  // namespace

  val solution(const MarginSolution& s, const MarginProblem& problem) {
    val o = val::object();
    ValFields v{o};
    visitFields(s, problem, v);
    return o;
  }

  val trainSettings(const TrainSettings& s) {
    val o = val::object();
    ValFields v{o};
    visitFields(s, v);
    return o;
  }

  val selectionReport(const SelectionReport& r, const MarginProblem& problem) {
    val o = val::object();
    ValFields v{o};
    visitFields(r, problem, v);
    return o;
  }

  val forward(const Forward& f) {
    val o = val::object();
    put(o, "softmax", val(matrix(f.softmax)));
    put(o, "output", val(f64(f.output)));
    put(o, "selected", val(i32(f.selected)));
    put(o, "selectedProbability", val(f64(f.selectedProbability)));
    put(o, "loss", val(f.loss));
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
    put(o, "experiment", val(first.experiment));
    put(o, "count", val(static_cast<int>(rs.size())));
    put(o, "n", val(first.n));
    put(o, "T", val(first.T));
    put(o, "d", val(first.d));
    put(o, "iters", val(first.iters));
    put(o, "every", val(first.every));
    put(o, "seeds", val(f64(seeds)));
    put(o, "iteration", val(i32(first.iteration)));
    put(o, "seriesNames", val(strings(first.seriesNames)));
    put(o, "series", val(f64(series)));
    put(o, "valueNames", val(strings(first.valueNames)));
    put(o, "values", val(f64(values)));
    put(o, "labelNames", val(strings(first.labelNames)));
    put(o, "labels", val(labels));
    put(o, "selectionNames", val(strings(first.selectionNames)));
    put(o, "selections", val(ragged(selections)));
    return o;
  }

  val failure(const std::string& message, const char* kind) {
    val o = val::object();
    put(o, "ok", val(false));
    put(o, "error", val(message));
    put(o, "kind", val(std::string(kind)));
    return o;
  }

  CaughtError caughtError() {
    try {
      throw;  // the exception being handled
    } catch (const InputError& e) {
      return {e.what(), "input"};
    } catch (const NumericalError& e) {
      return {e.what(), "numerical"};
    } catch (const std::exception& e) {
      return {e.what(), "internal"};
    } catch (...) {
      return {"unknown C++ exception", "internal"};
    }
  }

  val guardedCall(val(*body)(void*), void* context) {
    try {
      val out = body(context);
      out.set("ok", true);
      return out;
    } catch (...) {
      const CaughtError e = caughtError();
      return failure(e.message, e.kind);
    }
  }

}  // namespace attnsvm::wire
ATTNSVM_COLD_END
