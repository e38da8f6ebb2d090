// Real-image Att-SVM instances (issue 26) built from the core's own functions, shared by the solver
// tests (tests/core/test_real_svm.cpp), the solver benchmarks (bench/bench_solvers.cpp) and the
// wasm tests' native driver (tests/wasm/native/native_ref.cpp, which writes them as dataset JSON
// for the CLI and the wasm module):
//
//   images   binarySubset of Fashion-MNIST's training file: the first n/2 of each class in file
//            order (SPEC section 6), or, with pool > n, a seeded random n of the first `pool`;
//   tokens   patchDataset (T = 49 patches of 4 x 4 pixels plus their position, d = 18; z_i = the
//            image's mean token, cross attention);
//   v, alpha the default optimal selection: v = the difference of the class means of z,
//            alpha_i = argmax_t Y_i v^T x_it (optimalTokens, first on ties); or the selection of a
//            trained W: a short normalized-GD run (RealImagesRun: W and v jointly from zero), v its
//            head and alpha_i = argmax_t x_it^T W z_i (the softmax's argmax).
//
// Native only: the WebAssembly build reads no files (readFashionMnist throws there).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "attnsvm/data/dataset.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/model/model.hpp"
#include "svm_test_data.hpp"

namespace svmtest {

struct RealSvmSpec {
  int classA = 7, classB = 9;  // Sneaker (+1) vs Ankle boot (-1)
  int n = 100;                 // images (even)
  int pool = 0;                // > n: a random n of the first `pool` (binarySubset's order)
  std::uint64_t seed = 0;      // the draw of that random subset
  int trainIterations = 0;     // > 0: the selection of a normalized-GD run of this length
  std::string name() const {
    std::string s =
        std::to_string(classA) + "v" + std::to_string(classB) + " n=" + std::to_string(n);
    if (pool > n) s += " of " + std::to_string(pool) + " seed " + std::to_string(seed);
    s += trainIterations > 0 ? " trained(" + std::to_string(trainIterations) + ")" : " optimal";
    return s;
  }
};

// The training file, read once per process ($ATTNSVM_FASHION_MNIST or Debian's folder).
inline const attnsvm::ImageSet& fashionTrain() {
  static const attnsvm::ImageSet all = attnsvm::readFashionMnist("train");
  return all;
}

// True when the data is installed (Debian's dataset-fashion-mnist): tests skip otherwise.
inline bool haveFashionData() {
#ifdef __EMSCRIPTEN__
  return false;
#else
  try {
    (void)fashionTrain();
    return true;
  } catch (const std::exception&) {
    return false;
  }
#endif
}

inline attnsvm::ImageSet realSvmImages(const RealSvmSpec& s) {
  using attnsvm::ImageSet;
  const int count = s.pool > s.n ? s.pool : s.n;
  ImageSet all = attnsvm::binarySubset(fashionTrain(), s.classA, s.classB, count);
  if (count == s.n) return all;
  // A random n of the pool (a Fisher-Yates draw), kept in the pool's order.
  std::vector<int> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  TestRng rng(s.seed);
  for (int i = count - 1; i > 0; --i)
    std::swap(order[static_cast<std::size_t>(i)],
              order[static_cast<std::size_t>(rng.next() % static_cast<std::uint64_t>(i + 1))]);
  order.resize(static_cast<std::size_t>(s.n));
  std::sort(order.begin(), order.end());
  ImageSet out;
  out.rows = all.rows;
  out.cols = all.cols;
  const std::size_t px = static_cast<std::size_t>(all.rows) * all.cols;
  for (int k : order) {
    out.labels.push_back(all.labels[static_cast<std::size_t>(k)]);
    out.pixels.insert(out.pixels.end(), all.pixels.begin() + static_cast<long>(k * px),
                      all.pixels.begin() + static_cast<long>((k + 1) * px));
  }
  return out;
}

// The dataset of the instance with its selection in `alpha` (cross attention; solve with
// attentionSvmProblem(data, AttentionKind::Cross, data.alpha)).
inline attnsvm::Dataset realSvmDataset(const RealSvmSpec& s) {
  using namespace attnsvm;
  const ImageSet images = realSvmImages(s);
  Dataset data = patchDataset(images, s.classA, s.classB);
  if (s.trainIterations > 0) {
    RealImagesSettings rs;
    rs.classA = s.classA;
    rs.classB = s.classB;
    rs.nTrain = rs.nTest = data.n;
    rs.nSvm = data.n;
    rs.optimizer = Optimizer::NMD;  // normalized MD at p = 2: normalized GD
    rs.p = 2.0;
    rs.iters = s.trainIterations;
    RealImagesRun run(data, data, rs);
    run.step(s.trainIterations);
    const Params& params = run.params();
    ModelSpec spec;
    spec.attention = AttentionKind::Cross;
    data.v = params.v;
    data.alpha = Model(data, spec).forward(params).selected;
    return data;
  }
  Vec meanA = Vec::Zero(data.d), meanB = Vec::Zero(data.d);
  int countA = 0, countB = 0;
  for (int i = 0; i < data.n; ++i) {
    if (data.Y(i) > 0) {
      meanA += data.Z.row(i).transpose();
      ++countA;
    } else {
      meanB += data.Z.row(i).transpose();
      ++countB;
    }
  }
  data.v = meanA / std::max(countA, 1) - meanB / std::max(countB, 1);
  data.alpha = optimalTokens(data).opt;
  return data;
}

}  // namespace svmtest
