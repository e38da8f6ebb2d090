// Training algorithms (SPEC section 2): GD, normalized GD, l_p mirror descent (plain and
// normalized), (K,Q) with a balancing regularizer, joint training with the head, and the
// regularization path. A Trainer advances in steps and records a trace the caller drains.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attnsvm/model/mirror.hpp"  // mirrorMap, inverseMirrorMap
#include "attnsvm/model/model.hpp"

namespace attnsvm {

enum class Optimizer {
  GD,      // W <- W - eta grad
  NGD,     // W <- W - eta grad / ||grad||_F   (each factor separately for (K,Q))
  MD,      // l_p mirror descent: U = grad psi(W) - eta grad; W = (grad psi)^{-1}(U)
  NMD,     // normalized l_p MD as the mirror-descent paper runs it: U = grad psi(W) - eta grad /
           // (||grad||_q + eps)
  NMDFro,  // normalized l_p MD with the Frobenius norm instead: U = grad psi(W) - eta grad /
           // ||grad||_F
  Adam  // Adam (adamBeta1, adamBeta2, adamEps), the real-data baseline of the mirror-descent paper
};
// Wire names gd, ngd, md, nmd, nmd-fro, adam: wireName / parseWireName<Optimizer> (names.hpp).
bool isMirrorOptimizer(Optimizer o);  // MD, NMD, NMDFro: the step goes through the mirror map of p
bool isNormalizedOptimizer(Optimizer o);  // NGD, NMD, NMDFro

struct TrainSettings {
  Optimizer optimizer = Optimizer::NGD;
  double lr = 0.1;
  double p = 2.0;  // mirror descent potential psi(W) = (1/p)||W||_p^p, p > 1
  // (K,Q): adds balance * (||K||_F^2 + ||Q||_F^2) to the loss (machine epsilon by default).
  double balance = std::numeric_limits<double>::epsilon();
  // Joint training of the head v (its own optimizer, step and p).
  bool trainHead = false;
  Optimizer headOptimizer = Optimizer::NGD;
  double headLr = 0.1;
  double headP = 2.0;
  // Adam (optimizer or headOptimizer = Adam): m = b1 m + (1-b1) g, s = b2 s + (1-b2) g^2,
  // step lr * mhat / (sqrt(shat) + eps) with the bias corrections mhat = m/(1-b1^k), shat =
  // s/(1-b2^k).
  double adamBeta1 = 0.9;
  double adamBeta2 = 0.999;
  double adamEps = 1e-8;
  // Trace: record every k-th iteration (iteration 0 is always recorded); the full softmax
  // matrix only when asked.
  int traceEvery = 1;
  bool traceSoftmax = false;
  // The l_p norm and the Bregman divergence reported in the trace (defaults to the mirror-descent
  // p, else 2). The divergence needs p > 1: with traceP = 1 it is reported at p = 2.
  double traceP = 0.0;
  // A run stops (with a reason in the trace) when ||W||_F exceeds this bound or turns non-finite.
  double maxNorm = 1e12;
};

// Zero is literally zero, also for (K,Q), where it is a saddle that normalized GD cannot leave;
// the scenarios give the papers' small random (K,Q) start through Given. Random draws W, or K
// then Q, or p, each row by row from Rng(seed). Cone: the noise E is a Gaussian matrix scaled to
// unit Frobenius norm; for (K,Q) the start is split into balanced factors by an SVD.
enum class InitKind { Zero, Random, Given, Cone };
struct InitSettings {
  InitKind kind = InitKind::Zero;
  std::uint64_t seed = 0;
  double scale =
      0.1;        // Random: entries N(0, scale^2); Cone: radius of the start along the direction
  Mat direction;  // Cone: the SVM direction (d x d, or d x 1 for prompts); start = scale *
                  // dir/||dir|| + noise
  double coneNoise = 0.0;  // Cone: relative size of a random perturbation
  Params given;            // Given
};
// Initial parameters for a model (head v taken from the dataset).
Params initialParams(const Model& model, const InitSettings& init);

// Trace, structure of arrays; frame f of a field with stride s is [f*s, (f+1)*s).
struct Trace {
  int units = 0;       // stride of the per-unit fields
  int references = 0;  // stride of corr
  int T = 0;           // softmax is units*T per frame when recorded
  std::vector<int> iteration;
  std::vector<double> loss;
  std::vector<double> normFro, normNuc, normLp;  // of the effective weights
  std::vector<int> selected;                     // units per frame
  std::vector<double> selectedProbability;       // units per frame
  std::vector<double> corr;                      // references per frame
  // D_p(ref/||ref||_p, W/||W||_p) per reference, p = the trace p (the Bregman divergence of the
  // mirror-descent paper, SPEC section 4); references per frame, parallel to corr.
  std::vector<double> divergence;
  std::vector<double> softmax;  // units*T per frame (if traceSoftmax)
  int frames() const { return static_cast<int>(iteration.size()); }
  void clear();
};

// Correlation coefficient <A,B> / (||A||_F ||B||_F) (0 if either is zero).
double correlation(const ConstMatRef& a, const ConstMatRef& b);

// Bregman divergence of psi = (1/p)||.||_p^p (entrywise), p > 1 (SPEC section 4):
// D_p(A, B) = psi(A) - psi(B) - <grad psi(B), A - B>
//           = (1/p)||A||_p^p + ((p-1)/p)||B||_p^p - <sign(B)|B|^{p-1}, A>  (>= 0; 0 iff A = B).
double bregmanDivergence(const ConstMatRef& a, const ConstMatRef& b, double p);
// The mirror-descent paper's metric: D_p(A/||A||_p, B/||B||_p) = 1 - <sign(Bh)|Bh|^{p-1}, Ah>, in
// [0, 2] (Hoelder), 0 iff the directions agree, 2 at B = -A; p = 2 gives half the squared distance
// of the unit vectors. The paper's order: A the SVM solution, B the iterate. A zero matrix has the
// zero direction (as corr = 0 for it): D_p(0, B) = (p-1)/p, D_p(A, 0) = 1/p.
double directionDivergence(const ConstMatRef& a, const ConstMatRef& b, double p);

class Trainer {
 public:
  Trainer(Model model, TrainSettings settings, Params init);

