// GroupedConstraints: the W-space operators of rank-one constraints grouped by their shared w
// (grouped_constraints.hpp). The loops over a group's rows are written out: a group has a few dozen
// rows of a few dozen entries, where a library call per group costs more than its arithmetic.
#include "solvers/grouped_constraints.hpp"

#include <map>

namespace attnsvm {
namespace detail {

GroupedConstraints::GroupedConstraints(const MarginProblem& pb, const std::vector<Index>& rows,
                                       const Vec& scale)
    : R_(pb.rows), C_(pb.cols) {
  std::vector<Index> list = rows;
  if (list.empty())
    for (Index j = 0; j < pb.b.size(); ++j) list.push_back(j);
  m_ = static_cast<Index>(list.size());
  // Group by equal w. The constraints of one sequence are consecutive in every builder, so a run
  // of equal rows joins the previous group without a lookup.
  std::map<std::vector<double>, Index> where;
  group_.assign(static_cast<std::size_t>(m_), 0);
  std::vector<double> key(static_cast<std::size_t>(C_));
  for (Index k = 0; k < m_; ++k) {
    const Index j = list[static_cast<std::size_t>(k)];
    if (k > 0 && pb.Wq.row(j) == pb.Wq.row(list[static_cast<std::size_t>(k - 1)])) {
      group_[static_cast<std::size_t>(k)] = group_[static_cast<std::size_t>(k - 1)];
      continue;
    }
    for (int c = 0; c < C_; ++c) key[static_cast<std::size_t>(c)] = pb.Wq(j, c);
    auto it = where.find(key);
    if (it == where.end()) it = where.emplace(key, static_cast<Index>(where.size())).first;
    group_[static_cast<std::size_t>(k)] = it->second;
  }
  const Index G = static_cast<Index>(where.size());
  start_.assign(static_cast<std::size_t>(G + 1), 0);
  for (Index k = 0; k < m_; ++k)
    ++start_[static_cast<std::size_t>(group_[static_cast<std::size_t>(k)] + 1)];
  for (Index g = 0; g < G; ++g)
    start_[static_cast<std::size_t>(g + 1)] += start_[static_cast<std::size_t>(g)];
  pos_.assign(static_cast<std::size_t>(m_), 0);
  std::vector<Index> fill(start_.begin(), start_.end() - 1);
  U_.resize(m_, R_);
  Wg_.resize(G, C_);
  norms_.resize(m_);
  for (Index k = 0; k < m_; ++k) {
    const Index g = group_[static_cast<std::size_t>(k)];
    const Index row = fill[static_cast<std::size_t>(g)]++;
    const Index j = list[static_cast<std::size_t>(k)];
    pos_[static_cast<std::size_t>(row)] = k;
    U_.row(row) = (scale.size() ? scale(k) : 1.0) * pb.U.row(j);
    Wg_.row(g) = pb.Wq.row(j);
    norms_(k) = U_.row(row).norm() * pb.Wq.row(j).norm();
  }
  // P: products w_g[c] w_g[c'] for c <= c' (column index of the pair: its position in the upper
  // triangle, column by column).
  const Index C2 = static_cast<Index>(C_) * (C_ + 1) / 2;
  P_.resize(G, C2);
  for (Index g = 0; g < G; ++g) {
    Index k = 0;
    for (int c2 = 0; c2 < C_; ++c2)
      for (int c1 = 0; c1 <= c2; ++c1) P_(g, k++) = Wg_(g, c1) * Wg_(g, c2);
  }
}

void GroupedConstraints::values(const ConstMatRef& W, Vec& c) const {
  c.resize(m_);
  const Mat T = W * Wg_.transpose();  // rows x G: W w_g
  for (Index g = 0; g + 1 < static_cast<Index>(start_.size()); ++g) {
    const double* t = T.col(g).data();
    for (Index row = start_[static_cast<std::size_t>(g)];
         row < start_[static_cast<std::size_t>(g + 1)]; ++row) {
      const double* u = U_.row(row).data();
      double acc = 0.0;
      for (int r = 0; r < R_; ++r) acc += u[r] * t[r];
      c(pos_[static_cast<std::size_t>(row)]) = acc;
    }
  }
}

void GroupedConstraints::adjoint(const Vec& y, Mat& M) const {
  const Index G = groups();
  Mat Y(R_, G);  // column g: sum_{k in g} y_k u_k
  for (Index g = 0; g < G; ++g) {
    double* acc = Y.col(g).data();
    for (int r = 0; r < R_; ++r) acc[r] = 0.0;
    for (Index row = start_[static_cast<std::size_t>(g)];
         row < start_[static_cast<std::size_t>(g + 1)]; ++row) {
      const double* u = U_.row(row).data();
      const double yk = y(pos_[static_cast<std::size_t>(row)]);
      for (int r = 0; r < R_; ++r) acc[r] += yk * u[r];
    }
  }
  M.noalias() = Y * Wg_;
}

void GroupedConstraints::groupSums(const Vec& x, Vec& out) const {
  out.setZero(groups());
  for (Index k = 0; k < m_; ++k) out(group_[static_cast<std::size_t>(k)]) += x(k);
}

void GroupedConstraints::gram(const Vec& d, Mat& H, const std::vector<char>* include) {
  const Index G = groups(), R2 = static_cast<Index>(R_) * (R_ + 1) / 2;
  Qt_.resize(R2, G);
  // Column g of Qt: the upper triangle of S_g = sum_k d_k u_k u_k^T, column by column (r1 <= r2).
  for (Index g = 0; g < G; ++g) {
    double* q = Qt_.col(g).data();
    for (Index k = 0; k < R2; ++k) q[k] = 0.0;
    if (include && !(*include)[static_cast<std::size_t>(g)]) continue;
    for (Index row = start_[static_cast<std::size_t>(g)];
         row < start_[static_cast<std::size_t>(g + 1)]; ++row) {
      const double* u = U_.row(row).data();
      const double dk = d(pos_[static_cast<std::size_t>(row)]);
      Index k = 0;
      for (int r2 = 0; r2 < R_; ++r2) {
        const double f = dk * u[r2];
        for (int r1 = 0; r1 <= r2; ++r1, ++k) q[k] += f * u[r1];
      }
    }
  }
  Gs_.noalias() = P_.transpose() * Qt_.transpose();  // C2 x R2
  const Index n = static_cast<Index>(R_) * C_;
  H.resize(n, n);
  auto pair = [](int a, int b) {  // position of (min, max) in the upper triangle, column-major
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    return static_cast<Index>(hi) * (hi + 1) / 2 + lo;
  };
  for (int c2 = 0; c2 < C_; ++c2)
    for (int c1 = 0; c1 < C_; ++c1) {
      const Index pc = pair(c1, c2);
      for (int r2 = 0; r2 < R_; ++r2)
        for (int r1 = 0; r1 < R_; ++r1)
          H(r1 + static_cast<Index>(R_) * c1, r2 + static_cast<Index>(R_) * c2) =
              Gs_(pc, pair(r1, r2));
    }
}

}  // namespace detail
}  // namespace attnsvm
