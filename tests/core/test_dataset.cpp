// Dataset validation (every error path names the field and the index), token scores, ties.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/dataset.hpp"
#include "engine_test_data.hpp"

namespace attnsvm {
namespace {

// Expects validate() to throw an InputError whose message contains every fragment.
void expectInvalid(const Dataset& data, AttentionKind kind,
                   std::initializer_list<const char*> fragments) {
  try {
    validate(data, kind);
    ADD_FAILURE() << "no error; expected one mentioning " << *fragments.begin();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const char* f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "message: " << msg;
  }
}

Dataset valid() { return testdata::gaussianDataset(3, 4, 2, 1); }

TEST(Dataset, ValidDataPassesForEveryKind) {
  const Dataset data = valid();
  for (auto k :
       {AttentionKind::Cross, AttentionKind::Self, AttentionKind::SeqToSeq, AttentionKind::Causal})
    EXPECT_NO_THROW(validate(data, k));
  Dataset noZ = data;
  noZ.Z.resize(0, 0);  // self-attention does not need Z
  EXPECT_NO_THROW(validate(noZ, AttentionKind::Self));
}

TEST(Dataset, ZeroSizesAreErrors) {
  Dataset a = valid();
  a.n = 0;
  expectInvalid(a, AttentionKind::Cross, {"n = 0"});
  Dataset b = valid();
  b.T = 0;
  expectInvalid(b, AttentionKind::Cross, {"T = 0"});
  Dataset c = valid();
  c.d = 0;
  expectInvalid(c, AttentionKind::Cross, {"d = 0"});
}

TEST(Dataset, MismatchedSizesAreErrors) {
  Dataset a = valid();
  a.X.conservativeResize(11, 2);
  expectInvalid(a, AttentionKind::Cross, {"X is 11 x 2", "12 x 2"});
  Dataset b = valid();
  b.Y.resize(2);
  expectInvalid(b, AttentionKind::Cross, {"Y has 2", "n = 3"});
  Dataset c = valid();
  c.v.resize(3);
  expectInvalid(c, AttentionKind::Cross, {"v has 3", "d = 2"});
  Dataset d = valid();
  d.Z.resize(2, 2);
  expectInvalid(d, AttentionKind::Cross, {"Z is 2 x 2"});
  Dataset e = valid();
  e.alpha = {0, 1};
  expectInvalid(e, AttentionKind::Cross, {"alpha has 2"});
}

TEST(Dataset, NonFiniteValuesNameTheirPlace) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Dataset a = valid();
  a.X(1 * 4 + 2, 1) = nan;  // sequence 1, token 2, coordinate 1
  expectInvalid(a, AttentionKind::Cross, {"X[1][2][1]", "sequence 1", "token 2", "NaN"});
  Dataset b = valid();
  b.X(0, 0) = -inf;
  expectInvalid(b, AttentionKind::Causal, {"X[0][0][0]", "infinite"});
  Dataset c = valid();
  c.Y[2] = nan;
  expectInvalid(c, AttentionKind::Cross, {"Y[2] is NaN"});
  Dataset d = valid();
  d.v[1] = inf;
  expectInvalid(d, AttentionKind::Cross, {"v[1] is infinite"});
  Dataset e = valid();
  e.Z(2, 0) = nan;
  expectInvalid(e, AttentionKind::Cross, {"Z[2][0]", "sequence 2"});
}

TEST(Dataset, BadValuesAndIndices) {
  Dataset a = valid();
  a.Y[1] = 0.0;
  expectInvalid(a, AttentionKind::Cross, {"Y[1] is 0"});
  Dataset b = valid();
  b.Z.row(2).setZero();
  expectInvalid(b, AttentionKind::Cross, {"Z row 2 has zero norm"});
  Dataset c = valid();
  c.query = 4;
  expectInvalid(c, AttentionKind::Self, {"query = 4", "0..3"});
  Dataset d = valid();
  d.query = 2;
  d.X.row(1 * 4 + 2).setZero();
  expectInvalid(d, AttentionKind::Self, {"X[1][2]", "zero norm"});
  EXPECT_NO_THROW(validate(d, AttentionKind::SeqToSeq));  // zero tokens are fine as seq2seq queries
  Dataset e = valid();
  e.alpha = {0, 9, 1};
  expectInvalid(e, AttentionKind::Cross, {"alpha[1] = 9 is out of range 0..3"});
}

TEST(Dataset, TokenScoresAndOptimalTokensWithTies) {
  Dataset data;
  data.n = 2;
  data.T = 3;
  data.d = 2;
  data.X.resize(6, 2);
  data.X << 1, 0,  //
      0, 1,        //
      2, 0,        //
      1, 1,        //
      1, 0,        //
      2, -1;
  data.Y = Eigen::Vector2d(1, -1);
  data.v = Eigen::Vector2d(1, 1);
  const Mat gamma = tokenScores(data);
  EXPECT_EQ(gamma(0, 0), 1.0);
  EXPECT_EQ(gamma(0, 2), 2.0);
  EXPECT_EQ(gamma(1, 0), -2.0);
  const OptimalTokens opt = optimalTokens(data);
  EXPECT_EQ(opt.opt[0], 2);
  EXPECT_EQ(opt.ties[0].size(), 1u);
  // Sequence 1: scores -2, -1, -1: a tie between tokens 1 and 2; the first is reported.
  EXPECT_EQ(opt.opt[1], 1);
  ASSERT_EQ(opt.ties[1].size(), 2u);
  EXPECT_EQ(opt.ties[1][1], 2);
}

}  // namespace
}  // namespace attnsvm
