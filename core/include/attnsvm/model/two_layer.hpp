// Two stacked attention layers (SPEC 5.3 "Two layers", beyond the papers): layer 1 is
// sequence-to-sequence self-attention with W1, layer 2 cross-attention whose query is layer 1's
// output at the first token, with W2, then the linear head v:
//   h_ik  = X_i^T softmax(X_i W1 x_ik)          (query k of sequence i; the rows of H_i)
//   f_i   = v^T H_i^T softmax(H_i W2 h_i0)
//   L     = (1/n) sum_i l(Y_i f_i)
// Scores follow section 1's convention (score of token t for query z is x_t^T W z), so layer 1's
// unit (i, k) is the seq2seq unit of the one-layer model and its SVM is the seq2seq SAtt-SVM.
#pragma once
#include <vector>

#include "attnsvm/base/types.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/model/model.hpp"

namespace attnsvm {

struct TwoLayerParams {
  Mat W1, W2;  // d x d each
  Vec v;       // d: the head
};

struct TwoLayerGradient {
  Mat W1, W2;
  Vec v;
  double loss = 0.0;
};

// Everything a forward pass gives, per sequence i and per layer-1 unit u = i*T + k.
struct TwoLayerForward {
  Mat H;                       // (n*T) x d: row i*T + k is h_ik
  Mat softmax1;                // (n*T) x T: row u is layer 1's attention of unit u
  Mat softmax2;                // n x T: layer 2's attention over the rows of H_i
  Vec output;                  // n: f_i
  std::vector<int> selected1;  // n*T: argmax of each layer-1 softmax (first on ties)
  std::vector<int> selected2;  // n: argmax of each layer-2 softmax
  // 1 - max softmax, summed from the other probabilities (so it stays accurate, not 0, when the
  // softmax saturates): the sharpness measure of each layer.
  Vec residual1, residual2;
  double loss = 0.0;
};

class TwoLayerModel {
 public:
  // The data's tokens X, labels Y and head v are used (Z, query, alpha are not); an InputError
  // names the bad field (validate(data, SeqToSeq)).
  TwoLayerModel(const Dataset& data, LossKind loss = LossKind::Logistic);
  const Dataset& data() const { return data_; }
  LossKind lossKind() const { return loss_; }

  // Zero W1, W2 and the data's v.
  TwoLayerParams zeroParams() const;
  TwoLayerForward forward(const TwoLayerParams& params) const;
  double loss(const TwoLayerParams& params) const;
  // The exact gradient of L w.r.t. W1, W2 and v (loss filled too). Computed in plain double
  // precision, with the softmax backward pass written as s_t (c_t - sum_u s_u c_u) with
  // c_u = ds_u - ds_alpha, which forms no 1 - s_alpha; it underflows to zero only when the
  // softmax's other probabilities do (e^-745), which the trainer reports.
  void gradient(const TwoLayerParams& params, TwoLayerGradient& out) const;

 private:
  void checkParams(const TwoLayerParams& params) const;
  Dataset data_;
  LossKind loss_;
};

}  // namespace attnsvm
