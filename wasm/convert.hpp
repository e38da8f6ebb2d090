// Conversions between the JS "wire" objects built by web/src/engine/convert.js and core types.
// No maths here: only copying typed arrays in bulk and mapping names to enums. Every malformed
// field raises attnsvm::InputError naming the field, which the entry points turn into a status.
//
// Wire conventions (JS side documents the same):
//   matrix  {rows, cols, data: Float64Array}   row-major
//   vector  Float64Array;  index lists Int32Array
//   dataset {n, T, d, X: Float64Array (n*T*d, token rows), Z?: Float64Array (n*d), query,
//            Y: Float64Array (n), v: Float64Array (d), alpha?: Int32Array (n)}
#pragma once
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "attnsvm/dataset.hpp"
#include "attnsvm/experiment.hpp"
#include "attnsvm/margin.hpp"
#include "attnsvm/model.hpp"
#include "attnsvm/scenarios.hpp"
#include "attnsvm/selection.hpp"
#include "attnsvm/train.hpp"

namespace attnsvm::wire {

using emscripten::val;

// ---- reading (JS -> C++) ----
bool has(const val& o, const char* key);  // present and not null/undefined
double number(const val& o, const char* key, double fallback);
int integer(const val& o, const char* key, int fallback);
bool boolean(const val& o, const char* key, bool fallback);
std::string string(const val& o, const char* key, const std::string& fallback);
std::vector<double> doubles(const val& array);
std::vector<int> ints(const val& array);
Mat matrix(const val& m, const std::string& what);
Vec vector(const val& a);

Dataset dataset(const val& o);
AttentionKind attentionKind(const std::string& s);
NormKind normKind(const std::string& s);
ModelSpec modelSpec(const val& o);
TrainSettings trainSettings(const val& o);
InitSettings initSettings(const val& o);
Params params(const val& o);

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

val dataset(const Dataset& d);
val modelSpec(const ModelSpec& s);
val trainSettings(const TrainSettings& s);
val params(const Params& p);
val solution(const MarginSolution& s, const MarginProblem& problem);
val selectionReport(const SelectionReport& r, const MarginProblem& problem);
val forward(const Forward& f);
// Seeds of one experiment setting, stacked: series [seed][name][snapshot], values [seed][name],
// labels [seed][name] (strings), selections as CSR over [seed][name].
val seedResults(const std::vector<SeedResult>& results);

}  // namespace attnsvm::wire
