// The real-images trainer (attnsvm/train/real_train.hpp): epochs, minibatch order, initialization
// and the optimizer steps over the kernel's scaled gradient (real_kernel.cpp).
//
// Steps (SPEC section 2; the scaled gradient g = exp(logScale) D of docs/NUMERICS.md):
//   md:   U <- U - lr g;                                W = sign(U) |U|^{1/(p-1)}
//   nmd:  U <- U - lr D / (||D||_q + exp(log(eps) - logScale)),  1/p + 1/q = 1 (= g / (||g||_q +
//   eps);
//         eps = normEpsilon, machine epsilon by default; 0 gives the pure normalized step D /
//         ||D||_q)
//   nmd-fro: U <- U - lr D / ||D||_F  (the Frobenius-normalized variant; zero step at D = 0)
//   adam: m <- b1 m + (1-b1) g, s <- b2 s + (1-b2) g^2, W <- W - lr/(1-b1^k) m / (sqrt(s/(1-b2^k))
//   + eps)
// For md, nmd and nmd-fro (the registry's mirror optimizers) the dual variable U = sign(W)|W|^{p-1}
// is the state and W its image (the same algorithm as recomputing U from W each step, in exact
// arithmetic, with one power per entry and step instead of two); p = 2 needs no map (GD), p = 3
// uses the square root. The same for v.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/train/optimizers.hpp"
#include "attnsvm/train/real_train.hpp"
#include "train/real_kernel.hpp"
#include "train/train_internal.hpp"

// GCC on x86-64: the power loops are compiled for AVX-512, AVX2 and the SSE2 baseline (the same
// bits at every width: elementwise IEEE operations; no multiply-add is fused).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__EMSCRIPTEN__) && \
    !defined(ATTNSVM_NO_TARGET_CLONES)
#pragma GCC optimize("fp-contract=off")
#define ATTNSVM_TRAIN_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ATTNSVM_TRAIN_CLONES
#endif

