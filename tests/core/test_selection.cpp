// Token-selection analysis on hand-made cases: global, local-but-not-global, neither; trained W;
// enumeration with its cap.
#include <gtest/gtest.h>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "svm_test_data.hpp"

using namespace attnsvm;

namespace {

// One sequence in the plane-like setting of the SPEC's prompt example (z = e_1 + e_2 spans):
// tokens chosen so that token 0 is the best, token 1 is locally optimal (its only support
// token scores lower), and token 2 is neither.
Dataset handMade() {
  Dataset d;
  d.n = 1;
  d.T = 3;
  d.d = 3;
  d.X.resize(3, 3);
  // SPEC "global vs local (prompt)" tokens, local case: (-0.1, 1, 1), (1, 0, 0.9), (0, 0, 0).
  d.X << -0.1, 1.0, 1.0, 1.0, 0.0, 0.9, 0.0, 0.0, 0.0;
  d.Z.resize(1, 3);
  d.Z << 0.0, 1.0, 0.0;
  d.Y = Vec::Ones(1);
  d.v = Vec(3);
  d.v << 0.0, 0.0, 1.0;
  return d;
}

}  // namespace

TEST(Selection, GlobalLocalNeither) {
  // Scores gamma = v^T x = (1, 0.9, 0): opt = 0.
  const Dataset d = handMade();
  const SelectionReport g = analyzeSelection(d, AttentionKind::Cross, {0});
  EXPECT_EQ(g.verdict, Verdict::GloballyOptimal) << g.explanation;
  EXPECT_TRUE(g.feasible);
  EXPECT_EQ(g.optimal, std::vector<int>{0});
  EXPECT_FALSE(g.explanation.empty());
  ASSERT_EQ(g.supportTokens.size(), 1u);
  EXPECT_FALSE(g.supportTokens[0].empty());

  // Selecting token 1 (score 0.9): with z = e_2 the constraints are (x1 - x_t)_2 W... W acts on
  // z only through W e_2, so scores are x_t . w for a free w: token 1 = (1, 0, .9) can beat both
  // (-0.1, 1, 1) and 0; its support tokens must score lower than 0.9 for local optimality.
  const SelectionReport l = analyzeSelection(d, AttentionKind::Cross, {1});
  ASSERT_TRUE(l.feasible);
  bool supportHasToken0 = false;
  for (int t : l.supportTokens[0]) supportHasToken0 |= (t == 0);
  if (supportHasToken0) {
    EXPECT_EQ(l.verdict, Verdict::Neither) << l.explanation;
  } else {
    EXPECT_EQ(l.verdict, Verdict::LocallyOptimal) << l.explanation;
  }

  // Selecting the zero token 2 (score 0): every support token scores higher -> neither.
  const SelectionReport n = analyzeSelection(d, AttentionKind::Cross, {2});
  ASSERT_TRUE(n.feasible);
  EXPECT_EQ(n.verdict, Verdict::Neither) << n.explanation;
  EXPECT_FALSE(n.violators.empty());
  EXPECT_NE(n.explanation.find("sequence 0"), std::string::npos) << n.explanation;
}

TEST(Selection, LocallyButNotGloballyOptimal) {
  // Two tokens per sequence in R^2 with a shared query z = e_1, so the constraint of sequence i
  // is (x_sel - x_other)_1 * w_1-ish; build a case where the support token scores lower but the
  // selection is not the best: the non-selected token is far (not support), a third is support.
  Dataset d;
  d.n = 1;
  d.T = 3;
  d.d = 2;
  d.X.resize(3, 2);
  // gamma = v . x with v = e_2: scores (0.5, 1.0, 0.0); opt = 1.
  // Select token 0 = (1, 0.5). Token 1 = (-3, 1) is far away in the direction W z (not support),
  // token 2 = (0, 0) is the closest competitor (support) and scores lower (0 < 0.5).
  d.X << 1.0, 0.5, -3.0, 1.0, 0.0, 0.0;
  d.Z = Mat(1, 2);
  d.Z << 1.0, 0.0;
  d.Y = Vec::Ones(1);
  d.v = Vec(2);
  d.v << 0.0, 1.0;
  const SelectionReport r = analyzeSelection(d, AttentionKind::Cross, {0});
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.optimal, std::vector<int>{1});
  EXPECT_EQ(r.supportTokens[0], std::vector<int>{2});
  EXPECT_EQ(r.verdict, Verdict::LocallyOptimal) << r.explanation;
  EXPECT_NE(r.explanation.find("Locally optimal"), std::string::npos);
  // The enumeration finds both the global selection {1} and this local one {0}.
  const auto all = enumerateLocallyOptimal(d, AttentionKind::Cross);
  std::vector<int> found;
  for (const SelectionReport& s : all) found.push_back(s.selection[0]);
  EXPECT_NE(std::find(found.begin(), found.end(), 0), found.end());
  EXPECT_NE(std::find(found.begin(), found.end(), 1), found.end());
}

