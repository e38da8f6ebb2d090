// The SVM theory's regime on real images (SPEC 6.2): for a ladder of training sizes n, W trained
// long (normalized GD, and normalized l_p MD) with the head either trained first alone on the
// mean-pooled tokens and then frozen, or trained jointly; per run the Att-SVM of the selection
// reached on all n images (Frobenius, and l_p for MD), certified by the solver's duality gap and
// constraint violation; corr and D_p between W(k) and that SVM along log-spaced k; the smallest and
// mean selected softmax; the verdict (SPEC 4); and where the limit (corr >= 0.99) is not reached,
// which condition fails.
//
// As the study (real_study.hpp): a plan of independent runs, a run advanced in chunks (training,
// then one analysis chunk with the solves), and the aggregation, all in the core; the CLI's threads
// and the page's workers only schedule runs. The SVMs come from the public solver API
// (analyzeSelection, svmDirection); a status other than optimal or infeasible is reported as
// "undecided", never worked around.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/train/real_train.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

struct RealLadderSettings {
  int classA = 7, classB = 9;
  std::vector<int> sizes = {8, 16, 32, 64, 128, 256, 512, 1000};  // n (even), ascending
  int dim = 18;                 // token dimension (SPEC 6.5, embedTokens); 18: the patches
  std::uint64_t embedSeed = 0;  // the random feature map's seed (the same map for every run)
  std::string heads = "frozen,joint";
  std::string methods = "nmd:2,nmd:1.1";  // NGD and normalized l_p MD (md:p and nmd:p accepted)
  double lr = 0.1;                        // W's (and the joint head's) step
  // The normalized steps divide by ||g||_q + normEpsilon: 0 (default) is the pure normalized step
  // of the theory (NGD at p = 2), which keeps moving after the gradient falls below machine
  // epsilon; machine epsilon is the authors' code, whose iterate stops there.
  double normEpsilon = 0.0;
  int headSteps = 1000;  // frozen head: normalized GD steps on v alone (W = 0: mean pooling)
  // Steps of a run: min(maxSteps, max(minSteps, work / n)) (a run's cost is about n x steps).
  int maxSteps = 100000;
  int minSteps = 1000;
  double work = 2e6;
  int snapshotsPerDecade = 10;  // W(k) kept at log-spaced k
  int seeds = 2;
  std::uint64_t seedBase = 1;
  // A feasible SVM is certified when the solver says optimal with relative duality gap and
  // constraint violation at most certifyTol.
  double certifyTol = 1e-6;
  double corrTarget = 0.99;  // "the limit is reached": corr with the run's SVM >= corrTarget
  // The step budget: "by-n" (min(maxSteps, max(minSteps, work / n)): the first ladder's, which
  // falls with n and so confounds "the selection keeps moving" with the budget) or "fixed"
  // (maxSteps for every n: the phase diagram's rule, independent of n).
  std::string budget = "by-n";
};

// Its field list: classA, classB, sizes, dim, embedSeed, heads, methods, lr, normEpsilon,
// headSteps, maxSteps, minSteps, work, snapshotsPerDecade, seeds, seedBase, certifyTol, corrTarget.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealLadderSettings> {
  v("classA", s.classA);
  v("classB", s.classB);
  v("sizes", s.sizes);
  v("dim", s.dim);
  v("embedSeed", s.embedSeed);
  v("heads", s.heads);
  v("methods", s.methods);
  v("lr", s.lr);
  v("normEpsilon", s.normEpsilon);
  v("headSteps", s.headSteps);
  v("maxSteps", s.maxSteps);
  v("minSteps", s.minSteps);
  v("work", s.work);
  v("snapshotsPerDecade", s.snapshotsPerDecade);
  v("seeds", s.seeds);
  v("seedBase", s.seedBase);
  v("certifyTol", s.certifyTol);
  v("corrTarget", s.corrTarget);
  v("budget", s.budget);
}

struct RealLadderRun {
  int id = 0;
  int classA = 7, classB = 9;
  int n = 8;     // training images: binarySubset(train file, A, B, n, seed)
  int dim = 18;  // their tokens: embedTokens(patches, dim, embedSeed)
  std::uint64_t embedSeed = 0;
  std::string head;    // "frozen" or "joint"
  std::string method;  // "nmd:2", "nmd:1.1", "md:3", ...
  Optimizer optimizer = Optimizer::NMD;
  double p = 2.0;
  double lr = 0.1;
  double normEpsilon = 0.0;
  int headSteps = 1000;
  int steps = 100000;
  int snapshotsPerDecade = 10;
  std::uint64_t seed = 1;
  double certifyTol = 1e-6;
  double corrTarget = 0.99;
};

