// Private parts of Model shared by model.cpp, model_unit.cpp and gradient.cpp (not installed).
#pragma once
#include <cmath>
#include <vector>

#include "attnsvm/model/model.hpp"

namespace attnsvm {

// One softmax per query position (seq2seq, causal) rather than one per sequence; shared with the
// batched trainer's layout (train/train_batched_layout.cpp).
inline bool perQueryUnits(AttentionKind kind) {
  return kind == AttentionKind::SeqToSeq || kind == AttentionKind::Causal;
}

// Immutable per-model data, shared by copies of a Model.
struct Model::Impl {
  int d = 0, m = 0, T = 0;
  int units = 0;
  double logUnits = 0.0;  // log(units): the 1/units of the mean, carried as a log
  Mat tokensT;            // d x (n*T): token (i,t) is column i*T+t (contiguous per token)
  Mat queryInputsT;  // d x units: z of each unit (cross: z_i, self: x_iq, seq: x_ik); empty for
                     // prompts
  std::vector<int> unitSeq;    // units: sequence index
  std::vector<int> unitCount;  // units: tokens attended (T, or k+1 for causal)
  std::vector<double> label;   // units: Y of the unit's sequence
};

// Per-object scratch (sized on first use; never shrinks).
struct Model::Scratch {
  Mat queries;      // d x units: the query vector q_u = W z_u of every unit (col 0 for prompts)
  Mat inner;        // m x units: Q^T z_u for (K,Q)
  Mat dirs;         // d x units: per-unit scaled directions of grad_q
  Mat feats;        // d x units: per-unit scaled head features (joint training)
  Mat gradW;        // d x d: scaled gradient w.r.t. the effective W ((K,Q) only)
  Vec a, w, delta;  // T: scores, rescaled probabilities exp(b_t - beta), head contrasts
  Vec r, h, hidden, ghat, feat, sum;  // d
  Vec muQ, muHead, sign;              // units: log-magnitudes and signs of the contributions
  void reserve(int d, int m, int T, int units);
};

// Everything the engine needs from one unit (one softmax).
struct UnitOutcome {
  int alpha = 0;               // selected (argmax) token
  double probability = 1.0;    // softmax at alpha
  double f = 0.0;              // head output
  double lossTerm = 0.0;       // l(Y f)
  double logQ = -INFINITY;     // grad_q of this unit's l(Y f) = sign * exp(logQ) * ghat
  double logHead = -INFINITY;  // grad_v of this unit's l(Y f) = sign * exp(logHead) * feat
  double sign = 0.0;           // sign of l'(Y f) Y = -sign(Y)
};

struct HeadView {
  HeadKind kind = HeadKind::Linear;
  const Vec* v = nullptr;
  const Mat* V = nullptr;  // relu head only
};

// Evaluates one unit in the stable form of docs/NUMERICS.md. tokens: d x tau (columns are the
// attended tokens); q: the query vector (scores a_t = x_t . q). If wantQ, writes the unit-norm
// (max-abs) direction of grad_q into s.ghat; if wantHead, the head feature into s.feat. If
// softmax is not null it receives the tau probabilities.
UnitOutcome evaluateUnit(const Eigen::Ref<const Mat>& tokens, const Eigen::Ref<const Vec>& q,
                         double y, const HeadView& head, LossKind loss, Model::Scratch& s,
                         bool wantQ, bool wantHead, double* softmax);

// Stable l(u) and log|l'(u)| for the decreasing losses.
double lossValue(LossKind kind, double u);
double logAbsLossDerivative(LossKind kind, double u);
double softplus(double x);

}  // namespace attnsvm

namespace attnsvm {

// dst = a * b. Below Eigen's packing threshold the coefficient-based product avoids the GEMM
// packing overhead that dominates at the papers' sizes (d = 10, a handful of units).
template <class Dst, class A, class B>
inline void smallOrLargeProduct(Dst& dst, const A& a, const B& b) {
  if (a.rows() + a.cols() + b.cols() <= 40)
    dst.noalias() = a.lazyProduct(b);
  else
    dst.noalias() = a * b;
}

// Throws InputError unless the parameters have the shapes this model needs.
void checkParams(const Model::Impl& impl, const ModelSpec& spec, const Params& params);
// The head vector in use: params.v, or the dataset's v when params.v is empty.
const Vec& headVector(const Dataset& data, const Params& params);
// q_u for every unit into s.queries (prompts: one shared query in column 0).
void computeQueries(const Model::Impl& impl, const ModelSpec& spec, const Params& params,
                    Model::Scratch& s);
// The d x tau token block and query of unit u.
inline auto unitTokens(const Model::Impl& impl, int u) {
  return impl.tokensT.middleCols(static_cast<Index>(impl.unitSeq[u]) * impl.T, impl.unitCount[u]);
}
inline auto unitQuery(const ModelSpec& spec, const Model::Scratch& s, int u) {
  return s.queries.col(spec.param == Parameterization::Prompt ? 0 : u);
}

}  // namespace attnsvm

namespace attnsvm {
// Adds balance * (||K||_F^2 + ||Q||_F^2) to a (K,Q) gradient in scaled form; returns the new
// log-scale (the data part and the regularizer are combined in the log domain).
double addBalanceTerm(Gradient& g, const Params& params, double balance);
}  // namespace attnsvm