namespace attnsvm {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// terms_k = |x_k / scale|^e for finite x and e > 0, as pmath::pow (0 -> 0) through its branch-free
// core, so that the loops vectorize (GCC: one clone per vector width, the same bits; see
// real_kernel.cpp): the powers of max(|.|, DBL_MIN) first (no condition, so the table lookups need
// no mask), then the zeros put back.
ATTNSVM_TRAIN_CLONES
void absPowers(const double* __restrict x, std::size_t size, double scale, double e,
               double* __restrict terms) {
  namespace pd = pmath::detail;
  using V4 = pd::V4;
  using L = pd::Lanes<V4>;
  constexpr double kTiny = std::numeric_limits<double>::min();
  std::size_t k = 0;
  // four at a time, each lane the scalar code below operation for operation
  const V4 tiny = V4{} + kTiny, ev = V4{} + e;
  for (; k + 4 <= size; k += 4) {
    V4 v;
    std::memcpy(&v, x + k, sizeof v);
    const V4 a = pd::fromBitsOf<V4>(pd::bitsOf(v / scale) & 0x7fffffffffffffffULL);  // |x / scale|
    const V4 r = pd::powCore(pd::select(L::less(a, tiny), tiny, a), ev);  // max(a, tiny)^e
    std::memcpy(terms + k, &r, sizeof r);
  }
  for (; k < size; ++k) terms[k] = pd::powCore(std::max(std::abs(x[k] / scale), kTiny), e);
  for (k = 0; k < size; ++k) terms[k] = x[k] == 0.0 ? 0.0 : terms[k];
}

// x <- sign(x)|x|^e entrywise for finite x and e > 0; e = 1 exact, e = 2 and 1/2 without pow
// (correctly rounded). `terms`: scratch of `size` doubles.
void signedPower(double* x, std::size_t size, double e, double* terms) {
  if (e == 1.0) return;
  if (e == 2.0) {
    for (std::size_t k = 0; k < size; ++k) x[k] = x[k] * std::abs(x[k]);
  } else if (e == 0.5) {
    for (std::size_t k = 0; k < size; ++k) x[k] = std::copysign(std::sqrt(std::abs(x[k])), x[k]);
  } else {
    absPowers(x, size, 1.0, e, terms);
    for (std::size_t k = 0; k < size; ++k) x[k] = std::copysign(terms[k], x[k]);
  }
}

// Entrywise l_q norm (finite x), overflow-safe, summed in storage order:
// top (sum (|x|/top)^q)^{1/q}. `terms`: scratch of `size` doubles.
double lqNorm(const double* x, std::size_t size, double q, double* terms) {
  double top = 0.0;
  for (std::size_t k = 0; k < size; ++k) top = std::max(top, std::abs(x[k]));
  if (!(top > 0.0) || !std::isfinite(top)) return top;
  double sum = 0.0;
  if (q == 2.0) {
    for (std::size_t k = 0; k < size; ++k) {
      const double y = x[k] / top;
      sum += y * y;
    }
    return top * std::sqrt(sum);
  }
  if (q == 1.5) {  // the dual of p = 3
    for (std::size_t k = 0; k < size; ++k) {
      const double y = std::abs(x[k]) / top;
      sum += y * std::sqrt(y);
    }
  } else {
    absPowers(x, size, top, q, terms);
    for (std::size_t k = 0; k < size; ++k) sum += terms[k];
  }
  return top * pmath::pow(sum, 1.0 / q);
}

bool allFinite(const double* x, std::size_t size) {
  for (std::size_t k = 0; k < size; ++k)
    if (!std::isfinite(x[k])) return false;
  return true;
}

// One parameter block: its primal values, dual state (md/nmd) or Adam moments, and candidate.
struct Block {
  std::vector<double> x, dual, m, sq, next, nextDual, terms;
  void init(const double* values, std::size_t size, const RealTrainSettings& s) {
    x.assign(values, values + size);
    next = x;
    terms.assign(size, 0.0);
    if (optimizerInfo(s.optimizer).mirror) {
      dual = x;
      signedPower(dual.data(), size, s.p - 1.0, terms.data());
      nextDual = dual;
    }
    if (s.optimizer == Optimizer::Adam) {
      m.assign(size, 0.0);
      sq.assign(size, 0.0);
    }
  }
  // Candidate step into next (and nextDual) along exp(logScale) dir; k: the step's number (Adam).
  void step(const std::vector<double>& dir, double logScale, const RealTrainSettings& s, int k) {
    const std::size_t size = x.size();
    double coef = 0.0;
    switch (optimizerInfo(s.optimizer).scale) {
      case StepScale::Adaptive: {
        const double scale =
            logScale == kNegInf ? 0.0 : pmath::exp(std::min(logScale, kAdamMaxLogScale));
        const double b1 = s.adamBeta1, b2 = s.adamBeta2;
        const double w1 = (1.0 - b1) * scale, w2 = (1.0 - b2) * scale * scale;
        const double c1 = 1.0 - pmath::pow(b1, k), c2 = 1.0 - pmath::pow(b2, k);
        const double lr1 = s.lr / c1;
        for (std::size_t j = 0; j < size; ++j) {
          m[j] = b1 * m[j] + w1 * dir[j];
          sq[j] = b2 * sq[j] + w2 * (dir[j] * dir[j]);
          next[j] = x[j] - lr1 * (m[j] / (std::sqrt(sq[j] / c2) + s.adamEps));
        }
        return;
      }
      case StepScale::DualNorm: {
        const double dualNorm = lqNorm(dir.data(), size, s.p / (s.p - 1.0), terms.data());
        const double floor =
            s.normEpsilon > 0.0 ? pmath::exp(pmath::log(s.normEpsilon) - logScale) : 0.0;
        coef = (dualNorm > 0.0 && logScale != kNegInf) ? s.lr / (dualNorm + floor) : 0.0;
        break;
      }
      case StepScale::Frobenius: {  // nmd-fro (ngd runs as nmd at p = 2: `normalized` below)
        const double norm = lqNorm(dir.data(), size, 2.0, terms.data());
        coef = (norm > 0.0 && logScale != kNegInf) ? s.lr / norm : 0.0;
        break;
      }
      case StepScale::Plain:
        coef = logScale == kNegInf ? 0.0 : s.lr * pmath::exp(logScale);
        break;
    }
    if (coef == 0.0) {  // exactly no step (the mirror round trip is not taken)
      next = x;
      nextDual = dual;
      return;
    }
    for (std::size_t j = 0; j < size; ++j) nextDual[j] = dual[j] - coef * dir[j];
    next = nextDual;
    signedPower(next.data(), size, 1.0 / (s.p - 1.0), terms.data());
  }
  void accept() {
    std::swap(x, next);
    std::swap(dual, nextDual);
  }
};

void checkSettings(const RealTrainSettings& s, int n) {
  auto bad = [](const std::string& what) { throw InputError(what); };
  if (!(s.lr > 0.0) || !std::isfinite(s.lr))
    bad("lr = " + std::to_string(s.lr) + ": must be finite and > 0");
  if (s.optimizer != Optimizer::Adam && (!(s.p > 1.0) || !std::isfinite(s.p) || s.p > 1e3))
    bad("p = " + std::to_string(s.p) + ": must be in (1, 1000]");
  if (s.batch < 0) bad("batch = " + std::to_string(s.batch) + ": must be >= 0 (0: full batch)");
  if (!(s.normEpsilon >= 0.0) || !std::isfinite(s.normEpsilon))
    bad("normEpsilon = " + std::to_string(s.normEpsilon) + ": must be finite and >= 0");
  if (!(s.initScale >= 0.0) || !std::isfinite(s.initScale))
    bad("initScale = " + std::to_string(s.initScale) + ": must be finite and >= 0");
  if (s.optimizer == Optimizer::Adam &&
      (!(s.adamBeta1 >= 0.0 && s.adamBeta1 < 1.0) || !(s.adamBeta2 >= 0.0 && s.adamBeta2 < 1.0) ||
       !(s.adamEps > 0.0) || !std::isfinite(s.adamEps)))
    bad("Adam needs adamBeta1, adamBeta2 in [0, 1) and adamEps > 0");
  if (n < 1) bad("the training set is empty");
}

// gd and ngd are md and nmd at p = 2.
RealTrainSettings normalized(RealTrainSettings s) {
  if (s.optimizer == Optimizer::GD) {
    s.optimizer = Optimizer::MD;
    s.p = 2.0;
  } else if (s.optimizer == Optimizer::NGD) {
    s.optimizer = Optimizer::NMD;
    s.p = 2.0;
  }
  return s;
}

}  // namespace

