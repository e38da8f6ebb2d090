// One real-images training run (SPEC section 6): cross attention with the mean token as query,
// W and the linear head v trained jointly from zero with one optimizer, and the measurements of a
// frame (accuracy, loss, selection sharpness, sparsity of W) and of the end (the SVM analysis of
// the selection on the first nSvm training images).
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/errors.hpp"
#include "attnsvm/experiment.hpp"
#include "attnsvm/margin.hpp"
#include "attnsvm/real_images.hpp"
#include "attnsvm/selection.hpp"

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

// Accuracy (Y_i f_i > 0: f = 0, the start, counts as wrong) and mean max softmax of a forward pass.
void summarize(const Forward& fw, const Vec& Y, double& loss, double& accuracy,
               double& maxSoftmax) {
  loss = fw.loss;
  accuracy = (Y.array() * fw.output.array() > 0.0).cast<double>().mean();
  maxSoftmax = fw.selectedProbability.mean();
}

}  // namespace

struct RealImagesRun::Impl {
  RealImagesSettings settings;
  Dataset train, test;
  Model testModel;
  Trainer trainer;

  static TrainSettings trainSettings(const RealImagesSettings& s) {
    TrainSettings ts;
    ts.optimizer = s.optimizer;
    ts.lr = s.lr;
    ts.p = s.optimizer == Optimizer::Adam ? 2.0 : s.p;
    ts.trainHead = true;
    ts.headOptimizer = s.optimizer;
    ts.headLr = s.lr;
    ts.headP = ts.p;
    ts.traceEvery =
        std::numeric_limits<int>::max();  // the run measures itself (measure()); no trace
    // l_p MD with p near 1 grows W and v like (lr k)^{1/(p-1)} (1e20 after 1000 normalized steps at
    // p = 1.1): large but finite, and the scaled gradient stays accurate; only overflow stops a
    // run.
    ts.maxNorm = 1e300;
    return ts;
  }

  Impl(Dataset tr, Dataset te, const RealImagesSettings& s)
      : settings(s),
        train((checkSettings(s, tr, te), std::move(tr))),
        test(std::move(te)),
        testModel(test, realImagesSpec()),
        trainer(Model(train, realImagesSpec()), trainSettings(s),
                Model(train, realImagesSpec()).zeroParams()) {}
};

RealImagesRun::RealImagesRun(Dataset train, Dataset test, const RealImagesSettings& settings)
    : impl_(std::make_shared<Impl>(std::move(train), std::move(test), settings)) {}

int RealImagesRun::step(int k) { return impl_->trainer.step(k); }
int RealImagesRun::iteration() const { return impl_->trainer.iteration(); }
const std::string& RealImagesRun::stopReason() const { return impl_->trainer.stopReason(); }
const Params& RealImagesRun::params() const { return impl_->trainer.params(); }
const RealImagesSettings& RealImagesRun::settings() const { return impl_->settings; }
const Dataset& RealImagesRun::train() const { return impl_->train; }
const Dataset& RealImagesRun::test() const { return impl_->test; }

RealImagesFrame RealImagesRun::measure() const {
  const Impl& im = *impl_;
  const Params& params = im.trainer.params();
  RealImagesFrame f;
  f.iteration = im.trainer.iteration();
  summarize(im.trainer.model().forward(params), im.train.Y, f.trainLoss, f.trainAccuracy,
            f.trainMaxSoftmax);
  summarize(im.testModel.forward(params), im.test.Y, f.testLoss, f.testAccuracy, f.testMaxSoftmax);
  const Mat& W = params.W;
  const double top = W.cwiseAbs().maxCoeff();
  const int bins = im.settings.histogramBins;
  f.histogram.assign(bins, 0.0);
  if (!(top > 0.0)) {
    f.sparsity = 1.0;  // W = 0: every entry is "below 1% of the largest"
    f.histogram[0] = static_cast<double>(W.size());
    return f;
  }
  int small = 0;
  for (Index k = 0; k < W.size(); ++k) {
    const double r = std::abs(W.data()[k]) / top;
    if (r < 0.01) ++small;
    f.histogram[std::min(bins - 1, static_cast<int>(r * bins))] += 1.0;
  }
  f.sparsity = static_cast<double>(small) / static_cast<double>(W.size());
  return f;
}

Mat RealImagesRun::testSoftmax() const { return impl_->testModel.forward(params()).softmax; }

std::vector<int> RealImagesRun::testSelection() const {
  return impl_->testModel.forward(params()).selected;
}

RealImagesAnalysis RealImagesRun::analyze() const {
  const Impl& im = *impl_;
  const Params& params = im.trainer.params();
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
  a.selection = Model(sub, spec).forward(params).selected;
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
