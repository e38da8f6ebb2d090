// The fair optimizer study on real images (SPEC 6.1): per task (two Fashion-MNIST classes), per
// setting (minibatch or full batch, small random or zero start) and per method (plain `md` or
// normalized `nmd` l_p mirror descent for p in {1.1, 2, 3}, Adam), a log-spaced grid of steps run
// over seeds; the step with the best mean validation accuracy is chosen (the grid is extended when
// the choice sits at an edge; the test set is never used to choose); at that step the test
// accuracy at the best-validation epoch and at the end, the test loss, the sparsity of W, the mean
// max softmax and the gamma-optimal share (SPEC 6.3) are reported as mean +- std over the seeds,
// with the paired difference to GD (md, p = 2) of the same seeds and setting and its 95% t
// interval. Seeds vary the split (train and validation drawn from the training file's pool, test
// from the test file), the start and the minibatch order.
//
// Structure (so that the browser runs the same study in a worker pool): a plan of independent runs
// (RealStudyRun: everything a run needs, a field list), the run (RealStudyRunner: advances in
// chunks of epochs, the same bits natively and in wasm), and the planner (RealStudy: hands out
// runs, takes their results in any order, chooses steps, extends grids, aggregates). The CLI's
// threads and the page's workers only schedule runs.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/train/real_train.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

struct RealStudySettings {
  std::string tasks = "7v9,6v0";  // classA v classB, comma-separated (A is Y = +1)
  int nTrain = 1000, nValidation = 500, nTest = 1000;  // images (half per class)
  int dim = 18;                 // token dimension (SPEC 6.5, embedTokens); 18: the patches
  std::uint64_t embedSeed = 0;  // the random feature map's seed (the same map for every run)
  // The methods of the main setting (minibatch, small random start): md:p, nmd:p, adam.
  std::string methods = "md:1.1,md:2,md:3,nmd:1.1,nmd:2,nmd:3,adam";
  // design "main": the main setting for `methods` plus two one-factor ablations for
  // `ablationMethods` (full batch with the random start; minibatch from zero); "full": every
  // method of `methods` in all four settings; "main-only": the main setting only.
  std::string design = "main";
  std::string ablationMethods = "md:1.1,md:2,md:3,nmd:1.1,nmd:2,nmd:3,adam";
  int batch = 100;          // the minibatch size of the minibatch settings
  double initScale = 0.01;  // the random start's sigma
  // The budget of a run, in minibatch epochs: a full-batch run (one step per epoch) gets
  // epochs x ceil(nTrain / batch) epochs, the same number of updates (and evalEvery likewise).
  int epochs = 200;
  double stopAccuracy = 0.995;  // a run stops when an epoch's training accuracy reaches this
  int evalEvery = 1;            // validation every k epochs (and at the last)
  int seeds = 10;               // seeds at the chosen step
  int tuneSeeds = 10;           // the first tuneSeeds of them choose the step (<= seeds)
  std::uint64_t seedBase = 1;   // seeds seedBase .. seedBase + seeds - 1
  int gridPoints = 5;  // initial grid: gridPoints steps, ratio gridRatio, around the center
  double gridRatio = 3.1622776601683795;  // sqrt(10): two points per decade
  int maxExtensions = 3;                  // per grid and direction
  // Grid centers, "method=step" comma-separated, overriding the defaults (md:1.1=1, md:2=1,
  // md:3=1, nmd:1.1=0.01, nmd:2=0.1, nmd:3=0.03, adam=0.01; another p: md 1, nmd 0.03).
  std::string gridCenters;
};

