// One real-images training run (SPEC section 6): the attention-pooling cross-attention model with a
// jointly trained linear head on the patch tokens of attnsvm/data/real_images.hpp, its settings,
// the measurements at an iteration and the SVM analysis at the end (core/src/experiments/
// real_run.cpp). The CLI's `experiment real-images` and the wasm's real-images run share it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/data/dataset.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

struct RealImagesSettings {
  int classA = 7, classB = 9;  // Sneaker (+1) vs Ankle boot (-1)
  int nTrain = 1000, nTest = 1000;
  // The split's seed (binarySubset's, for the training and the test images alike; the run itself
  // does not use it). The CLI's runs of a method take seeds --seed-base + k.
  std::uint64_t seed = 0;
  int patch = 4;
  // Token dimension d and the embedding's seed (SPEC 6.5, embedTokens): 18 = the patches as they
  // are.
  int dim = 18;
  std::uint64_t embedSeed = 0;
  Optimizer optimizer = Optimizer::NMD;  // W and v: l_p MD (normalized by the dual norm), or Adam
  double p = 2.0;                        // mirror-descent p (p = 2: GD); ignored by Adam
  double lr = 0.1;                       // W and v
  int iters = 1000;
  // The first nSvm training images get the SVM analysis at the end. 500 (24 000 constraints, d^2 =
  // 324 unknowns): natively 0.1-0.4 s CPU for the l_1.1, Frobenius and l_3 solvers after 1000
  // iterations (nSvm = 1000 takes 0.25-2 s, the l_3 solver the slowest); see docs/BENCHMARKS.md
  // "Real images".
  int nSvm = 500;
  int histogramBins = 20;  // |W_jk| / max |W_jk| in [0, 1]
};

// The field list of RealImagesSettings (the visitor protocol of attnsvm/vocab/fields.hpp; the wasm
// run's request `settings` is read through it, the CLI's experiment JSON written through it):
// classA, classB, nTrain, nTest, seed, patch, dim, embedSeed, optimizer, p (written unless Adam,
// which ignores it), lr, iters, nSvm, histogramBins.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealImagesSettings> {
  v("classA", s.classA);
  v("classB", s.classB);
  v("nTrain", s.nTrain);
  v("nTest", s.nTest);
  v("seed", s.seed);
  v("patch", s.patch);
  v("dim", s.dim);
  v("embedSeed", s.embedSeed);
  v("optimizer", s.optimizer);
  v("p", s.p, s.optimizer != Optimizer::Adam);
  v("lr", s.lr);
  v("iters", s.iters);
  v("nSvm", s.nSvm);
  v("histogramBins", s.histogramBins);
}

// Measurements at one iteration (SPEC section 6 "Measured").
struct RealImagesFrame {
  int iteration = 0;
  double trainLoss = 0, testLoss = 0, trainAccuracy = 0,
         testAccuracy = 0;                         // accuracy: sign(f_i) = Y_i
  double trainMaxSoftmax = 0, testMaxSoftmax = 0;  // mean over images of max_t s_it
  double sparsity = 0;            // share of |W_jk| < 0.01 max |W_jk| (1 when W = 0)
  std::vector<double> histogram;  // histogramBins counts of |W_jk| / max|W_jk|
};

// The field list of RealImagesFrame (a result: written only, by the wasm run's frames and the CLI's
// runs alike): iteration, trainLoss, testLoss, trainAccuracy, testAccuracy, trainMaxSoftmax,
// testMaxSoftmax, sparsity, histogram. Its numbers (the doubles) are the CLI's series, in this
// order.
template <class Visitor>
void visitFields(const RealImagesFrame& f, Visitor& v) {
  v("iteration", f.iteration);
  v("trainLoss", f.trainLoss);
  v("testLoss", f.testLoss);
  v("trainAccuracy", f.trainAccuracy);
  v("testAccuracy", f.testAccuracy);
  v("trainMaxSoftmax", f.trainMaxSoftmax);
  v("testMaxSoftmax", f.testMaxSoftmax);
  v("sparsity", f.sparsity);
  v("histogram", f.histogram);
}

// Analysis on the first nSvm training images with the final v (SPEC section 4): the selection
// (argmax_t s_it), its verdict, the l_p Att-SVM of that selection (p of the run; 2 for Adam) and
// the correlation / direction divergence of W with it where it is feasible.
struct RealImagesAnalysis {
  int nSvm = 0;
  std::vector<int> selection;
  std::string verdict;  // as verdictName (selection.hpp / experiment.hpp)
  bool feasible = false;
  std::string status;               // solver status, or why there is no SVM
  double corr = 0, divergence = 0;  // NaN when infeasible
  Mat svm;                          // d x d, empty when infeasible
};

// The field list of RealImagesAnalysis (a result, written only): nSvm, selection, verdict,
// feasible, status, corr, divergence, svm (written when there is one).
template <class Visitor>
void visitFields(const RealImagesAnalysis& a, Visitor& v) {
  v("nSvm", a.nSvm);
  v("selection", a.selection);
  v("verdict", a.verdict);
  v("feasible", a.feasible);
  v("status", a.status);
  v("corr", a.corr);
  v("divergence", a.divergence);
  v("svm", a.svm, a.svm.size() > 0);
}

// One training run: owns the train/test datasets and a Trainer (cross attention, W, linear head,
// logistic loss, W0 = 0, v0 = 0, trainHead with the same optimizer, lr and p as W).
class RealImagesRun {
 public:
  RealImagesRun(Dataset train, Dataset test, const RealImagesSettings& settings);
  int step(int k);  // as Trainer::step
  int iteration() const;
  const std::string& stopReason() const;   // empty while the run goes on (as Trainer::stopReason)
  RealImagesFrame measure() const;         // at the current parameters
  const Params& params() const;            // W (d x d) and v (d)
  Mat testSoftmax() const;                 // nTest x T, s_it of the test images
  std::vector<int> testSelection() const;  // argmax_t s_it per test image
  RealImagesAnalysis analyze() const;      // on the first nSvm training images
  const RealImagesSettings& settings() const;
  const Dataset& train() const;
  const Dataset& test() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace attnsvm
