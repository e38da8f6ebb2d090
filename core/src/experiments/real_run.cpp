// One real-images training run (SPEC section 6): cross attention with the mean token as query,
// W and the linear head v trained jointly from zero with one optimizer (the real-images kernel,
// attnsvm/train/real_train.hpp: the same bits natively and in wasm), and the measurements of a
// frame (accuracy, loss, selection sharpness, sparsity of W) and of the end (the SVM analysis of
// the selection on the first nSvm training images).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/real_train.hpp"

namespace attnsvm {

namespace {

ModelSpec realImagesSpec() {
  ModelSpec spec;
  spec.attention = AttentionKind::Cross;
  spec.param = Parameterization::W;
  spec.head = HeadKind::Linear;
  spec.loss = LossKind::Logistic;
  return spec;
}

void checkSettings(const RealImagesSettings& s, const Dataset& train, const Dataset& test) {
  if (!(s.lr > 0.0) || !std::isfinite(s.lr))
    throw InputError("lr = " + std::to_string(s.lr) + ": must be finite and > 0");
  if (s.optimizer != Optimizer::Adam && (!(s.p > 1.0) || !std::isfinite(s.p) || s.p > 1e3))
    throw InputError("p = " + std::to_string(s.p) + ": must be in (1, 1000]");
  if (s.iters < 0) throw InputError("iters = " + std::to_string(s.iters) + ": must be >= 0");
  if (s.histogramBins < 1 || s.histogramBins > 10000)
    throw InputError("histogramBins = " + std::to_string(s.histogramBins) +
                     ": must be in 1..10000");
  if (s.nSvm < 1 || s.nSvm > train.n)
    throw InputError("nSvm = " + std::to_string(s.nSvm) +
                     ": must be in 1..nTrain = " + std::to_string(train.n));
  if (test.T != train.T || test.d != train.d)
    throw InputError("test tokens are " + std::to_string(test.T) + " x " + std::to_string(test.d) +
                     ", the training tokens " + std::to_string(train.T) + " x " +
                     std::to_string(train.d));
  if (train.v.size() != train.d || !(train.v.array() == 0.0).all())
    throw InputError("the real-images run starts from v0 = 0: the training set's v must be zero");
}

}  // namespace

struct RealImagesRun::Impl {
  RealImagesSettings settings;
  Dataset train, test;
  std::shared_ptr<const RealData> trainData, testData;
  RealTrainer trainer;
  mutable Params params;  // W and v of the last params() call

  static RealTrainSettings trainSettings(const RealImagesSettings& s) {
    RealTrainSettings ts;
    ts.optimizer = s.optimizer;
    ts.p = s.optimizer == Optimizer::Adam ? 2.0 : s.p;
    ts.lr = s.lr;  // W and v alike
    ts.batch = 0;  // full batch, W0 = v0 = 0: a run is deterministic (the seed picks the split)
    return ts;
  }