// The field list of RealStudySettings: tasks, nTrain, nValidation, nTest, dim, embedSeed, methods,
// design, ablationMethods, batch, initScale, epochs, stopAccuracy, evalEvery, seeds, tuneSeeds,
// seedBase, gridPoints, gridRatio, maxExtensions, gridCenters.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealStudySettings> {
  v("tasks", s.tasks);
  v("nTrain", s.nTrain);
  v("nValidation", s.nValidation);
  v("nTest", s.nTest);
  v("dim", s.dim);
  v("embedSeed", s.embedSeed);
  v("methods", s.methods);
  v("design", s.design);
  v("ablationMethods", s.ablationMethods);
  v("batch", s.batch);
  v("initScale", s.initScale);
  v("epochs", s.epochs);
  v("stopAccuracy", s.stopAccuracy);
  v("evalEvery", s.evalEvery);
  v("seeds", s.seeds);
  v("tuneSeeds", s.tuneSeeds);
  v("seedBase", s.seedBase);
  v("gridPoints", s.gridPoints);
  v("gridRatio", s.gridRatio);
  v("maxExtensions", s.maxExtensions);
  v("gridCenters", s.gridCenters, !s.gridCenters.empty());
}

// One run of the plan: self-contained (a worker needs only this and the two classes' images).
struct RealStudyRun {
  int id = 0;
  int classA = 7, classB = 9;
  int nTrain = 1000, nValidation = 500, nTest = 1000;
  int dim = 18;
  std::uint64_t embedSeed = 0;
  std::string setting;      // "mini-random", "full-random", "mini-zero", "full-zero"
  std::string method;       // "md:1.1", "nmd:2", "adam"
  RealTrainSettings train;  // optimizer, p, lr, batch, initScale, seed (the run's seed)
  int epochs = 200;
  double stopAccuracy = 0.995;
  int evalEvery = 1;
};

// Its field list: id, classA, classB, nTrain, nValidation, nTest, dim, embedSeed, setting, method,
// train (the RealTrainSettings, nested), epochs, stopAccuracy, evalEvery.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealStudyRun> {
  v("id", s.id);
  v("classA", s.classA);
  v("classB", s.classB);
  v("nTrain", s.nTrain);
  v("nValidation", s.nValidation);
  v("nTest", s.nTest);
  v("dim", s.dim);
  v("embedSeed", s.embedSeed);
  v("setting", s.setting);
  v("method", s.method);
  v.object("train", [&](auto& sub) { visitFields(s.train, sub); });
  v("epochs", s.epochs);
  v("stopAccuracy", s.stopAccuracy);
  v("evalEvery", s.evalEvery);
}

// What a run measures (no timings: the same bits natively and in wasm).
struct RealStudyRunResult {
  int id = 0;
  int epochs = 0;                 // epochs run
  bool reachedStop = false;       // an epoch's training accuracy reached stopAccuracy
  std::string stopReason;         // non-empty when the run diverged (non-finite)
  double epochTrainAccuracy = 0;  // of the last epoch (each image at its step's parameters)
  double maxEpochTrainAccuracy = 0;
  double trainAccuracy = 0;  // exact, at the end
  int bestEpoch = 0;         // the epoch of the best validation accuracy (first on ties)
  double bestValidationAccuracy = 0, finalValidationAccuracy = 0;
  // The test set at the best-validation epoch's parameters and at the end.
  double testAccuracyBest = 0, testLossBest = 0, testAccuracyFinal = 0, testLossFinal = 0;
  double sparsityBest = 0, sparsityFinal = 0;          // share of |W_jk| < 1% max
  double maxSoftmaxBest = 0, maxSoftmaxFinal = 0;      // mean over test images of max_t s_it
  double gammaOptimalBest = 0, gammaOptimalFinal = 0;  // SPEC 6.3, over the test images
};