  // Reference directions for the trace's corr field (same shape as effectiveWeights).
  void addReference(const std::string& name, const Mat& direction);
  const std::vector<std::string>& referenceNames() const { return referenceNames_; }

  // Advance up to k iterations; returns how many were taken (fewer if the run stopped).
  // Frames: iteration 0 (at the first step() or takeTrace()), every traceEvery-th iteration,
  // and the last finite state of a run that stops. No frame ever holds NaN or Inf.
  int step(int k);
  bool stopped() const { return !stopReason_.empty(); }
  const std::string& stopReason() const { return stopReason_; }
  int iteration() const { return iteration_; }

  const Model& model() const { return model_; }
  const TrainSettings& settings() const { return settings_; }
  const Params& params() const { return params_; }
  Mat weights() const { return effectiveWeights(model_.spec(), params_); }

  // Frames recorded since the last call (moves them out).
  Trace takeTrace();
  const Trace& trace() const { return trace_; }

 private:
  void record();
  void evaluate();   // gradient (and by-products) at params_, balance term added; may stop the run
  bool update();     // one step from grad_ into params_; false (and stopReason set) if refused
  void effective();  // weff_ = effective weights of params_ (no allocation after the first call)
  Model model_;
  TrainSettings settings_;
  Params params_;
  Gradient grad_;
  Trace trace_;
  std::vector<std::string> referenceNames_;
  std::vector<Mat> references_;
  std::vector<int> selectedScratch_;
  Vec probabilityScratch_;
  int iteration_ = 0;
  std::string stopReason_;
  // Private working state (preallocated so that steps and trace frames do not allocate).
  Params next_;           // candidate parameters of the step being taken
  Params adamM_, adamS_;  // Adam: first and second moments per block (sized only for Adam)
  Mat weff_;              // effective weights of params_ ((K,Q): K Q^T)
  Mat gram_;              // weff^T weff, for the singular values
  Eigen::SelfAdjointEigenSolver<Mat> eig_;
  std::vector<double> referenceNorms_;
  double traceP_ = 2.0;
  double divergenceP_ = 2.0;  // traceP_, or 2 when it is 1
  bool initialRecorded_ = false;
  int lastRecorded_ = -1;
};

// Regularization path W(R) = argmin_{||W|| <= R} L(W) by Frank-Wolfe (closed-form linear
// minimization oracles), warm-started along increasing radii.
enum class BallNorm { Frobenius, Nuclear, Lp };
struct PathSettings {
  BallNorm norm = BallNorm::Frobenius;
  double p = 2.0;
  int iterationsPerRadius = 500;
};
std::vector<Mat> regularizationPath(const Model& model, const std::vector<double>& radii,
                                    const PathSettings& settings);

}  // namespace attnsvm
