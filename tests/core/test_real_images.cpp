// Real data (SPEC section 6): the IDX reader on hand-made bytes and hand-made .gz files (good,
// truncated, wrong magic, missing), the binary split, the patch tokens (where a pixel lands), the
// gradient of the pooled-query model with its head against finite differences, Adam against a
// hand-computed update, and short runs of RealImagesRun (on the Debian data when it is installed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/names.hpp"
#include "finite_difference.hpp"

#ifndef __EMSCRIPTEN__
#include <unistd.h>
#include <zlib.h>
#endif

namespace attnsvm {
namespace {

using Bytes = std::vector<std::uint8_t>;

void putWord(Bytes& b, std::uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(x >> s));
}

// IDX images (magic 0x803) of `count` images rows x cols with pixel (k, r, c) = pixel(k, r, c).
template <class F>
Bytes idxImages(std::uint32_t count, std::uint32_t rows, std::uint32_t cols, F pixel,
                std::uint32_t magic = 0x803) {
  Bytes b;
  putWord(b, magic);
  putWord(b, count);
  putWord(b, rows);
  putWord(b, cols);
  for (std::uint32_t k = 0; k < count; ++k)
    for (std::uint32_t r = 0; r < rows; ++r)
      for (std::uint32_t c = 0; c < cols; ++c) b.push_back(pixel(k, r, c));
  return b;
}

Bytes idxLabels(const std::vector<int>& labels, std::uint32_t magic = 0x801) {
  Bytes b;
  putWord(b, magic);
  putWord(b, static_cast<std::uint32_t>(labels.size()));
  for (int l : labels) b.push_back(static_cast<std::uint8_t>(l));
  return b;
}

std::uint8_t ramp(std::uint32_t k, std::uint32_t r, std::uint32_t c) {
  return static_cast<std::uint8_t>((31 * k + 7 * r + c + 1) % 256);
}

std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RealIdx, ParsesHandMadeBytes) {
  const Bytes images = idxImages(3, 2, 4, ramp);
  const ImageSet set = parseIdx(images, idxLabels({7, 9, 3}));
  EXPECT_EQ(set.rows, 2);
  EXPECT_EQ(set.cols, 4);
  ASSERT_EQ(set.count(), 3);
  EXPECT_EQ(set.labels, (std::vector<int>{7, 9, 3}));
  ASSERT_EQ(set.pixels.size(), 24u);
  for (int k = 0; k < 3; ++k)
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 4; ++c) EXPECT_EQ(set.pixels[k * 8 + r * 4 + c], ramp(k, r, c));
}

TEST(RealIdx, ErrorsNameTheSourceAndTheByteOffset) {
  const Bytes images = idxImages(3, 2, 4, ramp);
  const Bytes labels = idxLabels({7, 9, 3});
  // Wrong magic (a label file where images are expected).
  std::string m = messageOf([&] { parseIdx(idxImages(3, 2, 4, ramp, 0x801), labels, "imgs.idx"); });
  EXPECT_TRUE(has(m, "imgs.idx") && has(m, "wrong magic 0x00000801") && has(m, "byte offset 0"))
      << m;
  m = messageOf([&] { parseIdx(images, idxLabels({7, 9, 3}, 0x803), "i", "lbl.idx"); });
  EXPECT_TRUE(has(m, "lbl.idx") && has(m, "wrong magic 0x00000803")) << m;
  // Gzip bytes passed as IDX.
  m = messageOf([&] { parseIdx(Bytes{0x1f, 0x8b, 8, 0, 0, 0, 0, 0}, labels); });
  EXPECT_TRUE(has(m, "gzip")) << m;
  // Truncated payload: 16 + 24 bytes expected, 16 + 20 given.
  Bytes cut(images.begin(), images.end() - 4);
  m = messageOf([&] { parseIdx(cut, labels, "imgs.idx"); });
  EXPECT_TRUE(has(m, "imgs.idx") && has(m, "truncated at byte offset 36") && has(m, "40 bytes"))
      << m;
  // Truncated header.
  m = messageOf([&] { parseIdx(Bytes(images.begin(), images.begin() + 10), labels, "imgs.idx"); });
  EXPECT_TRUE(has(m, "truncated at byte offset 10")) << m;
  m = messageOf([&] { parseIdx(Bytes{}, labels, "imgs.idx"); });
  EXPECT_TRUE(has(m, "truncated at byte offset 0")) << m;
  // Trailing bytes, mismatched counts.
  Bytes longer = images;
  longer.push_back(0);
  m = messageOf([&] { parseIdx(longer, labels, "imgs.idx"); });
  EXPECT_TRUE(has(m, "unexpected bytes") && has(m, "offset 40")) << m;
  m = messageOf([&] { parseIdx(images, idxLabels({7, 9}), "imgs.idx", "lbl.idx"); });
  EXPECT_TRUE(has(m, "lbl.idx has 2 labels") && has(m, "3 images")) << m;
}

