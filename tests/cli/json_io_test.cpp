// JSON input of the CLI: every bad input names its field and index.
#include <gtest/gtest.h>

#include <cstdint>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "json_io.hpp"

using namespace attnsvm;
using namespace attnsvm::cli;

namespace {

std::string errorOfParser(json (*parse)(const std::string&, const std::string&),
                          const std::string& text) {
  try {
    problemFromJson(parse(text, "test"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The message of a bad problem, read both ways: through nlohmann's DOM (parseJsonText) and with
// the problem's arrays packed (parseProblemText, what the commands read files with), which must
// give the same message.
std::string errorOf(const std::string& text) {
  const std::string plain = errorOfParser(parseJsonText, text);
  EXPECT_EQ(errorOfParser(parseProblemText, text), plain) << text;
  return plain;
}

const char* kGood = R"({"X": [[[1,0],[0,1],[-1,-0.5]], [[0.5,0.5],[-1,0.2],[0.3,-1]]],
  "Z": [[1,0],[0,1]], "Y": [1,-1], "v": [1,0.5]})";

}  // namespace

TEST(JsonIo, ParsesCrossAttentionAndDefaultsAlphaToOptimalTokens) {
  const ProblemInput in = problemFromJson(parseJsonText(kGood, "test"));
  EXPECT_EQ(in.kind, AttentionKind::Cross);
  EXPECT_EQ(in.data.n, 2);
  EXPECT_EQ(in.data.T, 3);
  EXPECT_EQ(in.data.d, 2);
  EXPECT_FALSE(in.alphaGiven);
  EXPECT_EQ(in.data.alpha, (std::vector<int>{0, 1}));
  EXPECT_EQ(in.units, in.data.alpha);
  EXPECT_DOUBLE_EQ(in.data.X(4, 1), 0.2);
}

TEST(JsonIo, SelfAttentionWhenZIsOmitted) {
  const ProblemInput in = problemFromJson(parseJsonText(
      R"({"X": [[[1,0],[0,1]], [[0.5,0.5],[-1,0.2]]], "query": 1, "Y": [1,1], "v": [1,0]})", "t"));
  EXPECT_EQ(in.kind, AttentionKind::Self);
  EXPECT_EQ(in.data.query, 1);
}

TEST(JsonIo, NaNInLabelsNamesTheIndex) {
  EXPECT_EQ(errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0],[0,1]], "Y": [1, NaN], "v": [1,0]})"),
            "Y[1] is NaN");
  EXPECT_EQ(errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0],[0,1]], "Y": [1, null], "v": [1,0]})"),
            "Y[1] is NaN (null)");
}

TEST(JsonIo, NaNAndInfinityInTokensNameTheIndex) {
  EXPECT_EQ(errorOf(R"({"X": [[[1,0]],[[0,NaN]]], "Z": [[1,0],[0,1]], "Y": [1,1], "v": [1,0]})"),
            "X[1][0][1] is NaN");
  EXPECT_EQ(
      errorOf(R"({"X": [[[1,-Infinity]],[[0,1]]], "Z": [[1,0],[0,1]], "Y": [1,1], "v": [1,0]})"),
      "X[0][0][1] is infinite");
  EXPECT_EQ(
      errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0],[Infinity,1]], "Y": [1,1], "v": [1,0]})"),
      "Z[1][0] is infinite");
}

TEST(JsonIo, RaggedArraysNameTheIndex) {
  EXPECT_NE(errorOf(R"({"X": [[[1,0],[0,1]],[[0,1]]], "Z": [[1,0],[0,1]], "Y": [1,1], "v": [1,0]})")
                .find("X[1] has 1 tokens, expected 2"),
            std::string::npos);
  EXPECT_NE(
      errorOf(R"({"X": [[[1,0],[0,1]],[[0,1],[1]]], "Z": [[1,0],[0,1]], "Y": [1,1], "v": [1,0]})")
          .find("X[1][1] has 1 coordinates, expected 2"),
      std::string::npos);
  EXPECT_EQ(errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0],[0]], "Y": [1,1], "v": [1,0]})"),
            "Z[1] has 1 entries, expected 2");
}

