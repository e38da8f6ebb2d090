// The real-images trainer (SPEC sections 6, 6.1, 6.4): cross attention with the image's mean token
// as query, a linear head v, logistic loss; W (d x d) and v trained by l_p mirror descent (plain
// `md` or normalized `nmd`, any p > 1; p = 2 is GD) or Adam, full batch or minibatch (a seeded
// shuffle each epoch, one step per minibatch: stochastic MD), from zero or a small random start,
// the head trained jointly, frozen, or alone (W fixed).
//
// Its kernel (core/src/train/real_kernel.cpp) computes the loss and the scaled log-domain gradient
// of docs/NUMERICS.md with every reduction in an order written in the source (no Eigen reductions
// or products) and the portable exp/log/log1p/pow (attnsvm/base/portable_math.hpp), so that a run
// gives the same bits natively and in WebAssembly, oscillating p = 1.1 runs included (SPEC 6.4;
// tested by tests/wasm/real-bits.test.mjs).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/base/rng.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/train/train.hpp"

namespace attnsvm {

struct RealTrainSettings {
  // md (plain l_p MD), nmd (normalized by the dual norm, SPEC section 2) or adam; gd and ngd are
  // md and nmd with p = 2.
  Optimizer optimizer = Optimizer::NMD;
  double p = 2.0;   // mirror-descent p (ignored by Adam)
  double lr = 0.1;  // the step of W and of v
  int batch = 0;    // minibatch size B; 0 (or >= n): full batch
  bool trainW = true;
  bool trainHead = true;  // false: v stays at its start (the ladder's frozen head)
  // W0 and v0: zero when 0, else i.i.d. N(0, initScale^2) entries (W row by row, then v) from
  // seed's stream (portable Gaussian: Marsaglia's polar method with the portable log).
  double initScale = 0.0;
  // Seeds the initialization and the minibatch order (one shuffle per epoch, Fisher-Yates with
  // Rng(seed) after the initialization's draws).
  std::uint64_t seed = 0;
  double adamBeta1 = 0.9, adamBeta2 = 0.999, adamEps = 1e-8;
  // nmd divides the gradient by ||g||_q + normEpsilon (SPEC 2: machine epsilon, as the authors'
  // code; their step shrinks and the iterate stops once ||g||_q nears it). 0: the pure normalized
  // step g / ||g||_q, which keeps moving after the gradient underflows (the regime ladder's
  // long runs; at p = 2 it is normalized GD).
  double normEpsilon = 2.220446049250313e-16;
};

// The field list of RealTrainSettings: in attnsvm/vocab/fields.hpp (the vocabulary layer).

// The measurements of a parameter state on a set of images (SPEC 6, 6.3).
struct RealEvaluation {
  double loss = 0, accuracy = 0;  // mean logistic loss; share with Y_i f_i > 0
  double maxSoftmax = 0;          // mean over images of max_t s_it
  double minSoftmax = 0;          // smallest max_t s_it (the least saturated image)
  // Share of images whose attended patch argmax_t s_it is gamma-optimal: gamma_{i,alpha_i} =
  // max_t gamma_it, gamma_it = Y_i v^T x_it (a tie with the maximum counts as optimal).
  double gammaOptimal = 0;
  // Share of images with no token of positive score (max_t gamma_it <= 0): no attention can
  // classify them with this head.
  double noPositiveToken = 0;
  std::vector<int> selection;  // argmax_t s_it per image (first on ties)
};

// The data of the kernel: the images of a Dataset (cross attention, queries Z) in the kernel's
// layout (each image's tokens feature-major, d rows of T). Shared by the runs that use it.
struct RealData;
std::shared_ptr<const RealData> realData(const Dataset& data);

class RealTrainer {
 public:
  // W0, v0 from the settings (zero or random), or given (W0 d x d, v0 d; empty: from settings).
  RealTrainer(std::shared_ptr<const RealData> train, const RealTrainSettings& settings,
              const Mat& W0 = Mat(), const Vec& v0 = Vec());

  // One minibatch step (full batch: one iteration). False when the run has stopped.
  bool step();
  // Steps until the end of the current epoch (full batch: one step). Returns the steps taken.
  int stepEpoch();
  int steps() const;   // minibatch steps taken
  int epochs() const;  // completed epochs
  int batchesPerEpoch() const;
  const std::string& stopReason() const;  // empty while the run goes on

  // Loss and accuracy of the last completed epoch, each image counted with the parameters of its
  // minibatch's step (the authors' running training accuracy; exact for full batch). NaN before
  // the first epoch.
  double epochLoss() const;
  double epochAccuracy() const;

  const Mat& W() const;
  const Vec& v() const;
  // Measurements of the current parameters on `data` (any set in the same tokens).
  RealEvaluation evaluate(const RealData& data) const;
  static RealEvaluation evaluate(const RealData& data, const Mat& W, const Vec& v);
  // Share of entries of W below 1% of max |W_jk| (1 for W = 0).
  static double sparsity(const Mat& W);

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// The softmax s_it of every image (n x T) at W, v (the kernel's: the probabilities of
// RealEvaluation's selection).
Mat realSoftmax(const RealData& data, const Mat& W, const Vec& v);

}  // namespace attnsvm
