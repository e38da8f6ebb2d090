// Cholesky factorization A = L L^T of a dense symmetric positive definite matrix and its solves, in
// two-lane vectors (lanes.hpp). Internal.
//
// Why not Eigen's LLT: Eigen 3.4 does not vectorize under Emscripten, and the interior points'
// Newton matrices (rows cols = 324 unknowns at the real-image size, issue 26) are factored once per
// iteration and solved with 3-5 times: in wasm Eigen's scalar blocked LLT and triangular solves
// were ~15 % of the Frobenius solve. Natively it is about as fast as Eigen's (SSE2 both).
//
// Algorithm: left-looking by block columns of 4 (the width of the register tile): the block column
// J is updated by A[J:, J] -= L[J:, :J] L[J, :J]^T in 4 x 4 tiles of two-lane accumulators (depth
// J, contiguous column-major reads), then its 4 x 4 diagonal block is factored in scalars and the
// panel below it solved against that block in vectors. The matrix is padded to a multiple of 4
// with the identity, which decouples from the rest, so that no loop has an edge case.
#pragma once
#include <vector>

#include "attnsvm/base/types.hpp"

namespace attnsvm {
namespace detail {

class DenseCholesky {
 public:
  // Factors the lower triangle of A (square; the upper triangle is not read). False when a pivot is
  // not positive (A not numerically positive definite, or not finite): the factor is unusable.
  bool compute(const Mat& A);
  // b <- A^{-1} b (b of size n).
  void solveInPlace(Vec& b) const;
  Index size() const { return n_; }

 private:
  Index n_ = 0, np_ = 0;           // size, padded size (a multiple of 4)
  std::vector<double> L_;          // np x np, column-major, lower triangle (the rest is scratch)
  mutable std::vector<double> x_;  // np: a padded right-hand side
};

}  // namespace detail
}  // namespace attnsvm
