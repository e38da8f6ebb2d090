// Max-margin problems (SPEC section 3) in one general form:
//   minimize ||W||  subject to  <A_j, W> >= b_j (inequality) or = b_j (equality),
// with rank-one constraint matrices A_j = u_j w_j^T (u_j in R^r, w_j in R^c, W in R^{r x c}).
// Att-SVM: u = x_{i,alpha_i} - x_it, w = z_i. Prompt SVM: u = Wk (x_alpha - x_t), w = [1].
// Head SVM: u = Y_i x_{i,alpha_i}, w = [1]. Relaxed SVM: b_j = 0 for relaxed constraints.
#pragma once
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "attnsvm/data/dataset.hpp"
#include "attnsvm/model/model.hpp"

namespace attnsvm {

enum class NormKind { Frobenius, Nuclear, Lp };

struct ConstraintLabel {
  int sequence = 0;   // i
  int query = -1;     // k for seq2seq / causal, -1 otherwise
  int token = 0;      // t (the non-selected token); for head SVMs the selected token
  int other = -1;     // generalized SVM: the second token of a pair, -1 otherwise
  int selected = -1;  // the selected token of the unit (alpha_i or alpha_ik), -1 if none
};

struct MarginProblem {
  int rows = 0, cols = 0;      // shape of W
  Mat U;                       // m x rows: u_j as rows
  Mat Wq;                      // m x cols: w_j as rows
  Vec b;                       // m right-hand sides
  std::vector<bool> equality;  // m flags (default all false)
  std::vector<ConstraintLabel> label;
  int constraints() const { return static_cast<int>(b.size()); }
};

// Builders. `selection` has one token per unit (sequence, or (sequence, query) i-major for
// seq2seq/causal). They throw InputError for out-of-range selections.
MarginProblem attentionSvmProblem(const Dataset& data, AttentionKind kind,
                                  const std::vector<int>& selection);
MarginProblem promptSvmProblem(const Dataset& data, const Mat& Wk,
                               const std::vector<int>& selection);
MarginProblem headSvmProblem(const Dataset& data, const std::vector<int>& selection);
// Joint training's relaxed prompt SVM: constraints of sequences that are not support vectors of
// the head SVM get b = 0.
MarginProblem relaxedPromptSvmProblem(const Dataset& data, const Mat& Wk,
                                      const std::vector<int>& selection,
                                      const std::vector<int>& headSupportSequences);

struct SolverSettings {
  NormKind norm = NormKind::Frobenius;
  double p = 2.0;                // Lp only, p in (1, inf)
  double tolerance = 1e-10;      // relative gap target (Frobenius reaches ~1e-12)
  double feasibilityTol = 1e-9;  // max violation accepted as feasible
  double supportTol = 1e-6;  // |<A_j,W> - b_j| <= supportTol * max(1,b) marks a support constraint
  int maxIterations = 100000;
};

// Boundary: the problem is numerically on the boundary of feasibility (issue 26): neither a
// certified solution nor a checked Farkas certificate exists in double precision, and the
// feasibility margin max_{||W||_F <= 1} min_j <A_j, W> / ||A_j||_F is proven to be at most 1e-6
// (the message gives the measured bounds).
enum class SolveStatus { Optimal, Infeasible, MaxIterations, Boundary };
const char* toString(SolveStatus status);

struct MarginSolution {
  SolveStatus status = SolveStatus::MaxIterations;
  Mat W;                      // rows x cols
  Vec lambda;                 // m multipliers (>= 0 for inequalities)
  double objective = 0.0;     // ||W||
  double lowerBound = 0.0;    // sum(lambda_j b_j) / ||sum lambda_j A_j||_dual
  double gap = 0.0;           // (objective - lowerBound) / objective
  double maxViolation = 0.0;  // max_j (b_j - <A_j,W>)_+ (and |.| for equalities)
  std::vector<int> support;   // constraint indices that are active
  int iterations = 0;
  double seconds = 0.0;
  std::string message;  // infeasibility explanation, or why it stopped
  Vec farkas;           // infeasible: lambda >= 0, sum lambda_j A_j = 0, sum lambda_j b_j > 0
  // Bounds on the feasibility margin gamma* = max_{||W||_F <= 1} min_j <A_j, W> / ||A_j||_F
  // (>= 0; 0 iff no W separates) where the large-problem path measured them (docs/SOLVERS.md):
  // any W gives a lower bound, any convex combination of the A_j / ||A_j||_F the upper bound of
  // its norm. NaN when not measured (the small-problem path).
  double marginLower = std::numeric_limits<double>::quiet_NaN();
  double marginUpper = std::numeric_limits<double>::quiet_NaN();
};

MarginSolution solveMargin(const MarginProblem& problem, const SolverSettings& settings);

// The max-margin problems of a dataset that `solve` builds (SPEC section 3): the Att-SVM of a
// selection, the prompt SVM (key matrix Wk), the relaxed prompt SVM of joint training (zero margin
// for the sequences outside the head SVM's support), the head SVM.
enum class SvmProblemKind { Attention, Prompt, RelaxedPrompt, Head };

// What `solve` takes (the JS API's SolveRequest; its field list is in fields.hpp). Defaults:
// attention from the dataset (defaultAttention), the selection from the core (defaultSelection: per
// sequence, or per (sequence, query) unit for seq2seq / causal attention problems).
struct SolveRequest {
  Dataset dataset;
  SvmProblemKind problem = SvmProblemKind::Attention;
  std::optional<AttentionKind> attention;  // default: cross when the dataset has Z, else self
  std::vector<int> selection;              // one token per unit; empty: the default selection
  Mat Wk;                                  // prompt, relaxed-prompt: the key matrix (d x d)
  std::vector<int> headSupport;            // relaxed-prompt: the head SVM's support sequences
  SolverSettings solver;  // norm, p, tolerance, feasibilityTol, supportTol, maxIterations
};
// The request's attention kind (its own, or the dataset's default) and selection (its own, or the
// default for that attention).
AttentionKind attentionOf(const SolveRequest& request);
std::vector<int> selectionOf(const SolveRequest& request);
// The problem the request names, after validating the dataset for it (the attention problem for
// the request's attention; the prompt and head problems need sizes and finite numbers only).
MarginProblem svmProblem(const SolveRequest& request);

// The certificate of SPEC section 3 for any candidate (W, lambda): fills objective, lowerBound,
// gap, maxViolation and support. Used by every solver and by tests on their own.
void certify(const MarginProblem& problem, const SolverSettings& settings, MarginSolution& sol);

// Norms and dual norms of a matrix (entrywise l_p for Lp).
double matrixNorm(const ConstMatRef& w, NormKind norm, double p = 2.0);
double dualNorm(const ConstMatRef& w, NormKind norm, double p = 2.0);

// Generalized SVM (nonlinear heads, several tokens kept; SPEC section 3).
struct GeneralizedSvm {
  std::vector<std::vector<int>> selectedSets;  // O_i
  MarginSolution direction;                    // W_dir
  Mat finite;                                  // W_fin
};
GeneralizedSvm generalizedSvm(const Dataset& data, const Mat& softmax /* n x T */, double threshold,
                              const SolverSettings& settings);
// Least-squares R for W ~ W_fin + R W_dir.
double fitRadius(const GeneralizedSvm& g, const Mat& W);

}  // namespace attnsvm
