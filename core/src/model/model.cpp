// Model construction, parameters, loss and forward pass (SPEC section 1).
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "cold.hpp"
#include "model/model_internal.hpp"

namespace attnsvm {

// ---- scratch holder: copies start with empty scratch (it holds no state worth copying) ----
Model::ScratchHolder::ScratchHolder() : ptr(std::make_unique<Scratch>()) {}
Model::ScratchHolder::ScratchHolder(const ScratchHolder&) : ptr(std::make_unique<Scratch>()) {}
Model::ScratchHolder::ScratchHolder(ScratchHolder&& other) noexcept : ptr(std::move(other.ptr)) {}
Model::ScratchHolder& Model::ScratchHolder::operator=(const ScratchHolder&) {
  if (!ptr) ptr = std::make_unique<Scratch>();
  return *this;
}
Model::ScratchHolder& Model::ScratchHolder::operator=(ScratchHolder&& other) noexcept {
  ptr = std::move(other.ptr);
  return *this;
}
Model::ScratchHolder::~ScratchHolder() = default;

void Model::Scratch::reserve(int d, int m, int T, int units) {
  // Resizing to the same size is free in Eigen; the first call allocates, later ones do not.
  if (queries.rows() != d || queries.cols() != units) queries.resize(d, units);
  if (inner.rows() != m || inner.cols() != units) inner.resize(m, units);
  if (dirs.rows() != d || dirs.cols() != units) dirs.resize(d, units);
  if (feats.rows() != d || feats.cols() != units) feats.resize(d, units);
  if (gradW.rows() != d || gradW.cols() != d) gradW.resize(d, d);
  for (Vec* x : {&a, &w, &delta})
    if (x->size() != T) x->resize(T);
  for (Vec* x : {&r, &h, &hidden, &ghat, &feat, &sum})
    if (x->size() != d) x->resize(d);
  for (Vec* x : {&muQ, &muHead, &sign})
    if (x->size() != units) x->resize(units);
}

namespace {

void requireFinite(const Mat& m, const std::string& name) {
  for (Index r = 0; r < m.rows(); ++r)
    for (Index c = 0; c < m.cols(); ++c)
      if (!std::isfinite(m(r, c)))
        throw InputError(name + "[" + std::to_string(r) + "][" + std::to_string(c) + "] is " +
                         (std::isnan(m(r, c)) ? "NaN" : "infinite"));
}

std::string shape(const Mat& m) {
  return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

}  // namespace

ATTNSVM_COLD_FN Model::Model(const Dataset& data, ModelSpec spec)
    : data_(data), spec_(std::move(spec)) {
  const bool prompt = spec_.param == Parameterization::Prompt;
  if (prompt && perQueryUnits(spec_.attention))
    throw InputError(
        "prompt parameterization with sequence-to-sequence or causal attention: the prompt is "
        "the one query shared by all units, so per-position queries are meaningless; use cross "
        "or self attention (both mean one softmax per sequence for a prompt)");
  // A prompt model never reads Z or the query index: check only tokens, labels, head, alpha.
  validate(data_, prompt ? AttentionKind::SeqToSeq : spec_.attention);
  const int d = data_.d;
  if (spec_.m < 0)
    throw InputError("m = " + std::to_string(spec_.m) + " must be >= 1 (or 0 for d)");
  auto impl = std::make_shared<Impl>();
  impl->d = d;
  impl->m = spec_.param == Parameterization::KQ ? (spec_.m == 0 ? d : spec_.m) : 0;
  impl->T = data_.T;
  if (prompt) {
    if (spec_.Wk.rows() != d || spec_.Wk.cols() != d)
      throw InputError("Wk is " + shape(spec_.Wk) + ", expected d x d = " + std::to_string(d) +
                       " x " + std::to_string(d) + " (prompt key matrix)");
    requireFinite(spec_.Wk, "Wk");
  }
  if (spec_.head == HeadKind::ReluMLP) {
    if (spec_.V.rows() != d || spec_.V.cols() != d)
      throw InputError("V is " + shape(spec_.V) + ", expected d x d = " + std::to_string(d) +
                       " x " + std::to_string(d) + " (relu head)");
    requireFinite(spec_.V, "V");
  }

  const int n = data_.n, T = data_.T;
  units_ = perQueryUnits(spec_.attention) ? n * T : n;
  impl->units = units_;
  impl->logUnits = pmath::log(static_cast<double>(units_));
  impl->tokensT = data_.X.transpose();
  impl->unitSeq.resize(units_);
  impl->unitCount.resize(units_);
  impl->label.resize(units_);
  if (!prompt) impl->queryInputsT.resize(d, units_);
  for (int u = 0; u < units_; ++u) {
    const bool perQuery = perQueryUnits(spec_.attention);
    const int i = perQuery ? u / T : u;
    const int k = perQuery ? u % T : 0;
    impl->unitSeq[u] = i;
    impl->unitCount[u] = spec_.attention == AttentionKind::Causal ? k + 1 : T;
    impl->label[u] = data_.Y[i];
    if (prompt) continue;
    switch (spec_.attention) {
      case AttentionKind::Cross:
        impl->queryInputsT.col(u) = data_.Z.row(i).transpose();
        break;
      case AttentionKind::Self:
        impl->queryInputsT.col(u) = data_.token(i, data_.query).transpose();
        break;
      default:
        impl->queryInputsT.col(u) = data_.token(i, k).transpose();
        break;
    }
  }
  impl_ = std::move(impl);
}

int Model::unitSequence(int u) const { return impl_->unitSeq.at(u); }
int Model::unitTokenCount(int u) const { return impl_->unitCount.at(u); }

Params Model::zeroParams() const {
  Params p;
  const int d = data_.d;
  switch (spec_.param) {
    case Parameterization::W:
      p.W = Mat::Zero(d, d);
      break;
    case Parameterization::KQ:
      p.K = Mat::Zero(d, impl_->m);
      p.Q = Mat::Zero(d, impl_->m);
      break;
    case Parameterization::Prompt:
      p.p = Vec::Zero(d);
      break;
  }
  p.v = data_.v;
  return p;
}

Mat effectiveWeights(const ModelSpec& spec, const Params& params) {
  switch (spec.param) {
    case Parameterization::W:
      return params.W;
    case Parameterization::KQ:
      return params.K * params.Q.transpose();
    case Parameterization::Prompt:
      return params.p;  // d x 1
  }
  return Mat();
}

void checkParams(const Model::Impl& impl, const ModelSpec& spec, const Params& params) {
  const int d = impl.d;
  auto bad = [](const std::string& what, const std::string& got, const std::string& want) {
    throw InputError("parameter " + what + " is " + got + ", expected " + want);
  };
  const std::string dd = std::to_string(d) + " x " + std::to_string(d);
  switch (spec.param) {
    case Parameterization::W:
      if (params.W.rows() != d || params.W.cols() != d) bad("W", shape(params.W), dd);
      break;
    case Parameterization::KQ: {
      const std::string dm = std::to_string(d) + " x " + std::to_string(impl.m);
      if (params.K.rows() != d || params.K.cols() != impl.m) bad("K", shape(params.K), dm);
      if (params.Q.rows() != d || params.Q.cols() != impl.m) bad("Q", shape(params.Q), dm);
      break;
    }
    case Parameterization::Prompt:
      if (params.p.size() != d)
        bad("p", "of size " + std::to_string(params.p.size()), "size " + std::to_string(d));
      break;
  }
  if (params.v.size() != 0 && params.v.size() != d)
    bad("v", "of size " + std::to_string(params.v.size()), "size " + std::to_string(d));
}

const Vec& headVector(const Dataset& data, const Params& params) {
  return params.v.size() == 0 ? data.v : params.v;
}

void computeQueries(const Model::Impl& impl, const ModelSpec& spec, const Params& params,
                    Model::Scratch& s) {
  s.reserve(impl.d, impl.m, impl.T, impl.units);
  switch (spec.param) {
    case Parameterization::W:
      smallOrLargeProduct(s.queries, params.W, impl.queryInputsT);
      break;
    case Parameterization::KQ:
      smallOrLargeProduct(s.inner, params.Q.transpose(), impl.queryInputsT);
      smallOrLargeProduct(s.queries, params.K, s.inner);
      break;
    case Parameterization::Prompt:
      s.queries.col(0).noalias() = spec.Wk.transpose() * params.p;
      break;
  }
}

double Model::loss(const Params& params) const {
  checkParams(*impl_, spec_, params);
  Scratch& s = *scratch_.ptr;
  computeQueries(*impl_, spec_, params, s);
  const HeadView head{spec_.head, &headVector(data_, params), &spec_.V};
  double total = 0.0;
  for (int u = 0; u < units_; ++u)
    total += evaluateUnit(unitTokens(*impl_, u), unitQuery(spec_, s, u), impl_->label[u], head,
                          spec_.loss, s, false, false, nullptr)
                 .lossTerm;
  return total / units_;
}

void Model::selection(const Params& params, std::vector<int>& selected, VecRef probability) const {
  checkParams(*impl_, spec_, params);
  if (static_cast<int>(selected.size()) != units_) selected.resize(units_);
  if (probability.size() != units_)
    throw InputError("selection: probability has size " + std::to_string(probability.size()) +
                     ", expected units = " + std::to_string(units_));
  Scratch& s = *scratch_.ptr;
  computeQueries(*impl_, spec_, params, s);
  const HeadView head{spec_.head, &headVector(data_, params), &spec_.V};
  for (int u = 0; u < units_; ++u) {
    const UnitOutcome o = evaluateUnit(unitTokens(*impl_, u), unitQuery(spec_, s, u),
                                       impl_->label[u], head, spec_.loss, s, false, false, nullptr);
    selected[u] = o.alpha;
    probability[u] = o.probability;
  }
}

Forward Model::forward(const Params& params) const {
  checkParams(*impl_, spec_, params);
  Scratch& s = *scratch_.ptr;
  computeQueries(*impl_, spec_, params, s);
  const HeadView head{spec_.head, &headVector(data_, params), &spec_.V};
  Forward out;
  out.softmax = Mat::Zero(units_, data_.T);
  out.output.resize(units_);
  out.selected.resize(units_);
  out.selectedProbability.resize(units_);
  std::vector<double> row(data_.T);
  double total = 0.0;
  for (int u = 0; u < units_; ++u) {
    const UnitOutcome o =
        evaluateUnit(unitTokens(*impl_, u), unitQuery(spec_, s, u), impl_->label[u], head,
                     spec_.loss, s, false, false, row.data());
    for (int t = 0; t < impl_->unitCount[u]; ++t) out.softmax(u, t) = row[t];
    out.output[u] = o.f;
    out.selected[u] = o.alpha;
    out.selectedProbability[u] = o.probability;
    total += o.lossTerm;
  }
  out.loss = total / units_;
  return out;
}

}  // namespace attnsvm