TEST(Selection, InfeasibleAndTies) {
  Dataset d = svmtest::sphere(2, 3, 3, 5);
  d.X.row(0 * 3 + 1) = d.token(0, 0);  // tokens 0 and 1 of sequence 0 identical
  const SelectionReport r = analyzeSelection(d, AttentionKind::Cross, {0, 0});
  EXPECT_EQ(r.verdict, Verdict::Infeasible);
  EXPECT_FALSE(r.feasible);
  EXPECT_NE(r.explanation.find("sequence 0"), std::string::npos) << r.explanation;
  // Ties in the scores are reported.
  Dataset t = svmtest::sphere(1, 3, 3, 6);
  t.v = Vec::Zero(3);
  t.v(0) = 1.0;
  t.X.row(2) = t.X.row(0);
  t.X(2, 1) += 0.5;  // same first coordinate: same score, different token
  const SelectionReport tr = analyzeSelection(t, AttentionKind::Cross, {0});
  EXPECT_GE(tr.ties[0].size(), 1u);
}

TEST(Selection, AnalyzeWeightsUsesArgmax) {
  const Dataset d = svmtest::sphere(4, 5, 6, 8);
  const SelectionReport base = analyzeSelection(d, AttentionKind::Cross, d.alpha);
  if (!base.feasible) GTEST_SKIP();
  // The SVM direction selects alpha (all margins >= 1), so analyzeWeights recovers it.
  const SelectionReport r = analyzeWeights(d, AttentionKind::Cross, 10.0 * base.svm.W);
  EXPECT_EQ(r.selection, d.alpha);
  EXPECT_EQ(r.verdict, base.verdict);
  EXPECT_THROW(analyzeWeights(d, AttentionKind::Cross, Mat::Zero(3, 3)), InputError);
}

TEST(Selection, EnumerationCapAndKinds) {
  const Dataset d = svmtest::sphere(8, 6, 3, 9);
  try {
    enumerateLocallyOptimal(d, AttentionKind::Cross, 1000);
    ADD_FAILURE() << "expected the cap";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("6^8"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1679616"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1000"), std::string::npos) << msg;
  }
  EXPECT_THROW(analyzeSelection(d, AttentionKind::Causal, d.alpha), InputError);
  const Dataset small = svmtest::sphere(3, 3, 4, 10);
  const auto all = enumerateLocallyOptimal(small, AttentionKind::Cross);
  bool hasGlobal = false;
  for (const auto& r : all) {
    EXPECT_TRUE(r.verdict == Verdict::GloballyOptimal || r.verdict == Verdict::LocallyOptimal);
    hasGlobal |= r.verdict == Verdict::GloballyOptimal;
  }
  // The global selection is feasible for generic data in d = 4 with 3 x 2 constraints.
  EXPECT_TRUE(hasGlobal);
}

namespace {

// One sequence whose tokens are the standard basis of R^3 (so the queries x_k of
// sequence-to-sequence attention are orthonormal and the SVM splits into one problem per query:
// for a selected token a, every other token is a support token).
Dataset basisSequence(double v0, double v1, double v2) {
  Dataset d;
  d.n = 1;
  d.T = 3;
  d.d = 3;
  d.X = Mat::Identity(3, 3);
  d.Y = Vec::Ones(1);
  d.v = Vec(3);
  d.v << v0, v1, v2;
  return d;
}

}  // namespace