// Its field list: id, epochs, reachedStop, stopReason, epochTrainAccuracy, maxEpochTrainAccuracy,
// trainAccuracy, bestEpoch, bestValidationAccuracy, finalValidationAccuracy, testAccuracyBest,
// testLossBest, testAccuracyFinal, testLossFinal, sparsityBest, sparsityFinal, maxSoftmaxBest,
// maxSoftmaxFinal, gammaOptimalBest, gammaOptimalFinal. (Read too: the page's workers send results
// to the planner.)
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealStudyRunResult> {
  v("id", s.id);
  v("epochs", s.epochs);
  v("reachedStop", s.reachedStop);
  v("stopReason", s.stopReason);
  v("epochTrainAccuracy", s.epochTrainAccuracy);
  v("maxEpochTrainAccuracy", s.maxEpochTrainAccuracy);
  v("trainAccuracy", s.trainAccuracy);
  v("bestEpoch", s.bestEpoch);
  v("bestValidationAccuracy", s.bestValidationAccuracy);
  v("finalValidationAccuracy", s.finalValidationAccuracy);
  v("testAccuracyBest", s.testAccuracyBest);
  v("testLossBest", s.testLossBest);
  v("testAccuracyFinal", s.testAccuracyFinal);
  v("testLossFinal", s.testLossFinal);
  v("sparsityBest", s.sparsityBest);
  v("sparsityFinal", s.sparsityFinal);
  v("maxSoftmaxBest", s.maxSoftmaxBest);
  v("maxSoftmaxFinal", s.maxSoftmaxFinal);
  v("gammaOptimalBest", s.gammaOptimalBest);
  v("gammaOptimalFinal", s.gammaOptimalFinal);
}

// The images a run needs: the training and the test file (or, in the browser, the two classes'
// pools in file order: the same split for every seed, kSplitPool).
struct RealStudyImages {
  ImageSet train, test;
};

