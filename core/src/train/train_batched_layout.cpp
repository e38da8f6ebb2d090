// The batched trainer's structure-of-arrays layout (see train_batched.hpp, and the hot loops in
// train_batched.cpp): the constructor (Trainer's checks, the K runs' tokens, inputs and parameters
// laid out with the run index innermost, padded to a multiple of kLanes), and the parameters,
// weights and probabilities of one run read back out of that layout.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/train/optimizers.hpp"
#include "attnsvm/train/train_batched.hpp"
#include "model/model_internal.hpp"

namespace attnsvm {

std::string batchedUnsupported(const ModelSpec& spec, const TrainSettings& s) {
  if (spec.head != HeadKind::Linear) return "the batched trainer has the linear head only";
  if (s.trainHead) return "the batched trainer does not train the head";
  if (s.traceSoftmax) return "the batched trainer records no softmax trace";
  if (const char* why = optimizerInfo(s.optimizer).notBatched) return why;  // the registry's
  return "";
}

BatchedTrainer::BatchedTrainer(std::vector<Model> models, TrainSettings settings,
                               const std::vector<Params>& inits)
    : models_(std::move(models)), s_(std::move(settings)) {
  if (models_.empty()) throw InputError("batched trainer: no runs");
  if (inits.size() != models_.size())
    throw InputError("batched trainer: " + std::to_string(inits.size()) + " starts for " +
                     std::to_string(models_.size()) + " runs");
  const ModelSpec& spec0 = models_[0].spec();
  const std::string why = batchedUnsupported(spec0, s_);
  if (!why.empty()) throw InputError(why);
  // Trainer's checks of the settings and of the start (same messages), on the first run.
  (void)Trainer(models_[0], s_, inits[0]);
  const Dataset& d0 = models_[0].data();
  K_ = static_cast<int>(models_.size());
  KP_ = (K_ + kLanes - 1) / kLanes * kLanes;
  n_ = d0.n;
  T_ = d0.T;
  d_ = d0.d;
  param_ = spec0.param;
  lossKind_ = spec0.loss;
  m_ = param_ == Parameterization::KQ ? (spec0.m == 0 ? d_ : spec0.m) : 0;
  for (int r = 0; r < K_; ++r) {
    const Dataset& dr = models_[r].data();
    const ModelSpec& sr = models_[r].spec();
    if (dr.n != n_ || dr.T != T_ || dr.d != d_ || sr.attention != spec0.attention ||
        sr.param != param_ || sr.loss != lossKind_ || sr.head != spec0.head ||
        (param_ == Parameterization::KQ && sr.m != spec0.m) ||
        (param_ != Parameterization::Prompt && sr.attention == AttentionKind::Self &&
         dr.query != d0.query))
      throw InputError("batched trainer: run " + std::to_string(r) +
                       " differs in shape or model from run 0");
    (void)models_[r].loss(inits[r]);  // shape check of the start (InputError)
    const Params& p = inits[r];
    if (!p.W.allFinite() || !p.K.allFinite() || !p.Q.allFinite() || !p.p.allFinite() ||
        !p.v.allFinite())
      throw InputError("initial parameters of run " + std::to_string(r) + " contain NaN or Inf");
  }
  const AttentionKind kind = spec0.attention;
  const bool prompt = param_ == Parameterization::Prompt;
  units_ = perQueryUnits(kind) ? n_ * T_ : n_;
  logUnits_ = pmath::log(static_cast<double>(units_));
  unitSeq_.resize(units_);
  unitCount_.resize(units_);
  const std::size_t K = KP_, d = d_, T = T_, U = units_;
  tokens_.assign(static_cast<std::size_t>(n_) * T * d * K, 0.0);
  headDot_.assign(static_cast<std::size_t>(n_) * T * K, 0.0);
  label_.assign(U * K, 0.0);
  if (!prompt) queryIn_.assign(U * d * K, 0.0);
  if (prompt) keys_.assign(d * d * K, 0.0);
  for (int r = 0; r < K_; ++r) {
    const Dataset& dr = models_[r].data();
    const Vec& v = inits[r].v.size() ? inits[r].v : dr.v;
    for (int row = 0; row < n_ * T_; ++row) {
      for (int j = 0; j < d_; ++j) tokens_[(row * d + j) * K + r] = dr.X(row, j);
      headDot_[row * K + r] = dr.X.row(row).dot(v);
    }
    if (prompt)
      for (std::size_t e = 0; e < d * d; ++e) keys_[e * K + r] = models_[r].spec().Wk(e);
  }
  for (int u = 0; u < units_; ++u) {
    const bool perQuery = perQueryUnits(kind);
    const int i = perQuery ? u / T_ : u;
    const int k = perQuery ? u % T_ : 0;
    unitSeq_[u] = i;
    unitCount_[u] = kind == AttentionKind::Causal ? k + 1 : T_;
    for (int r = 0; r < K_; ++r) {
      const Dataset& dr = models_[r].data();
      label_[u * K + r] = dr.Y[i];
      if (prompt) continue;
      for (int j = 0; j < d_; ++j) {
        double z = 0.0;
        switch (kind) {
          case AttentionKind::Cross:
            z = dr.Z(i, j);
            break;
          case AttentionKind::Self:
            z = dr.X(i * T_ + dr.query, j);
            break;
          default:
            z = dr.X(i * T_ + k, j);
            break;
        }
        queryIn_[(u * d + j) * K + r] = z;
      }
    }
  }
  // Parameters, column-major per run.
  auto load = [&](std::vector<double>& dst, std::size_t size, auto get) {
    dst.assign(size * K, 0.0);
    for (int r = 0; r < K_; ++r)
      for (std::size_t e = 0; e < size; ++e) dst[e * K + r] = get(r, e);
  };
  const std::size_t dm = d * static_cast<std::size_t>(m_);
  switch (param_) {
    case Parameterization::W:
      load(W_, d * d, [&](int r, std::size_t e) { return inits[r].W(e); });
      nextW_ = W_;
      gW_.assign(d * d * K, 0.0);
      break;
    case Parameterization::KQ:
      load(K_m_, dm, [&](int r, std::size_t e) { return inits[r].K(e); });
      load(Q_, dm, [&](int r, std::size_t e) { return inits[r].Q(e); });
      nextK_ = K_m_;
      nextQ_ = Q_;
      gW_.assign(d * d * K, 0.0);
      gK_.assign(dm * K, 0.0);
      gQ_.assign(dm * K, 0.0);
      inner_.assign(U * m_ * K, 0.0);
      break;
    case Parameterization::Prompt:
      load(p_, d, [&](int r, std::size_t e) { return inits[r].p(e); });
      nextP_ = p_;
      gP_.assign(d * K, 0.0);
      break;
  }
  if (s_.optimizer == Optimizer::Adam) {  // moments of every entry of every block, zero at start
    const std::size_t entries = param_ == Parameterization::W    ? d * d
                                : param_ == Parameterization::KQ ? 2 * dm
                                                                 : d;
    adamM_.assign(entries * K, 0.0);
    adamS_.assign(entries * K, 0.0);
    adamCoef_.assign(4 * K, 0.0);
  }
  inits_ = inits;
  // Padding lanes (up to a multiple of kLanes) hold copies of run 0 and never commit a step.
  for (std::vector<double>* v :
       {&tokens_, &headDot_, &label_, &queryIn_, &keys_, &W_, &K_m_, &Q_, &p_})
    padLanes(*v);
  nextW_ = W_;
  nextK_ = K_m_;
  nextQ_ = Q_;
  nextP_ = p_;
  queries_.assign((prompt ? 1 : U) * d * K, 0.0);
  score_.assign(T * K, 0.0);
  w_.assign(T * K, 0.0);
  xa_.assign(d * K, 0.0);
  ghat_.assign(d * K, 0.0);
  dirs_.assign(U * d * K, 0.0);
  logQ_.assign(U * K, 0.0);
  sign_.assign(U * K, 0.0);
  prob_.assign(U * K, 0.0);
  alpha_.assign(U * K, 0);
  tmp_.assign(d * K, 0.0);
  tmp2_.assign(d * K, 0.0);
  coef_.assign(8 * K, 0.0);
  logScale_.assign(K, 0.0);
  loss_.assign(K, 0.0);
  active_.assign(K, 1);
  moved_.assign(K, 0);
  movedFirst_.assign(K, 0);
  iteration_.assign(K_, 0);
  stopReason_.assign(K_, std::string());
  evaluate();
  checkEvaluation();
}

void BatchedTrainer::padLanes(std::vector<double>& v) const {
  const std::size_t K = KP_;
  for (std::size_t e = 0; e * K < v.size(); ++e)
    for (std::size_t k = K_; k < K; ++k) v[e * K + k] = v[e * K];
}

bool BatchedTrainer::allStopped() const {
  for (int r = 0; r < K_; ++r)
    if (stopReason_[r].empty()) return false;
  return true;
}

Params BatchedTrainer::params(int r) const {
  Params out = inits_.at(r);
  if (out.v.size() == 0) out.v = models_[r].data().v;
  const std::size_t K = KP_;
  auto unload = [&](const std::vector<double>& src, double* dst, std::size_t size) {
    for (std::size_t e = 0; e < size; ++e) dst[e] = src[e * K + r];
  };
  switch (param_) {
    case Parameterization::W:
      unload(W_, out.W.data(), out.W.size());
      break;
    case Parameterization::KQ:
      unload(K_m_, out.K.data(), out.K.size());
      unload(Q_, out.Q.data(), out.Q.size());
      break;
    case Parameterization::Prompt:
      unload(p_, out.p.data(), out.p.size());
      break;
  }
  return out;
}

// The effective weights read straight from run r's columns: a snapshot (runTrainingBatched takes
// one every few steps of every run) copies no start and allocates nothing; for (K,Q) the product is
// effectiveWeights' own (K Q^T, Eigen's GEMM at d = 10 as there), so the bits are the same.
Mat BatchedTrainer::weights(int r) const {
  static_cast<void>(models_.at(r));  // std::out_of_range for no such run, as params(r)
  Mat out(d_, param_ == Parameterization::Prompt ? 1 : d_);
  weightsInto(r, out);
  return out;
}

void BatchedTrainer::weightsInto(int r, MatRef out) const {
  static_cast<void>(models_.at(r));
  const Eigen::Index cols = param_ == Parameterization::Prompt ? 1 : d_;
  if (out.rows() != d_ || out.cols() != cols)
    throw InputError("BatchedTrainer::weightsInto: a " + std::to_string(out.rows()) + " x " +
                     std::to_string(out.cols()) + " block for " + std::to_string(d_) + " x " +
                     std::to_string(cols) + " weights");
  const std::size_t K = KP_;
  auto unload = [&](const std::vector<double>& src, double* dst, std::size_t size) {
    for (std::size_t e = 0; e < size; ++e) dst[e] = src[e * K + r];
  };
  switch (param_) {
    case Parameterization::W:
      for (Eigen::Index c = 0; c < d_; ++c)
        for (Eigen::Index i = 0; i < d_; ++i) out(i, c) = W_[(c * d_ + i) * K + r];
      return;
    case Parameterization::KQ:
      snapK_.resize(d_, m_);
      snapQ_.resize(d_, m_);
      unload(K_m_, snapK_.data(), static_cast<std::size_t>(snapK_.size()));
      unload(Q_, snapQ_.data(), static_cast<std::size_t>(snapQ_.size()));
      out.noalias() = snapK_ * snapQ_.transpose();
      return;
    case Parameterization::Prompt:
      for (Eigen::Index i = 0; i < d_; ++i) out(i, 0) = p_[i * K + r];
      return;
  }
}

void BatchedTrainer::selectedProbability(int r, VecRef out) const {
  for (int u = 0; u < units_; ++u) out[u] = prob_[static_cast<std::size_t>(u) * KP_ + r];
}

}  // namespace attnsvm
