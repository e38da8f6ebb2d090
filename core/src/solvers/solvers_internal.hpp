// Internal interface between the max-margin solver files (not installed, not part of the API).
//
// Conventions shared by every solver:
//  * lambda are the multipliers of  min 1/2 ||W||^2  s.t. <A_j, W> >= b_j  (or = b_j), i.e. for
//    the Frobenius norm W = sum_j lambda_j A_j exactly. The certificate of SPEC section 3 is
//    invariant to a positive scaling of lambda, so this choice is only a normalization.
//  * Each solver fills status, W, lambda, iterations and message; solveMargin() then calls
//    certify() and measures the time.
#pragma once
#include <string>
#include <vector>

#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {
namespace detail {

// Throws InputError if the problem arrays are inconsistent or not finite.
void checkProblem(const MarginProblem& problem);

// Constraint values c_j = u_j^T W w_j for all j.
Vec constraintValues(const MarginProblem& problem, const ConstMatRef& W);

// The sub-problem of the listed constraints (their rows of U, Wq, b and equality flags), for the
// working-set loops of solve.cpp and the l_p active-set finish.
MarginProblem restrictTo(const MarginProblem& problem, const std::vector<Index>& rows);

// M = sum_j lambda_j u_j w_j^T.
Mat combine(const MarginProblem& problem, const ConstVecRef& lambda);

// Exact active-set (Goldfarb-Idnani, dual / Gram form) solver for the Frobenius norm.
// On infeasibility: status Infeasible and sol.farkas set.
MarginSolution solveFrobenius(const MarginProblem& problem, const SolverSettings& settings);

// Status boundary (margin.hpp): neither a certified solution nor a checked Farkas certificate, and
// the feasibility margin max_{||W||_F <= 1} min_j <A_j, W> / ||A_j||_F proven to be at most this.
constexpr double kBoundaryMargin = 1e-6;

// The Frobenius solve that decides feasibility for every norm (frobenius_decision.cpp): the active
// set for small problems, the minimum-norm-point interior point (finished by the active set on its
// support) for large ones and wherever the active set ends without a certificate. Status optimal,
// infeasible (farkas), boundary or max_iterations (with a message); marginLower / marginUpper set
// when the interior point ran.
MarginSolution decideFrobenius(const MarginProblem& problem, const SolverSettings& settings);

// "%.2e": gaps and margins in messages show their size (3.3e-08, never 0.000000).
std::string sci(double x);

// Interior-point solvers on the dual (see docs/SOLVERS.md). `warm` is the Frobenius solution.
MarginSolution solveLp(const MarginProblem& problem, const SolverSettings& settings,
                       const MarginSolution& warm);
MarginSolution solveNuclear(const MarginProblem& problem, const SolverSettings& settings,
                            const MarginSolution& warm);
// Entrywise l_p for large problems (lp_wspace.cpp): a primal-dual interior point with its Newton
// system over W (inequalities only; warm: the Frobenius solution, feasible).
MarginSolution solveLpWspace(const MarginProblem& problem, const SolverSettings& settings,
                             const MarginSolution& warm);
// The large-problem path of decideFrobenius() (frobenius_decision.cpp) applies to the problem.
bool isLargeProblem(const MarginProblem& problem);

// The smooth part of a dual problem  min_lambda  w(mu) phi(lambda) - b.lambda,  lambda_j >= 0 on
// inequalities, for dualInteriorPoint. grad_j phi = <A_j, P(lambda)> for the primal map P, so the
// primal estimate is W = w(mu) P. The one model today is the l_p dual (LpDual, solver_lp.cpp:
// w(mu) = 1, no polishing); barrierWeighted (w(mu) = mu) and polish served the barrier model of the
// nuclear norm, replaced by the SDP in issue 16 (docs/SOLVERS.md), and are kept for such a model.
class DualModel {
 public:
  virtual ~DualModel() = default;
  // phi at lambda; false when lambda is outside the domain of phi. Remembers the point.
  virtual bool value(const Vec& lambda, double& phi) = 0;
  // Gradient and Hessian of phi at the last point given to value(). Only the lower triangle of
  // hess is read (the driver's Cholesky factors are Lower); the strict upper part may be left
  // unset.
  virtual void derivatives(Vec& grad, Mat& hess) = 0;
  // P(lambda) at the last point given to value().
  virtual Mat primal() = 0;
  virtual bool barrierWeighted() const = 0;
  // Optional: primal candidates reconstructed from the dual iterate (lambda, slacks s, mu) that
  // are more accurate than w(mu) P(lambda) (nuclear: exact rank/subspace polishing).
  virtual std::vector<Mat> polish(const Vec& /*lambda*/, const Vec& /*s*/, double /*mu*/) {
    return {};
  }
};

// Constraints grouped by their shared w_j (all tokens of one sequence), for the l_p solvers
// (solver_lp.cpp, solver_lp_primal.cpp): the matrices A diag(D) A^T they need then cost O(groups^2
// rows cols + m^2 rows).
struct LpGroup {
  Vec w;                 // the shared w (cols)
  std::vector<Index> j;  // constraint indices
  Mat U;                 // |g| x rows
};
std::vector<LpGroup> groupByW(const MarginProblem& problem);
// G_jk = <A_j, D .* A_k> for all constraints j, k (G must be m x m).
void groupedGram(const std::vector<LpGroup>& groups, const Mat& D, Mat& G);

// Primal-dual interior point on the l_p primal for p > 2 (solver_lp_primal.cpp). Starts from the
// multipliers lambda0 > 0 (and W = grad psi*(M(lambda0)), or W0 when given) and runs to the
// certified relative gap stopGap (or until it stalls).
// True with its best certified feasible iterate in sol (W, lambda, objective, lowerBound, gap,
// iterations); false if no iterate could be certified (sol untouched; the caller falls back).
bool lpPrimalDual(const MarginProblem& problem, double p, const Vec& lambda0, double stopGap,
                  MarginSolution& sol, const Mat* W0 = nullptr);

// Primal-dual interior-point method on the dual (docs/SOLVERS.md): Newton steps on the
// perturbed KKT conditions, a barrier merit line search, superlinear decrease of mu, and the
// certificate evaluated at every iterate (the best feasible one is returned).
MarginSolution dualInteriorPoint(const MarginProblem& problem, const SolverSettings& settings,
                                 DualModel& model, Vec lambda, double mu, const char* name);

// A sentence for a person explaining a Farkas certificate (names sequences and tokens).
std::string explainInfeasibility(const MarginProblem& problem, const Vec& farkas);

// Relative residual of a Farkas candidate: ||sum mu_j A_j||_F / sum |mu_j| ||A_j||_F, and
// whether it is a valid certificate (mu >= 0 on inequalities, residual tiny, mu.b > 0).
bool farkasValid(const MarginProblem& problem, const Vec& mu, double* residual = nullptr);

}  // namespace detail
}  // namespace attnsvm