#ifndef __EMSCRIPTEN__
// A temporary directory with hand-made files, removed at the end.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/attnsvm_idx_XXXXXX";
    const char* d = mkdtemp(tmpl);
    if (d) path_ = d;
  }
  ~TempDir() {
    for (const auto& f : files_) std::remove(f.c_str());
    if (!path_.empty()) rmdir(path_.c_str());
  }
  std::string file(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

void writeGz(const std::string& path, const Bytes& b) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, b.data(), static_cast<unsigned>(b.size())), static_cast<int>(b.size()));
  gzclose(f);
}

Bytes readRaw(const std::string& path) {
  Bytes b;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return b;
  int c;
  while ((c = std::fgetc(f)) != EOF) b.push_back(static_cast<std::uint8_t>(c));
  std::fclose(f);
  return b;
}

void writeRaw(const std::string& path, const Bytes& b) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(b.data(), 1, b.size(), f);
  std::fclose(f);
}

TEST(RealIdx, ReadsGzippedAndPlainFiles) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  // Large enough that the compressed stream spans several gzread buffers' worth of output.
  const Bytes images = idxImages(200, 28, 28, ramp);
  std::vector<int> labelList;
  for (int k = 0; k < 200; ++k) labelList.push_back(k % 10);
  const Bytes labels = idxLabels(labelList);
  const std::string gi = dir.file("train-images-idx3-ubyte.gz"),
                    gl = dir.file("train-labels-idx1-ubyte.gz");
  writeGz(gi, images);
  writeGz(gl, labels);
  const ImageSet set = readIdxFiles(gi, gl);
  EXPECT_EQ(set.count(), 200);
  EXPECT_EQ(set.pixels, Bytes(images.begin() + 16, images.end()));
  EXPECT_EQ(set.labels, labelList);
  // The directory reader of readFashionMnist, plain (uncompressed) files accepted by readIdxFiles.
  EXPECT_EQ(readFashionMnist("train", dir.path()).labels, labelList);
  const std::string pi = dir.file("plain-images"), pl = dir.file("plain-labels");
  writeRaw(pi, images);
  writeRaw(pl, labels);
  EXPECT_EQ(readIdxFiles(pi, pl).pixels, set.pixels);
}

