// JS -> core (see convert.hpp): the scalar and typed-array readers, and Reader, the field-list
// visitor through which every input object is read. Typed arrays are copied with one
// TypedArray.set into C++ storage (convertJSArrayToNumberVector).
#include "convert.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"
#include "cold.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm::wire {
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  namespace {

  [[noreturn]] void bad(const std::string& message) { throw InputError(message); }

  }  // namespace

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
  template RealPhaseSettings readFields<RealPhaseSettings>(const val&, const std::string&);
  // Read and written back by roundTripFields (field_lists.cpp).
  template SolverSettings readFields<SolverSettings>(const val&, const std::string&);
  template SolveRequest readFields<SolveRequest>(const val&, const std::string&);

  Dataset dataset(const val& o, const std::string& what) {
    if (o.isUndefined() || o.isNull()) bad(what + " is missing");
    return readFields<Dataset>(o, what);
  }

  // Enum names: the core's one table (attnsvm/vocab/names.hpp); unknown names list the accepted
  // ones.
  AttentionKind attentionKind(const std::string& s) {
    return parseWireName<AttentionKind>(s, "attention");
  }

}  // namespace attnsvm::wire
ATTNSVM_COLD_END
