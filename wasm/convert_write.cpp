// Core -> JS (see convert.hpp): typed arrays, matrices and ragged lists, Writer, the field-list
// visitor through which every result and input struct is written, and the results written by hand
// (forward, seedResults). Every array is copied into a fresh JS typed array with one constructor
// call, so no JS object ever aliases the wasm heap (which memory growth would detach).
#include "convert.hpp"

#include <emscripten/bind.h>

#include <cstdint>
#include <optional>
#include <type_traits>

#include "attnsvm/train/path.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"
#include "cold.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm::wire {
  using emscripten::typed_memory_view;
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  void put(val & o, const char* key, const val& v) { o.set(key, v); }

  namespace {

  const val& f64Ctor() {
    static const val ctor = val::global("Float64Array");
    return ctor;
  }
  const val& i32Ctor() {
    static const val ctor = val::global("Int32Array");
    return ctor;
  }

  }  // namespace

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
  template val writeFields<RealPhaseSettings>(const RealPhaseSettings&);
  template val writeFields<RealPhaseRow>(const RealPhaseRow&);
  template val writeFields<RealPhaseSummary>(const RealPhaseSummary&);
  // Read and written back by roundTripFields (field_lists.cpp).
  template val writeFields<ScenarioOptions>(const ScenarioOptions&);
  template val writeFields<SolverSettings>(const SolverSettings&);
  template val writeFields<SolveRequest>(const SolveRequest&);
  template val writeFields<PathPoint>(const PathPoint&);  // engine.path's points

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

}  // namespace attnsvm::wire
ATTNSVM_COLD_END