// One run, advanced in chunks of epochs. The split: train and validation from
// splitIndices(train file, A, B, nTrain, nValidation, seed), test binarySubset(test file, A, B,
// nTest, seed); the trainer RealTrainer(run.train) with the run's seed for the start and the
// minibatch order.
class RealStudyRunner {
 public:
  RealStudyRunner(const RealStudyImages& images, const RealStudyRun& run);
  // Up to `epochs` more epochs; true when the run is done (budget, stop accuracy, divergence).
  bool advance(int epochs);
  bool done() const;
  int epoch() const;
  const RealStudyRun& run() const;
  RealStudyRunResult result() const;  // when done (InputError before)
  // The file indices of the run's training and validation images (the split's disjointness is
  // tested by these).
  const SplitIndices& split() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// A run to completion.
RealStudyRunResult runRealStudyRun(const RealStudyImages& images, const RealStudyRun& run);

// Mean, standard deviation (n - 1) and count of the finite values.
struct RealStat {
  double mean = 0, std = 0;
  int n = 0;
};
template <class Visitor>
void visitFields(const RealStat& s, Visitor& v) {
  v("mean", s.mean);
  v("std", s.std);
  v("n", s.n);
}
// A paired difference (method - reference, seed by seed): mean, 95% t interval [lo, hi], n.
struct RealDifference {
  double mean = 0, lo = 0, hi = 0;
  int n = 0;
};
template <class Visitor>
void visitFields(const RealDifference& s, Visitor& v) {
  v("mean", s.mean);
  v("lo", s.lo);
  v("hi", s.hi);
  v("n", s.n);
}

// One row of the study's table: a (task, setting, method) with its grid, chosen step and the
// measurements over the seeds at that step.
struct RealStudyRow {
  std::string task;  // "7v9"
  int classA = 0, classB = 0;
  std::string setting, method;
  std::vector<double> grid;              // every step tried, ascending
  std::vector<double> gridValidation;    // mean best validation accuracy per step (tuning seeds)
  int extendedDown = 0, extendedUp = 0;  // grid extensions below and above the initial grid
  // The choice is at an edge of the grid tried: after maxExtensions, or tied there with inner
  // steps (no extension then: e.g. a flat grid where no step learns within the budget). Reported.
  bool atEdge = false;
  double lr = 0;  // the chosen step
  std::vector<std::uint64_t> seedList;
  RealStat testAccuracyBest, testAccuracyFinal, testLossBest, testLossFinal;
  RealStat sparsity, maxSoftmax, gammaOptimal;  // at the best-validation epoch
  RealStat sparsityFinal, maxSoftmaxFinal, gammaOptimalFinal;
  RealStat validationAccuracy, trainAccuracy, epochs, bestEpoch;
  int reachedStop = 0, diverged = 0;
  // Paired with GD (md:2) of the same task, setting and seeds; for nmd also with nmd:2 (NGD): test
  // accuracy at the best-validation epoch and at the end; sparsity, max softmax and gamma-optimal
  // share at the best-validation epoch.
  RealDifference vsGdBest, vsGdFinal, vsNgdBest, vsNgdFinal;
  RealDifference vsGdSparsity, vsGdMaxSoftmax, vsGdGammaOptimal;
};

template <class Visitor>
void visitFields(const RealStudyRow& r, Visitor& v) {
  v("task", r.task);
  v("classA", r.classA);
  v("classB", r.classB);
  v("setting", r.setting);
  v("method", r.method);
  v("grid", r.grid);
  v("gridValidation", r.gridValidation);
  v("extendedDown", r.extendedDown);
  v("extendedUp", r.extendedUp);
  v("atEdge", r.atEdge);
  v("lr", r.lr);
  std::vector<int> seeds(r.seedList.begin(), r.seedList.end());
  v("seeds", std::as_const(seeds));
  auto stat = [&](const char* name, const RealStat& s) {
    v.object(name, [&](auto& sub) { visitFields(s, sub); });
  };
  auto diff = [&](const char* name, const RealDifference& d, bool written) {
    v.object(
        name, [&](auto& sub) { visitFields(d, sub); }, written);
  };
  stat("testAccuracyBest", r.testAccuracyBest);
  stat("testAccuracyFinal", r.testAccuracyFinal);
  stat("testLossBest", r.testLossBest);
  stat("testLossFinal", r.testLossFinal);
  stat("sparsity", r.sparsity);
  stat("maxSoftmax", r.maxSoftmax);
  stat("gammaOptimal", r.gammaOptimal);
  stat("sparsityFinal", r.sparsityFinal);
  stat("maxSoftmaxFinal", r.maxSoftmaxFinal);
  stat("gammaOptimalFinal", r.gammaOptimalFinal);
  stat("validationAccuracy", r.validationAccuracy);
  stat("trainAccuracy", r.trainAccuracy);
  stat("epochs", r.epochs);
  stat("bestEpoch", r.bestEpoch);
  v("reachedStop", r.reachedStop);
  v("diverged", r.diverged);
  diff("vsGdBest", r.vsGdBest, r.vsGdBest.n > 0);
  diff("vsGdFinal", r.vsGdFinal, r.vsGdFinal.n > 0);
  diff("vsNgdBest", r.vsNgdBest, r.vsNgdBest.n > 0);
  diff("vsNgdFinal", r.vsNgdFinal, r.vsNgdFinal.n > 0);
  diff("vsGdSparsity", r.vsGdSparsity, r.vsGdSparsity.n > 0);
  diff("vsGdMaxSoftmax", r.vsGdMaxSoftmax, r.vsGdMaxSoftmax.n > 0);
  diff("vsGdGammaOptimal", r.vsGdGammaOptimal, r.vsGdGammaOptimal.n > 0);
}

// The planner. Runs are handed out by take() in a fixed order (configuration by configuration,
// step by step, seed by seed) and their results submitted in any order; a configuration's choice
// is made when all its tuning runs are in, so the plan and the table do not depend on the order in
// which results arrive (threads, workers).
class RealStudy {
 public:
  explicit RealStudy(const RealStudySettings& settings);
  const RealStudySettings& settings() const;
  // Up to `count` runs ready to start (each handed out once). Empty while the runs in flight
  // decide what comes next, and at the end.
  std::vector<RealStudyRun> take(int count);
  void submit(const RealStudyRunResult& result);  // InputError for an unknown or repeated id
  bool done() const;
  int submitted() const;
  int inFlight() const;
  // Runs planned so far plus those still certain to come (the final seeds of configurations not
  // yet chosen); grows by tuneSeeds with each grid extension.
  int plannedRuns() const;
  std::vector<RealStudyRow> table() const;  // InputError unless done()
  // Every run planned, and the results received (same order: by id; id -1 where none yet).
  const std::vector<RealStudyRun>& runs() const;
  const std::vector<RealStudyRunResult>& results() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// The 97.5% quantile of Student's t with df degrees of freedom (the 95% two-sided interval),
// computed with the portable functions (the same bits everywhere); df >= 1.
double studentT975(int df);

}  // namespace attnsvm
