// JSON input of the CLI: every bad input names its field and index.
#include <gtest/gtest.h>

#include "attnsvm/errors.hpp"
#include "json_io.hpp"

using namespace attnsvm;
using namespace attnsvm::cli;

namespace {

std::string errorOf(const std::string& text) {
  try {
    problemFromJson(parseJsonText(text, "test"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
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
