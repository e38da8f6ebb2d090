// Conversions between the JS "wire" objects built by web/src/engine/convert.js and core types.
// No maths here: only copying typed arrays in bulk and mapping names to enums. The core's input
// structs are read and written through their field lists (attnsvm/vocab/fields.hpp), so no key name
// of theirs is spelled here; a key of an input object that is not a field is an InputError listing
// the fields. Every malformed field raises attnsvm::InputError naming the field, which the entry
// points turn into a status.
//
// Wire conventions (JS side documents the same):
//   matrix  {rows, cols, data: Float64Array}   row-major
//   vector  Float64Array;  index lists Int32Array
//   dataset {X: {n, T, d, data: Float64Array (n*T*d, token rows)}, Z?: matrix (n x d), query?,
//            Y: Float64Array (n), v: Float64Array (d), alpha?: Int32Array (n)}
#pragma once
#include <emscripten/val.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_basin.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "attnsvm/experiments/real_phase.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/experiments/real_study.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"

namespace attnsvm::wire {

using emscripten::val;

// ---- reading (JS -> C++)
bool has(const val& o, const char* key);  // present and not null/undefined
double number(const val& o, const char* key, double fallback);
int integer(const val& o, const char* key, int fallback);
bool boolean(const val& o, const char* key, bool fallback);
std::string string(const val& o, const char* key, const std::string& fallback);
std::vector<double> doubles(const val& array);
std::vector<int> ints(const val& array);
Mat matrix(const val& m, const std::string& what);
Vec vector(const val& a);

// Reads one JS object through field lists: each visit sets the field when the object has it (a
// visitor of attnsvm/vocab/fields.hpp); finish() then rejects every key that no visit named,
// listing the names. An entry point reads its request with one Reader: the core's lists, then its
// own extra fields (`r("W", W)`), then finish(). The per-type readers are out of line
// (convert_read.cpp): a visit is one call, so the field lists cost little code in the module.
class Reader {
 public:
  // path: the object's name in messages ("train", "dataset"; "" for a request's top level).
  Reader(const val& object, const std::string& path);
  ~Reader();  // out of line (size)
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  void operator()(const char* name, double& x, bool = true);
  void operator()(const char* name, int& x, bool = true);
  void operator()(const char* name, bool& x, bool = true);
  void operator()(const char* name, std::uint64_t& x, bool = true);  // 0..2^53-1
  void operator()(const char* name, std::string& x, bool = true);
  void operator()(const char* name, Mat& x, bool = true);
  void operator()(const char* name, Vec& x, bool = true);
  void operator()(const char* name, std::vector<int>& x, bool = true);
  void operator()(const char* name, std::vector<double>& x, bool = true);
  void operator()(const char* name, const TokensRef<Mat, int>& x, bool = true);
  // Enums by their wire names (attnsvm/vocab/names.hpp).
  template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
  void operator()(const char* name, E& x, bool = true) {
    int v = static_cast<int>(x);
    if (readEnum(name, v, &parseEnum<E>)) x = static_cast<E>(v);
  }
  template <class E>
  void operator()(const char* name, std::optional<E>& x, bool = true) {
    int v = 0;
    if (readEnum(name, v, &parseEnum<E>)) x = static_cast<E>(v);
  }
  // Nested input structs, each through its own field list (its unknown keys rejected).
  void operator()(const char* name, Dataset& x, bool = true);
  void operator()(const char* name, ModelSpec& x, bool = true);
  void operator()(const char* name, TrainSettings& x, bool = true);
  void operator()(const char* name, Params& x, bool = true);
  void operator()(const char* name, InitSettings& x, bool = true);
  template <class Fn>
  void object(const char* name, Fn&& fn, bool = true) {
    val f = val::undefined();
    if (!take(name, f)) return;
    Reader sub(f, where(name));
    fn(sub);
    sub.finish();
  }
  // A field that must be present ("<where> is missing" otherwise).
  void required(const char* name, Dataset& x);
  void required(const char* name, Mat& x);
  // A key accepted here that the JS wrapper handles (not read by C++).
  void accept(const char* name);
  void finish() const;

 private:
  using EnumParser = int (*)(const std::string& name, const std::string& where);
  template <class E>
  static int parseEnum(const std::string& name, const std::string& where) {
    return static_cast<int>(parseWireName<E>(name, where));
  }
  bool readEnum(const char* name, int& x, EnumParser parse);  // true when present
  template <class T>
  void read(const char* name, T& x);
  bool take(const char* name, val& out);  // records the name; out = the value if present
  std::string where(const char* name) const;
  val obj_;
  std::string path_;
  std::vector<const char*> names_;  // string literals of the field lists
};

// An input struct read through its field list alone (undefined / null: the defaults).
template <class T>
T readFields(const val& o, const std::string& what);
// The dataset of a request: required ("dataset is missing").
Dataset dataset(const val& o, const std::string& what = "dataset");
AttentionKind attentionKind(const std::string& s);

// o[key] = v; out of line: one call per field instead of the inlined key string, property set
// and reference-count releases (with their unwinding paths) of val::set.
void put(val& o, const char* key, const val& v);

// ---- writing (C++ -> JS); every array is a fresh JS-owned copy, never a view on the heap ----
val f64(const double* data, std::size_t n);
val f64(const std::vector<double>& v);
val f64(const Vec& v);
val i32(const std::vector<int>& v);
val matrix(const Mat& m);
// Ragged int lists as CSR: {offsets: Int32Array (size+1), values: Int32Array}.
val ragged(const std::vector<std::vector<int>>& lists);

// An input struct written through its field list.
template <class T>
val writeFields(const T& s);
// The field lists of the public structs (attnsvm/vocab/fields.hpp) as {dataset: [names], model,
// train, params, init, solve, scenarioOptions, solution, report}: engine.vocabulary().fields.
val fieldLists();
// The experiments' field lists (experiment.hpp, experiment_basin.hpp, real_run.hpp) as
// {experimentSeeds: [names] (SeedsRequest), basinMap (BasinMapRequest), realImagesSettings,
// realImagesFrame, realImagesAnalysis}: the attnsvm-experiments module's experimentVocabulary()
// (the page's module does not carry them: its size bound).
val experimentFieldLists();
// Reads `value` as the input struct named `name` (dataset, model, train, params, init) through its
// field list and writes it back: {value} (the tests' round trip, the attnsvm-experiments module's
// fieldsRoundTrip; the other lists are round-tripped natively by tests/cli/json_io_test.cpp).
val roundTripFields(const std::string& name, const val& value);
// The dataset as the given attention reads it (Z only for cross, query only for self attention).
val dataset(const Dataset& d, AttentionKind attention);
val solution(const MarginSolution& s, const MarginProblem& problem);
val selectionReport(const SelectionReport& r, const MarginProblem& problem);
val forward(const Forward& f);
// Seeds of one experiment setting, stacked: series [seed][name][snapshot], values [seed][name],
// labels [seed][name] (strings), selections as CSR over [seed][name].
val seedResults(const std::vector<SeedResult>& results);

}  // namespace attnsvm::wire