TEST(RealIdx, TruncatedCorruptAndMissingFilesAreNamed) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const Bytes images = idxImages(50, 28, 28, ramp);
  const Bytes labels = idxLabels(std::vector<int>(50, 7));
  const std::string gi = dir.file("i.gz"), gl = dir.file("l.gz");
  writeGz(gi, images);
  writeGz(gl, labels);
  // A gzip file cut in half: zlib reports the unexpected end.
  const Bytes gz = readRaw(gi);
  ASSERT_GT(gz.size(), 100u);
  const std::string half = dir.file("half.gz");
  writeRaw(half, Bytes(gz.begin(), gz.begin() + gz.size() / 2));
  std::string m = messageOf([&] { readIdxFiles(half, gl); });
  EXPECT_TRUE(has(m, half) && has(m, "truncated") && has(m, "byte offset")) << m;
  // Corrupt deflate data (bytes flipped after the header).
  Bytes bad = gz;
  for (std::size_t k = 20; k < 60; ++k) bad[k] ^= 0xA5;
  const std::string corrupt = dir.file("corrupt.gz");
  writeRaw(corrupt, bad);
  m = messageOf([&] { readIdxFiles(corrupt, gl); });
  EXPECT_TRUE(has(m, corrupt) && has(m, "byte offset")) << m;
  // A complete gzip of a truncated IDX: the IDX offset.
  const std::string shortIdx = dir.file("short.gz");
  writeGz(shortIdx, Bytes(images.begin(), images.end() - 100));
  m = messageOf([&] { readIdxFiles(shortIdx, gl); });
  EXPECT_TRUE(has(m, shortIdx) &&
              has(m, "truncated at byte offset " + std::to_string(images.size() - 100)))
      << m;
  // Missing files: the file's name; the Fashion-MNIST directory reader names the apt-get line.
  m = messageOf([&] { readIdxFiles(dir.path() + "/nope.gz", gl); });
  EXPECT_TRUE(has(m, "nope.gz") && has(m, "no such file")) << m;
  m = messageOf([&] { readFashionMnist("t10k", dir.path() + "/absent"); });
  EXPECT_TRUE(has(m, "t10k-images-idx3-ubyte.gz") &&
              has(m, "apt-get install dataset-fashion-mnist"))
      << m;
  m = messageOf([&] { readFashionMnist("validation", dir.path()); });
  EXPECT_TRUE(has(m, "'validation'")) << m;
}
#endif

// Images 28 x 28 with labels cycling through `labels`.
ImageSet syntheticImages(int count, const std::vector<int>& labels, int side = 28) {
  ImageSet s;
  s.rows = s.cols = side;
  for (int k = 0; k < count; ++k) {
    s.labels.push_back(labels[k % labels.size()]);
    for (int r = 0; r < side; ++r)
      for (int c = 0; c < side; ++c) s.pixels.push_back(ramp(k, r, c));
  }
  return s;
}

TEST(RealTokens, BinarySubsetKeepsFileOrderAndSeedsShuffle) {
  // Labels 7, 9, 3, 7, 9, 3, ...: 10 of each in 30 images.
  ImageSet all = syntheticImages(30, {7, 9, 3}, 4);
  for (int k = 0; k < 30; ++k)
    all.pixels[k * 16] = static_cast<std::uint8_t>(k);  // pixel 0 = file index
  const ImageSet first = binarySubset(all, 7, 9, 6);
  ASSERT_EQ(first.count(), 6);
  EXPECT_EQ(first.labels, (std::vector<int>{7, 9, 7, 9, 7, 9}));
  // File images 0, 1, 3, 4, 6, 7 in that order.
  const int expected[] = {0, 1, 3, 4, 6, 7};
  for (int j = 0; j < 6; ++j)
    for (int q = 0; q < 16; ++q)
      EXPECT_EQ(first.pixels[j * 16 + q], all.pixels[expected[j] * 16 + q]);
  // A seed takes other images of the same classes, in file order, the same every time.
  const ImageSet s1 = binarySubset(all, 7, 9, 6, 1), again = binarySubset(all, 7, 9, 6, 1);
  const ImageSet s2 = binarySubset(all, 7, 9, 6, 2);
  EXPECT_EQ(s1.pixels, again.pixels);
  EXPECT_NE(s1.pixels, first.pixels);
  EXPECT_NE(s1.pixels, s2.pixels);
  int a = 0, b = 0;
  for (int l : s1.labels) (l == 7 ? a : b) += 1;
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 3);
  // File order: the first pixel is the file index.
  for (int j = 1; j < 6; ++j) EXPECT_LT(s1.pixels[(j - 1) * 16], s1.pixels[j * 16]);
  // Errors.
  EXPECT_TRUE(has(messageOf([&] { binarySubset(all, 7, 7, 6); }), "different"));
  EXPECT_TRUE(has(messageOf([&] { binarySubset(all, 7, 10, 6); }), "out of range 0..9"));
  EXPECT_TRUE(has(messageOf([&] { binarySubset(all, 7, 9, 5); }), "even"));
  EXPECT_TRUE(has(messageOf([&] { binarySubset(all, 7, 9, 0); }), "even and >= 2"));
  const std::string m = messageOf([&] { binarySubset(all, 7, 9, 22); });
  EXPECT_TRUE(has(m, "7 (Sneaker) has 10 images") && has(m, "11")) << m;
}