  Impl(Dataset tr, Dataset te, const RealImagesSettings& s)
      : settings(s),
        train((checkSettings(s, tr, te), std::move(tr))),
        test(std::move(te)),
        trainData(realData(train)),
        testData(realData(test)),
        trainer(trainData, trainSettings(s)) {}
};

RealImagesRun::RealImagesRun(Dataset train, Dataset test, const RealImagesSettings& settings)
    : impl_(std::make_shared<Impl>(std::move(train), std::move(test), settings)) {}

int RealImagesRun::step(int k) {
  if (k < 0) throw InputError("step(" + std::to_string(k) + "): the count must be >= 0");
  int taken = 0;
  while (taken < k && impl_->trainer.step()) ++taken;
  return taken;
}
int RealImagesRun::iteration() const { return impl_->trainer.steps(); }
const std::string& RealImagesRun::stopReason() const { return impl_->trainer.stopReason(); }
const Params& RealImagesRun::params() const {
  impl_->params.W = impl_->trainer.W();
  impl_->params.v = impl_->trainer.v();
  return impl_->params;
}
const RealImagesSettings& RealImagesRun::settings() const { return impl_->settings; }
const Dataset& RealImagesRun::train() const { return impl_->train; }
const Dataset& RealImagesRun::test() const { return impl_->test; }

RealImagesFrame RealImagesRun::measure() const {
  const Impl& im = *impl_;
  RealImagesFrame f;
  f.iteration = im.trainer.steps();
  const RealEvaluation tr = im.trainer.evaluate(*im.trainData);
  const RealEvaluation te = im.trainer.evaluate(*im.testData);
  f.trainLoss = tr.loss;
  f.trainAccuracy = tr.accuracy;
  f.trainMaxSoftmax = tr.maxSoftmax;
  f.testLoss = te.loss;
  f.testAccuracy = te.accuracy;
  f.testMaxSoftmax = te.maxSoftmax;
  const Mat& W = im.trainer.W();
  f.sparsity = RealTrainer::sparsity(W);
  double top = 0.0;
  for (Index k = 0; k < W.size(); ++k) top = std::max(top, std::abs(W.data()[k]));
  const int bins = im.settings.histogramBins;
  f.histogram.assign(bins, 0.0);
  if (!(top > 0.0)) {
    f.histogram[0] = static_cast<double>(W.size());  // W = 0
    return f;
  }
  for (Index k = 0; k < W.size(); ++k) {
    const double r = std::abs(W.data()[k]) / top;
    f.histogram[std::min(bins - 1, static_cast<int>(r * bins))] += 1.0;
  }
  return f;
}

Mat RealImagesRun::testSoftmax() const {
  return realSoftmax(*impl_->testData, impl_->trainer.W(), impl_->trainer.v());
}

std::vector<int> RealImagesRun::testSelection() const {
  return impl_->trainer.evaluate(*impl_->testData).selection;
}

RealImagesAnalysis RealImagesRun::analyze() const {
  const Impl& im = *impl_;
  const Params& params = this->params();
  const int n = im.settings.nSvm, T = im.train.T;
  // The first nSvm training images, scored by the final head (gamma_it = Y_i v^T x_it).
  Dataset sub;
  sub.n = n;
  sub.T = T;
  sub.d = im.train.d;
  sub.X = im.train.X.topRows(static_cast<Index>(n) * T);
  sub.Z = im.train.Z.topRows(n);
  sub.Y = im.train.Y.head(n);
  sub.v = params.v;
  const ModelSpec spec = realImagesSpec();
  RealImagesAnalysis a;
  a.nSvm = n;
  // the selection argmax_t s_it of the kernel that trained the run (the same bits everywhere)
  const std::vector<int> all = im.trainer.evaluate(*im.trainData).selection;
  a.selection.assign(all.begin(), all.begin() + n);
  const SelectionReport rep = analyzeSelection(sub, spec.attention, a.selection);
  a.verdict = toString(rep.verdict);
  a.corr = a.divergence = std::numeric_limits<double>::quiet_NaN();
  if (!rep.feasible) {
    a.status = std::string(toString(rep.svm.status)) + ": " + rep.explanation;
    return a;
  }
  const double p = im.settings.optimizer == Optimizer::Adam ? 2.0 : im.settings.p;
  MarginSolution sol;
  if (p == 2.0) {
    sol = rep.svm;  // the Frobenius SVM the verdict was decided with
  } else {
    svmDirection(sub, spec, a.selection, NormKind::Lp, p, &sol);
  }
  a.status = toString(sol.status);
  if (sol.status != SolveStatus::Optimal) {
    if (!sol.message.empty()) a.status += ": " + sol.message;
    return a;
  }
  a.feasible = true;
  a.svm = sol.W;
  a.corr = correlation(params.W, a.svm);
  a.divergence = directionDivergence(a.svm, params.W, p);
  return a;
}

}  // namespace attnsvm
