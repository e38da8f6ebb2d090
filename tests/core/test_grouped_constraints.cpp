// The grouped W-space operators of rank-one constraints (core/src/solvers/grouped_constraints.hpp):
// values, adjoint and the Newton matrix sum_k d_k vec(A_k) vec(A_k)^T, assembled by the blocked
// two-lane kernels (padded rows, packed panels, several passes over the groups), against the dense
// m x (rows cols) constraint matrix, on shapes that exercise every padding and block edge.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "solvers/grouped_constraints.hpp"

using namespace attnsvm;
using attnsvm::detail::GroupedConstraints;

namespace {

// m constraints on a rows x cols W whose w repeat over `groups` distinct vectors, in an order that
// is neither sorted nor consecutive (so grouping must look them up).
MarginProblem groupedProblem(int rows, int cols, Index m, Index groups, unsigned seed) {
  std::srand(seed);
  MarginProblem pb;
  pb.rows = rows;
  pb.cols = cols;
  pb.U = Mat::Random(m, rows);
  const Mat Z = Mat::Random(groups, cols);
  pb.Wq.resize(m, cols);
  for (Index j = 0; j < m; ++j) pb.Wq.row(j) = Z.row((j * 7 + j / 3) % groups);
  pb.b = Vec::Ones(m);
  return pb;
}

// Row k: vec(scale_k u_j w_j^T) (column-major) for the k-th listed constraint j.
Mat denseConstraints(const MarginProblem& pb, const std::vector<Index>& list, const Vec& scale) {
  Mat A(static_cast<Index>(list.size()), static_cast<Index>(pb.rows) * pb.cols);
  for (Index k = 0; k < A.rows(); ++k) {
    const Index j = list[static_cast<std::size_t>(k)];
    const Mat Ak = scale(k) * pb.U.row(j).transpose() * pb.Wq.row(j);
    A.row(k) = Eigen::Map<const Vec>(Ak.data(), Ak.size()).transpose();
  }
  return A;
}

double relative(const Mat& a, const Mat& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

}  // namespace

TEST(GroupedConstraints, OperatorsMatchTheDenseConstraintMatrix) {
  // (rows, cols, m, groups): rows not a multiple of the 4-wide tiles, the pair counts cols (cols+1)
  // / 2 not a multiple either, non-square W, a single group, and more groups than one pass (256)
  // of the product.
  const struct {
    int rows, cols;
    Index m, groups;
  } shapes[] = {{5, 7, 60, 6}, {18, 18, 900, 300}, {1, 3, 10, 4}, {9, 2, 40, 1}, {4, 4, 24, 5}};
  unsigned seed = 3;
  for (const auto& s : shapes) {
    SCOPED_TRACE(testing::Message() << s.rows << " x " << s.cols << ", m " << s.m);
    const MarginProblem pb = groupedProblem(s.rows, s.cols, s.m, s.groups, ++seed);
    // A subset of the constraints (every other one, backwards), each scaled.
    std::vector<Index> list;
    for (Index j = s.m - 1; j >= 0; j -= 2) list.push_back(j);
    const Index mk = static_cast<Index>(list.size());
    const Vec scale = Vec::Random(mk).array() + 2.0;
    GroupedConstraints gc(pb, list, scale);
    ASSERT_EQ(gc.constraints(), mk);
    const Mat A = denseConstraints(pb, list, scale);

    const Mat W = Mat::Random(s.rows, s.cols);
    Vec c;
    gc.values(W, c);
    EXPECT_LT(relative(c, A * Eigen::Map<const Vec>(W.data(), W.size())), 1e-13);

    const Vec y = Vec::Random(mk);
    Mat M;
    gc.adjoint(y, M);
    const Vec Aty = A.transpose() * y;
    EXPECT_LT(relative(M, Eigen::Map<const Mat>(Aty.data(), s.rows, s.cols)), 1e-13);

    Vec c2;
    Mat M2;
    gc.valuesAndAdjoint(W, c2, y, M2);
    EXPECT_LT(relative(c2, A * Eigen::Map<const Vec>(W.data(), W.size())), 1e-13);
    EXPECT_LT(relative(M2, Eigen::Map<const Mat>(Aty.data(), s.rows, s.cols)), 1e-13);

    const Vec d = Vec::Random(mk).array() + 1.5;
    Mat H;
    gc.gram(d, H);
    const Mat Href = A.transpose() * d.asDiagonal() * A;
    EXPECT_LT(relative(H, Href), 1e-13);
    // Called again (buffers reused) and restricted to some groups.
    std::vector<char> include(static_cast<std::size_t>(gc.groups()));
    Vec dIncluded = Vec::Zero(mk);
    for (Index g = 0; g < gc.groups(); ++g) include[static_cast<std::size_t>(g)] = g % 2 == 0;
    for (Index k = 0; k < mk; ++k)
      if (include[static_cast<std::size_t>(gc.groupOf(k))]) dIncluded(k) = d(k);
    gc.gram(d, H, &include);
    EXPECT_LT(relative(H, A.transpose() * dIncluded.asDiagonal() * A), 1e-13);
    // With sum_k d_k A_k from the same pass (the interior point's g), over the same groups.
    Mat dSum;
    gc.gram(d, H, nullptr, &dSum);
    EXPECT_LT(relative(H, Href), 1e-13);
    const Vec Atd = A.transpose() * d;
    EXPECT_LT(relative(dSum, Eigen::Map<const Mat>(Atd.data(), s.rows, s.cols)), 1e-13);
    gc.gram(d, H, &include, &dSum);
    const Vec AtdIncluded = A.transpose() * dIncluded;
    EXPECT_LT(relative(dSum, Eigen::Map<const Mat>(AtdIncluded.data(), s.rows, s.cols)), 1e-13);

    for (Index k = 0; k < mk; ++k) EXPECT_NEAR(gc.norms()(k), A.row(k).norm(), 1e-13);
  }
}
