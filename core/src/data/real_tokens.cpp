// From images to the attention model's data (SPEC section 6): the binary task between two classes
// (seeded choice of images, file order kept) and the patch tokens with their positions.
#include <algorithm>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/data/real_images.hpp"

namespace attnsvm {

const std::vector<std::string>& fashionClassNames() {
  static const std::vector<std::string> names = {"T-shirt/top", "Trouser",   "Pullover", "Dress",
                                                 "Coat",        "Sandal",    "Shirt",    "Sneaker",
                                                 "Bag",         "Ankle boot"};
  return names;
}

namespace {

void checkClass(int c, const char* what) {
  if (c < 0 || c > 9)
    throw InputError(std::string(what) + " = " + std::to_string(c) +
                     " is out of range 0..9 (Fashion-MNIST labels)");
}

std::string className(int c) {
  return std::to_string(c) + " (" + fashionClassNames()[static_cast<std::size_t>(c)] + ")";
}

// Fisher-Yates with the project's Rng: for i = m-1 down to 1 swap i with nextU64() % (i+1). The
// modulo bias (< m / 2^64) is irrelevant here and keeps the rule one line for the browser.
void shuffle(std::vector<int>& v, Rng& rng) {
  for (std::size_t i = v.size(); i-- > 1;) {
    const std::size_t j = static_cast<std::size_t>(rng.nextU64() % (i + 1));
    std::swap(v[i], v[j]);
  }
}

}  // namespace

SplitIndices splitIndices(const ImageSet& all, int classA, int classB, int count,
                          int validationCount, std::uint64_t seed) {
  checkClass(classA, "class A");
  checkClass(classB, "class B");
  if (classA == classB)
    throw InputError("classes A and B are both " + className(classA) +
                     ": pick two different classes");
  if (count < 2 || count % 2 != 0)
    throw InputError("image count " + std::to_string(count) +
                     ": must be even and >= 2 (half of each class)");
  if (validationCount < 0 || validationCount % 2 != 0)
    throw InputError("validation count " + std::to_string(validationCount) +
                     ": must be even and >= 0 (half of each class)");
  const int half = count / 2, valHalf = validationCount / 2;
  const std::size_t pixelsPer = static_cast<std::size_t>(all.rows) * all.cols;
  if (all.pixels.size() != pixelsPer * all.labels.size())
    throw InputError("image set has " + std::to_string(all.pixels.size()) + " pixels for " +
                     std::to_string(all.labels.size()) + " images of " + std::to_string(all.rows) +
                     " x " + std::to_string(all.cols));
  // File indices of each class, in file order.
  std::vector<int> ofA, ofB;
  for (int k = 0; k < all.count(); ++k) {
    if (all.labels[k] == classA) ofA.push_back(k);
    if (all.labels[k] == classB) ofB.push_back(k);
  }
  for (const auto& [c, list] : {std::make_pair(classA, &ofA), std::make_pair(classB, &ofB)})
    if (static_cast<int>(list->size()) < half + valHalf)
      throw InputError("class " + className(c) + " has " + std::to_string(list->size()) +
                       " images, fewer than the " + std::to_string(half + valHalf) +
                       " asked for (count " + std::to_string(count) +
                       (valHalf ? " + validation " + std::to_string(validationCount) : "") +
                       ", half of each class)");
  if (seed != 0) {
    // The pool: what the page's asset holds at its sizes (kSplitPool), so both make this split.
    const std::size_t pool = static_cast<std::size_t>(std::max(kSplitPool, count));
    if (valHalf > 0 && static_cast<std::size_t>(half + valHalf) > pool)
      throw InputError("count / 2 + validation / 2 = " + std::to_string(half + valHalf) +
                       " exceeds the pool of " + std::to_string(pool) +
                       " images per class that a seeded split draws from");
    if (ofA.size() > pool) ofA.resize(pool);
    if (ofB.size() > pool) ofB.resize(pool);
    Rng rng(seed);
    shuffle(ofA, rng);
    shuffle(ofB, rng);
  }
  SplitIndices out;
  out.train.assign(ofA.begin(), ofA.begin() + half);
  out.train.insert(out.train.end(), ofB.begin(), ofB.begin() + half);
  out.validation.assign(ofA.begin() + half, ofA.begin() + half + valHalf);
  out.validation.insert(out.validation.end(), ofB.begin() + half, ofB.begin() + half + valHalf);
  std::sort(out.train.begin(), out.train.end());  // file order, classes interleaved as in the file
  std::sort(out.validation.begin(), out.validation.end());
  return out;
}

ImageSet imageSubset(const ImageSet& all, const std::vector<int>& indices) {
  const std::size_t pixelsPer = static_cast<std::size_t>(all.rows) * all.cols;
  ImageSet out;
  out.rows = all.rows;
  out.cols = all.cols;
  out.pixels.reserve(indices.size() * pixelsPer);
  out.labels.reserve(indices.size());
  for (int k : indices) {
    if (k < 0 || k >= all.count())
      throw InputError("image index " + std::to_string(k) + " is out of range 0.." +
                       std::to_string(all.count() - 1));
    const auto first = all.pixels.begin() + static_cast<std::ptrdiff_t>(k * pixelsPer);
    out.pixels.insert(out.pixels.end(), first, first + static_cast<std::ptrdiff_t>(pixelsPer));
    out.labels.push_back(all.labels[k]);
  }
  return out;
}

ImageSet binarySubset(const ImageSet& all, int classA, int classB, int count, std::uint64_t seed) {
  return imageSubset(all, splitIndices(all, classA, classB, count, 0, seed).train);
}

Dataset patchDataset(const ImageSet& images, int classA, int classB, int patch) {
  if (patch < 1) throw InputError("patch = " + std::to_string(patch) + ": must be >= 1");
  if (images.rows != images.cols || images.rows % patch != 0)
    throw InputError("images are " + std::to_string(images.rows) + " x " +
                     std::to_string(images.cols) + ": patches of " + std::to_string(patch) + " x " +
                     std::to_string(patch) +
                     " need square images whose side is a multiple of the patch");
  const int n = images.count();
  if (n < 1) throw InputError("image set is empty");
  const std::size_t pixelsPer = static_cast<std::size_t>(images.rows) * images.cols;
  if (images.pixels.size() != pixelsPer * static_cast<std::size_t>(n))
    throw InputError("image set has " + std::to_string(images.pixels.size()) + " pixels for " +
                     std::to_string(n) + " images of " + std::to_string(images.rows) + " x " +
                     std::to_string(images.cols));
  const int g = images.rows / patch;
  const int T = g * g;
  const int d = patch * patch + 2;
  Dataset data;
  data.n = n;
  data.T = T;
  data.d = d;
  data.X = Mat::Zero(static_cast<Index>(n) * T, d);
  data.Z = Mat::Zero(n, d);
  data.Y = Vec::Zero(n);
  data.v = Vec::Zero(d);  // v0 = 0: the head is trained jointly
  // Position of patch row / column q in [-1, 1] (0 for a single patch).
  auto position = [g](int q) { return g > 1 ? 2.0 * q / (g - 1) - 1.0 : 0.0; };
  for (int i = 0; i < n; ++i) {
    const int label = images.labels[i];
    if (label == classA)
      data.Y[i] = 1.0;
    else if (label == classB)
      data.Y[i] = -1.0;
    else
      throw InputError("image " + std::to_string(i) + " has label " + std::to_string(label) +
                       ", neither class A = " + std::to_string(classA) +
                       " nor class B = " + std::to_string(classB));
    const std::uint8_t* img = images.pixels.data() + static_cast<std::size_t>(i) * pixelsPer;
    for (int r = 0; r < images.rows; ++r)
      for (int c = 0; c < images.cols; ++c) {
        const Index row = static_cast<Index>(i) * T + (r / patch) * g + c / patch;
        data.X(row, (r % patch) * patch + c % patch) =
            img[static_cast<std::size_t>(r) * images.cols + c] / 255.0;
      }
    for (int t = 0; t < T; ++t) {
      data.X(static_cast<Index>(i) * T + t, d - 2) = position(t / g);
      data.X(static_cast<Index>(i) * T + t, d - 1) = position(t % g);
    }
    // The positions average to 0 (up to rounding), so a blank image has a zero query: no score
    // could depend on W.
    if (std::all_of(img, img + pixelsPer, [](std::uint8_t x) { return x == 0; }))
      throw InputError("image " + std::to_string(i) +
                       " is blank: its mean token (the query) is zero");
    // z_i = (sum_t x_it) / T, summed over t in order (not Eigen's vectorized mean, whose order
    // depends on the platform's SIMD: SPEC 6.4, the same bits natively and in wasm).
    for (int j = 0; j < d; ++j) {
      double sum = 0.0;
      for (int t = 0; t < T; ++t) sum += data.X(static_cast<Index>(i) * T + t, j);
      data.Z(i, j) = sum / T;
    }
  }
  return data;
}

}  // namespace attnsvm