template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealLadderRun> {
  v("id", s.id);
  v("classA", s.classA);
  v("classB", s.classB);
  v("n", s.n);
  v("dim", s.dim);
  v("embedSeed", s.embedSeed);
  v("head", s.head);
  v("method", s.method);
  v("optimizer", s.optimizer);
  v("p", s.p);
  v("lr", s.lr);
  v("normEpsilon", s.normEpsilon);
  v("headSteps", s.headSteps);
  v("steps", s.steps);
  v("snapshotsPerDecade", s.snapshotsPerDecade);
  v("seed", s.seed);
  v("certifyTol", s.certifyTol);
  v("corrTarget", s.corrTarget);
}

struct RealLadderRunResult {
  int id = 0;
  int steps = 0;
  std::string stopReason;
  // Along log-spaced k: corr(W(k), Frobenius SVM), corr(W(k), l_p SVM) (MD only), D_p(SVM of the
  // run's norm, W(k)) normalized as SPEC 4, ||W(k)||_F and ||v(k)||.
  std::vector<int> snapshotSteps;
  std::vector<double> corrFro, corrLp, divergence, normW, normV;
  // The end, on all n training images.
  double trainAccuracy = 0, loss = 0;
  double minSoftmax = 0, meanSoftmax = 0;  // of the selected (attended) patches
  double gammaOptimal = 0;                 // share of gamma-optimal selections
  int noPositiveToken = 0;                 // images with max_t gamma_it <= 0 under the final head
  int selectionChanges = 0;  // images whose selection changed over the last decade of steps
  std::string verdict;       // globally_optimal, locally_optimal, neither, infeasible, undecided
  std::string status, statusLp;  // solver statuses (Frobenius; l_p for MD)
  bool feasible = false;         // the Frobenius SVM is optimal and certified
  bool feasibleLp = false;       // the l_p SVM likewise (MD)
  double gap = 0, maxViolation = 0, gapLp = 0, maxViolationLp = 0;
  double corr = 0;  // corr with the SVM of the run's norm at the end (NaN without one)
  double divergenceFinal = 0;
  double headGrowth = 0, weightGrowth = 0;  // ||v|| and ||W|| ratio over the last decade
  // A degenerate run: training accuracy at chance (<= 0.5 on the balanced set; e.g. the loss stuck
  // at ln 2, the head's output about 0 on every selected patch). Its W may converge in direction to
  // the Att-SVM of a selection that does not classify: that is a failure of its own, never counted
  // as the limit reached.
  bool degenerate = false;
  bool limitReached = false;  // corr >= corrTarget and not degenerate
  // What ended the training: "budget" (the planned steps) or the trainer's stop reason.
  std::string endedBy;
  // When the limit is not reached: the failing conditions, comma-separated, among degenerate,
  // infeasible, undecided, no-positive-token, head-faster, selection-moving, not-separated; "slow"
  // when none of them holds (the conditions of the theory hold but the budget ended first).
  std::string failing;
};

template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealLadderRunResult> {
  v("id", s.id);
  v("steps", s.steps);
  v("stopReason", s.stopReason);
  v("snapshotSteps", s.snapshotSteps);
  v("corrFro", s.corrFro);
  v("corrLp", s.corrLp);
  v("divergence", s.divergence);
  v("normW", s.normW);
  v("normV", s.normV);
  v("trainAccuracy", s.trainAccuracy);
  v("loss", s.loss);
  v("minSoftmax", s.minSoftmax);
  v("meanSoftmax", s.meanSoftmax);
  v("gammaOptimal", s.gammaOptimal);
  v("noPositiveToken", s.noPositiveToken);
  v("selectionChanges", s.selectionChanges);
  v("verdict", s.verdict);
  v("status", s.status);
  v("statusLp", s.statusLp);
  v("feasible", s.feasible);
  v("feasibleLp", s.feasibleLp);
  v("gap", s.gap);
  v("maxViolation", s.maxViolation);
  v("gapLp", s.gapLp);
  v("maxViolationLp", s.maxViolationLp);
  v("corr", s.corr);
  v("divergenceFinal", s.divergenceFinal);
  v("headGrowth", s.headGrowth);
  v("weightGrowth", s.weightGrowth);
  v("degenerate", s.degenerate);
  v("limitReached", s.limitReached);
  v("endedBy", s.endedBy);
  v("failing", s.failing);
}

