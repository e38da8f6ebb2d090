// The core's internal dense linear algebra (core/src/base/svd.hpp): minimum-norm least squares and
// range bases from the one-sided Jacobi SVD, against closed forms on rank-deficient matrices.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdlib>

#include "base/svd.hpp"

using namespace attnsvm;
using attnsvm::detail::MinNormSolver;

namespace {

// A = B C with B (rows x r) and C (r x cols) of full rank r: rank(A) = r and
// A^+ = C^T (C C^T)^{-1} (B^T B)^{-1} B^T (the pseudo-inverse of a full-rank factorization).
struct RankDeficient {
  Mat B, C, A, pinv;
};

RankDeficient rankDeficient(Index rows, Index cols, Index r, unsigned seed) {
  std::srand(seed);
  RankDeficient x;
  x.B = Mat::Random(rows, r);
  x.C = Mat::Random(r, cols);
  x.A = x.B * x.C;
  const Mat BtBinv = (x.B.transpose() * x.B).llt().solve(Mat::Identity(r, r));
  const Mat CCtinv = (x.C * x.C.transpose()).llt().solve(Mat::Identity(r, r));
  x.pinv = x.C.transpose() * CCtinv * BtBinv * x.B.transpose();
  return x;
}

}  // namespace

TEST(MinNormSolver, PseudoInverseOfRankDeficientMatrices) {
  // Tall, wide (thinSvd works on the transpose) and square, each of rank 3.
  const Index shapes[][2] = {{9, 6}, {6, 9}, {7, 7}, {40, 5}};
  unsigned seed = 7;
  for (const auto& shape : shapes) {
    const RankDeficient x = rankDeficient(shape[0], shape[1], 3, ++seed);
    const MinNormSolver solver(x.A);
    EXPECT_EQ(solver.rank(), 3) << shape[0] << " x " << shape[1];
    // Right-hand sides outside the range: least squares, and the minimum-norm solution of it.
    const Vec b = Vec::Random(shape[0]), c = Vec::Random(shape[1]);
    const Vec xb = solver.solve(b), yc = solver.solveTransposed(c);
    const Vec xbRef = x.pinv * b, ycRef = x.pinv.transpose() * c;
    EXPECT_LE((xb - xbRef).norm(), 1e-12 * xbRef.norm()) << shape[0] << " x " << shape[1];
    EXPECT_LE((yc - ycRef).norm(), 1e-12 * ycRef.norm()) << shape[0] << " x " << shape[1];
    // The residual is orthogonal to range(A) (normal equations) and x lies in range(A^T).
    EXPECT_LE((x.A.transpose() * (x.A * xb - b)).norm(), 1e-12 * x.A.norm() * b.norm());
    const Vec xbAgain = solver.solve(x.A * xb);  // consistent system: exactly reproduced
    EXPECT_LE((xbAgain - xb).norm(), 1e-12 * xb.norm());
  }
}

TEST(MinNormSolver, DuplicateRowsAndZeroMatrix) {
  // Two identical constraints a^T x = 1, a^T x = 3: least squares a^T x = 2, minimum norm
  // x = 2 a / |a|^2 (what the Frobenius Gram matrix of duplicated constraints needs).
  Mat A(2, 4);
  A.row(0) << 1.0, -2.0, 0.5, 3.0;
  A.row(1) = A.row(0);
  const MinNormSolver solver(A);
  EXPECT_EQ(solver.rank(), 1);
  const Vec a = A.row(0).transpose();
  const Vec x = solver.solve(Vec::LinSpaced(2, 1.0, 3.0));
  EXPECT_LE((x - 2.0 * a / a.squaredNorm()).norm(), 1e-15 * x.norm() * 10);
  // A^T y = c: y = (c . a / |a|^2) / 2 in both entries.
  const Vec c = Vec::Ones(4);
  const Vec y = solver.solveTransposed(c);
  EXPECT_NEAR(y(0), 0.5 * c.dot(a) / a.squaredNorm(), 1e-15);
  EXPECT_NEAR(y(1), y(0), 1e-15);

  const MinNormSolver zero(Mat::Zero(3, 5));
  EXPECT_EQ(zero.rank(), 0);
  EXPECT_EQ(zero.solve(Vec::Ones(3)), Vec::Zero(5));
  EXPECT_EQ(zero.solveTransposed(Vec::Ones(5)), Vec::Zero(3));
  EXPECT_EQ(zero.rangeBasis().cols(), 0);
}

TEST(RangeBasis, SpansTheColumnSpaceOfBadlyScaledRankDeficientMatrices) {
  // As in the l_p Newton step: B^T = H^{-1/2} A^T with row scales spanning 1e6, and dependent
  // columns. The basis must be orthonormal and span exactly range(A) (the projector
  // B (B^T B)^{-1} B^T of the full-rank factor).
  for (unsigned seed = 1; seed <= 5; ++seed) {
    RankDeficient x = rankDeficient(30, 8, 5, seed);
    const Vec scale =
        Vec::LinSpaced(30, 0.0, 6.0).unaryExpr([](double e) { return std::pow(10.0, -e); });
    x.B = scale.asDiagonal() * x.B;
    x.A = x.B * x.C;
    Mat Q;
    detail::rangeBasis(x.A, Q);
    ASSERT_EQ(Q.cols(), 5) << "seed " << seed;
    EXPECT_LE((Q.transpose() * Q - Mat::Identity(5, 5)).norm(), 1e-13);
    const Mat P = x.B * (x.B.transpose() * x.B).llt().solve(x.B.transpose());
    EXPECT_LE((Q * Q.transpose() - P).norm(), 1e-9) << "seed " << seed;
    EXPECT_LE((Q * (Q.transpose() * x.A) - x.A).norm(), 1e-14 * x.A.norm()) << "seed " << seed;
    // The solver's basis is the same space.
    const MinNormSolver solver(x.A);
    EXPECT_LE((solver.rangeBasis() * solver.rangeBasis().transpose() - Q * Q.transpose()).norm(),
              1e-12);
  }
}
