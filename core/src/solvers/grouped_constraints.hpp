// Rank-one constraints grouped by their shared right factor (issue 26): the W-space interior
// points' operators without the m x (rows cols) constraint matrix. Internal.
//
// In the Att-SVM every constraint of sequence i is A_j = u_j z_i^T (u_j = x_{i,alpha_i} - x_it):
// the tokens of one sequence share w = z_i. With the constraints grouped by w (group g: w_g and its
// rows u_j), the operators of an interior point in W-space are
//     values     c_j = u_j^T (W w_g)                               O(m rows + G rows cols)
//     adjoint    sum_j y_j A_j = sum_g (sum_{j in g} y_j u_j) w_g^T  O(m rows + G rows cols)
//     gram       sum_j d_j vec(A_j) vec(A_j)^T = sum_g (w_g w_g^T) (x) S_g,
//                S_g = sum_{j in g} d_j u_j u_j^T,
// the last (the Newton matrix over W, (rows cols)^2 entries) as one GEMM of the symmetric parts:
// Gs = P^T Q with P (G x cols(cols+1)/2, the products w_g[c] w_g[c'], c <= c', fixed) and
// Q (G x rows(rows+1)/2, the entries of S_g on and above the diagonal), since
// H[(r,c),(r',c')] = sum_g w_g[c] w_g[c'] S_g[r,r']: about G (rows cols)^2 / 2 flops plus
// m rows^2 / 2 for the S_g, never the m x (rows cols)^2 dense product. Memory O(m rows + G cols^2 +
// (rows cols)^2). vec is column-major: entry (r, c) of W is coordinate r + rows c.
// Constraints are stored group by group (rows of u contiguous); every vector argument and result
// is indexed by the constraint's position in the list given to the constructor.
#pragma once
#include <vector>

#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {
namespace detail {

class GroupedConstraints {
 public:
  // The constraints `rows` of the problem (all when empty), each u_j scaled by `scale` (one factor
  // per listed constraint; empty: 1), grouped by equal w.
  GroupedConstraints(const MarginProblem& problem, const std::vector<Index>& rows = {},
                     const Vec& scale = Vec());
  Index constraints() const { return m_; }
  Index groups() const { return static_cast<Index>(start_.size()) - 1; }
  int rows() const { return R_; }
  int cols() const { return C_; }
  // ||A_j||_F of each (scaled) constraint.
  const Vec& norms() const { return norms_; }
  // The group of constraint k, and the constraints (positions) of group g.
  Index groupOf(Index k) const { return group_[static_cast<std::size_t>(k)]; }

  void values(const ConstMatRef& W, Vec& c) const;  // c_k = <A_k, W>
  void adjoint(const Vec& y, Mat& M) const;         // M = sum_k y_k A_k
  // Both in one pass over the rows (the interior point's residuals need both at each iterate).
  void valuesAndAdjoint(const ConstMatRef& W, Vec& c, const Vec& y, Mat& M) const;
  // H = sum_k d_k vec(A_k) vec(A_k)^T (rows cols square, both triangles), over the groups with
  // include[g] != 0 (all when include is null); and, when dSum is given, dSum = sum_k d_k A_k over
  // the same groups (adjoint(d) for all groups) from the same pass over the rows.
  void gram(const Vec& d, Mat& H, const std::vector<char>* include = nullptr, Mat* dSum = nullptr);
  // Per group: sum_{k in g} x_k.
  void groupSums(const Vec& x, Vec& out) const;

 private:
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  int R_ = 0, C_ = 0;
  Index Rp_ = 0;  // rows padded for the kernels (a multiple of 4; zero entries)
  Index m_ = 0;
  std::vector<Index> start_;  // group g holds stored rows start_[g] .. start_[g+1]-1
  std::vector<Index> pos_;    // stored row -> position k in the constructor's list
  std::vector<Index> group_;  // position k -> group
  RowMat U_;                  // m x Rp, stored group by group: the scaled u
  Mat Wg_;                    // G x cols: the distinct w
  Vec norms_;                 // by position
  // gram(): P (G x C2) and Q (G x R2) packed for its kernel, Gs = P^T Q (C2 x R2, padded), and
  // one S_g (Rp x Rp) and the group's rows scaled by d.
  std::vector<double> Pp_, Qp_, Gs_, sg_;
  RowMat vg_;
};

}  // namespace detail
}  // namespace attnsvm
