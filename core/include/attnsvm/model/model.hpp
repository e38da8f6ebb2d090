// One layer of softmax attention with a head and a loss (SPEC section 1), its loss and its
// gradient. The gradient is computed in a scaled, log-domain form that stays accurate after the
// softmax saturates (see docs/NUMERICS.md): grad = exp(logScale) * direction.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/base/types.hpp"
#include "attnsvm/data/dataset.hpp"

namespace attnsvm {

// Prompt: one query Wk^T p shared by every unit; allowed with Cross and Self attention (both
// mean one softmax per sequence; Z and the query index are ignored), an InputError with
// SeqToSeq/Causal, whose per-position queries the prompt would ignore.
enum class Parameterization { W, KQ, Prompt };
enum class HeadKind { Linear, ReluMLP };
enum class LossKind { Logistic, Exponential, Correlation };

struct ModelSpec {
  AttentionKind attention = AttentionKind::Cross;
  Parameterization param = Parameterization::W;
  HeadKind head = HeadKind::Linear;
  LossKind loss = LossKind::Logistic;
  int m = 0;  // inner dimension of K, Q (0 means d)
  Mat Wk;     // prompt only: fixed key matrix (d x d); scores a_i = X_i Wk^T p
  Mat V;      // relu head only: f = v^T relu(V r), V is d x d
};

// Trainable parameters. Which fields are used depends on ModelSpec::param; v is the head
// (initialized from Dataset::v, trained only in joint training).
struct Params {
  Mat W;  // d x d
  Mat K;  // d x m
  Mat Q;  // d x m
  Vec p;  // d (prompt)
  Vec v;  // d (head)
};

// The attention weight matrix the parameters stand for: W, or K Q^T; for a prompt, the d x 1
// matrix p (directions of prompts are compared as vectors).
Mat effectiveWeights(const ModelSpec& spec, const Params& params);

// Gradient in scaled form: the true gradient of the attention parameters is
// exp(logScale) * {W, K, Q, p}, and of the head exp(logScaleHead) * v. The directions are
// normalized so that their largest contributing term has magnitude about 1; a true gradient that
// underflows double precision keeps an accurate direction. logScale = -inf means exactly zero.
// For (K,Q), W holds the gradient w.r.t. the effective W = K Q^T (same scale); the balancing
// regularizer of training is not part of the model's loss (the Trainer adds it).
struct Gradient {
  Mat W, K, Q;
  Vec p, v;
  double logScale = 0.0;
  double logScaleHead = 0.0;
  // By-products of the same pass, at the same parameters (free: the trainer records them).
  double loss = 0.0;          // mean over units of l(Y f)
  std::vector<int> selected;  // units: argmax of the softmax (first on ties)
  Vec selectedProbability;    // units: softmax at the selected index
};

// Per-unit forward quantities. A "unit" is one softmax: a sequence (cross/self), or a
// (sequence, query position) pair (seq2seq, causal). Units are ordered i-major.
struct Forward {
  Mat softmax;                // units x T (causal: zeros beyond the query position)
  Vec output;                 // units: f
  std::vector<int> selected;  // units: argmax of softmax (first on ties)
  Vec selectedProbability;    // units: softmax at the selected index
  double loss = 0.0;          // mean over units of l(Y f)
};

class Model {
 public:
  // Validates the data against the spec (throws InputError).
  Model(const Dataset& data, ModelSpec spec);

  const Dataset& data() const { return data_; }
  const ModelSpec& spec() const { return spec_; }
  int units() const { return units_; }
  int unitSequence(int u) const;
  int unitTokenCount(int u) const;  // T, or k+1 for causal

  // Parameters shaped for this model: zero, or i.i.d. N(0, scale^2) entries from the seed.
  Params zeroParams() const;

  double loss(const Params& params) const;
  // Full forward pass (allocates; for traces and the page, not the inner loop).
  Forward forward(const Params& params) const;
  // Softmax-selected token per unit and its probability, written into preallocated outputs.
  void selection(const Params& params, std::vector<int>& selected, VecRef probability) const;

  // Scaled gradient w.r.t. the attention parameters (and the head if withHead). Does not
  // allocate once `out` has been shaped by a first call.
  // A Model is not thread-safe: loss(), selection() and gradient() reuse per-object scratch
  // space (so the inner loop does not allocate). Copies get their own scratch.
  void gradient(const Params& params, Gradient& out, bool withHead = false) const;

  // Scratch space of one Model object: copying a Model gives the copy a fresh, empty scratch.
  struct Scratch;
  struct ScratchHolder {
    std::unique_ptr<Scratch> ptr;
    ScratchHolder();
    ScratchHolder(const ScratchHolder&);
    ScratchHolder(ScratchHolder&&) noexcept;
    ScratchHolder& operator=(const ScratchHolder&);
    ScratchHolder& operator=(ScratchHolder&&) noexcept;
    ~ScratchHolder();
  };
  struct Impl;

 private:
  Dataset data_;
  ModelSpec spec_;
  int units_ = 0;
  std::shared_ptr<const Impl> impl_;
  mutable ScratchHolder scratch_;
};

}  // namespace attnsvm