// One run: the frozen head's pretraining (if any) at construction, then advance() in chunks of
// steps, then analyze() (the solves; one chunk), then result().
class RealLadderRunner {
 public:
  // images: the training file (or the two classes' pools in file order).
  RealLadderRunner(const ImageSet& images, const RealLadderRun& run);
  bool advance(int steps);  // true when the training is done
  bool trained() const;
  int step() const;
  void analyze();  // the SVMs and the correlations along k (needs trained())
  bool done() const;
  RealLadderRunResult result() const;  // after analyze()
  // The analysis' data: the n training images with the final head (for the certificate tests),
  // the final selection, the SVMs (empty when there is none).
  const Dataset& data() const;
  const std::vector<int>& selection() const;
  const MarginSolution& svmFro() const;
  const MarginSolution& svmLp() const;
  const Mat& W() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

RealLadderRunResult runRealLadderRun(const ImageSet& images, const RealLadderRun& run);

// Per (head, method, n) over the seeds.
struct RealLadderRow {
  std::string head, method;
  int n = 0, steps = 0, seeds = 0;
  int feasible = 0, infeasible = 0, undecided = 0;  // Frobenius SVM of the reached selection
  int feasibleLp = 0;
  int limitReached = 0;
  double corrMean = 0, corrStd = 0, corrMin = 0;  // with the run's SVM, at the end
  double corrFroMean = 0, divergenceMean = 0;
  std::vector<int> snapshotSteps;
  std::vector<double> corrAlongK;  // mean over the seeds with an SVM, per snapshot
  std::vector<double> divergenceAlongK;
  double minSoftmax = 0, meanSoftmax = 0, trainAccuracy = 0, gammaOptimal = 0;  // means
  int globallyOptimal = 0, locallyOptimal = 0, neither = 0, verdictInfeasible = 0,
      verdictUndecided = 0;
  // Runs in which each condition fails (a run may fail several).
  int failDegenerate = 0;  // training accuracy at chance (a failure of its own)
  int failInfeasible = 0, failUndecided = 0, failNoPositiveToken = 0, failHeadFaster = 0,
      failSelectionMoving = 0, failNotSeparated = 0, failSlow = 0;
  int endedByBudget = 0;  // runs that ended at the step budget (the others: the trainer's stop)
};

template <class Visitor>
void visitFields(const RealLadderRow& r, Visitor& v) {
  v("head", r.head);
  v("method", r.method);
  v("n", r.n);
  v("steps", r.steps);
  v("seeds", r.seeds);
  v("feasible", r.feasible);
  v("infeasible", r.infeasible);
  v("undecided", r.undecided);
  v("feasibleLp", r.feasibleLp);
  v("limitReached", r.limitReached);
  v("corrMean", r.corrMean);
  v("corrStd", r.corrStd);
  v("corrMin", r.corrMin);
  v("corrFroMean", r.corrFroMean);
  v("divergenceMean", r.divergenceMean);
  v("snapshotSteps", r.snapshotSteps);
  v("corrAlongK", r.corrAlongK);
  v("divergenceAlongK", r.divergenceAlongK);
  v("minSoftmax", r.minSoftmax);
  v("meanSoftmax", r.meanSoftmax);
  v("trainAccuracy", r.trainAccuracy);
  v("gammaOptimal", r.gammaOptimal);
  v("globallyOptimal", r.globallyOptimal);
  v("locallyOptimal", r.locallyOptimal);
  v("neither", r.neither);
  v("verdictInfeasible", r.verdictInfeasible);
  v("verdictUndecided", r.verdictUndecided);
  v("failDegenerate", r.failDegenerate);
  v("failInfeasible", r.failInfeasible);
  v("failUndecided", r.failUndecided);
  v("failNoPositiveToken", r.failNoPositiveToken);
  v("failHeadFaster", r.failHeadFaster);
  v("failSelectionMoving", r.failSelectionMoving);
  v("failNotSeparated", r.failNotSeparated);
  v("failSlow", r.failSlow);
  v("endedByBudget", r.endedByBudget);
}

// The largest n of a (head, method) up to which every seed of every n reached the limit (0: none;
// a degenerate run never counts as reaching it). The first ladder took the largest n at which every
// seed did, which named n = 256 for a frozen l_1.1 row of degenerate runs. Then the first n where
// some seed misses the limit (0: none misses) and its failing conditions, runs per condition
// ("degenerate 2, selection moving 3, ...").
struct RealLadderSummary {
  std::string head, method;
  int largestN = 0;
  int firstFailingN = 0;
  std::string failingBeyond;
};
template <class Visitor>
void visitFields(const RealLadderSummary& s, Visitor& v) {
  v("head", s.head);
  v("method", s.method);
  v("largestN", s.largestN);
  v("firstFailingN", s.firstFailingN);
  v("failingBeyond", s.failingBeyond);
}

// The plan (every run known up front, largest n first so that the longest solves start early)
// and the aggregation; results are submitted in any order.
class RealLadder {
 public:
  explicit RealLadder(const RealLadderSettings& settings);
  const RealLadderSettings& settings() const;
  std::vector<RealLadderRun> take(int count);
  void submit(const RealLadderRunResult& result);
  bool done() const;
  int submitted() const;
  int plannedRuns() const;
  std::vector<RealLadderRow> table() const;  // InputError unless done()
  std::vector<RealLadderSummary> summary() const;
  const std::vector<RealLadderRun>& runs() const;
  const std::vector<RealLadderRunResult>& results() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace attnsvm
