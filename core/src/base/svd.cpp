#include "base/svd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace attnsvm::detail {

void thinSvd(const ConstMatRef& a, Vec& s, Mat* U, Mat* V) {
  const bool wide = a.rows() < a.cols();  // work on the tall one: A = U S V^T <=> A^T = V S U^T
  Mat x = wide ? Mat(a.transpose()) : Mat(a);
  if (wide) std::swap(U, V);
  const Index m = x.rows(), n = x.cols();
  s.resize(n);
  if (n == 0 || m == 0) {
    if (U) U->resize(m, n);
    if (V) V->resize(n, n);
    return;
  }
  const double big = x.cwiseAbs().maxCoeff();
  if (big > 0.0 && std::isfinite(big)) x /= big;  // no overflow / underflow in the dot products
  // Clearly tall (m >= 2 n, e.g. the constraint matrices of the l_p finish, d^2 x |S|): Householder
  // QR first, x = Q R, and the rotations on R (n x n) instead of on m-long columns (a sweep costs
  // n^3 instead of m n^2; U = Q U_R at the end). Columnwise backward stable, so R keeps the
  // relative accuracy of the columns; the rank is then revealed by the SVD of R. Square and
  // nearly square inputs (the other users) take the plain loop.
  Mat reflectors;  // m x n: R above the diagonal, the Householder vectors v_k from the diagonal
                   // down
  Vec tau;         // H_k = I - tau_k v_k v_k^T
  // Reflections as dot products on column segments rather than Eigen's Householder templates
  // (smaller wasm).
  auto reflect = [](const double* v, double t, double* y, Index len) {  // y <- (I - t v v^T) y
    Eigen::Map<Vec> ys(y, len);
    ys -= (t * Eigen::Map<const Vec>(v, len).dot(ys)) * Eigen::Map<const Vec>(v, len);
  };
  if (m >= 2 * n) {
    tau.setZero(n);
    Vec rdiag(n);
    for (Index k = 0; k < n; ++k) {
      double* v = &x(k, k);
      const double norm = Eigen::Map<const Vec>(v, m - k).norm(), x0 = v[0];
      rdiag(k) = x0 >= 0.0 ? -norm : norm;  // H_k x = rdiag_k e_1
      if (norm == 0.0) continue;            // zero column: H_k = I
      v[0] = x0 - rdiag(k);                 // |v_0| = norm + |x0|: no cancellation
      tau(k) = 1.0 / (norm * (norm + std::abs(x0)));
      for (Index j = k + 1; j < n; ++j) reflect(v, tau(k), &x(k, j), m - k);
    }
    reflectors = std::move(x);
    x = reflectors.topRows(n).triangularView<Eigen::StrictlyUpper>();
    x.diagonal() = rdiag;
  }
  const Index mx = x.rows();  // rows of the rotated matrix (n after the QR)
  Mat v;
  if (V) v.setIdentity(n, n);
  const double eps = std::numeric_limits<double>::epsilon();
  for (int sweep = 0; sweep < 80; ++sweep) {
    bool rotated = false;
    for (Index p = 0; p + 1 < n; ++p)
      for (Index q = p + 1; q < n; ++q) {
        const double alpha = x.col(p).squaredNorm(), beta = x.col(q).squaredNorm();
        const double gamma = x.col(p).dot(x.col(q));
        if (!(std::abs(gamma) > eps * std::sqrt(alpha * beta))) continue;  // orthogonal (or zero)
        rotated = true;
        // The rotation zeroing the (p, q) entry of the Gram matrix (Rutishauser's formulas).
        const double zeta = (beta - alpha) / (2.0 * gamma);
        const double t = std::copysign(1.0, zeta) / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double c = 1.0 / std::sqrt(1.0 + t * t), sn = c * t;
        for (Index i = 0; i < mx; ++i) {
          const double xp = x(i, p), xq = x(i, q);
          x(i, p) = c * xp - sn * xq;
          x(i, q) = sn * xp + c * xq;
        }
        if (V)
          for (Index i = 0; i < n; ++i) {
            const double vp = v(i, p), vq = v(i, q);
            v(i, p) = c * vp - sn * vq;
            v(i, q) = sn * vp + c * vq;
          }
      }
    if (!rotated) break;
  }
  Vec norms(n);
  for (Index j = 0; j < n; ++j) norms(j) = x.col(j).norm();
  // Descending order, ties in column order: an insertion sort (n is small; std::stable_sort
  // would add 5 KB of wasm).
  std::vector<Index> order(static_cast<std::size_t>(n));
  for (Index k = 0; k < n; ++k) {
    Index i = k;
    for (; i > 0 && norms(k) > norms(order[static_cast<std::size_t>(i - 1)]); --i)
      order[static_cast<std::size_t>(i)] = order[static_cast<std::size_t>(i - 1)];
    order[static_cast<std::size_t>(i)] = k;
  }
  if (U) U->resize(mx, n);
  if (V) V->resize(n, n);
  for (Index k = 0; k < n; ++k) {
    const Index j = order[static_cast<std::size_t>(k)];
    s(k) = (big > 0.0 && std::isfinite(big) ? big : 1.0) * norms(j);
    if (U) {
      if (norms(j) > 0.0)
        U->col(k) = x.col(j) / norms(j);
      else
        U->col(k).setZero();
    }
    if (V) V->col(k) = v.col(j);
  }
  if (U && reflectors.size() > 0) {  // U = H_0 .. H_{n-1} [U_R; 0]
    U->conservativeResize(m, n);
    U->bottomRows(m - n).setZero();
    for (Index k = n - 1; k >= 0; --k)
      for (Index c = 0; c < n; ++c) reflect(&reflectors(k, k), tau(k), &(*U)(k, c), m - k);
  }
}

Index numericalRank(const Vec& s, Index rows, Index cols) {
  if (s.size() == 0 || !(s(0) > 0.0)) return 0;
  const double cut =
      std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(rows, cols)) * s(0);
  Index r = 0;
  while (r < s.size() && s(r) > cut) ++r;  // s is descending
  return r;
}

void rangeBasis(const ConstMatRef& a, Mat& Q) {
  Vec s;
  thinSvd(a, s, &Q, nullptr);
  Q.conservativeResize(Eigen::NoChange, numericalRank(s, a.rows(), a.cols()));
}

MinNormSolver::MinNormSolver(const ConstMatRef& a) {
  thinSvd(a, s_, &U_, &V_);
  rank_ = numericalRank(s_, a.rows(), a.cols());
  work_.resize(rank_);
}

void MinNormSolver::solve(const ConstVecRef& b, Vec& x) const {
  if (rank_ == 0) {  // A = 0 (products with an empty inner dimension are avoided)
    x.setZero(V_.rows());
    return;
  }
  work_.noalias() = U_.leftCols(rank_).transpose() * b;
  work_.array() /= s_.head(rank_).array();
  x.noalias() = V_.leftCols(rank_) * work_;
}

void MinNormSolver::solveTransposed(const ConstVecRef& c, Vec& y) const {
  if (rank_ == 0) {
    y.setZero(U_.rows());
    return;
  }
  work_.noalias() = V_.leftCols(rank_).transpose() * c;
  work_.array() /= s_.head(rank_).array();
  y.noalias() = U_.leftCols(rank_) * work_;
}

}  // namespace attnsvm::detail
