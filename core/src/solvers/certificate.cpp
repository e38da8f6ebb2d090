// Certificates of SPEC section 3: the weak-duality lower bound
//   lower = sum_j lambda_j b_j / ||sum_j lambda_j A_j||_dual   (lambda >= 0 on inequalities)
// in the norm registry's norm and dual norm (norms.cpp)
// and the human explanation of a Farkas certificate of infeasibility.
#include <algorithm>
#include <cmath>
#include <map>
#include "base/text.hpp"

#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "cold.hpp"
#include "solvers/solvers_internal.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  bool isEquality(const MarginProblem& pb, Index j) {
    return !pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)];
  }

  }  // namespace

  void certify(const MarginProblem& pb, const SolverSettings& settings, MarginSolution& sol) {
    const Index m = pb.b.size();
    if (sol.W.rows() != pb.rows || sol.W.cols() != pb.cols) sol.W = Mat::Zero(pb.rows, pb.cols);
    if (sol.lambda.size() != m) sol.lambda = Vec::Zero(m);
    const double p = settings.p;
    sol.objective = matrixNorm(sol.W, settings.norm, p);

    const Vec c = detail::constraintValues(pb, sol.W);
    sol.maxViolation = 0.0;
    sol.support.clear();
    for (Index j = 0; j < m; ++j) {
      const double r = pb.b(j) - c(j);
      sol.maxViolation =
          std::max(sol.maxViolation, isEquality(pb, j) ? std::abs(r) : std::max(r, 0.0));
      if (std::abs(r) <= settings.supportTol * std::max(1.0, std::abs(pb.b(j))))
        sol.support.push_back(static_cast<int>(j));
    }

    // Weak duality needs lambda >= 0 on inequalities: a negative entry is clipped (never happens
    // for the solvers' own multipliers beyond rounding).
    Vec lam = sol.lambda;
    for (Index j = 0; j < m; ++j)
      if (!isEquality(pb, j)) lam(j) = std::max(lam(j), 0.0);
    const double num = lam.dot(pb.b);
    const double den = m ? dualNorm(detail::combine(pb, lam), settings.norm, p) : 0.0;
    sol.lowerBound = (num > 0.0 && den > 0.0) ? num / den : 0.0;
    sol.gap = sol.objective > 0.0 ? (sol.objective - sol.lowerBound) / sol.objective : 0.0;
  }

  namespace detail {

  bool farkasValid(const MarginProblem& pb, const Vec& mu, double* residual) {
    const Index m = pb.b.size();
    if (mu.size() != m || m == 0) return false;
    double scale = 0.0;
    for (Index j = 0; j < m; ++j) {
      if (!std::isfinite(mu(j))) return false;
      if (!isEquality(pb, j) && mu(j) < 0.0) return false;
      scale += std::abs(mu(j)) * pb.U.row(j).norm() * pb.Wq.row(j).norm();
    }
    const double res = combine(pb, mu).norm();
    const double rel = scale > 0.0 ? res / scale : 0.0;
    if (residual) *residual = rel;
    const double mub = mu.dot(pb.b);
    // sum mu_j A_j = 0 (relative to the size of the terms) while sum mu_j b_j > 0.
    return mub > 0.0 && rel <= 1e-9 && res <= 1e-9 * std::max(1.0, mub) * 1e3;
  }

  std::string explainInfeasibility(const MarginProblem& pb, const Vec& mu) {
    const Index m = pb.b.size();
    auto lab = [&](Index j) {
      return pb.label.empty() ? ConstraintLabel{static_cast<int>(j), -1, static_cast<int>(j), -1}
                              : pb.label[static_cast<std::size_t>(j)];
    };
    auto unitName = [&](const ConstraintLabel& l) {
      std::string s = "sequence " + std::to_string(l.sequence);
      if (l.query >= 0) s += " (query " + std::to_string(l.query) + ")";
      return s;
    };
    double total = 0.0;
    Index top = 0;
    for (Index j = 0; j < m; ++j) {
      total += std::abs(mu(j));
      if (std::abs(mu(j)) > std::abs(mu(top))) top = j;
    }
    // A single constraint with A_j = 0 and b_j > 0: the common "duplicate token" case.
    const double aTop = pb.U.row(top).norm() * pb.Wq.row(top).norm();
    double scaleAll = 0.0;
    for (Index j = 0; j < m; ++j)
      scaleAll = std::max(scaleAll, pb.U.row(j).norm() * pb.Wq.row(j).norm());
    if (std::abs(mu(top)) >= 0.999 * total && aTop <= 1e-12 * std::max(1.0, scaleAll)) {
      const ConstraintLabel l = lab(top);
      detail::Text os;
      if (pb.U.row(top).norm() <= 1e-12 * std::max(1.0, scaleAll)) {
        if (l.selected >= 0 && l.selected == l.token)
          os << unitName(l) << ": the selected token " << l.token
             << " is the zero vector, so no weight vector gives it a positive margin.";
        else if (l.selected >= 0)
          os << unitName(l) << ": token " << l.token << " equals the selected token " << l.selected
             << ", so no W separates them.";
        else
          os << unitName(l) << ": token " << l.token
             << " equals the selected token (their difference is zero), so no W separates them.";
      } else {
        os << unitName(l) << ": the query vector is zero, so no W can give token " << l.token
           << " a lower score than the selected token.";
      }
      return os.str();
    }
    // General combination: name the units and tokens carrying most of the certificate's weight.
    std::vector<Index> order;
    for (Index j = 0; j < m; ++j)
      if (std::abs(mu(j)) > 1e-9 * total) order.push_back(j);
    // The six largest (a partial sort: the real-image certificates have ~10^4 nonzero entries).
    const std::size_t named = std::min<std::size_t>(order.size(), 6);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(named),
                      order.end(),
                      [&](Index a, Index b) { return std::abs(mu(a)) > std::abs(mu(b)); });
    order.resize(named);
    std::map<std::pair<int, int>, std::vector<int>> byUnit;  // (sequence, query) -> tokens
    for (Index j : order) {
      const ConstraintLabel l = lab(j);
      byUnit[{l.sequence, l.query}].push_back(l.token);
    }
    detail::Text os;
    os << "No W satisfies all margin constraints: the constraints of ";
    bool first = true;
    for (const auto& kv : byUnit) {
      if (!first) os << "; ";
      first = false;
      os << unitName({kv.first.first, kv.first.second, 0, -1}) << " (token"
         << (kv.second.size() > 1 ? "s " : " ");
      for (std::size_t k = 0; k < kv.second.size(); ++k) os << (k ? ", " : "") << kv.second[k];
      os << ")";
    }
    os << " contradict each other: a nonnegative combination of them cancels to zero while "
          "requiring a positive margin (Farkas certificate).";
    return os.str();
  }

  }  // namespace detail
}  // namespace attnsvm
ATTNSVM_COLD_END
