// DenseCholesky: a two-lane blocked Cholesky factorization and its solves (dense_cholesky.hpp).
#include "solvers/dense_cholesky.hpp"

#include <cmath>

#include "solvers/lanes.hpp"

namespace attnsvm {
namespace detail {
namespace {

constexpr Index kBlock = 4;  // block column width = register tile (4 x 4: eight accumulators)

// The update of block column J for the 4 rows i..i+3: A[i.., J..J+3] -= sum_{k < J} L[i.., k]
// L[J.., k]^T (column-major, leading dimension ld; both reads contiguous per k).
void updateTile(double* L, Index ld, Index i, Index J) {
  Lanes acc[kBlock][2];
  ATTNSVM_UNROLL for (Index a = 0; a < kBlock; ++a) acc[a][0] = acc[a][1] = splat(0.0);
  const double* p = L + J;  // L[J.., k]
  const double* q = L + i;  // L[i.., k]
  for (Index k = 0; k < J; ++k, p += ld, q += ld) {
    const Lanes q0 = load(q), q1 = load(q + 2);
    ATTNSVM_UNROLL for (Index a = 0; a < kBlock; ++a) {
      const Lanes pa = splat(p[a]);
      acc[a][0] += pa * q0;
      acc[a][1] += pa * q1;
    }
  }
  ATTNSVM_UNROLL for (Index a = 0; a < kBlock; ++a) {
    double* out = L + (J + a) * ld + i;
    Lanes v0 = load(out), v1 = load(out + 2);
    v0 -= acc[a][0];
    v1 -= acc[a][1];
    store(out, v0);
    store(out + 2, v1);
  }
}

}  // namespace

bool DenseCholesky::compute(const Mat& A) {
  n_ = A.rows();
  np_ = (n_ + kBlock - 1) / kBlock * kBlock;
  const Index ld = np_;
  L_.assign(static_cast<std::size_t>(np_ * np_), 0.0);
  double* L = L_.data();
  for (Index j = 0; j < n_; ++j)
    for (Index i = j; i < n_; ++i) L[j * ld + i] = A(i, j);
  for (Index j = n_; j < np_; ++j) L[j * ld + j] = 1.0;  // the padding: identity, decoupled
  auto at = [&](Index i, Index j) -> double& { return L[j * ld + i]; };
  for (Index J = 0; J < np_; J += kBlock) {
    if (J > 0)
      for (Index i = J; i < np_; i += kBlock) updateTile(L, ld, i, J);
    // The 4 x 4 diagonal block, in scalars (its entries above the diagonal, written by the tile
    // update, are cleared: the solves read whole columns below the diagonal only, but keep L
    // clean).
    for (Index c = 0; c < kBlock; ++c) {
      const Index j = J + c;
      double d = at(j, j);
      for (Index e = J; e < j; ++e) d -= at(j, e) * at(j, e);
      if (d <= 0.0) return false;  // as Eigen's LLT: a NaN passes (and gives a NaN factor)
      const double ljj = std::sqrt(d);
      at(j, j) = ljj;
      for (Index r = j + 1; r < J + kBlock; ++r) {
        double x = at(r, j);
        for (Index e = J; e < j; ++e) x -= at(r, e) * at(j, e);
        at(r, j) = x / ljj;
      }
      for (Index r = J; r < j; ++r) at(r, j) = 0.0;
    }
    // The panel below: L[i, j] = (A[i, j] - sum_{J <= e < j} L[i, e] L[j, e]) / L[j, j], in
    // vectors over the rows i >= J + 4 (an even count).
    for (Index c = 0; c < kBlock; ++c) {
      const Index j = J + c;
      double* col = L + j * ld;
      for (Index e = J; e < j; ++e) {
        const Lanes f = splat(at(j, e));
        const double* src = L + e * ld;
        for (Index i = J + kBlock; i < np_; i += 2) {
          Lanes v = load(col + i);
          v -= f * load(src + i);
          store(col + i, v);
        }
      }
      const Lanes inv = splat(1.0 / at(j, j));
      for (Index i = J + kBlock; i < np_; i += 2) store(col + i, load(col + i) * inv);
    }
  }
  return true;
}

void DenseCholesky::solveInPlace(Vec& b) const {
  const Index ld = np_;
  const double* L = L_.data();
  x_.assign(static_cast<std::size_t>(np_), 0.0);
  double* x = x_.data();
  for (Index i = 0; i < n_; ++i) x[i] = b(i);
  // L y = b, by columns: y_j = x_j / L_jj, then x[j+1..] -= y_j L[j+1.., j] (the first entry in
  // scalars when the rest would be odd).
  for (Index j = 0; j < np_; ++j) {
    const double* col = L + j * ld;
    const double y = x[j] / col[j];
    x[j] = y;
    Index i = j + 1;
    if ((np_ - i) & 1) {
      x[i] -= y * col[i];
      ++i;
    }
    const Lanes f = splat(y);
    for (; i < np_; i += 2) {
      Lanes v = load(x + i);
      v -= f * load(col + i);
      store(x + i, v);
    }
  }
  // L^T z = y, backwards: z_j = (y_j - L[j+1.., j] . z[j+1..]) / L_jj.
  for (Index j = np_ - 1; j >= 0; --j) {
    const double* col = L + j * ld;
    Index i = j + 1;
    double s = 0.0;
    if ((np_ - i) & 1) {
      s = col[i] * x[i];
      ++i;
    }
    Lanes acc = splat(0.0);
    for (; i < np_; i += 2) acc += load(col + i) * load(x + i);
    x[j] = (x[j] - (s + lane(acc, 0) + lane(acc, 1))) / col[j];
  }
  for (Index i = 0; i < n_; ++i) b(i) = x[i];
}

}  // namespace detail
}  // namespace attnsvm
