// Thin singular value decomposition for the core's few SVD users (the nuclear norm, the nuclear
// ball's linear minimizer, the nuclear solver's polish, balanced (K,Q) factors). Internal.
#pragma once
#include "attnsvm/types.hpp"

namespace attnsvm::detail {

// A = U diag(s) V^T with k = min(rows, cols): s (k, descending, >= 0), U (rows x k) and V (cols x k)
// with orthonormal columns where s > 0 (the columns of U for s = 0 are zero). U and V may be null
// (singular values only).
//
// One-sided (Hestenes) Jacobi: rotations orthogonalize the columns of A (or of A^T when it is
// wide) until every pair is orthogonal to working precision; the singular values are the column
// norms. High relative accuracy (like Eigen's two-sided JacobiSVD, which it replaces: one small
// loop instead of 21 KB of wasm for JacobiSVD and its QR preconditioner; docs/BENCHMARKS.md).
void thinSvd(const ConstMatRef& a, Vec& s, Mat* U, Mat* V);

}  // namespace attnsvm::detail
