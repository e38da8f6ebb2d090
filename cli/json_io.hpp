// JSON in and out for the command-line tool: datasets, matrices, solutions. Every parse error is
// an InputError that names the field and the index ("X[2] has 4 tokens, expected 5",
// "alpha[3] = 9 is out of range 0..7", "Y[1] is NaN"). Defined in json_io.cpp (documents, numbers,
// files) and json_fields.cpp (everything read or written through the core's field lists).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/types.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"

namespace attnsvm::cli {

using json = nlohmann::json;

// Reads a whole file ("-" is stdin) and parses it. Bare NaN / Infinity / -Infinity (as written by
// Python's json module) are accepted and turned into the strings "NaN", "Infinity", "-Infinity",
// which the field readers below report by name ("Y[1] is NaN"). JSON null is reported the same
// way (JavaScript's JSON.stringify writes NaN as null).
json readJsonFile(const std::string& path);
json parseJsonText(const std::string& text, const std::string& source);
// The same for a problem file (what problemFromJson, `analyze`'s W and `train`'s V read): its
// top-level arrays X, Z, Y, v, alpha, W, V, when they are rectangular nested arrays of numbers,
// are read straight from the text into doubles and kept packed (json_io_packed.cpp; 0.05 s instead
// of 1 s for an n = 1000 real-images problem). The readers below accept them; what they read and
// every message they give are those of parseJsonText.
json readProblemFile(const std::string& path);
json parseProblemText(const std::string& text, const std::string& source);
// A whole file ("-" is stdin); an InputError when it cannot be opened or holds only white space.
std::string readTextFile(const std::string& path);

// One problem read from JSON: the dataset, the attention kind it implies, and whether a selection
// ("alpha") was given.
struct ProblemInput {
  Dataset data;
  AttentionKind kind = AttentionKind::Cross;
  bool alphaGiven = false;
  // One selected token per softmax unit: data.alpha for cross/self; for seq2seq/causal one per
  // (sequence, query position), i-major (given as "alpha": n x T, or the optimal attended token).
  std::vector<int> units;
};

// Input format: the dataset's fields (attnsvm/vocab/fields.hpp) {"X": n x T x d, "Z": n x d (omit
// for self-attention, then "query": q, default 0), "alpha": n ints (optional), "Y": n, "v": d} and
// "attention": "cross"|"self"|"seq2seq"|"causal" (optional; default cross when Z is given, self
// otherwise; seq2seq / causal take alpha as n x T). When alpha is omitted it is set to the optimal
// tokens from Y and v. Besides these the file may hold the documented extras V (train --head
// relu), W (analyze) and what `attnsvm scenario` writes (scenario, title, iterations, model, train,
// init); any other key is an InputError listing the accepted ones. Validates with the core's
// validate().
ProblemInput problemFromJson(const json& j);

// The core's input structs (ModelSpec, TrainSettings, Params, InitSettings, SolverSettings,
// SolveRequest, ScenarioOptions) written and read through their field lists
// (attnsvm/vocab/fields.hpp), as the JS API does. Reading leaves absent fields at the struct's
// default; a key that is not a field is an InputError naming it with `what` in front ("train.lr")
// and listing the fields.
template <class T>
json fieldsToJson(const T& s);
template <class T>
T fieldsFromJson(const json& j, const std::string& what);
// Some of the fields of s, in list order: those named in `names`, or with `except` all others
// (a block that holds the fields shared by several runs, another those that differ between them).
template <class T>
json fieldsToJson(const T& s, const std::vector<std::string>& names, bool except);
// Also written through their lists (the wasm module writes and reads the same): the experiments'
// SeedOptions, SeedsRequest, BasinMapRequest (read too) and RealImagesSettings (read too),
// RealImagesFrame, RealImagesAnalysis (results).

// Field readers (exposed for the other commands and the tests).
double readNumber(const json& j, const std::string& where);
int readInt(const json& j, const std::string& where);
Vec readVector(const json& j, const std::string& field, Index expected = -1);
Mat readMatrix(const json& j, const std::string& field, Index rows = -1, Index cols = -1);

// Output helpers. Doubles are written by nlohmann's shortest round-trip formatting (exactly the
// double's value on reading back); non-finite values become null.
json toJson(const Mat& m);      // array of rows
json vectorJson(const Vec& v);  // array
// The dataset under its field list as `kind` reads it (Z only for cross, query only for self
// attention) and "attention" unless cross: a file every command reads back.
json datasetToJson(const Dataset& data, AttentionKind kind);
const char* toString(AttentionKind kind);
const char* toString(NormKind kind);

// A solver result under the core's field list (attnsvm/vocab/fields.hpp: status, W, lambda,
// objective, lowerBound, gap, maxViolation, support as [i, t] pairs with supportQuery and
// supportIndex, ...).
json solutionToJson(const MarginProblem& problem, const MarginSolution& sol);
// The report's svm is the Frobenius SVM of `problem` (the selection's Att-SVM or prompt SVM).
json selectionReportToJson(const SelectionReport& report, const MarginProblem& problem);
const char* statusName(SolveStatus status);  // "optimal", "infeasible", "max_iterations"

// Writes text to a file ("-" is stdout); throws InputError when the file cannot be written.
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace attnsvm::cli