std::shared_ptr<const RealData> realData(const Dataset& data) {
  if (data.Z.rows() != data.n || data.Z.cols() != data.d)
    throw InputError("the real-images kernel needs cross-attention queries Z (n x d)");
  if (data.T < 2) throw InputError("the real-images kernel needs T >= 2 tokens per image");
  if (data.X.rows() != static_cast<Index>(data.n) * data.T || data.X.cols() != data.d ||
      data.Y.size() != data.n)
    throw InputError("dataset shapes do not match n x T x d");
  auto out = std::make_shared<RealData>();
  RealData& r = *out;
  r.n = data.n;
  r.T = data.T;
  r.d = data.d;
  r.tokens.resize(static_cast<std::size_t>(r.n) * r.d * r.T);
  r.queries.resize(static_cast<std::size_t>(r.n) * r.d);
  r.labels.resize(r.n);
  for (int i = 0; i < r.n; ++i) {
    if (data.Y[i] != 1.0 && data.Y[i] != -1.0)
      throw InputError("Y[" + std::to_string(i) + "] = " + std::to_string(data.Y[i]) +
                       ": labels must be +1 or -1");
    r.labels[i] = data.Y[i];
    for (int j = 0; j < r.d; ++j) {
      r.queries[static_cast<std::size_t>(i) * r.d + j] = data.Z(i, j);
      for (int t = 0; t < r.T; ++t)
        r.tokens[(static_cast<std::size_t>(i) * r.d + j) * r.T + t] =
            data.X(static_cast<Index>(i) * r.T + t, j);
    }
  }
  if (!allFinite(r.tokens.data(), r.tokens.size()) ||
      !allFinite(r.queries.data(), r.queries.size()))
    throw InputError("the tokens or queries contain NaN or Inf");
  return out;
}

