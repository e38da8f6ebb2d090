// One run of the real-images study (attnsvm/experiments/real_study.hpp): the split of its seed, the
// trainer, an evaluation of the validation set every evalEvery epochs (the best one's parameters
// kept), and the test set at the best-validation parameters and at the end.
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_study.hpp"

namespace attnsvm {

namespace {

void checkRun(const RealStudyRun& r) {
  if (r.epochs < 1 || r.epochs > 1000000)
    throw InputError("run " + std::to_string(r.id) + ": epochs = " + std::to_string(r.epochs) +
                     " is out of range 1..1000000");
  if (r.evalEvery < 1)
    throw InputError("run " + std::to_string(r.id) +
                     ": evalEvery = " + std::to_string(r.evalEvery) + " must be >= 1");
  if (!(r.stopAccuracy > 0.0 && r.stopAccuracy <= 1.0))
    throw InputError("run " + std::to_string(r.id) + ": stopAccuracy must be in (0, 1]");
  if (r.nValidation < 2)
    throw InputError("run " + std::to_string(r.id) +
                     ": nValidation = " + std::to_string(r.nValidation) + " must be >= 2 (even)");
}

}  // namespace

struct RealStudyRunner::Impl {
  RealStudyRun run;
  SplitIndices split;
  std::shared_ptr<const RealData> train, validation, test;
  RealTrainer trainer;
  int epoch = 0;
  bool finished = false;
  double maxEpochAccuracy = 0.0;
  bool reached = false;
  int bestEpoch = 0;
  double bestValidation = -1.0, lastValidation = 0.0;
  Mat bestW;
  Vec bestV;

  static std::shared_ptr<const RealData> data(const ImageSet& images, const RealStudyRun& r) {
    return realData(embedTokens(patchDataset(images, r.classA, r.classB), r.dim, r.embedSeed));
  }

  Impl(const RealStudyImages& images, const RealStudyRun& r)
      : run((checkRun(r), r)),
        split(
            splitIndices(images.train, r.classA, r.classB, r.nTrain, r.nValidation, r.train.seed)),
        train(data(imageSubset(images.train, split.train), r)),
        validation(data(imageSubset(images.train, split.validation), r)),
        test(data(binarySubset(images.test, r.classA, r.classB, r.nTest, r.train.seed), r)),
        trainer(train, r.train) {}

  void validate() {
    const RealEvaluation e = trainer.evaluate(*validation);
    lastValidation = e.accuracy;
    if (e.accuracy > bestValidation) {  // the first best on ties
      bestValidation = e.accuracy;
      bestEpoch = epoch;
      bestW = trainer.W();
      bestV = trainer.v();
    }
  }

  bool advance(int epochs) {
    for (int k = 0; k < epochs && !finished; ++k) {
      const int taken = trainer.stepEpoch();
      const bool diverged = !trainer.stopReason().empty();
      if (taken > 0 && trainer.epochs() > epoch) {
        epoch = trainer.epochs();
        const double acc = trainer.epochAccuracy();
        maxEpochAccuracy = std::max(maxEpochAccuracy, acc);
        reached = acc >= run.stopAccuracy;
      }
      finished = diverged || reached || epoch >= run.epochs;
      if (epoch > 0 && (epoch % run.evalEvery == 0 || finished) && !diverged) validate();
    }
    return finished;
  }
};

RealStudyRunner::RealStudyRunner(const RealStudyImages& images, const RealStudyRun& run)
    : impl_(std::make_shared<Impl>(images, run)) {}

bool RealStudyRunner::advance(int epochs) {
  if (epochs < 0) throw InputError("advance(" + std::to_string(epochs) + "): must be >= 0");
  return impl_->advance(epochs);
}
bool RealStudyRunner::done() const { return impl_->finished; }
int RealStudyRunner::epoch() const { return impl_->epoch; }
const RealStudyRun& RealStudyRunner::run() const { return impl_->run; }
const SplitIndices& RealStudyRunner::split() const { return impl_->split; }

RealStudyRunResult RealStudyRunner::result() const {
  const Impl& m = *impl_;
  if (!m.finished)
    throw InputError("run " + std::to_string(m.run.id) + " is not done (epoch " +
                     std::to_string(m.epoch) + " of " + std::to_string(m.run.epochs) + ")");
  RealStudyRunResult r;
  r.id = m.run.id;
  r.epochs = m.epoch;
  r.reachedStop = m.reached;
  r.stopReason = m.trainer.stopReason();
  r.epochTrainAccuracy = m.trainer.epochAccuracy();
  if (std::isnan(r.epochTrainAccuracy)) r.epochTrainAccuracy = 0.0;  // diverged in epoch 1
  r.maxEpochTrainAccuracy = m.maxEpochAccuracy;
  r.trainAccuracy = m.trainer.evaluate(*m.train).accuracy;
  r.finalValidationAccuracy = m.lastValidation;
  const RealEvaluation last = m.trainer.evaluate(*m.test);
  r.testAccuracyFinal = last.accuracy;
  r.testLossFinal = last.loss;
  r.sparsityFinal = RealTrainer::sparsity(m.trainer.W());
  r.maxSoftmaxFinal = last.maxSoftmax;
  r.gammaOptimalFinal = last.gammaOptimal;
  if (m.bestValidation < 0.0) {  // diverged before any validation: the start is the best state
    r.bestEpoch = 0;
    r.bestValidationAccuracy = 0.0;
    r.testAccuracyBest = r.testAccuracyFinal;
    r.testLossBest = r.testLossFinal;
    r.sparsityBest = r.sparsityFinal;
    r.maxSoftmaxBest = r.maxSoftmaxFinal;
    r.gammaOptimalBest = r.gammaOptimalFinal;
    return r;
  }
  r.bestEpoch = m.bestEpoch;
  r.bestValidationAccuracy = m.bestValidation;
  const RealEvaluation best = RealTrainer::evaluate(*m.test, m.bestW, m.bestV);
  r.testAccuracyBest = best.accuracy;
  r.testLossBest = best.loss;
  r.sparsityBest = RealTrainer::sparsity(m.bestW);
  r.maxSoftmaxBest = best.maxSoftmax;
  r.gammaOptimalBest = best.gammaOptimal;
  return r;
}

RealStudyRunResult runRealStudyRun(const RealStudyImages& images, const RealStudyRun& run) {
  RealStudyRunner runner(images, run);
  runner.advance(run.epochs);
  return runner.result();
}

}  // namespace attnsvm
