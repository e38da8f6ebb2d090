// Entrywise l_p max-margin solver, p in (1, inf), by the dual interior-point method.
//
// Dual of  min (1/p)||W||_p^p  s.t. <A_j, W> >= b_j:
//     min_{lambda >= 0}  (1/q) ||M(lambda)||_q^q - b.lambda,   M = sum_j lambda_j A_j,  1/p + 1/q = 1,
// with the primal map W = sign(M) |M|^{q-1} (so grad_j = <A_j, W>) and the Hessian
//     H = A diag((q-1)|M|^{q-2}) A^T,   H_jk = u_j^T (D .* w_j w_k^T) u_k.
// Constraints sharing the same w (all tokens of one sequence in the Att-SVM) form groups, and a
// block of H is U_g1 diag(D (w_g1 .* w_g2)) U_g2^T: O(groups^2 rows cols + m^2 rows) per Hessian.
// Warm start: the Frobenius multipliers (plus a small positive floor), scaled optimally along
// their ray. |M|^{q-2} is floored at 1e-12 max|M| when q < 2 (p > 2) where it is unbounded.
#include <algorithm>
#include <cmath>
#include <map>

#include "solvers_internal.hpp"

namespace attnsvm {
namespace detail {
namespace {

constexpr double kFloor = 1e-12;  // larger floors (1e-6, 1e-3) were tried: worse for p = 10

struct Group {
  Vec w;                 // the shared w (cols)
  std::vector<Index> j;  // constraint indices
  Mat U;                 // |g| x rows
};

std::vector<Group> groupByW(const MarginProblem& pb) {
  std::map<std::vector<double>, std::size_t> where;
  std::vector<Group> groups;
  for (Index j = 0; j < pb.b.size(); ++j) {
    std::vector<double> key(static_cast<std::size_t>(pb.cols));
    for (int c = 0; c < pb.cols; ++c) key[static_cast<std::size_t>(c)] = pb.Wq(j, c);
    auto it = where.find(key);
    if (it == where.end()) {
      it = where.emplace(key, groups.size()).first;
      groups.push_back(Group{pb.Wq.row(j).transpose(), {}, Mat()});
    }
    groups[it->second].j.push_back(j);
  }
  for (Group& g : groups) {
    g.U.resize(static_cast<Index>(g.j.size()), pb.rows);
    for (std::size_t k = 0; k < g.j.size(); ++k) g.U.row(static_cast<Index>(k)) = pb.U.row(g.j[k]);
  }
  return groups;
}

class LpDual final : public DualModel {
 public:
  LpDual(const MarginProblem& pb, double p) : pb_(pb), q_(p / (p - 1.0)), groups_(groupByW(pb)) {}

  bool value(const Vec& lambda, double& phi) override {
    M_ = combine(pb_, lambda);
    phi = M_.array().abs().pow(q_).sum() / q_;
    return std::isfinite(phi);
  }
  void derivatives(Vec& grad, Mat& hess) override {
    const Mat W = primal();
    grad = constraintValues(pb_, W);
    const double big = M_.cwiseAbs().maxCoeff();
    const double floorM = q_ < 2.0 ? kFloor * big : 0.0;
    const Mat D = (q_ - 1.0) * M_.array().abs().max(floorM).pow(q_ - 2.0).matrix();
    for (std::size_t a = 0; a < groups_.size(); ++a) {
      const Group& ga = groups_[a];
      for (std::size_t b = a; b < groups_.size(); ++b) {
        const Group& gb = groups_[b];
        // H_jk = sum_{r,c} u_jr u_kr D_rc w_c w'_c = u_j^T diag(D (w_a .* w_b)) u_k.
        const Vec dab = D * ga.w.cwiseProduct(gb.w);
        const Mat block = ga.U * dab.asDiagonal() * gb.U.transpose();
        for (std::size_t x = 0; x < ga.j.size(); ++x)
          for (std::size_t y = 0; y < gb.j.size(); ++y) {
            hess(ga.j[x], gb.j[y]) = block(static_cast<Index>(x), static_cast<Index>(y));
            hess(gb.j[y], ga.j[x]) = block(static_cast<Index>(x), static_cast<Index>(y));
          }
      }
    }
  }
  Mat primal() override {
    return (M_.array().sign() * M_.array().abs().pow(q_ - 1.0)).matrix();
  }
  bool barrierWeighted() const override { return false; }

 private:
  const MarginProblem& pb_;
  double q_;
  std::vector<Group> groups_;
  Mat M_;
};

}  // namespace

MarginSolution solveLp(const MarginProblem& pb, const SolverSettings& st, const MarginSolution& warm) {
  const Index m = pb.b.size();
  const double q = st.p / (st.p - 1.0);
  // Warm start on the ray of the Frobenius multipliers, with a floor keeping lambda > 0.
  Vec lambda = warm.lambda.cwiseMax(0.0);
  const double floor = 1e-2 * std::max(lambda.maxCoeff(), 1e-12);
  for (Index j = 0; j < m; ++j) {
    const bool eq = !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
    if (!eq) lambda(j) = std::max(lambda(j), floor);
    else lambda(j) = warm.lambda(j);
  }
  // Best scale t of lambda: maximize t b.lambda - t^q ||M||_q^q / q.
  const double bl = pb.b.dot(lambda);
  const double mq = combine(pb, lambda).array().abs().pow(q).sum();
  if (bl > 0.0 && mq > 0.0) lambda *= std::pow(bl / mq, 1.0 / (q - 1.0));
  const double mu0 = 0.1 * std::max(pb.b.dot(lambda), 1e-12) / static_cast<double>(m);
  LpDual model(pb, st.p);
  return dualInteriorPoint(pb, st, model, lambda, mu0, "l_p interior point");
}

}  // namespace detail
}  // namespace attnsvm
