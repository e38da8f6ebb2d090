// Trainer: GD, normalized GD, l_p mirror descent (plain and normalized), (K,Q) with the balancing
// regularizer, joint training with the head; trace recording (SPEC section 2).
//
// One gradient evaluation per iteration: the gradient at the current parameters also yields the
// loss and the selection of the current state (Gradient by-products), which is what a trace frame
// records. Steps work on the scaled gradient exp(logScale) * D: NGD and NMDFro use D only (so
// they keep moving after the true gradient underflows); plain steps multiply by exp(logScale),
// which is an exact zero step when the true gradient underflows; NMD divides by ||g||_q + eps as
// the mirror-descent paper's code does, so its step shrinks once ||g||_q nears eps (stepBlock).
#include "attnsvm/train/train.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/train/correlation.hpp"
#include "attnsvm/train/optimizers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "base/text.hpp"

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "base/svd.hpp"
#include "cold.hpp"
#include "model/mirror_internal.hpp"
#include "model/model_internal.hpp"
#include "train/train_internal.hpp"

namespace attnsvm {

namespace {

void requirePositive(double x, const char* what) {
  if (!(x > 0.0) || !std::isfinite(x))
    throw InputError(std::string(what) + " = " + std::to_string(x) + ": must be finite and > 0");
}

bool allFinite(const Eigen::Ref<const Mat>& x) { return x.allFinite(); }

// The dual exponent q of p (1/p + 1/q = 1).
double dualExponent(double p) { return p / (p - 1.0); }

// Step of one parameter block x (viewed as a matrix) along the scaled gradient exp(logScale) dir,
// written into `next`. Returns false if the step is undefined (zero direction under NGD or
// NMDFro): then next = x.
//
// NMD (the mirror-descent paper's step) divides the true gradient g = exp(logScale) dir by
// ||g||_q + eps, eps = machine epsilon. Written on the scaled direction,
//   g / (||g||_q + eps) = dir / (||dir||_q + exp(log(eps) - logScale)),
// which needs no exp(logScale): (a) while ||g||_q >> eps the extra term is below an ulp and the
// step has length lr in the dual norm; (b) once ||g||_q nears eps the step shrinks as in the
// authors' double-precision code (there the gradient itself then underflows and the iterate stops);
// (c) when exp(log(eps) - logScale) overflows (true gradient below about 1e-324 * eps) or the
// direction is exactly zero the coefficient is exactly 0: a zero step, never a NaN, and the run
// goes on (a zero step is defined here, unlike NGD's 0/0).
bool stepBlock(const Eigen::Ref<const Mat>& x, const Eigen::Ref<const Mat>& dir, double logScale,
               Optimizer opt, double lr, double p, Eigen::Ref<Mat> next) {
  const OptimizerInfo& info = optimizerInfo(opt);
  double coef = 0.0;
  switch (info.scale) {
    case StepScale::DualNorm: {
      const double dual = lpNorm(dir, dualExponent(p));
      const double floor =
          pmath::exp(pmath::log(std::numeric_limits<double>::epsilon()) - logScale);
      coef = (dual > 0.0 && logScale != -INFINITY) ? lr / (dual + floor) : 0.0;
      if (coef == 0.0) {
        next = x;  // exactly: the mirror round trip would round
        return true;
      }
      break;
    }
    case StepScale::Frobenius: {
      const double norm = dir.norm();
      if (!(norm > 0.0) || logScale == -INFINITY) {
        next = x;
        return false;
      }
      coef = lr / norm;
      break;
    }
    case StepScale::Plain:
    case StepScale::Adaptive:  // not here: adamAttention / adamStep (Trainer::update)
      // exp(logScale) underflows to 0 exactly when the true gradient does: a zero step.
      coef = logScale == -INFINITY ? 0.0 : lr * pmath::exp(logScale);
      break;
  }
  if (info.mirror && p != 2.0) {
    next = x;
    mirrorInPlace(next, p);
    next.noalias() -= coef * dir;
    inverseMirrorInPlace(next, p);
  } else {
    next.noalias() = x - coef * dir;
  }
  return true;
}

Eigen::Map<Mat> asMatrix(Vec& v) { return Eigen::Map<Mat>(v.data(), v.size(), 1); }
Eigen::Map<const Mat> asMatrix(const Vec& v) {
  return Eigen::Map<const Mat>(v.data(), v.size(), 1);
}

// ---- Adam (Optimizer::Adam) ----
// Adam needs the true gradient g = exp(logScale) dir, not the scaled direction the other steps use:
// its step lr mhat / (sqrt(shat) + eps) depends on the size of g relative to eps and to the past. A
// gradient that underflows is a zero gradient (the moments decay and the step stays finite); the
// scale is capped at e^300 so that g^2 cannot overflow (a true gradient that large does not occur
// with the bounded losses of the model; the cap only keeps the moments finite): kAdamMaxLogScale
// (train_internal.hpp).

void adamStep(const Eigen::Ref<const Mat>& x, const Eigen::Ref<const Mat>& dir, double logScale,
              const TrainSettings& s, double lr, int k, Eigen::Ref<Mat> m, Eigen::Ref<Mat> sq,
              Eigen::Ref<Mat> next) {
  const double scale =
      logScale == -INFINITY ? 0.0 : pmath::exp(std::min(logScale, kAdamMaxLogScale));
  const double b1 = s.adamBeta1, b2 = s.adamBeta2;
  m = b1 * m + ((1.0 - b1) * scale) * dir;
  sq = b2 * sq + ((1.0 - b2) * scale * scale) * dir.cwiseAbs2();
  // Bias corrections of iteration k >= 1: mhat = m / (1 - b1^k), shat = sq / (1 - b2^k).
  const double c1 = 1.0 - pmath::pow(b1, k), c2 = 1.0 - pmath::pow(b2, k);
  next = x - (lr / c1) * (m.array() / ((sq.array() / c2).sqrt() + s.adamEps)).matrix();
}

// Adam on every block of the attention parameters (W; K and Q; or p).
void adamAttention(Parameterization param, const Params& x, const Gradient& g,
                   const TrainSettings& s, int k, Params& m, Params& sq, Params& next) {
  switch (param) {
    case Parameterization::W:
      adamStep(x.W, g.W, g.logScale, s, s.lr, k, m.W, sq.W, next.W);
      break;
    case Parameterization::KQ:
      adamStep(x.K, g.K, g.logScale, s, s.lr, k, m.K, sq.K, next.K);
      adamStep(x.Q, g.Q, g.logScale, s, s.lr, k, m.Q, sq.Q, next.Q);
      break;
    case Parameterization::Prompt:
      adamStep(asMatrix(x.p), asMatrix(g.p), g.logScale, s, s.lr, k, asMatrix(m.p), asMatrix(sq.p),
               asMatrix(next.p));
      break;
  }
}

void requireAdamSettings(const TrainSettings& s) {
  if (!(s.adamBeta1 >= 0.0 && s.adamBeta1 < 1.0))
    throw InputError("adamBeta1 = " + std::to_string(s.adamBeta1) + ": must be in [0, 1)");
  if (!(s.adamBeta2 >= 0.0 && s.adamBeta2 < 1.0))
    throw InputError("adamBeta2 = " + std::to_string(s.adamBeta2) + ": must be in [0, 1)");
  if (!(s.adamEps > 0.0) || !std::isfinite(s.adamEps))
    throw InputError("adamEps = " + std::to_string(s.adamEps) + ": must be finite and > 0");
}

}  // namespace

void Trace::clear() {
  iteration.clear();
  loss.clear();
  normFro.clear();
  normNuc.clear();
  normLp.clear();
  selected.clear();
  selectedProbability.clear();
  corr.clear();
  divergence.clear();
  softmax.clear();
}

// Frobenius norm without overflow or underflow of the squares (fast path: the plain sum).
static double safeNorm(const Eigen::Ref<const Mat>& x) {
  const double sq = x.squaredNorm();
  if (std::isfinite(sq) && sq > 1e-280) return std::sqrt(sq);
  const double top = x.cwiseAbs().maxCoeff();
  if (!(top > 0.0) || !std::isfinite(top)) return top;
  return top * (x / top).norm();
}

double correlation(const ConstMatRef& a, const ConstMatRef& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw InputError("correlation of a " + std::to_string(a.rows()) + " x " +
                     std::to_string(a.cols()) + " and a " + std::to_string(b.rows()) + " x " +
                     std::to_string(b.cols()) + " matrix");
  if (a.size() == 0) return 0.0;
  const double na = safeNorm(a), nb = safeNorm(b);
  if (!(na > 0.0) || !(nb > 0.0)) return 0.0;
  // Divide first: the norms may be large enough for their product to overflow.
  return (a / na).cwiseProduct(b / nb).sum();
}

CorrelationWith::CorrelationWith(const ConstMatRef& b) {
  const double nb = b.size() == 0 ? 0.0 : safeNorm(b);
  zero_ = !(nb > 0.0);
  if (zero_)
    unit_.resize(b.rows(), b.cols());
  else
    unit_ = b / nb;
}

double CorrelationWith::operator()(const ConstMatRef& a) const {
  if (a.rows() != unit_.rows() || a.cols() != unit_.cols())
    throw InputError("correlation of a " + std::to_string(a.rows()) + " x " +
                     std::to_string(a.cols()) + " and a " + std::to_string(unit_.rows()) + " x " +
                     std::to_string(unit_.cols()) + " matrix");
  if (a.size() == 0) return 0.0;
  const double na = safeNorm(a);
  if (!(na > 0.0) || zero_) return 0.0;
  return (a / na).cwiseProduct(unit_).sum();  // correlation's expression with b / nb evaluated once
}

ATTNSVM_COLD_FN Trainer::Trainer(Model model, TrainSettings settings, Params init)
    : model_(std::move(model)), settings_(std::move(settings)), params_(std::move(init)) {
  const TrainSettings& s = settings_;
  requirePositive(s.lr, "lr");
  requireMirrorExponent(s.p, "p");
  const bool adam = optimizerInfo(s.optimizer).scale == StepScale::Adaptive ||
                    (s.trainHead && optimizerInfo(s.headOptimizer).scale == StepScale::Adaptive);
  if (adam) requireAdamSettings(s);
  if (s.trainHead) {
    requirePositive(s.headLr, "headLr");
    requireMirrorExponent(s.headP, "headP");
  }
  if (!(s.balance >= 0.0) || !std::isfinite(s.balance))
    throw InputError("balance = " + std::to_string(s.balance) + ": must be finite and >= 0");
  if (s.traceEvery < 1)
    throw InputError("traceEvery = " + std::to_string(s.traceEvery) + ": must be >= 1");
  if (!(s.traceP == 0.0 || (s.traceP >= 1.0 && std::isfinite(s.traceP))))
    throw InputError("traceP = " + std::to_string(s.traceP) +
                     ": must be >= 1 (or 0 for the default)");
  if (!(s.maxNorm > 0.0))
    throw InputError("maxNorm = " + std::to_string(s.maxNorm) + ": must be > 0");
  traceP_ = s.traceP != 0.0 ? s.traceP : (isMirrorOptimizer(s.optimizer) ? s.p : 2.0);
  divergenceP_ = traceP_ > 1.0 ? traceP_ : 2.0;

  if (params_.v.size() == 0) params_.v = model_.data().v;
  (void)model_.loss(params_);  // throws InputError on mis-shaped parameters
  const auto finite = [](const Mat& m) { return m.allFinite(); };
  if (!finite(params_.W) || !finite(params_.K) || !finite(params_.Q) || !params_.p.allFinite() ||
      !params_.v.allFinite())
    throw InputError("initial parameters contain NaN or Inf");
  next_ = params_;
  if (adam) {  // first and second moments of every block, zero at the start
    adamM_ = params_;
    for (Mat* b : {&adamM_.W, &adamM_.K, &adamM_.Q}) b->setZero();
    adamM_.p.setZero();
    adamM_.v.setZero();
    adamS_ = adamM_;
  }

  trace_.units = model_.units();
  trace_.T = model_.data().T;
  trace_.references = 0;
  effective();
  // Size the solver's workspace now (and give it a defined state: a default-constructed
  // SelfAdjointEigenSolver leaves its status uninitialized, which copying the Trainer would read).
  gram_ = Mat::Zero(weff_.cols(), weff_.cols());
  eig_.compute(gram_, Eigen::EigenvaluesOnly);
  evaluate();
}

ATTNSVM_COLD_FN void Trainer::addReference(const std::string& name, const Mat& direction) {
  if (lastRecorded_ >= 0)
    throw InputError("addReference(\"" + name +
                     "\") after frames were recorded: add references first");
  if (direction.rows() != weff_.rows() || direction.cols() != weff_.cols())
    throw InputError("reference \"" + name + "\" is " + std::to_string(direction.rows()) + " x " +
                     std::to_string(direction.cols()) + ", expected " +
                     std::to_string(weff_.rows()) + " x " + std::to_string(weff_.cols()) +
                     " (the effective weights' shape)");
  if (!direction.allFinite()) throw InputError("reference \"" + name + "\" contains NaN or Inf");
  referenceNames_.push_back(name);
  references_.push_back(direction);
  referenceNorms_.push_back(safeNorm(direction));
  trace_.references = static_cast<int>(references_.size());
}

void Trainer::effective() {
  const ModelSpec& spec = model_.spec();
  switch (spec.param) {
    case Parameterization::W:
      weff_ = params_.W;
      break;
    case Parameterization::KQ:
      if (weff_.rows() != params_.K.rows() || weff_.cols() != params_.Q.rows())
        weff_.resize(params_.K.rows(), params_.Q.rows());
      weff_.noalias() = params_.K * params_.Q.transpose();
      break;
    case Parameterization::Prompt:
      weff_ = asMatrix(params_.p);
      break;
  }
}

void Trainer::evaluate() {
  model_.gradient(params_, grad_, settings_.trainHead);
  if (model_.spec().param == Parameterization::KQ)
    addBalanceTerm(grad_, params_, settings_.balance);
  // (No string work on the normal path: this runs every iteration.)
  if (!stopReason_.empty()) return;
  if (!std::isfinite(grad_.loss)) {
    stopReason_ = "loss is not finite at iteration " + std::to_string(iteration_);
  } else if (std::isnan(grad_.logScale) ||
             (settings_.trainHead && std::isnan(grad_.logScaleHead))) {
    stopReason_ = "gradient is not finite at iteration " + std::to_string(iteration_);
  }
}

bool Trainer::update() {
  const ModelSpec& spec = model_.spec();
  const TrainSettings& s = settings_;
  bool moved = false;
  if (optimizerInfo(s.optimizer).scale == StepScale::Adaptive) {
    adamAttention(spec.param, params_, grad_, s, iteration_ + 1, adamM_, adamS_, next_);
    moved = true;  // Adam has no undefined step (a zero gradient is a zero step)
  } else
    switch (spec.param) {
      case Parameterization::W:
        moved = stepBlock(params_.W, grad_.W, grad_.logScale, s.optimizer, s.lr, s.p, next_.W);
        break;
      case Parameterization::KQ: {
        // Each factor is normalized separately; a factor whose gradient is zero (e.g. K while
        // Q = 0) does not move this iteration.
        const bool k =
            stepBlock(params_.K, grad_.K, grad_.logScale, s.optimizer, s.lr, s.p, next_.K);
        const bool q =
            stepBlock(params_.Q, grad_.Q, grad_.logScale, s.optimizer, s.lr, s.p, next_.Q);
        moved = k || q;
        break;
      }
      case Parameterization::Prompt:
        moved = stepBlock(asMatrix(params_.p), asMatrix(grad_.p), grad_.logScale, s.optimizer, s.lr,
                          s.p, asMatrix(next_.p));
        break;
    }
  // In joint training a zero attention gradient is not the end: at W = 0, v = 0 (the real-images
  // start) only the head has a gradient, and W starts moving once v is nonzero.
  bool headMoved = false;
  if (s.trainHead && optimizerInfo(s.headOptimizer).scale == StepScale::Adaptive) {
    adamStep(asMatrix(params_.v), asMatrix(grad_.v), grad_.logScaleHead, s, s.headLr,
             iteration_ + 1, asMatrix(adamM_.v), asMatrix(adamS_.v), asMatrix(next_.v));
    headMoved = true;
  } else if (s.trainHead) {
    headMoved = stepBlock(asMatrix(params_.v), asMatrix(grad_.v), grad_.logScaleHead,
                          s.headOptimizer, s.headLr, s.headP, asMatrix(next_.v));
  }
  if (!moved && !headMoved) {
    stopReason_ = "zero gradient direction at iteration " + std::to_string(iteration_) +
                  ": the normalized step is undefined (the loss is stationary)";
    return false;
  }
  const bool finite = allFinite(next_.W) && allFinite(next_.K) && allFinite(next_.Q) &&
                      next_.p.allFinite() && next_.v.allFinite();
  if (!finite) {
    stopReason_ = "parameters are not finite after iteration " + std::to_string(iteration_ + 1) +
                  " (divergent run; the step was not taken)";
    return false;
  }
  std::swap(params_.W, next_.W);
  std::swap(params_.K, next_.K);
  std::swap(params_.Q, next_.Q);
  std::swap(params_.p, next_.p);
  if (s.trainHead) std::swap(params_.v, next_.v);
  return true;
}

int Trainer::step(int k) {
  if (k < 0) throw InputError("step(" + std::to_string(k) + "): the count must be >= 0");
  if (!initialRecorded_) {
    initialRecorded_ = true;
    if (!stopped()) record();
  }
  int taken = 0;
  while (taken < k && !stopped()) {
    if (!update()) break;
    ++iteration_;
    ++taken;
    effective();
    const double norm = safeNorm(weff_);
    if (!std::isfinite(norm) || norm > settings_.maxNorm) {
      detail::Text why;
      why << "||W||_F = " << norm << " exceeds maxNorm = " << settings_.maxNorm << " at iteration "
          << iteration_;
      stopReason_ = why.str();
    }
    evaluate();  // gradient at the new parameters: needed by the next step and by the frame
    // A stopped run records its last state too (record() drops frames that are not finite).
    if (iteration_ % settings_.traceEvery == 0 || stopped()) record();
  }
  return taken;
}

void Trainer::record() {
  if (lastRecorded_ == iteration_) return;
  effective();
  const double fro = safeNorm(weff_);
  // Nuclear norm from the eigenvalues of (W/|W|)^T (W/|W|) (symmetric tridiagonal QR, several
  // times cheaper than a one-sided Jacobi SVD at d = 10..64); small singular values carry an
  // absolute error of about sqrt(eps) ||W||, irrelevant for a plotted norm.
  double nuclear = fro;
  if (weff_.cols() > 1 && fro > 0.0) {
    gram_.noalias() = weff_.transpose() * weff_;
    gram_ /= fro * fro;
    if (!gram_.allFinite()) {  // |W| so large (or small) that W^T W leaves the double range
      gram_.noalias() = (weff_ / fro).transpose() * (weff_ / fro);
    }
    eig_.compute(gram_, Eigen::EigenvaluesOnly);
    double sum = 0.0;
    for (Index j = 0; j < eig_.eigenvalues().size(); ++j)
      sum += std::sqrt(std::max(0.0, eig_.eigenvalues()[j]));
    nuclear = fro * sum;
  }
  const double lp = lpNorm(weff_, traceP_);
  // Never a NaN or Inf in a trace: a state that cannot be described is not recorded (and ends
  // the run if nothing else did).
  if (!std::isfinite(grad_.loss) || !std::isfinite(fro) || !std::isfinite(nuclear) ||
      !std::isfinite(lp) || !grad_.selectedProbability.allFinite()) {
    if (stopReason_.empty())
      stopReason_ = "trace values are not finite at iteration " + std::to_string(iteration_);
    return;
  }
  lastRecorded_ = iteration_;
  Trace& tr = trace_;
  tr.iteration.push_back(iteration_);
  tr.loss.push_back(grad_.loss);
  tr.normFro.push_back(fro);
  tr.normNuc.push_back(nuclear);
  tr.normLp.push_back(lp);
  tr.selected.insert(tr.selected.end(), grad_.selected.begin(), grad_.selected.end());
  tr.selectedProbability.insert(
      tr.selectedProbability.end(), grad_.selectedProbability.data(),
      grad_.selectedProbability.data() + grad_.selectedProbability.size());
  for (std::size_t r = 0; r < references_.size(); ++r) {
    const double c = (fro > 0.0 && referenceNorms_[r] > 0.0)
                         ? (weff_ / fro).cwiseProduct(references_[r] / referenceNorms_[r]).sum()
                         : 0.0;
    tr.corr.push_back(c);
    tr.divergence.push_back(directionDivergence(references_[r], weff_, divergenceP_));
  }
  if (settings_.traceSoftmax) {
    const Forward fw = model_.forward(params_);  // allocates; only when the caller asks for it
    for (Index u = 0; u < fw.softmax.rows(); ++u)
      for (Index t = 0; t < fw.softmax.cols(); ++t)
        tr.softmax.push_back(std::isfinite(fw.softmax(u, t)) ? fw.softmax(u, t) : 0.0);
  }
}

Trace Trainer::takeTrace() {
  if (!initialRecorded_) {
    initialRecorded_ = true;
    if (!stopped()) record();
  }
  Trace out = std::move(trace_);
  trace_ = Trace();
  trace_.units = out.units;
  trace_.references = out.references;
  trace_.T = out.T;
  return out;
}

// ---- initializations ----

ATTNSVM_COLD_FN Params initialParams(const Model& model, const InitSettings& init) {
  const ModelSpec& spec = model.spec();
  const int d = model.data().d;
  Params params = model.zeroParams();
  switch (init.kind) {
    case InitKind::Zero:
      // Literally zero. For (K,Q) zero is a saddle (no factor moves): scenarios set the papers'
      // small random start through Given (see scenarios.cpp, "paths2d").
      return params;
    case InitKind::Random: {
      if (!(init.scale >= 0.0) || !std::isfinite(init.scale))
        throw InputError("init scale = " + std::to_string(init.scale) +
                         ": must be finite and >= 0");
      Rng rng(init.seed);
      // Draw order: W; or K then Q; or p (each filled row by row).
      if (spec.param == Parameterization::W) params.W = init.scale * rng.normalMatrix(d, d);
      if (spec.param == Parameterization::KQ) {
        params.K = init.scale * rng.normalMatrix(d, params.K.cols());
        params.Q = init.scale * rng.normalMatrix(d, params.Q.cols());
      }
      if (spec.param == Parameterization::Prompt) params.p = init.scale * rng.normalVector(d);
      return params;
    }
    case InitKind::Given: {
      Params given = init.given;
      if (given.v.size() == 0) given.v = model.data().v;
      (void)model.loss(given);  // shape check (InputError)
      return given;
    }
    case InitKind::Cone: {
      const Index cols = spec.param == Parameterization::Prompt ? 1 : d;
      if (init.direction.rows() != d || init.direction.cols() != cols)
        throw InputError("cone direction is " + std::to_string(init.direction.rows()) + " x " +
                         std::to_string(init.direction.cols()) + ", expected " + std::to_string(d) +
                         " x " + std::to_string(cols));
      const double norm = init.direction.norm();
      if (!(norm > 0.0) || !std::isfinite(norm))
        throw InputError("cone direction must be finite and nonzero");
      // start = scale * dir/||dir|| + coneNoise * scale * E, E a Gaussian matrix of unit
      // Frobenius norm (so coneNoise is the relative size of the perturbation).
      Mat start = (init.scale / norm) * init.direction;
      if (init.coneNoise != 0.0) {
        Rng rng(init.seed);
        Mat noise = rng.normalMatrix(start.rows(), start.cols());
        start += (init.coneNoise * init.scale / noise.norm()) * noise;
      }
      if (spec.param == Parameterization::W) params.W = start;
      if (spec.param == Parameterization::Prompt) params.p = start.col(0);
      if (spec.param == Parameterization::KQ) {
        // Balanced factors of the best rank-m approximation: K = U sqrt(S), Q = V sqrt(S).
        Vec sig;
        Mat U, V;
        detail::thinSvd(start, sig, &U, &V);
        const Index m = params.K.cols();
        const Index r = std::min<Index>(m, sig.size());
        params.K.setZero();
        params.Q.setZero();
        for (Index j = 0; j < r; ++j) {
          const double root = std::sqrt(sig[j]);
          params.K.col(j) = root * U.col(j);
          params.Q.col(j) = root * V.col(j);
        }
      }
      return params;
    }
  }
  return params;
}

}  // namespace attnsvm