TEST(JsonIo, WrongSizesNameTheField) {
  EXPECT_EQ(errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0],[0,1]], "Y": [1], "v": [1,0]})"),
            "Y has 1 labels, expected n = 2");
  EXPECT_EQ(errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0],[0,1]], "Y": [1,1], "v": [1,0,3]})"),
            "v has 3 entries, expected d = 2");
  EXPECT_NE(errorOf(R"({"X": [[[1,0]],[[0,1]]], "Z": [[1,0]], "Y": [1,1], "v": [1,0]})")
                .find("Z has 1 rows, expected n = 2"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"X": [], "Y": [], "v": []})").find("X is empty"), std::string::npos);
  EXPECT_NE(errorOf(R"({"Z": [[1]], "Y": [1], "v": [1]})").find("X is missing"), std::string::npos);
}

TEST(JsonIo, AlphaOutOfRangeAndNotInteger) {
  const std::string base =
      R"({"X": [[[1,0],[0,1]],[[0,1],[1,1]]], "Z": [[1,0],[0,1]], "Y": [1,1], "v": [1,0], "alpha": )";
  EXPECT_EQ(errorOf(base + "[0, 9]}"), "alpha[1] = 9 is out of range 0..1");
  EXPECT_EQ(errorOf(base + "[-1, 0]}"), "alpha[0] = -1 is out of range 0..1");
  EXPECT_EQ(errorOf(base + "[0.5, 0]}"), "alpha[0] = 0.5 is not an integer");
  EXPECT_EQ(errorOf(base + "[0]}"), "alpha has 1 entries, expected n = 2");
}

TEST(JsonIo, NotJsonAndWrongTypes) {
  EXPECT_NE(errorOf("{\"X\": [").find("is not valid JSON"), std::string::npos);
  EXPECT_NE(errorOf(R"({"X": [[[1,"a"]]], "Z": [[1,0]], "Y": [1], "v": [1,0]})")
                .find("X[0][0][1] is a string"),
            std::string::npos);
  EXPECT_NE(errorOf("[1,2]").find("expected a JSON object"), std::string::npos);
}

TEST(JsonIo, CoreValidationStillApplies) {
  // A zero query cannot be learned from: the core's validate() says so.
  EXPECT_NE(errorOf(R"({"X": [[[1,0],[0,1]]], "Z": [[0,0]], "Y": [1], "v": [1,0]})")
                .find("Z row 0 has zero norm"),
            std::string::npos);
  EXPECT_NE(
      errorOf(R"({"X": [[[1,0],[0,1]]], "Z": [[1,0]], "Y": [0], "v": [1,0]})").find("Y[0] is 0"),
      std::string::npos);
}

TEST(JsonIo, DatasetRoundTripsExactly) {
  const ProblemInput in = problemFromJson(parseJsonText(kGood, "test"));
  Dataset d = in.data;
  d.X(0, 0) = 0.1 + 0.2;  // not exactly representable in short decimal
  const json j = datasetToJson(d, AttentionKind::Cross);
  const ProblemInput back = problemFromJson(parseJsonText(j.dump(), "roundtrip"));
  EXPECT_EQ(back.data.X, d.X);
  EXPECT_EQ(back.data.Z, d.Z);
}

TEST(JsonIo, SeqToSeqDefaultsOneSelectionPerQuery) {
  const ProblemInput in = problemFromJson(parseJsonText(
      R"({"X": [[[1,0],[0,1],[0.5,-1]]], "attention": "causal", "Y": [1], "v": [1,0]})", "t"));
  EXPECT_EQ(in.kind, AttentionKind::Causal);
  ASSERT_EQ(in.units.size(), 3u);
  EXPECT_EQ(in.units[0], 0);
  EXPECT_EQ(in.units[2], 0);
  EXPECT_NE(
      errorOf(
          R"({"X": [[[1,0],[0,1]]], "attention": "causal", "alpha": [[1, 0]], "Y": [1], "v": [1,0]})")
          .find("alpha[0][0] = 1 is out of range 0..0"),
      std::string::npos);
}