// The browser holds only the pool of each class (the first kSplitPool images): every seed must
// make the same split from the pool alone as from the whole file, and never reach past the pool.
TEST(RealTokens, SeededSplitDrawsFromThePoolOnly) {
  const int perClass = kSplitPool + 300;
  ImageSet all = syntheticImages(3 * perClass, {7, 9, 3}, 4);
  for (int k = 0; k < all.count(); ++k) {  // pixels 0 and 1 = file index
    all.pixels[k * 16] = static_cast<std::uint8_t>(k % 256);
    all.pixels[k * 16 + 1] = static_cast<std::uint8_t>(k / 256);
  }
  // The pool: the images up to the last of the first kSplitPool of each class (3 kSplitPool here).
  ImageSet pool = all;
  pool.labels.resize(3 * kSplitPool);
  pool.pixels.resize(3 * kSplitPool * 16);
  for (std::uint64_t seed : {1, 2, 7, 12345}) {
    for (int count : {2, 200, 1000}) {
      const ImageSet a = binarySubset(all, 7, 9, count, seed),
                     b = binarySubset(pool, 7, 9, count, seed);
      EXPECT_EQ(a.pixels, b.pixels) << "seed " << seed << ", count " << count;
      EXPECT_EQ(a.labels, b.labels);
    }
  }
  // Seeds reach across the whole pool: some image of the second half of the pool is drawn.
  int last = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const ImageSet s = binarySubset(all, 7, 9, 200, seed);
    for (int j = 0; j < s.count(); ++j)
      last = std::max(last, s.pixels[j * 16] + 256 * s.pixels[j * 16 + 1]);
  }
  EXPECT_GT(last, 3 * kSplitPool / 2);
  EXPECT_LT(last, 3 * kSplitPool);
  // count > kSplitPool: the pool is the first `count` of each class (half of it is drawn).
  const ImageSet big = binarySubset(all, 7, 9, 2 * perClass - 2, 3);
  EXPECT_EQ(big.count(), 2 * perClass - 2);
}

