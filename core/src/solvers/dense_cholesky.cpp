// DenseCholesky: a two-lane blocked Cholesky factorization and its solves (dense_cholesky.hpp).
#include "solvers/dense_cholesky.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/lanes.hpp"

namespace attnsvm {
namespace detail {
namespace {

constexpr Index kCholTile = 4;     // register tile (4 x 4: eight accumulators) = inner block width
constexpr Index kCholPanel = 128;  // outer block column width (the GEMM's columns)
constexpr Index kCholDepth = 256;  // depth of one packed chunk (the GEMM's k)
constexpr Index kCholRows = 128;   // rows of one packed chunk of the left operand
// Up to this padded size the matrix (<= 1.6 MB) stays in cache and the one-level algorithm is
// faster (paired runs: 8 % at n = 324, the real-image Newton matrix; the same at 448): one block.
constexpr Index kCholOneLevel = 448;

// The register tile: C[4 x 4] -= sum_k a_k b_k^T over `depth`, a_k the tile's 4 rows and b_k its 4
// columns at step k, each advanced by its own step per k (ld when read in place from L, kCholTile
// when packed by packStrips); C column-major with leading dimension ld.
void subtractTileProduct(const double* a, Index aStep, const double* b, Index bStep, Index depth,
                         double* C, Index ld) {
  Lanes acc[kCholTile][2];
  ATTNSVM_UNROLL for (Index t = 0; t < kCholTile; ++t) acc[t][0] = acc[t][1] = splat(0.0);
  for (Index k = 0; k < depth; ++k, a += aStep, b += bStep) {
    const Lanes q0 = load(a), q1 = load(a + 2);
    ATTNSVM_UNROLL for (Index t = 0; t < kCholTile; ++t) {
      const Lanes pt = splat(b[t]);
      acc[t][0] += pt * q0;
      acc[t][1] += pt * q1;
    }
  }
  ATTNSVM_UNROLL for (Index t = 0; t < kCholTile; ++t) {
    double* out = C + t * ld;
    Lanes v0 = load(out), v1 = load(out + 2);
    v0 -= acc[t][0];
    v1 -= acc[t][1];
    store(out, v0);
    store(out + 2, v1);
  }
}

// The update of block column J for the 4 rows i..i+3 from the columns [K, J): A[i.., J..J+3] -=
// sum_{K <= k < J} L[i.., k] L[J.., k]^T (column-major, leading dimension ld; both reads
// contiguous per k).
void updateTile(double* L, Index ld, Index i, Index J, Index K) {
  subtractTileProduct(L + K * ld + i, ld, L + K * ld + J, ld, J - K, L + J * ld + i, ld);
}

// Packs the rows [r, r + rows) (rows a multiple of 4) of the columns [k0, k0 + depth) by strips of
// 4 rows: strip s holds, for each k in turn, the 4 entries L[r + 4 s .. r + 4 s + 3, k0 + k]. The
// columns are read in order (contiguous), each strip then read in order by the micro-kernel.
void packStrips(const double* L, Index ld, Index r, Index rows, Index k0, Index depth,
                double* out) {
  for (Index k = 0; k < depth; ++k) {
    const double* col = L + (k0 + k) * ld + r;
    double* dst = out + k * kCholTile;
    for (Index s = 0; s < rows; s += kCholTile, dst += depth * kCholTile) {
      store(dst, load(col + s));
      store(dst + 2, load(col + s + 2));
    }
  }
}

// The outer update of the block column [J0, J0 + w): A[J0:, J0:J0+w] -= L[J0:, :J0] L[J0:J0+w,
// :J0]^T, by depth chunks of kCholDepth: the chunk of the block column's own rows (w x kCholDepth)
// is packed once, the rows below by kCholRows (both fit in L2; one left strip of 4 rows in L1), and
// the 4 x 4 tiles strictly above the diagonal are skipped.
void updatePanel(double* L, Index ld, Index np, Index J0, Index w, double* packA, double* packB) {
  for (Index k0 = 0; k0 < J0; k0 += kCholDepth) {
    const Index depth = std::min(kCholDepth, J0 - k0);
    packStrips(L, ld, J0, w, k0, depth, packB);
    for (Index i0 = J0; i0 < np; i0 += kCholRows) {
      const Index rows = std::min(kCholRows, np - i0);
      packStrips(L, ld, i0, rows, k0, depth, packA);
      for (Index s = 0; s < rows; s += kCholTile) {
        const Index i = i0 + s;
        const double* a = packA + s * depth;
        for (Index t = 0; t < w && J0 + t <= i; t += kCholTile)
          subtractTileProduct(a, kCholTile, packB + t * depth, kCholTile, depth,
                              L + (J0 + t) * ld + i, ld);
      }
    }
  }
}

}  // namespace

bool DenseCholesky::compute(const Mat& A) {
  n_ = A.rows();
  np_ = (n_ + kCholTile - 1) / kCholTile * kCholTile;
  const Index ld = np_;
  L_.assign(static_cast<std::size_t>(np_ * np_), 0.0);
  double* L = L_.data();
  for (Index j = 0; j < n_; ++j)
    for (Index i = j; i < n_; ++i) L[j * ld + i] = A(i, j);
  for (Index j = n_; j < np_; ++j) L[j * ld + j] = 1.0;  // the padding: identity, decoupled
  const Index panel = np_ <= kCholOneLevel ? np_ : kCholPanel;
  if (panel < np_) {
    packA_.resize(static_cast<std::size_t>(kCholRows * kCholDepth));
    packB_.resize(static_cast<std::size_t>(kCholPanel * kCholDepth));
  }
  auto at = [&](Index i, Index j) -> double& { return L[j * ld + i]; };
  for (Index J0 = 0; J0 < np_; J0 += panel) {
    const Index w = std::min(panel, np_ - J0);
    if (J0 > 0) updatePanel(L, ld, np_, J0, w, packA_.data(), packB_.data());
    for (Index J = J0; J < J0 + w; J += kCholTile) {
      if (J > J0)
        for (Index i = J; i < np_; i += kCholTile) updateTile(L, ld, i, J, J0);
      // The 4 x 4 diagonal block, in scalars (its entries above the diagonal, written by the tile
      // update, are cleared: the solves read whole columns below the diagonal only, but keep L
      // clean).
      for (Index c = 0; c < kCholTile; ++c) {
        const Index j = J + c;
        double d = at(j, j);
        for (Index e = J; e < j; ++e) d -= at(j, e) * at(j, e);
        if (d <= 0.0) return false;  // as Eigen's LLT: a NaN passes (and gives a NaN factor)
        const double ljj = std::sqrt(d);
        at(j, j) = ljj;
        for (Index r = j + 1; r < J + kCholTile; ++r) {
          double x = at(r, j);
          for (Index e = J; e < j; ++e) x -= at(r, e) * at(j, e);
          at(r, j) = x / ljj;
        }
        for (Index r = J; r < j; ++r) at(r, j) = 0.0;
      }
      // The panel below: L[i, j] = (A[i, j] - sum_{J <= e < j} L[i, e] L[j, e]) / L[j, j], in
      // vectors over the rows i >= J + 4 (an even count).
      for (Index c = 0; c < kCholTile; ++c) {
        const Index j = J + c;
        double* col = L + j * ld;
        for (Index e = J; e < j; ++e) {
          const Lanes f = splat(at(j, e));
          const double* src = L + e * ld;
          for (Index i = J + kCholTile; i < np_; i += 2) {
            Lanes v = load(col + i);
            v -= f * load(src + i);
            store(col + i, v);
          }
        }
        const Lanes inv = splat(1.0 / at(j, j));
        for (Index i = J + kCholTile; i < np_; i += 2) store(col + i, load(col + i) * inv);
      }
    }
  }
  return true;
}

Mat DenseCholesky::matrixL() const {
  Mat out = Mat::Zero(n_, n_);
  for (Index j = 0; j < n_; ++j)
    for (Index i = j; i < n_; ++i) out(i, j) = L_[static_cast<std::size_t>(j * np_ + i)];
  return out;
}

void DenseCholesky::solveInPlace(Eigen::Ref<Vec> b) const {
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