// Input objects are read through the core's field lists (attnsvm/vocab/fields.hpp): a key that is
// not a field is an error naming it and listing what is accepted.
TEST(JsonIo, UnknownKeysAreErrorsListingTheFields) {
  EXPECT_EQ(errorOf(R"({"X": [[[1,0],[0,1]]], "Z": [[1,0]], "Y": [1], "v": [1,0], "alhpa": [0]})"),
            "alhpa is not a field; expected one of X, Z, query, Y, v, alpha, attention, V, W, "
            "scenario, title, iterations, model, train, init");
  // the documented extras are accepted (and the scenario's sections are not read)
  EXPECT_EQ(
      errorOf(R"({"X": [[[1,0],[0,1]]], "Z": [[1,0]], "Y": [1], "v": [1,0], "W": [[1,0],[0,1]],
    "V": [[1,0],[0,1]], "attention": "cross", "scenario": "s", "title": "t", "iterations": 5,
    "model": {}, "train": {}, "init": {}})"),
      "(no error)");
  // a misspelled Z is reported as such, not as a missing Z
  EXPECT_NE(errorOf(R"({"X": [[[1,0],[0,1]]], "z": [[1,0]], "Y": [1], "v": [1,0]})")
                .find("z is not a field; expected one of X, Z, query,"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"X": [[[1,0],[0,1]]], "Z": [[1,0]], "Y": [1], "v": [1,0], "query": true})")
                .find("query is a boolean"),
            std::string::npos);
}

TEST(JsonIo, NestedUnknownKeysNameTheirPath) {
  try {
    fieldsFromJson<TrainSettings>(json::parse(R"({"optimizer": "gd", "learningRate": 0.5})"),
                                  "train");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "train.learningRate is not a field; expected one of optimizer, lr, p, balance, "
              "trainHead, headOptimizer, headLr, headP, adamBeta1, adamBeta2, adamEps, "
              "traceEvery, traceSoftmax, traceP, maxNorm");
  }
  try {
    fieldsFromJson<InitSettings>(json::parse(R"({"kind": "given", "given": {"w": [[1]]}})"),
                                 "init");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "init.given.w is not a field; expected one of W, K, Q, p, v");
  }
  try {
    fieldsFromJson<ModelSpec>(json::parse(R"({"param": "qk"})"), "model");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "model.param = \"qk\" is unknown; expected one of W, KQ, prompt");
  }
}

namespace {
// write -> read -> write is the identity, and the first write holds every field given (non-default
// values, so that a field the reader skipped would show).
template <class T>
void expectRoundTrip(const T& s, const char* what) {
  const json once = fieldsToJson(s);
  const json twice = fieldsToJson(fieldsFromJson<T>(once, what));
  EXPECT_EQ(once, twice) << what << ": " << once.dump() << " vs " << twice.dump();
}
}  // namespace

