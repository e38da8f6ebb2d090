// Real data (SPEC section 6): Fashion-MNIST images as sequences of patch tokens, the
// attention-pooling cross-attention model with a jointly trained linear head, and the measurements
// of a training run. The same functions run natively (CLI `experiment real-images`) and in the
// browser (wasm), so the split, the tokens and every number agree between them.
//
// INTERFACE FIRST: declared by the lead so that the core and the web work can proceed in parallel;
// the implementation lives in core/src/real_*.cpp. Change it only together with its users.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/data/dataset.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

// Images of one IDX pair: unsigned bytes, image k occupies pixels[k*rows*cols, (k+1)*rows*cols)
// row-major.
struct ImageSet {
  int rows = 0, cols = 0;
  std::vector<std::uint8_t> pixels;
  std::vector<int> labels;  // one per image, 0..9 for Fashion-MNIST
  int count() const { return static_cast<int>(labels.size()); }
};

// Parses IDX bytes already in memory (magic 0x00000803 images / 0x00000801 labels, big-endian
// dimensions, then unsigned bytes). `what` names the source in errors. InputError for a wrong
// magic, a truncated payload or mismatched counts, naming `what` and the byte offset.
ImageSet parseIdx(const std::vector<std::uint8_t>& imageBytes,
                  const std::vector<std::uint8_t>& labelBytes,
                  const std::string& imagesWhat = "images",
                  const std::string& labelsWhat = "labels");
// Reads a gzipped (zlib; plain IDX also accepted) image file and its label file. InputError naming
// the file (and the byte offset for a truncated or corrupt one); a missing file of the Debian
// package names the apt-get line (`apt-get install dataset-fashion-mnist`).
ImageSet readIdxFiles(const std::string& imagesPath, const std::string& labelsPath);
// `split` is "train" or "t10k"; `directory` defaults to $ATTNSVM_FASHION_MNIST or
// /usr/share/datasets/fashion-mnist.
ImageSet readFashionMnist(const std::string& split, const std::string& directory = "");
// The ten class names, index = label (T-shirt/top, Trouser, ..., Ankle boot).
const std::vector<std::string>& fashionClassNames();

// The seeded split draws from the first kSplitPool images of each class (or the first `count`
// when count > kSplitPool), so that a browser holding that pool (the site's asset,
// scripts/make-real-images-asset.mjs) makes the same split as the native CLI for every seed at
// the page's sizes (count <= 1000).
constexpr int kSplitPool = 1000;

// Binary task: walks the images in file order and keeps an image of class A while fewer than
// count/2 of A are kept, one of class B likewise (so the result keeps file order, classes
// interleaved as in the file). InputError when the classes are equal or out of range, count is odd
// or < 2, or the file has fewer than count/2 images of a class. `seed` is what a seed of the
// experiment changes (the run itself is deterministic: W0 = 0, v0 = 0, full batch): seed 0 takes
// the first count/2 of each class (SPEC section 6); seed k > 0 takes count/2 images of each class
// at random from its pool, the first m = min(images of the class, max(kSplitPool, count)) in file
// order: the first count/2 of the pool after a Fisher-Yates shuffle of its file indices with
// Rng(k) (class A's pool first, then class B's, from one stream; swap index j = nextU64() % (i+1)
// for i = m-1 down to 1). The kept images are returned in file order in both cases.
ImageSet binarySubset(const ImageSet& all, int classA, int classB, int count,
                      std::uint64_t seed = 0);

// The file indices (in file order) of binarySubset's images, and of a validation set drawn from the
// same pool after them (SPEC 6.1): per class, the images count/2 .. count/2 + validationCount/2 - 1
// of the (shuffled, for seed > 0; file-ordered, for seed 0) pool, so the validation images are
// disjoint from the training images and binarySubset(all, A, B, count, seed) is
// imageSubset(all, splitIndices(all, A, B, count, v, seed).train) for every v. InputError as
// binarySubset, and when count/2 + validationCount/2 exceeds the pool a seeded split draws from.
struct SplitIndices {
  std::vector<int> train, validation;
};
SplitIndices splitIndices(const ImageSet& all, int classA, int classB, int count,
                          int validationCount, std::uint64_t seed);
// The images at `indices` (file indices of `all`), in that order.
ImageSet imageSubset(const ImageSet& all, const std::vector<int>& indices);

// Tokens of SPEC section 6: the image cut into a g x g grid of patch x patch patches (g =
// rows/patch), read row by row (T = g^2); token = the patch's pixels / 255 (row-major) followed by
// its position (2 row/(g-1) - 1, 2 col/(g-1) - 1) in [-1, 1]^2, so d = patch^2 + 2 (T = 49, d = 18
// for 28 x 28, patch 4). Query z_i = mean token of image i (attention pooling); Y_i = +1 for
// classA, -1 for classB (other labels: InputError); v = 0 (trained jointly); no alpha.
Dataset patchDataset(const ImageSet& images, int classA, int classB, int patch = 4);
// Pixel (r, c) of image k lands in token t = (r/patch)*g + c/patch, coordinate (r%patch)*patch +
// c%patch.

// Tokens of a chosen dimension d (SPEC 6.5): from patchDataset's tokens u (d0 = patch^2 + 2
// numbers: pixels, then position), x = u when dim == d0 (today's tokens, unchanged bits), otherwise
// random ReLU features x = sqrt(2/dim) relu(R^T u + b), R (d0 x dim) and b (dim) drawn once from
// PortableGaussian(seed) (R row by row, entries N(0, 1); then b, entries N(0, 1/4), i.e. 0.5 times
// a standard draw): the same bits natively and in wasm (the polar method with the portable log;
// sums over the d0 inputs in order, then + b_k; sqrt is correctly rounded). The query stays the
// mean of the embedded tokens (z_i = (1/T) sum_t x_it, summed in order): for dim > d0 every
// feature mixes pixels and position, so the query has no separate position part (for d0 = dim its
// last two coordinates, the mean position, are 0). The labels and the head v0 = 0 are kept.
// InputError when dim is not in kTokenDims.
Dataset embedTokens(const Dataset& patches, int dim, std::uint64_t seed = 0);
// The dimensions the product offers (SPEC 6.5): 18 (the patches themselves) and random features.
inline constexpr int kTokenDims[] = {18, 32, 64, 128, 256, 512};

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
