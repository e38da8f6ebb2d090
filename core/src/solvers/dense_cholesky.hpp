// Cholesky factorization A = L L^T of a dense symmetric positive definite matrix and its solves, in
// two-lane vectors (lanes.hpp). Internal.
//
// Why not Eigen's LLT: Eigen 3.4 does not vectorize under Emscripten, and the interior points'
// Newton matrices (rows cols = 324 unknowns at the real-image size, issue 26) are factored once per
// iteration and solved with 3-5 times: in wasm Eigen's scalar blocked LLT and triangular solves
// were ~15 % of the Frobenius solve. Natively it is about as fast as Eigen's (SSE2 both).
//
// Algorithm: left-looking at two levels, so that large matrices (n = d^2 = 4096 at the real-phase
// d = 64, issues 41/42: a 134 MB matrix) are read from memory once per 128 columns instead of once
// per 4 (the one-level version ran at 2.3 GFLOP/s there, memory-bound, against 17 at n = 324).
// - Outer: block columns of 128. Block column [J0, J0 + 128) first takes the update from all the
//   columns to its left, A[J0:, J0:J0+128] -= L[J0:, :J0] L[J0:J0+128, :J0]^T, as a GEMM over
//   depth chunks of 256: the chunk of the block's own 128 rows is packed (256 KB, stays in L2), the
//   rows below in chunks of 128 (256 KB), both by strips of 4 rows so that the micro-kernel reads
//   them contiguously; 4 x 4 tiles strictly above the diagonal are skipped. The sizes were chosen
//   by measurement (docs/BENCHMARKS.md, "Large dense factorizations"): 64 or 128 columns, depth 128
//   to 512 are within the noise of each other; 32 columns is slower at n = 4096.
// - Inner: inside the block column, the one-level algorithm with the depth [J0, J): block columns
//   of 4 (the width of the register tile) updated by A[J:, J] -= L[J:, J0:J] L[J, J0:J]^T in 4 x 4
//   tiles of two-lane accumulators (contiguous column-major reads), then the 4 x 4 diagonal block
//   factored in scalars and the panel below it solved against that block in vectors.
// The micro-kernel is the same 4 x 4 tile of two-lane vectors at both levels (eight accumulators,
// no fused multiply-adds), and the summation order is fixed by the block sizes alone: native and
// wasm give the same bits. Up to n = 448 (a matrix that stays in cache) it is the one-level
// algorithm exactly, as before (8 % faster there than two levels). The matrix is padded to a
// multiple of 4 with the identity, which decouples from the rest, so that no loop has an edge case.
#pragma once
#include <vector>

#include "attnsvm/base/types.hpp"

namespace attnsvm {
namespace detail {

class DenseCholesky {
 public:
  // Factors the lower triangle of A (square; the upper triangle is not read). False when a pivot is
  // not positive (A not numerically positive definite): the factor is unusable. As Eigen's LLT,
  // entries are not checked for finiteness: a NaN reaches a pivot, and the factor and the solves
  // are NaN (unless a non-positive pivot comes first: false); the caller sees it in its residuals.
  bool compute(const Mat& A);
  // b <- A^{-1} b (b of size n).
  void solveInPlace(Eigen::Ref<Vec> b) const;
  Index size() const { return n_; }
  // The factor L (n x n, lower triangular; zeros above the diagonal), for tests.
  Mat matrixL() const;

 private:
  Index n_ = 0, np_ = 0;   // size, padded size (a multiple of 4)
  std::vector<double> L_;  // np x np, column-major, lower triangle (the rest is scratch)
  std::vector<double> packA_, packB_;  // the outer update's packed chunks (large n only)
  mutable std::vector<double> x_;      // np: a padded right-hand side
};

}  // namespace detail
}  // namespace attnsvm
