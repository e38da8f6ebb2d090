// Wire <-> core conversions (see convert.hpp). Arrays cross in bulk: typed arrays are copied with
// one TypedArray.set into C++ storage (convertJSArrayToNumberVector), and results are copied into
// fresh JS typed arrays with one constructor call, so no JS object ever aliases the wasm heap
// (which memory growth would detach).
#include "convert.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"
#include "cold.hpp"
#include "guarded.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
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

  // ---- the field readers: one value of the field `where` (e.g. "train.lr"), present
  namespace {

  void readValue(const val& v, const std::string& where, double& x) {
    if (!v.isNumber()) bad(where + " must be a number");
    x = v.as<double>();
  }

  void readValue(const val& v, const std::string& where, int& x) {
    double d = 0;
    readValue(v, where, d);
    if (!std::isfinite(d) || d != std::floor(d) || std::abs(d) > 2147483647.0)
      bad(where + " = " + std::to_string(d) + " must be an integer");
    x = static_cast<int>(d);
  }

  void readValue(const val& v, const std::string& where, bool& x) {
    if (!v.isTrue() && !v.isFalse()) bad(where + " must be true or false");
    x = v.isTrue();
  }

  void readValue(const val& v, const std::string& where, std::uint64_t& x) {
    double d = 0;
    readValue(v, where, d);
    if (!(d >= 0) || d > 9007199254740991.0 || d != std::floor(d))
      bad(where + " must be an integer in 0..2^53-1");
    x = static_cast<std::uint64_t>(d);
  }

  void readValue(const val& v, const std::string& where, std::string& x) {
    if (!v.isString()) bad(where + " must be a string");
    x = v.as<std::string>();
  }

  void readValue(const val& v, const std::string& where, Mat& x) { x = matrix(v, where); }
  void readValue(const val& v, const std::string&, Vec& x) { x = vector(v); }
  void readValue(const val& v, const std::string&, std::vector<int>& x) { x = ints(v); }
  void readValue(const val& v, const std::string&, std::vector<double>& x) { x = doubles(v); }

  // A dataset's X: {n, T, d, data: Float64Array (n*T*d, token rows)} (the wire's shape of X, as
  // a matrix is {rows, cols, data}).
  void readValue(const val& v, const std::string& where, const TokensRef<Mat, int>& x) {
    const int n = integer(v, "n", -1), T = integer(v, "T", -1), d = integer(v, "d", -1);
    if (n < 0 || T < 0 || d < 0 || !has(v, "data")) bad(where + " is not {n, T, d, data}");
    const std::vector<double> data = doubles(v["data"]);
    const std::size_t tokens = static_cast<std::size_t>(n) * T;
    // Sizes are checked by attnsvm::validate; here only what a Map needs to stay in bounds.
    if (data.size() != tokens * d)
      bad(where + " has " + std::to_string(data.size()) +
          " numbers, expected n*T*d = " + std::to_string(tokens * d));
    x.X = Eigen::Map<const RowMat>(data.data(), static_cast<Index>(tokens), d);
    x.n = n;
    x.T = T;
    x.d = d;
  }

  template <class T>
  void readStruct(const val& v, const std::string& where, T& x) {
    Reader r(v, where);
    visitFields(x, r);
    r.finish();
  }
  template <class T, class = decltype(visitFields(std::declval<T&>(), std::declval<Reader&>()))>
  void readValue(const val& v, const std::string& where, T& x) {
    readStruct(v, where, x);
  }

  }  // namespace

  Reader::Reader(const val& object, const std::string& path) : obj_(object), path_(path) {
    if (!path_.empty()) path_ += '.';
    if (!obj_.isUndefined() && !obj_.isNull() && obj_.typeOf().as<std::string>() != "object")
      bad((path.empty() ? std::string("the request") : path) + " must be an object");
  }

  Reader::~Reader() = default;

  template <class T>
  void Reader::read(const char* name, T& x) {
    val f = val::undefined();
    if (take(name, f)) readValue(f, where(name), x);
  }

  // Out of line and not inlined: a visit in a field list is one call (the module's size).
  [[gnu::noinline]] void Reader::operator()(const char* name, double& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, int& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, bool& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, std::uint64_t& x, bool) {
    read(name, x);
  }
  // Its own copy of readValue(std::string): a second caller of that function changes how it is
  // inlined into readEnum, i.e. the code of the page's module, which has no string fields.
  [[gnu::noinline]] void Reader::operator()(const char* name, std::string& x, bool) {
    val f = val::undefined();
    if (!take(name, f)) return;
    if (!f.isString()) bad(where(name) + " must be a string");
    x = f.as<std::string>();
  }
  [[gnu::noinline]] void Reader::operator()(const char* name, Mat& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, Vec& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, std::vector<int>& x, bool) {
    read(name, x);
  }
  [[gnu::noinline]] void Reader::operator()(const char* name, std::vector<double>& x, bool) {
    read(name, x);
  }
  [[gnu::noinline]] void Reader::operator()(const char* name, const TokensRef<Mat, int>& x, bool) {
    val f = val::undefined();
    if (take(name, f)) readValue(f, where(name), x);
  }
  [[gnu::noinline]] void Reader::operator()(const char* name, Dataset& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, ModelSpec& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, TrainSettings& x, bool) {
    read(name, x);
  }
  [[gnu::noinline]] void Reader::operator()(const char* name, Params& x, bool) { read(name, x); }
  [[gnu::noinline]] void Reader::operator()(const char* name, InitSettings& x, bool) {
    read(name, x);
  }

  bool Reader::readEnum(const char* name, int& x, EnumParser parse) {
    val f = val::undefined();
    if (!take(name, f)) return false;
    std::string value;
    const std::string path = where(name);
    readValue(f, path, value);
    x = parse(value, path);
    return true;
  }

  void Reader::required(const char* name, Dataset& x) {
    val f = val::undefined();
    if (!take(name, f)) bad(where(name) + " is missing");
    readValue(f, where(name), x);
  }

  void Reader::required(const char* name, Mat& x) {
    val f = val::undefined();
    if (!take(name, f)) bad(where(name) + " is missing");
    readValue(f, where(name), x);
  }

  void Reader::accept(const char* name) { names_.emplace_back(name); }

  bool Reader::take(const char* name, val& out) {
    names_.emplace_back(name);
    if (obj_.isUndefined() || obj_.isNull()) return false;
    out = obj_[name];
    return !out.isUndefined() && !out.isNull();
  }

  std::string Reader::where(const char* name) const { return path_ + name; }

  void Reader::finish() const {
    if (obj_.isUndefined() || obj_.isNull()) return;
    const val keys = val::global("Object").call<val>("keys", obj_);
    const int count = keys["length"].as<int>();
    for (int i = 0; i < count; ++i) {
      const std::string key = keys[i].as<std::string>();
      if (std::find(names_.begin(), names_.end(), key) != names_.end()) continue;
      if (obj_[key].isUndefined()) continue;  // {...o, key: undefined}: absent
      notAField(path_ + key, std::vector<std::string>(names_.begin(), names_.end()));
    }
  }

  template <class T>
  T readFields(const val& o, const std::string& what) {
    T s{};
    readStruct(o, what, s);
    return s;
  }
  template ModelSpec readFields<ModelSpec>(const val&, const std::string&);
  template TrainSettings readFields<TrainSettings>(const val&, const std::string&);
  template Params readFields<Params>(const val&, const std::string&);
  template InitSettings readFields<InitSettings>(const val&, const std::string&);
  template ScenarioOptions readFields<ScenarioOptions>(const val&, const std::string&);
  template Dataset readFields<Dataset>(const val&, const std::string&);
  template SeedsRequest readFields<SeedsRequest>(const val&, const std::string&);
  template BasinMapRequest readFields<BasinMapRequest>(const val&, const std::string&);
  // The real-images study and ladder (bindings_real_study.cpp, the experiments module only).
  template RealStudySettings readFields<RealStudySettings>(const val&, const std::string&);
  template RealStudyRun readFields<RealStudyRun>(const val&, const std::string&);
  template RealStudyRunResult readFields<RealStudyRunResult>(const val&, const std::string&);
  template RealLadderSettings readFields<RealLadderSettings>(const val&, const std::string&);
  template RealLadderRun readFields<RealLadderRun>(const val&, const std::string&);
  template RealLadderRunResult readFields<RealLadderRunResult>(const val&, const std::string&);

  Dataset dataset(const val& o, const std::string& what) {
    if (o.isUndefined() || o.isNull()) bad(what + " is missing");
    return readFields<Dataset>(o, what);
  }

  // Enum names: the core's one table (attnsvm/vocab/names.hpp); unknown names list the accepted
  // ones.
  AttentionKind attentionKind(const std::string& s) {
    return parseWireName<AttentionKind>(s, "attention");
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

  namespace {
  // Writes the core's field lists (attnsvm/vocab/fields.hpp) as JS objects: names and shapes come
  // from there; bulk arrays are typed (pairs flattened, ragged lists as {offsets, values}, a
  // dataset's X as {n, T, d, data}; convert.js unpacks them). The per-type writers are not inlined:
  // a visit in a field list is one call (the module's size).
  struct Writer {
    val& out;
    [[gnu::noinline]] void operator()(const char* name, double x, bool w = true) {
      if (w) put(out, name, val(x));
    }
    [[gnu::noinline]] void operator()(const char* name, int x, bool w = true) {
      if (w) put(out, name, val(x));
    }
    [[gnu::noinline]] void operator()(const char* name, bool x, bool w = true) {
      if (w) put(out, name, val(x));
    }
    [[gnu::noinline]] void operator()(const char* name, std::uint64_t x, bool w = true) {
      if (w) put(out, name, val(static_cast<double>(x)));
    }
    [[gnu::noinline]] void operator()(const char* name, const std::string& x, bool w = true) {
      if (w) put(out, name, val(x));
    }
    template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
    [[gnu::noinline]] void operator()(const char* name, E x, bool w = true) {
      if (w) put(out, name, val(std::string(wireName(x))));
    }
    template <class E>
    [[gnu::noinline]] void operator()(const char* name, const std::optional<E>& x, bool w = true) {
      if (w && x) put(out, name, val(std::string(wireName(*x))));
    }
    [[gnu::noinline]] void operator()(const char* name, const Mat& m, bool w = true) {
      if (w) put(out, name, val(matrix(m)));
    }
    [[gnu::noinline]] void operator()(const char* name, const Vec& x, bool w = true) {
      if (w) put(out, name, val(f64(x)));
    }
    [[gnu::noinline]] void operator()(const char* name, const std::vector<int>& x, bool w = true) {
      if (w) put(out, name, val(i32(x)));
    }
    [[gnu::noinline]] void operator()(const char* name, const std::vector<double>& x,
                                      bool w = true) {
      if (w) put(out, name, val(f64(x)));
    }
    [[gnu::noinline]] void operator()(const char* name, const std::vector<std::vector<int>>& x,
                                      bool w = true) {
      if (w) put(out, name, val(ragged(x)));
    }
    [[gnu::noinline]] void operator()(const char* name, const IndexPairs& x, bool w = true) {
      if (!w) return;
      std::vector<int> flat;
      for (const auto& [i, t] : x.pairs) {
        flat.push_back(i);
        flat.push_back(t);
      }
      put(out, name, val(i32(flat)));
    }
    [[gnu::noinline]] void operator()(const char* name, const TokensRef<const Mat, const int>& x,
                                      bool w = true) {
      if (!w) return;
      val o = val::object();
      put(o, "n", val(x.n));
      put(o, "T", val(x.T));
      put(o, "d", val(x.d));
      put(o, "data", val(matrix(x.X)["data"]));
      put(out, name, o);
    }
    template <class Fn>
    void object(const char* name, Fn&& fn, bool w = true) {
      if (!w) return;
      val sub = val::object();
      Writer v{sub};
      fn(v);
      put(out, name, sub);
    }
  };
  }  // namespace

  template <class T>
  val writeFields(const T& s) {
    val o = val::object();
    Writer v{o};
    visitFields(s, v);
    return o;
  }
  template val writeFields<ModelSpec>(const ModelSpec&);
  template val writeFields<TrainSettings>(const TrainSettings&);
  template val writeFields<Params>(const Params&);
  template val writeFields<InitSettings>(const InitSettings&);
  template val writeFields<Dataset>(const Dataset&);
  template val writeFields<RealImagesFrame>(const RealImagesFrame&);
  template val writeFields<RealImagesAnalysis>(const RealImagesAnalysis&);
  template val writeFields<RealStudySettings>(const RealStudySettings&);
  template val writeFields<RealStudyRun>(const RealStudyRun&);
  template val writeFields<RealStudyRunResult>(const RealStudyRunResult&);
  template val writeFields<RealStudyRow>(const RealStudyRow&);
  template val writeFields<RealLadderSettings>(const RealLadderSettings&);
  template val writeFields<RealLadderRun>(const RealLadderRun&);
  template val writeFields<RealLadderRunResult>(const RealLadderRunResult&);
  template val writeFields<RealLadderRow>(const RealLadderRow&);
  template val writeFields<RealLadderSummary>(const RealLadderSummary&);

  namespace {
  template <class T>
  val roundTrip(const val& value, const std::string& name) {
    return writeFields(readFields<T>(value, name));
  }
  }  // namespace

  val roundTripFields(const std::string& name, const val& value) {
    static const struct {
      const char* name;
      val (*roundTrip)(const val&, const std::string&);
    } lists[] = {
        {"dataset", &roundTrip<Dataset>},     {"model", &roundTrip<ModelSpec>},
        {"train", &roundTrip<TrainSettings>}, {"params", &roundTrip<Params>},
        {"init", &roundTrip<InitSettings>},   {"solver", &roundTrip<SolverSettings>},
        {"solve", &roundTrip<SolveRequest>},  {"scenarioOptions", &roundTrip<ScenarioOptions>}};
    for (const auto& list : lists)
      if (name == list.name) {
        val o = val::object();
        put(o, "value", list.roundTrip(value, name));
        return o;
      }
    bad("fieldsRoundTrip: no field list named '" + name + "'");
  }

  namespace {
  // Collects a list's names into a JS array (no struct value is read).
  struct NameList {
    val& out;
    [[gnu::noinline]] void add(const char* name) noexcept { out.call<void>("push", val(name)); }
    template <class T>
    void operator()(const char* name, T&&, bool = true) noexcept {
      add(name);
    }
    template <class Fn>
    void object(const char* name, Fn&&, bool = true) noexcept {
      add(name);
    }
  };
  template <class T, class... Extra>
  val names(const Extra&... extra) {
    val a = val::array();
    const T s{};
    NameList v{a};
    visitFields(s, extra..., v);
    return a;
  }
  }  // namespace

  val fieldLists() {
    val o = val::object();
    put(o, "dataset", names<Dataset>());
    put(o, "model", names<ModelSpec>());
    put(o, "train", names<TrainSettings>());
    put(o, "params", names<Params>());
    put(o, "init", names<InitSettings>());
    put(o, "solve", names<SolveRequest>());
    put(o, "scenarioOptions", names<ScenarioOptions>());
    put(o, "solution", names<MarginSolution>(MarginProblem{}));
    put(o, "report", names<SelectionReport>(MarginProblem{}));
    return o;
  }

  val experimentFieldLists() {
    val o = val::object();
    put(o, "experimentSeeds", names<SeedsRequest>());
    put(o, "basinMap", names<BasinMapRequest>());
    put(o, "realImagesSettings", names<RealImagesSettings>());
    put(o, "realImagesFrame", names<RealImagesFrame>());
    put(o, "realImagesAnalysis", names<RealImagesAnalysis>());
    put(o, "realStudySettings", names<RealStudySettings>());
    put(o, "realStudyRun", names<RealStudyRun>());
    put(o, "realStudyRunResult", names<RealStudyRunResult>());
    put(o, "realStudyRow", names<RealStudyRow>());
    put(o, "realTrainSettings", names<RealTrainSettings>());
    put(o, "realLadderSettings", names<RealLadderSettings>());
    put(o, "realLadderRun", names<RealLadderRun>());
    put(o, "realLadderRunResult", names<RealLadderRunResult>());
    put(o, "realLadderRow", names<RealLadderRow>());
    put(o, "realLadderSummary", names<RealLadderSummary>());
    return o;
  }

  val dataset(const Dataset& d, AttentionKind attention) {
    val o = val::object();
    Writer v{o};
    visitFields(d, v, attention);
    return o;
  }

  val solution(const MarginSolution& s, const MarginProblem& problem) {
    val o = val::object();
    Writer v{o};
    visitFields(s, problem, v);
    return o;
  }

  val selectionReport(const SelectionReport& r, const MarginProblem& problem) {
    val o = val::object();
    Writer v{o};
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
