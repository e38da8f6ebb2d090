// Real data (SPEC section 6): Fashion-MNIST images read from their IDX files, the seeded binary
// splits, and the images as sequences of patch tokens (core/src/data/real_idx.cpp,
// real_tokens.cpp). The same functions run natively (CLI `experiment real-images`) and in the
// browser (wasm), so the split and the tokens agree between them. The training run on them and its
// measurements: attnsvm/experiments/real_run.hpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/data/dataset.hpp"

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

}  // namespace attnsvm