struct RealTrainer::Impl {
  std::shared_ptr<const RealData> data;
  RealTrainSettings s;
  int n = 0, d = 0, batch = 0, batches = 0;
  Block W, v;
  mutable Mat Wview;
  mutable Vec vview;
  std::vector<int> order;
  int position = 0;  // batches done in the current epoch
  int steps = 0, epochs = 0;
  PortableGaussian rng;
  real::Scratch scratch;
  real::BatchGradient grad;
  double lossSum = 0.0;
  long correct = 0;
  double lastLoss = kNaN, lastAccuracy = kNaN;
  std::string stopReason;

  Impl(std::shared_ptr<const RealData> dat, const RealTrainSettings& settings, const Mat& W0,
       const Vec& v0)
      : data(std::move(dat)), s(normalized(settings)), rng(settings.seed) {
    if (!data) throw InputError("RealTrainer: no data");
    checkSettings(s, data->n);
    n = data->n;
    d = data->d;
    batch = (s.batch <= 0 || s.batch >= n) ? n : s.batch;
    batches = (n + batch - 1) / batch;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    // W0 row by row, then v0, from the seed's Gaussian stream (zero when initScale = 0).
    std::vector<double> w0(static_cast<std::size_t>(d) * d, 0.0), h0(d, 0.0);
    if (s.initScale > 0.0) {
      for (int r = 0; r < d; ++r)
        for (int c = 0; c < d; ++c)
          w0[static_cast<std::size_t>(c) * d + r] = s.initScale * rng.next();
      for (int j = 0; j < d; ++j) h0[j] = s.initScale * rng.next();
    }
    if (W0.size() > 0) {
      if (W0.rows() != d || W0.cols() != d)
        throw InputError("W0 is " + std::to_string(W0.rows()) + " x " + std::to_string(W0.cols()) +
                         ", expected " + std::to_string(d) + " x " + std::to_string(d));
      std::copy(W0.data(), W0.data() + W0.size(), w0.begin());
    }
    if (v0.size() > 0) {
      if (v0.size() != d)
        throw InputError("v0 has size " + std::to_string(v0.size()) + ", expected " +
                         std::to_string(d));
      std::copy(v0.data(), v0.data() + d, h0.begin());
    }
    if (!allFinite(w0.data(), w0.size()) || !allFinite(h0.data(), h0.size()))
      throw InputError("W0 or v0 contains NaN or Inf");
    W.init(w0.data(), w0.size(), s);
    v.init(h0.data(), h0.size(), s);
  }

  bool step() {
    if (!stopReason.empty()) return false;
    if (position == 0 && batch < n) {
      // a new epoch: Fisher-Yates with the run's stream, swap i with nextU64() % (i + 1)
      for (int i = n - 1; i > 0; --i) {
        const int j = static_cast<int>(rng.rng().nextU64() % static_cast<std::uint64_t>(i + 1));
        std::swap(order[i], order[j]);
      }
    }
    const int first = position * batch;
    const int count = std::min(batch, n - first);
    real::batchGradient(*data, order.data() + first, count, W.x.data(), v.x.data(), s.trainHead,
                        scratch, grad);
    if (std::isnan(grad.logScale) || (s.trainHead && std::isnan(grad.logScaleHead)) ||
        !std::isfinite(grad.lossSum)) {
      stopReason = "the gradient or the loss is not finite at step " + std::to_string(steps);
      return false;
    }
    if (s.trainW) W.step(grad.GW, grad.logScale, s, steps + 1);
    if (s.trainHead) v.step(grad.Gv, grad.logScaleHead, s, steps + 1);
    if ((s.trainW && !allFinite(W.next.data(), W.next.size())) ||
        (s.trainHead && !allFinite(v.next.data(), v.next.size()))) {
      stopReason = "the parameters are not finite after step " + std::to_string(steps + 1) +
                   " (divergent run; the step was not taken)";
      return false;
    }
    if (s.trainW) W.accept();
    if (s.trainHead) v.accept();
    lossSum += grad.lossSum;
    correct += grad.correct;
    ++steps;
    if (++position == batches) {
      position = 0;
      ++epochs;
      lastLoss = lossSum / n;
      lastAccuracy = static_cast<double>(correct) / n;
      lossSum = 0.0;
      correct = 0;
    }
    return true;
  }
};

