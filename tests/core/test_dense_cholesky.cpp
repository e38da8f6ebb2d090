// The two-lane blocked Cholesky of the interior points' Newton matrices
// (core/src/solvers/dense_cholesky.hpp) against Eigen's LLT: random SPD matrices of odd and even
// sizes around the tile width (4) and around the outer blocks (128 columns above n = 448, depth
// chunks of 256, row chunks of 128), nearly singular ones, matrices that are not positive definite
// or hold a NaN.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <cmath>
#include <random>

#include "solvers/dense_cholesky.hpp"

using attnsvm::Index;
using attnsvm::Mat;
using attnsvm::Vec;
using attnsvm::detail::DenseCholesky;

namespace {

// Q diag(eig) Q^T with Q a random orthogonal matrix and eigenvalues log-spaced in [minEig, 1].
Mat spdMatrix(Index n, double minEig, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Mat G(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) G(i, j) = normal(rng);
  const Mat Q = Eigen::HouseholderQR<Mat>(G).householderQ();
  Vec eig(n);
  for (Index i = 0; i < n; ++i)
    eig(i) = n == 1 ? 1.0 : std::pow(minEig, static_cast<double>(i) / static_cast<double>(n - 1));
  Mat A = Q * eig.asDiagonal() * Q.transpose();
  return (A + A.transpose()) / 2;
}

Vec randomVec(Index n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Vec b(n);
  for (Index i = 0; i < n; ++i) b(i) = normal(rng);
  return b;
}

// ||A x - b|| / (||A|| ||x|| + ||b||): the backward error, ~1e-16 for a stable solve.
double backwardError(const Mat& A, const Vec& x, const Vec& b) {
  return (A * x - b).norm() / (A.norm() * x.norm() + b.norm());
}

}  // namespace

TEST(DenseCholesky, MatchesEigenLltOnWellConditionedMatrices) {
  for (Index n : {1, 2, 3, 4, 5, 7, 8, 9, 13, 33, 64, 101, 324}) {
    const Mat A = spdMatrix(n, 1e-3, static_cast<unsigned>(n));
    const Vec b = randomVec(n, static_cast<unsigned>(n) + 7);
    DenseCholesky chol;
    ASSERT_TRUE(chol.compute(A)) << "n = " << n;
    Vec x = b;
    chol.solveInPlace(x);
    const Vec ref = Eigen::LLT<Mat>(A).solve(b);
    EXPECT_LE((x - ref).norm(), 1e-10 * ref.norm()) << "n = " << n;
    EXPECT_LE(backwardError(A, x, b), 1e-14) << "n = " << n;
  }
}

// The factor itself: L L^T = A and L = Eigen's L entry by entry (a well-conditioned matrix has one
// Cholesky factor, so a tile updated from the wrong rows or columns, skipped or applied twice, is
// an O(1) error somewhere). One level up to n = 448: 1-3 (padding only), 127-131, 255-257 (tile
// edges), 448. Two levels above (blocks of 128 columns): n = 449 and 452 (last block 68 wide), 513
// (last block 4 wide), 512 and 640 (whole blocks), 600 and 641; the depth chunks of 256 (the blocks
// at 384, 512 and 640 use chunks 256 + 128, 256 + 256 and 256 + 256 + 128) and the row chunks of
// 128 with a remainder.
TEST(DenseCholesky, FactorMatchesEigenAcrossTheBlockEdges) {
  for (Index n :
       {1, 2, 3, 6, 63, 127, 128, 129, 131, 200, 255, 256, 257, 259, 324, 390, 517, 600}) {
    const Mat A = spdMatrix(n, 1e-2, static_cast<unsigned>(5 * n + 1));
    DenseCholesky chol;
    ASSERT_TRUE(chol.compute(A)) << "n = " << n;
    const Mat L = chol.matrixL();
    ASSERT_EQ(L.rows(), n);
    EXPECT_LE((L * L.transpose() - A).norm(), 1e-14 * std::sqrt(double(n)) * A.norm())
        << "n = " << n;
    const Mat ref = Eigen::LLT<Mat>(A).matrixL();
    EXPECT_LE((L - ref).norm(), 1e-12 * ref.norm()) << "n = " << n;
    EXPECT_EQ(Mat(L.triangularView<Eigen::StrictlyUpper>()).norm(), 0.0) << "n = " << n;
    const Vec b = randomVec(n, static_cast<unsigned>(n) + 3);
    Vec x = b;
    chol.solveInPlace(x);
    EXPECT_LE(backwardError(A, x, b), 1e-14) << "n = " << n;
  }
}