TEST(RealTokens, PixelsLandWhereSpecSays) {
  const ImageSet images = syntheticImages(3, {7, 9});
  const Dataset data = patchDataset(images, 7, 9);
  ASSERT_EQ(data.n, 3);
  ASSERT_EQ(data.T, 49);
  ASSERT_EQ(data.d, 18);
  EXPECT_EQ(data.Y, Eigen::Vector3d(1, -1, 1));
  EXPECT_EQ(data.v, Vec::Zero(18));
  for (int i = 0; i < 3; ++i) {
    for (int r = 0; r < 28; ++r)
      for (int c = 0; c < 28; ++c) {
        const int t = (r / 4) * 7 + c / 4, coord = (r % 4) * 4 + c % 4;
        ASSERT_EQ(data.token(i, t)[coord], ramp(i, r, c) / 255.0) << i << " " << r << " " << c;
      }
    for (int t = 0; t < 49; ++t) {
      EXPECT_DOUBLE_EQ(data.token(i, t)[16], (t / 7) / 3.0 - 1.0);  // row/3 - 1 (SPEC)
      EXPECT_DOUBLE_EQ(data.token(i, t)[17], (t % 7) / 3.0 - 1.0);  // col/3 - 1
    }
    EXPECT_LE((data.Z.row(i) - data.tokens(i).colwise().mean()).norm(), 1e-15);
  }
  // Corners: token 0 at (-1, -1), token 48 at (1, 1); pixel (1, 26) is token 6, coordinate 6,
  // pixel (27, 0) token 42, coordinate 12.
  EXPECT_EQ(data.token(0, 0)[16], -1.0);
  EXPECT_EQ(data.token(0, 48)[17], 1.0);
  EXPECT_EQ(data.token(1, 6)[6], ramp(1, 1, 26) / 255.0);
  EXPECT_EQ(data.token(2, 42)[12], ramp(2, 27, 0) / 255.0);
  // Other patch sizes: 7 x 7 patches of 28 x 28 give T = 16, d = 51.
  const Dataset coarse = patchDataset(images, 7, 9, 7);
  EXPECT_EQ(coarse.T, 16);
  EXPECT_EQ(coarse.d, 51);
  EXPECT_EQ(coarse.token(2, 5)[7 * 2 + 3],
            ramp(2, 9, 10) / 255.0);  // row 9 = 7 + 2, col 10 = 7 + 3
  // Errors: a patch that does not divide the side, a label of neither class, a blank image.
  EXPECT_TRUE(has(messageOf([&] { patchDataset(images, 7, 9, 5); }), "multiple of the patch"));
  EXPECT_TRUE(has(messageOf([&] { patchDataset(images, 7, 3); }), "image 1 has label 9"));
  ImageSet blank = images;
  std::fill(blank.pixels.begin() + 784, blank.pixels.begin() + 2 * 784, 0);
  EXPECT_TRUE(has(messageOf([&] { patchDataset(blank, 7, 9); }), "image 1 is blank"));
}

ModelSpec pooledSpec() {
  ModelSpec spec;  // cross attention, W, linear head, logistic loss: the real-images model
  return spec;
}

TEST(RealImagesModel, GradientOfPooledQueryModelWithHeadMatchesFiniteDifferences) {
  // 8 x 8 images in 4 x 4 patches: T = 4, d = 18; queries are the images' mean tokens.
  const ImageSet images = syntheticImages(6, {7, 9}, 8);
  const Dataset data = patchDataset(images, 7, 9);
  const Model model(data, pooledSpec());
  Rng rng(11);
  Params params = model.zeroParams();
  params.W = 0.8 * rng.normalMatrix(18, 18);
  params.v = rng.normalVector(18);
  Gradient g;
  model.gradient(params, g, /*withHead=*/true);
  const Mat gW = std::exp(g.logScale) * g.W;
  const Mat gv = std::exp(g.logScaleHead) * g.v;
  const Mat fW = finiteDifference(model, params, &Params::W, 1e-5);
  const Mat fv = finiteDifference(model, params, &Params::v, 1e-5);
  ASSERT_GT(fW.norm(), 1e-6);
  EXPECT_LE((gW - fW).norm() / fW.norm(), 1e-6);
  EXPECT_LE((gv - fv).norm() / fv.norm(), 1e-6);
  // At the start W = 0, v = 0 only the head has a gradient: -(1/n) sum Y_i r_i / 2, r_i = mean
  // token.
  Params zero = model.zeroParams();
  model.gradient(zero, g, true);
  EXPECT_TRUE(g.logScale == -INFINITY || (std::exp(g.logScale) * g.W).norm() == 0.0);
  Vec expected = Vec::Zero(18);
  for (int i = 0; i < data.n; ++i) expected -= 0.5 * data.Y[i] * data.Z.row(i).transpose() / data.n;
  EXPECT_LE((std::exp(g.logScaleHead) * g.v - expected).norm(), 1e-14);
}

