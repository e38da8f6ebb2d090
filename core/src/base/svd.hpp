// Thin singular value decomposition for the core's few SVD users (the nuclear norm, the nuclear
// ball's linear minimizer, the nuclear solver's polish, balanced (K,Q) factors), and the
// minimum-norm least-squares solves and range bases built on it (the l_p primal Newton finish,
// the nuclear polish, the generalized SVM's finite part). Internal.
#pragma once
#include "attnsvm/base/types.hpp"

namespace attnsvm::detail {

// A = U diag(s) V^T with k = min(rows, cols): s (k, descending, >= 0), U (rows x k) and V (cols x
// k) with orthonormal columns where s > 0 (the columns of U for s = 0 are zero). U and V may be
// null (singular values only).
//
// One-sided (Hestenes) Jacobi: rotations orthogonalize the columns of A (or of A^T when it is
// wide) until every pair is orthogonal to working precision; the singular values are the column
// norms. High relative accuracy (like Eigen's two-sided JacobiSVD, which it replaces: one small
// loop instead of 21 KB of wasm for JacobiSVD and its QR preconditioner; docs/BENCHMARKS.md).
// Clearly tall inputs (rows >= 2 cols after the transpose, the minimum-norm solvers' constraint
// matrices) are first reduced by a small hand-written Householder QR and the rotations run on R.
void thinSvd(const ConstMatRef& a, Vec& s, Mat* U, Mat* V);

// Numerical rank of a rows x cols matrix from its descending singular values s: the number of
// s_i > eps * max(rows, cols) * s_0. The computed singular values of a backward-stable SVD are
// accurate to about eps * max(rows, cols) * ||A||_2, so anything below is indistinguishable from
// zero; this is the conventional pseudo-inverse cut (MATLAB's pinv and rank, NumPy's lstsq).
// Eigen's complete orthogonal decomposition and column-pivoted Householder QR, which this
// replaced, cut the pivots of R at eps * min(rows, cols) * |R_00|: the same up to the dimension
// factor.
Index numericalRank(const Vec& s, Index rows, Index cols);

// Orthonormal basis (rows x rank) of range(A): the left singular vectors of A above the
// numericalRank cut. (For a rank-revealing basis where a QR of A would amplify nothing, but
// thinSvd's high relative accuracy also holds for badly column-scaled A.)
void rangeBasis(const ConstMatRef& a, Mat& Q);

// Minimum-norm least-squares solutions with one matrix A (rows x cols) and many right-hand
// sides, from one thin SVD A = U_r S_r V_r^T truncated at numericalRank (r):
//     solve(b)           x = A^+ b     = V_r S_r^{-1} U_r^T b   (min ||x|| among argmin ||A x -
//     b||) solveTransposed(c) y = (A^T)^+ c = U_r S_r^{-1} V_r^T c   (the same for A^T y = c)
// rangeBasis() = U_r spans range(A) (so U_r U_r^T is the orthogonal projector onto it). Unlike
// a QR (or COD) of a normal matrix A A^T, the cut and the solves see A's own singular values,
// not their squares. Solves reuse a workspace of r entries: one solver is not to be shared across
// threads.
class MinNormSolver {
 public:
  explicit MinNormSolver(const ConstMatRef& a);
  Index rank() const { return rank_; }
  void solve(const ConstVecRef& b, Vec& x) const;
  void solveTransposed(const ConstVecRef& c, Vec& y) const;
  Vec solve(const ConstVecRef& b) const {
    Vec x;
    solve(b, x);
    return x;
  }
  Vec solveTransposed(const ConstVecRef& c) const {
    Vec y;
    solveTransposed(c, y);
    return y;
  }
  Eigen::Block<const Mat, Eigen::Dynamic, Eigen::Dynamic, true> rangeBasis() const {
    return U_.leftCols(rank_);
  }

 private:
  Mat U_, V_;
  Vec s_;
  Index rank_ = 0;
  mutable Vec work_;  // r entries: S_r^{-1} U_r^T b (or S_r^{-1} V_r^T c)
};

}  // namespace attnsvm::detail