TEST(DenseCholesky, StableOnNearlySingularMatrices) {
  // Condition numbers 1e10 and 1e14: the solutions of two stable solvers agree to ~cond eps, so
  // the backward error is what is compared (both ~1e-16), and the solutions where cond eps is
  // small.
  for (Index n : {6, 31, 150, 325}) {
    for (double minEig : {1e-10, 1e-14}) {
      const Mat A = spdMatrix(n, minEig, static_cast<unsigned>(3 * n));
      const Vec b = randomVec(n, static_cast<unsigned>(n));
      DenseCholesky chol;
      ASSERT_TRUE(chol.compute(A)) << "n = " << n << ", min eigenvalue " << minEig;
      Vec x = b;
      chol.solveInPlace(x);
      const Eigen::LLT<Mat> llt(A);
      ASSERT_EQ(llt.info(), Eigen::Success);
      const Vec ref = llt.solve(b);
      EXPECT_LE(backwardError(A, x, b), 50 * backwardError(A, ref, b) + 1e-15)
          << "n = " << n << ", min eigenvalue " << minEig;
      if (minEig >= 1e-10) EXPECT_LE((x - ref).norm(), 1e-3 * ref.norm()) << "n = " << n;
    }
  }
}

TEST(DenseCholesky, ReportsMatricesThatAreNotPositiveDefinite) {
  // The negative pivot is the last (A(n-1, n-1) lowered), so every block is updated before it.
  for (Index n : {1, 5, 40, 131, 330, 460}) {
    Mat A = spdMatrix(n, 1e-2, 11);
    A(n - 1, n - 1) -= 2.0;  // one negative eigenvalue at least
    DenseCholesky chol;
    EXPECT_FALSE(chol.compute(A)) << "n = " << n;
    EXPECT_FALSE(chol.compute(-spdMatrix(n, 1e-2, 12))) << "n = " << n;
    EXPECT_FALSE(chol.compute(Mat::Zero(n, n))) << "n = " << n;
    EXPECT_TRUE(chol.compute(spdMatrix(n, 1e-2, 13))) << "n = " << n;  // reusable after a failure
  }
}

TEST(DenseCholesky, ReadsOnlyTheLowerTriangle) {
  const Index n = 23;
  const Mat A = spdMatrix(n, 1e-4, 5);
  Mat lowerOnly = A.triangularView<Eigen::Lower>();
  lowerOnly.triangularView<Eigen::StrictlyUpper>().setConstant(1e300);
  const Vec b = randomVec(n, 9);
  DenseCholesky full, lower;
  ASSERT_TRUE(full.compute(A));
  ASSERT_TRUE(lower.compute(lowerOnly));
  Vec x = b, y = b;
  full.solveInPlace(x);
  lower.solveInPlace(y);
  EXPECT_EQ(x, y);
}

// As Eigen's LLT (dense_cholesky.hpp): a NaN in the lower triangle is not reported (no pivot is
// <= 0) but reaches a pivot, so the factor and every solve are NaN; the caller (the interior
// point) sees it in its residuals instead of raising a ridge 150 times. A NaN after a negative
// pivot is never reached: false.
TEST(DenseCholesky, ANaNGivesANaNSolveAsDocumented) {
  for (Index n : {3, 130, 460}) {
    for (Index at : {Index(0), n / 2, n - 1}) {
      Mat A = spdMatrix(n, 1e-2, 17);
      A(n - 1, at) = std::nan("");
      DenseCholesky chol;
      ASSERT_TRUE(chol.compute(A)) << "n = " << n << ", column " << at;
      Vec x = randomVec(n, 2);
      chol.solveInPlace(x);
      EXPECT_TRUE(x.array().isNaN().any()) << "n = " << n << ", column " << at;
      EXPECT_TRUE(std::isnan(chol.matrixL()(n - 1, n - 1))) << "n = " << n << ", column " << at;
    }
    Mat B = spdMatrix(n, 1e-2, 19);
    B(0, 0) = -1.0;
    B(n - 1, n - 1) = std::nan("");
    DenseCholesky chol;
    EXPECT_FALSE(chol.compute(B)) << "n = " << n;
  }
}