// ---- Adam ----

Vec trueGradW(const Model& model, const Params& params, Vec* head = nullptr) {
  Gradient g;
  model.gradient(params, g, head != nullptr);
  Mat w =
      g.logScale == -INFINITY ? Mat::Zero(g.W.rows(), g.W.cols()) : Mat(std::exp(g.logScale) * g.W);
  if (head) *head = std::exp(g.logScaleHead) * g.v;
  return Eigen::Map<const Vec>(w.data(), w.size());
}

TEST(Adam, FirstStepsMatchHandComputedUpdates) {
  const ImageSet images = syntheticImages(6, {7, 9}, 8);
  Dataset data = patchDataset(images, 7, 9);
  Rng rng(5);
  data.v = rng.normalVector(18);  // a nonzero head, so that W has a gradient from the start
  const Model model(data, pooledSpec());
  TrainSettings s;
  s.optimizer = Optimizer::Adam;
  s.lr = 0.01;
  s.trainHead = true;
  s.headOptimizer = Optimizer::Adam;
  s.headLr = 0.02;
  Params init = model.zeroParams();
  init.W = 0.1 * rng.normalMatrix(18, 18);
  Trainer tr(model, s, init);
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  // Iteration 1: mhat = g, shat = g^2, step lr g / (|g| + eps).
  Vec h0;
  const Vec g0 = trueGradW(model, init, &h0);
  ASSERT_EQ(tr.step(1), 1);
  Params p1 = init;
  {
    Vec w = Eigen::Map<const Vec>(init.W.data(), init.W.size());
    w.array() -= s.lr * g0.array() / (g0.array().abs() + eps);
    p1.W = Eigen::Map<const Mat>(w.data(), 18, 18);
    p1.v = init.v.array() - s.headLr * h0.array() / (h0.array().abs() + eps);
  }
  EXPECT_LE((tr.params().W - p1.W).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LE((tr.params().v - p1.v).cwiseAbs().maxCoeff(), 1e-15);
  // Iteration 2: m = b1 (1-b1) g0 + (1-b1) g1, s = b2 (1-b2) g0^2 + (1-b2) g1^2, bias-corrected by
  // k = 2.
  Vec h1;
  const Vec g1 = trueGradW(model, p1, &h1);
  ASSERT_EQ(tr.step(1), 1);
  auto second = [&](const Vec& x, const Vec& a, const Vec& b, double lr) {
    const Vec m = b1 * (1 - b1) * a + (1 - b1) * b;
    const Vec v = b2 * (1 - b2) * a.cwiseAbs2() + (1 - b2) * b.cwiseAbs2();
    const Vec mhat = m / (1 - b1 * b1), shat = v / (1 - b2 * b2);
    return Vec(x.array() - lr * mhat.array() / (shat.array().sqrt() + eps));
  };
  const Vec w2 = second(Eigen::Map<const Vec>(p1.W.data(), p1.W.size()), g0, g1, s.lr);
  const Vec v2 = second(p1.v, h0, h1, s.headLr);
  EXPECT_LE((Eigen::Map<const Vec>(tr.params().W.data(), 324) - w2).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LE((tr.params().v - v2).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(Adam, SettingsAndUnderflowNeverGiveNaN) {
  const ImageSet images = syntheticImages(4, {7, 9}, 8);
  Dataset data = patchDataset(images, 7, 9);
  data.v = Vec::Constant(18, 1.0);
  const Model model(data, pooledSpec());
  TrainSettings s;
  s.optimizer = Optimizer::Adam;
  s.adamBeta1 = 1.0;
  EXPECT_TRUE(has(messageOf([&] { Trainer(model, s, model.zeroParams()); }), "adamBeta1"));
  s.adamBeta1 = 0.9;
  s.adamEps = 0.0;
  EXPECT_TRUE(has(messageOf([&] { Trainer(model, s, model.zeroParams()); }), "adamEps"));
  s.adamEps = 1e-8;
  // Adam on the prompt and (K,Q) parameterizations steps every block.
  for (Parameterization param : {Parameterization::KQ, Parameterization::Prompt}) {
    ModelSpec spec = pooledSpec();
    spec.param = param;
    spec.Wk = Mat::Identity(18, 18);
    const Model m(data, spec);
    Rng rng(3);
    Params init = m.zeroParams();
    if (param == Parameterization::KQ) {
      init.K = 0.1 * rng.normalMatrix(18, 18);
      init.Q = 0.1 * rng.normalMatrix(18, 18);
    }
    Trainer tr(m, s, init);
    tr.step(20);
    EXPECT_FALSE(tr.stopped()) << tr.stopReason();
    EXPECT_LT(m.loss(tr.params()), m.loss(init));
  }
  // A W so large that the true gradient underflows: Adam takes finite (momentum) steps, no NaN.
  Params big = model.zeroParams();
  Rng rng(9);
  big.W = 1e6 * rng.normalMatrix(18, 18);
  Gradient g;
  model.gradient(big, g);
  ASSERT_LT(g.logScale, -745.0);
  Trainer tr(model, s, big);
  EXPECT_EQ(tr.step(5), 5);
  EXPECT_TRUE(tr.params().W.allFinite());
  EXPECT_EQ(tr.params().W, big.W);  // zero gradient, zero moments: zero steps
}

// ---- RealImagesRun ----

// The Debian data when installed (the native CI machine); synthetic images otherwise.
bool haveFashion() {
#ifdef __EMSCRIPTEN__
  return false;
#else
  try {
    readFashionMnist("t10k");
    return true;
  } catch (const InputError&) {
    return false;
  }
#endif
}

TEST(RealImagesRun, StartsAtZeroAndMeasures) {
  const ImageSet images = syntheticImages(8, {7, 9});
  RealImagesSettings s;
  s.nSvm = 4;
  s.histogramBins = 10;
  RealImagesRun run(patchDataset(images, 7, 9), patchDataset(images, 7, 9), s);
  const RealImagesFrame f = run.measure();
  EXPECT_EQ(f.iteration, 0);
  EXPECT_NEAR(f.trainLoss, std::log(2.0), 1e-15);
  EXPECT_EQ(f.trainAccuracy, 0.0);  // f = 0 is not a correct sign
  EXPECT_NEAR(f.testMaxSoftmax, 1.0 / 49, 1e-15);
  EXPECT_EQ(f.sparsity, 1.0);
  ASSERT_EQ(f.histogram.size(), 10u);
  EXPECT_EQ(f.histogram[0], 324.0);
  // The first (normalized) step moves only v (W has no gradient at v = 0); then W moves too.
  EXPECT_EQ(run.step(1), 1);
  EXPECT_EQ(run.params().W.norm(), 0.0);
  EXPECT_GT(run.params().v.norm(), 0.0);
  EXPECT_EQ(run.step(5), 5);
  EXPECT_GT(run.params().W.norm(), 0.0);
  const RealImagesFrame g = run.measure();
  double total = 0;
  for (double c : g.histogram) total += c;
  EXPECT_EQ(total, 324.0);
  EXPECT_GE(g.histogram[9], 1.0);  // the largest entry is in the last bin
  EXPECT_EQ(run.testSoftmax().rows(), 8);
  EXPECT_EQ(run.testSoftmax().cols(), 49);
  EXPECT_EQ(run.testSelection().size(), 8u);
  // Bad settings.
  RealImagesSettings bad = s;
  bad.nSvm = 9;
  EXPECT_TRUE(has(messageOf([&] {
                    RealImagesRun(patchDataset(images, 7, 9), patchDataset(images, 7, 9), bad);
                  }),
                  "nSvm"));
  bad = s;
  bad.p = 1.0;
  EXPECT_TRUE(has(messageOf([&] {
                    RealImagesRun(patchDataset(images, 7, 9), patchDataset(images, 7, 9), bad);
                  }),
                  "p = 1"));
}

struct Split {
  Dataset train, test;
};
Split realSplit(int nTrain, int nTest) {
#ifndef __EMSCRIPTEN__
  if (haveFashion())
    return {patchDataset(binarySubset(readFashionMnist("train"), 7, 9, nTrain), 7, 9),
            patchDataset(binarySubset(readFashionMnist("t10k"), 7, 9, nTest), 7, 9)};
#endif
  // Synthetic stand-in: class 7 brighter on the left half, class 9 on the right half, plus noise.
  auto make = [](int count, std::uint64_t seed) {
    ImageSet s;
    s.rows = s.cols = 28;
    Rng rng(seed);
    for (int k = 0; k < count; ++k) {
      const int label = k % 2 ? 9 : 7;
      s.labels.push_back(label);
      for (int r = 0; r < 28; ++r)
        for (int c = 0; c < 28; ++c) {
          const bool lit = (label == 7) == (c < 14);
          s.pixels.push_back(
              static_cast<std::uint8_t>(std::min(255.0, (lit ? 150 : 30) + 60 * rng.uniform())));
        }
    }
    return s;
  };
  return {patchDataset(make(nTrain, 1), 7, 9), patchDataset(make(nTest, 2), 7, 9)};
}

TEST(RealImagesRun, LearnsWithEachOptimizerAndAnalyzes) {
  const Split split = realSplit(200, 200);
  for (const auto& [opt, p] : {std::pair{Optimizer::NMD, 2.0}, std::pair{Optimizer::NMD, 3.0},
                               std::pair{Optimizer::NMD, 1.1}, std::pair{Optimizer::Adam, 2.0}}) {
    RealImagesSettings s;
    s.optimizer = opt;
    s.p = p;
    s.lr = opt == Optimizer::Adam ? 0.01 : 0.1;
    s.nSvm = 10;
    RealImagesRun run(split.train, split.test, s);
    const double loss0 = run.measure().trainLoss;
    run.step(100);
    const RealImagesFrame f = run.measure();
    SCOPED_TRACE(std::string(wireName(opt)) + " p = " + std::to_string(p));
    EXPECT_EQ(f.iteration, 100);
    // Adam and MD at p = 2, 3 train the model within 100 iterations; l_1.1 with the dual-norm step
    // oscillates early (train loss up to ~8 at iteration 100, RESULTS.md): only finite there.
    if (p != 1.1) EXPECT_LT(f.trainLoss, loss0);
    EXPECT_TRUE(std::isfinite(f.trainLoss));
    // l_1.1 MD grows its weights like k^10 from zero and puts them on few coordinates first (a
    // single pixel feature of the head is >= 0 for every image: no better than chance); it
    // needs far more than 100 iterations, so only the others are held to an accuracy here.
    if (p != 1.1) {
      EXPECT_GT(f.trainAccuracy, 0.8);
      EXPECT_GT(f.testAccuracy, 0.7);
    }
    EXPECT_TRUE(std::isfinite(f.testLoss));
    const RealImagesAnalysis a = run.analyze();
    EXPECT_EQ(a.nSvm, 10);
    EXPECT_EQ(a.selection.size(), 10u);
    EXPECT_FALSE(a.verdict.empty());
    if (a.feasible) {
      EXPECT_EQ(a.svm.rows(), 18);
      EXPECT_GE(a.corr, -1.0);
      EXPECT_LE(a.corr, 1.0 + 1e-12);
      EXPECT_GE(a.divergence, 0.0);
    } else {
      EXPECT_TRUE(std::isnan(a.corr));
      EXPECT_FALSE(a.status.empty());
    }
  }
}

}  // namespace
}  // namespace attnsvm
