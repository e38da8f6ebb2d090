// The real-images kernel (not installed): one softmax unit per image, its loss and its scaled
// log-domain gradient (docs/NUMERICS.md, the formulas of model_unit.cpp), written for the
// cross-attention linear-head model only, with every reduction in a fixed order.
//
// Layout: image i's tokens feature-major (row j holds x_itj for t = 0..T-1), so that the passes
// over tokens are axpy loops over t (scores, score differences, head contrasts: vectorized, each
// entry summed over j in order) and the sums over tokens are dots of two rows of length T in four
// interleaved partial sums (t mod 4) combined as (s0 + s1) + (s2 + s3), then the tail in order.
// Any vector width gives the same bits (the order is in the source; -ffp-contract=off).
#pragma once
#include <cstdint>
#include <vector>

#include "attnsvm/base/types.hpp"
#include "attnsvm/train/real_train.hpp"

namespace attnsvm {

struct RealData {
  int n = 0, T = 0, d = 0;
  std::vector<double> tokens;   // n * d * T: image i, feature j, token t at (i d + j) T + t
  std::vector<double> queries;  // n * d: z_i
  std::vector<double> labels;   // n: Y_i = +-1
  const double* image(int i) const { return tokens.data() + static_cast<std::size_t>(i) * d * T; }
  const double* query(int i) const { return queries.data() + static_cast<std::size_t>(i) * d; }
};

namespace real {

// Per-thread scratch of the unit passes (sized T and d).
struct Scratch {
  std::vector<double> dx;              // d * T: x_t - x_alpha, feature-major
  std::vector<double> b, w, delta, c;  // T
  std::vector<double> q, xa, r, ghat;  // d
  void reserve(int T, int d);
};

// One unit's outcome (docs/NUMERICS.md): the gradient of its loss w.r.t. its query is
// sign exp(logQ) ghat (ghat in the scratch, max-abs 1), w.r.t. the head sign exp(logHead) feat
// (feat = r / max|r| in the scratch's r).
struct UnitOutcome {
  int alpha = 0;
  double probability = 1.0;  // s_alpha = max_t s_t
  double f = 0.0;
  double loss = 0.0;
  double logQ = -INFINITY, logHead = -INFINITY;
  double sign = 0.0;
  double expLambda = 0.0;  // s_t = w_t e^lambda for t != alpha (w in the scratch)
  // Forward pass only: whether alpha maximizes gamma_t = Y v . x_t (ties count), and max_t gamma_t.
  bool gammaOptimal = false;
  double maxGamma = 0.0;
};

// Image i at W (column-major d x d) and head v: selection, probability, output, loss; with
// `gradient` the two directions (ghat, feat) and their log-magnitudes, without it the token
// scores' measures (gammaOptimal, maxGamma). Needs T >= 2.
UnitOutcome unit(const RealData& data, int i, const double* W, const double* v, Scratch& s,
                 bool gradient);

// Scaled gradient of the mean loss over the images `batch`: grad_W = exp(logScale) GW and grad_v =
// exp(logScaleHead) Gv (GW d x d column-major, Gv d); also the batch's loss sum and count of
// correct images. logScale is NaN when a unit's direction is not finite.
struct BatchGradient {
  std::vector<double> GW, Gv;
  double logScale = 0.0, logScaleHead = 0.0;
  double lossSum = 0.0;
  int correct = 0;
  // per-unit storage (d x batch directions, log-magnitudes, signs)
  std::vector<double> dirs, feats, logQ, logHead, sign;
};
void batchGradient(const RealData& data, const int* batch, int count, const double* W,
                   const double* v, bool wantHead, Scratch& s, BatchGradient& out);

// sum_t a[t] b[t] in the kernel's fixed order.
double dot(const double* a, const double* b, int n);

}  // namespace real
}  // namespace attnsvm