TEST(Selection, SeqToSeqVerdictPerUnit) {
  // gamma = (1, 0.5, 0): token 0 is best for every query.
  const Dataset d = basisSequence(1.0, 0.5, 0.0);
  const SelectionReport g = analyzeSelection(d, AttentionKind::SeqToSeq, {0, 0, 0});
  ASSERT_TRUE(g.feasible) << g.explanation;
  EXPECT_EQ(g.verdict, Verdict::GloballyOptimal) << g.explanation;
  EXPECT_EQ(g.optimal, (std::vector<int>{0, 0, 0}));
  ASSERT_EQ(g.supportTokens.size(), 3u);
  for (const auto& s : g.supportTokens) EXPECT_EQ(s, (std::vector<int>{1, 2}));

  // Query 1 selects token 1: its support token 0 scores higher (1 > 0.5) -> neither, named by unit.
  const SelectionReport n = analyzeSelection(d, AttentionKind::SeqToSeq, {0, 1, 0});
  ASSERT_TRUE(n.feasible);
  EXPECT_EQ(n.verdict, Verdict::Neither) << n.explanation;
  ASSERT_FALSE(n.violators.empty());
  EXPECT_EQ(n.violators.front(), std::make_pair(1, 0));
  EXPECT_NE(n.explanation.find("sequence 0, query 1"), std::string::npos) << n.explanation;

  // One entry per (sequence, query): a selection with one entry per sequence is refused.
  EXPECT_THROW(analyzeSelection(d, AttentionKind::SeqToSeq, {0}), InputError);
}

TEST(Selection, CausalUnitsChooseAmongEarlierTokens) {
  // gamma = (0, 0.5, 1): the best token overall is 2, but causal query k only sees t <= k, so
  // the optimal selection is (0, 1, 2) there and (2, 2, 2) for sequence-to-sequence.
  const Dataset d = basisSequence(0.0, 0.5, 1.0);
  const SelectionReport c = analyzeSelection(d, AttentionKind::Causal, {0, 1, 2});
  ASSERT_TRUE(c.feasible) << c.explanation;
  EXPECT_EQ(c.optimal, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(c.verdict, Verdict::GloballyOptimal) << c.explanation;
  EXPECT_TRUE(c.supportTokens[0].empty());  // query 0 has a single candidate: no constraint
  EXPECT_EQ(c.supportTokens[1], std::vector<int>{0});
  EXPECT_EQ(c.supportTokens[2], (std::vector<int>{0, 1}));
  const SelectionReport s = analyzeSelection(d, AttentionKind::SeqToSeq, {0, 1, 2});
  EXPECT_EQ(s.optimal, (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(s.verdict, Verdict::Neither) << s.explanation;
  // Causal query 0 cannot select token 1.
  EXPECT_THROW(analyzeSelection(d, AttentionKind::Causal, {1, 1, 2}), InputError);
}

TEST(Selection, PromptGlobalLocalNeither) {
  // SPEC "global vs local (prompt)", local case: Wk = diag(1, 1, 0), gamma = (1, 0.9, 0).
  const Dataset d = handMade();
  Mat Wk = Mat::Zero(3, 3);
  Wk(0, 0) = Wk(1, 1) = 1.0;
  const SelectionReport g = analyzePromptSelection(d, Wk, {0});
  ASSERT_TRUE(g.feasible) << g.explanation;
  EXPECT_EQ(g.verdict, Verdict::GloballyOptimal) << g.explanation;
  // Selecting token 1: the prompt SVM is p = (1, 0) (only token 2 = 0 is a support token; token 0
  // has margin 1.1), and token 2 scores lower -> locally, not globally, optimal.
  const SelectionReport l = analyzePromptSelection(d, Wk, {1});
  ASSERT_TRUE(l.feasible) << l.explanation;
  EXPECT_EQ(l.supportTokens[0], std::vector<int>{2});
  EXPECT_NEAR(l.svm.W(0, 0), 1.0, 1e-8);
  EXPECT_NEAR(l.svm.W(1, 0), 0.0, 1e-8);
  EXPECT_EQ(l.verdict, Verdict::LocallyOptimal) << l.explanation;
  EXPECT_EQ(l.optimal, std::vector<int>{0});
  // Selecting the zero token: its support tokens score higher -> neither.
  const SelectionReport n = analyzePromptSelection(d, Wk, {2});
  ASSERT_TRUE(n.feasible);
  EXPECT_EQ(n.verdict, Verdict::Neither) << n.explanation;
  EXPECT_FALSE(n.violators.empty());
  // Without the local case's zero token, token 2 = (0, 0, 0.9) ties with token 1 in score:
  // selecting token 1 has token 2 as support token with an equal score -> neither.
  Dataset tie = d;
  tie.X(2, 2) = 0.9;
  EXPECT_EQ(analyzePromptSelection(tie, Wk, {1}).verdict, Verdict::Neither);
  EXPECT_THROW(analyzePromptSelection(d, Mat::Zero(2, 2), {0}), InputError);
}