TEST(JsonIo, InputStructsRoundTripThroughTheirFieldLists) {
  Mat m(2, 2);
  m << 1, 0.1 + 0.2, -3, 4e-300;
  ModelSpec model;
  model.attention = AttentionKind::Causal;
  model.param = Parameterization::KQ;
  model.head = HeadKind::ReluMLP;
  model.loss = LossKind::Correlation;
  model.m = 3;
  model.Wk = m;
  model.V = m.transpose();
  expectRoundTrip(model, "model");
  EXPECT_EQ(fieldsToJson(model)["loss"], "correlation");
  EXPECT_EQ(fieldsToJson(model).size(), 7u);

  TrainSettings train;
  train.optimizer = Optimizer::NMDFro;
  train.lr = 0.3;
  train.p = 1.75;
  train.balance = 0.01;
  train.trainHead = true;
  train.headOptimizer = Optimizer::Adam;
  train.headLr = 0.02;
  train.headP = 3;
  train.adamBeta1 = 0.8;
  train.adamBeta2 = 0.99;
  train.adamEps = 1e-7;
  train.traceEvery = 4;
  train.traceSoftmax = true;
  train.traceP = 2.5;
  train.maxNorm = 1e9;
  expectRoundTrip(train, "train");
  const TrainSettings back = fieldsFromJson<TrainSettings>(fieldsToJson(train), "train");
  EXPECT_EQ(back.headOptimizer, Optimizer::Adam);
  EXPECT_EQ(back.adamEps, 1e-7);
  EXPECT_EQ(back.maxNorm, 1e9);
  EXPECT_EQ(fieldsToJson(train).size(), fieldNames<TrainSettings>().size());

  Params params;
  params.W = m;
  params.K = m;
  params.Q = m.transpose();
  params.p = Vec::LinSpaced(2, 0.5, 1.5);
  params.v = Vec::Ones(2);
  expectRoundTrip(params, "params");
  expectRoundTrip(Params{}, "params");

  InitSettings init;
  init.kind = InitKind::Cone;
  init.seed = (std::uint64_t{1} << 53) - 1;
  init.scale = 0.7;
  init.direction = m;
  init.coneNoise = 0.05;
  expectRoundTrip(init, "init");
  EXPECT_EQ(fieldsFromJson<InitSettings>(fieldsToJson(init), "init").seed, init.seed);
  init.kind = InitKind::Given;
  init.given = params;
  expectRoundTrip(init, "init");
  EXPECT_EQ(fieldsToJson(init)["given"]["W"], toJson(m));

  SolverSettings solver;
  solver.norm = NormKind::Lp;
  solver.p = 3;
  solver.tolerance = 1e-9;
  solver.feasibilityTol = 1e-8;
  solver.supportTol = 1e-5;
  solver.maxIterations = 77;
  expectRoundTrip(solver, "solver");

  SolveRequest request;
  request.dataset = problemFromJson(parseJsonText(kGood, "test")).data;
  request.problem = SvmProblemKind::RelaxedPrompt;
  request.attention = AttentionKind::Cross;
  request.selection = {1, 2};
  request.Wk = m;
  request.headSupport = {0};
  request.solver = solver;
  expectRoundTrip(request, "request");
  EXPECT_EQ(fieldsToJson(request)["dataset"]["Z"], toJson(request.dataset.Z));
  EXPECT_EQ(fieldsToJson(request)["problem"], "relaxed-prompt");

  ScenarioOptions options;
  options.seed = 12345678901ull;
  options.n = 3;
  options.T = 4;
  options.d = 5;
  options.C = 1.5;
  options.start = 2;
  options.localCase = true;
  options.variant = 1;
  expectRoundTrip(options, "options");
}

TEST(JsonIo, DatasetWritesQueryOnlyForSelfAndZOnlyForCross) {
  const Dataset d = problemFromJson(parseJsonText(kGood, "test")).data;  // alpha filled in
  const json cross = datasetToJson(d, AttentionKind::Cross);
  EXPECT_TRUE(cross.contains("Z"));
  EXPECT_FALSE(cross.contains("query"));
  EXPECT_FALSE(cross.contains("attention"));
  const json self = datasetToJson(d, AttentionKind::Self);
  EXPECT_FALSE(self.contains("Z"));
  EXPECT_EQ(self["query"], 0);
  EXPECT_EQ(self["attention"], "self");
  // write -> read -> write, both ways
  for (const AttentionKind kind : {AttentionKind::Cross, AttentionKind::Self}) {
    const json once = datasetToJson(d, kind);
    const json twice = datasetToJson(problemFromJson(once).data, kind);
    EXPECT_EQ(once, twice) << wireName(kind);
  }
}