RealTrainer::RealTrainer(std::shared_ptr<const RealData> train, const RealTrainSettings& settings,
                         const Mat& W0, const Vec& v0)
    : impl_(std::make_shared<Impl>(std::move(train), settings, W0, v0)) {}

bool RealTrainer::step() { return impl_->step(); }
int RealTrainer::stepEpoch() {
  int taken = 0;
  do {
    if (!impl_->step()) break;
    ++taken;
  } while (impl_->position != 0);
  return taken;
}
int RealTrainer::steps() const { return impl_->steps; }
int RealTrainer::epochs() const { return impl_->epochs; }
int RealTrainer::batchesPerEpoch() const { return impl_->batches; }
const std::string& RealTrainer::stopReason() const { return impl_->stopReason; }
double RealTrainer::epochLoss() const { return impl_->lastLoss; }
double RealTrainer::epochAccuracy() const { return impl_->lastAccuracy; }

const Mat& RealTrainer::W() const {
  Impl& m = *impl_;
  m.Wview = Eigen::Map<const Mat>(m.W.x.data(), m.d, m.d);
  return m.Wview;
}
const Vec& RealTrainer::v() const {
  Impl& m = *impl_;
  m.vview = Eigen::Map<const Vec>(m.v.x.data(), m.d);
  return m.vview;
}

RealEvaluation RealTrainer::evaluate(const RealData& data) const {
  return evaluate(data, W(), v());
}

RealEvaluation RealTrainer::evaluate(const RealData& data, const Mat& W, const Vec& v) {
  if (W.rows() != data.d || W.cols() != data.d || v.size() != data.d)
    throw InputError("evaluate: W and v do not match d = " + std::to_string(data.d));
  real::Scratch s;
  s.reserve(data.T, data.d);
  RealEvaluation e;
  e.selection.resize(data.n);
  double loss = 0.0, maxSoftmax = 0.0, minSoftmax = 1.0;
  int correct = 0, optimal = 0, none = 0;
  for (int i = 0; i < data.n; ++i) {
    const real::UnitOutcome o = real::unit(data, i, W.data(), v.data(), s, false);
    loss += o.loss;
    correct += data.labels[i] * o.f > 0.0 ? 1 : 0;
    maxSoftmax += o.probability;
    minSoftmax = std::min(minSoftmax, o.probability);
    optimal += o.gammaOptimal ? 1 : 0;
    none += o.maxGamma <= 0.0 ? 1 : 0;
    e.selection[i] = o.alpha;
  }
  const double n = std::max(1, data.n);
  e.loss = loss / n;
  e.accuracy = correct / n;
  e.maxSoftmax = maxSoftmax / n;
  e.minSoftmax = minSoftmax;
  e.gammaOptimal = optimal / n;
  e.noPositiveToken = none / n;
  return e;
}

Mat realSoftmax(const RealData& data, const Mat& W, const Vec& v) {
  if (W.rows() != data.d || W.cols() != data.d || v.size() != data.d)
    throw InputError("softmax: W and v do not match d = " + std::to_string(data.d));
  real::Scratch s;
  s.reserve(data.T, data.d);
  Mat out(data.n, data.T);
  for (int i = 0; i < data.n; ++i) {
    const real::UnitOutcome o = real::unit(data, i, W.data(), v.data(), s, false);
    for (int t = 0; t < data.T; ++t)
      out(i, t) = t == o.alpha ? o.probability : s.w[t] * o.expLambda;
  }
  return out;
}

double RealTrainer::sparsity(const Mat& W) {
  double top = 0.0;
  for (Index k = 0; k < W.size(); ++k) top = std::max(top, std::abs(W.data()[k]));
  if (!(top > 0.0)) return 1.0;
  int small = 0;
  for (Index k = 0; k < W.size(); ++k) small += std::abs(W.data()[k]) / top < 0.01 ? 1 : 0;
  return static_cast<double>(small) / static_cast<double>(W.size());
}

}  // namespace attnsvm
