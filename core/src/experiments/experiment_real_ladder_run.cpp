// One run of the regime ladder (attnsvm/experiments/real_ladder.hpp): the n images of the seed, the
// head (pretrained alone on the mean-pooled tokens and frozen, or trained jointly), W trained with
// snapshots at log-spaced steps, then the analysis of the selection reached: the Att-SVM
// (Frobenius; l_p for mirror descent), its certificate, corr / D_p along k, the failing conditions.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "attnsvm/vocab/names.hpp"

namespace attnsvm {

namespace {

constexpr double kLadderNaN = std::numeric_limits<double>::quiet_NaN();

// k = round(10^(j / perDecade)) for j = 0, 1, ... below `steps`, deduplicated, then `steps`
// (the portable pow: the same schedule everywhere).
std::vector<int> ladderSchedule(int steps, int perDecade) {
  std::vector<int> out;
  for (int j = 0;; ++j) {
    const double x = pmath::pow(10.0, static_cast<double>(j) / perDecade);
    if (!(x < steps)) break;
    const int k = static_cast<int>(std::floor(x + 0.5));
    if (out.empty() || k > out.back()) out.push_back(k);
  }
  if (out.empty() || out.back() != steps) out.push_back(steps);
  return out;
}

double frobenius(const Mat& W) {
  double s = 0;
  for (Index k = 0; k < W.size(); ++k) s += W.data()[k] * W.data()[k];
  return std::sqrt(s);
}

// The certificate of a solve: optimal, relative gap and violation within tol.
bool certified(const MarginSolution& s, double tol) {
  return s.status == SolveStatus::Optimal && std::isfinite(s.gap) && s.gap <= tol &&
         s.maxViolation <= tol;
}

void checkLadderRun(const RealLadderRun& r) {
  if (r.head != "frozen" && r.head != "joint")
    throw InputError("run " + std::to_string(r.id) + ": head = '" + r.head +
                     "': expected frozen or joint");
  if (r.steps < 1) throw InputError("run " + std::to_string(r.id) + ": steps must be >= 1");
  if (r.headSteps < 0) throw InputError("run " + std::to_string(r.id) + ": headSteps must be >= 0");
  if (r.snapshotsPerDecade < 1 || r.snapshotsPerDecade > 100)
    throw InputError("run " + std::to_string(r.id) + ": snapshotsPerDecade must be in 1..100");
  if (r.optimizer != Optimizer::MD && r.optimizer != Optimizer::NMD)
    throw InputError("run " + std::to_string(r.id) + ": the ladder trains W with md or nmd");
}

}  // namespace

struct RealLadderRunner::Impl {
  RealLadderRun run;
  Dataset data;
  std::shared_ptr<const RealData> kernelData;
  Vec headStart;
  std::unique_ptr<RealTrainer> trainer;
  std::vector<int> schedule;
  std::size_t nextSnapshot = 0;
  std::vector<Mat> snapshots;
  std::vector<double> normW, normV;
  int decadeStart = 0;  // the step where the last decade begins (steps / 10)
  std::vector<int> decadeSelection;
  double decadeNormW = kLadderNaN, decadeNormV = kLadderNaN;
  std::vector<int> selection;
  MarginSolution fro, lp;
  RealLadderRunResult out;
  bool analyzed = false;

  Impl(const ImageSet& images, const RealLadderRun& r) : run((checkLadderRun(r), r)) {
    data = embedTokens(
        patchDataset(binarySubset(images, r.classA, r.classB, r.n, r.seed), r.classA, r.classB),
        r.dim, r.embedSeed);
    kernelData = realData(data);
    const int d = data.d;
    RealTrainSettings s;
    s.optimizer = r.optimizer;
    s.p = r.p;
    s.lr = r.lr;
    s.normEpsilon = r.normEpsilon;
    s.seed = r.seed;
    if (r.head == "frozen") {
      // The head alone on the mean-pooled tokens (W = 0: uniform attention), normalized GD.
      RealTrainSettings h;
      h.optimizer = Optimizer::NMD;
      h.p = 2.0;
      h.lr = r.lr;
      h.normEpsilon = r.normEpsilon;
      h.trainW = false;
      RealTrainer head(kernelData, h);
      for (int k = 0; k < r.headSteps && head.step(); ++k) {
      }
      headStart = head.v();
      s.trainHead = false;
      trainer = std::make_unique<RealTrainer>(kernelData, s, Mat::Zero(d, d), headStart);
    } else {
      trainer = std::make_unique<RealTrainer>(kernelData, s);
    }
    schedule = ladderSchedule(r.steps, r.snapshotsPerDecade);
    decadeStart = r.steps / 10;
    record();
  }

  // Snapshots due at the current step.
  void record() {
    const int k = trainer->steps();
    if (k == decadeStart && decadeSelection.empty()) {
      decadeSelection = trainer->evaluate(*kernelData).selection;
      decadeNormW = frobenius(trainer->W());
      decadeNormV = trainer->v().norm();
    }
    while (nextSnapshot < schedule.size() && schedule[nextSnapshot] <= k) {
      if (schedule[nextSnapshot] == k) {
        snapshots.push_back(trainer->W());
        normW.push_back(frobenius(trainer->W()));
        normV.push_back(trainer->v().norm());
        out.snapshotSteps.push_back(k);
      }
      ++nextSnapshot;
    }
  }

  bool finished() const { return trainer->steps() >= run.steps || !trainer->stopReason().empty(); }

  bool advance(int steps) {
    for (int k = 0; k < steps && !finished(); ++k) {
      if (!trainer->step()) break;
      record();
    }
    return finished();
  }

  void analyze() {
    if (!finished())
      throw InputError("run " + std::to_string(run.id) + ": analyze() before the training ended");
    if (analyzed) return;
    out.id = run.id;
    out.steps = trainer->steps();
    out.stopReason = trainer->stopReason();
    out.endedBy = out.stopReason.empty() ? "budget" : out.stopReason;
    if (out.snapshotSteps.empty() || out.snapshotSteps.back() != out.steps) {
      snapshots.push_back(trainer->W());
      normW.push_back(frobenius(trainer->W()));
      normV.push_back(trainer->v().norm());
      out.snapshotSteps.push_back(out.steps);
    }
    out.normW = normW;
    out.normV = normV;
    const RealEvaluation e = trainer->evaluate(*kernelData);
    selection = e.selection;
    out.trainAccuracy = e.accuracy;
    out.loss = e.loss;
    out.minSoftmax = e.minSoftmax;
    out.meanSoftmax = e.maxSoftmax;
    out.gammaOptimal = e.gammaOptimal;
    out.noPositiveToken = static_cast<int>(std::lround(e.noPositiveToken * data.n));
    if (!decadeSelection.empty())
      for (int i = 0; i < data.n; ++i) out.selectionChanges += decadeSelection[i] != selection[i];
    out.headGrowth =
        run.head == "joint" && decadeNormV > 0 ? trainer->v().norm() / decadeNormV : kLadderNaN;
    out.weightGrowth = decadeNormW > 0 ? frobenius(trainer->W()) / decadeNormW : kLadderNaN;

    // The SVMs of the selection reached, on all n images, scored by the final head.
    data.v = trainer->v();
    const SelectionReport rep = analyzeSelection(data, AttentionKind::Cross, selection);
    fro = rep.svm;
    out.status = wireName(fro.status);
    out.gap = fro.gap;
    out.maxViolation = fro.maxViolation;
    out.feasible = certified(fro, run.certifyTol);
    const bool mirror = run.p != 2.0;
    if (mirror && fro.status == SolveStatus::Optimal) {
      ModelSpec spec;
      spec.attention = AttentionKind::Cross;
      svmDirection(data, spec, selection, NormKind::Lp, run.p, &lp);
      out.statusLp = wireName(lp.status);
      out.gapLp = lp.gap;
      out.maxViolationLp = lp.maxViolation;
      out.feasibleLp = certified(lp, run.certifyTol);
    } else if (mirror) {
      out.statusLp = "not solved: the Frobenius problem is " + out.status;
    }
    if (fro.status == SolveStatus::Infeasible)
      out.verdict = "infeasible";
    else if (fro.status != SolveStatus::Optimal || !out.feasible)
      out.verdict = "undecided";
    else
      out.verdict = wireName(rep.verdict);

    // corr and D_p along k with the SVM of the run's norm (and corr with the Frobenius SVM).
    const MarginSolution& target = mirror ? lp : fro;
    const bool haveTarget = mirror ? out.feasibleLp : out.feasible;
    for (const Mat& W : snapshots) {
      out.corrFro.push_back(out.feasible ? correlation(W, fro.W) : kLadderNaN);
      if (mirror) out.corrLp.push_back(out.feasibleLp ? correlation(W, lp.W) : kLadderNaN);
      out.divergence.push_back(haveTarget ? directionDivergence(target.W, W, run.p) : kLadderNaN);
    }
    out.corr = haveTarget ? (mirror ? out.corrLp.back() : out.corrFro.back()) : kLadderNaN;
    out.divergenceFinal = out.divergence.back();
    out.degenerate = !(out.trainAccuracy > 0.5);
    out.limitReached = haveTarget && out.corr >= run.corrTarget && !out.degenerate;
    if (!out.limitReached) {
      std::string f;
      auto add = [&](const char* c) { f += (f.empty() ? "" : ",") + std::string(c); };
      if (out.degenerate) add("degenerate");
      if (fro.status == SolveStatus::Infeasible) add("infeasible");
      if ((fro.status != SolveStatus::Optimal && fro.status != SolveStatus::Infeasible) ||
          (fro.status == SolveStatus::Optimal && !haveTarget))
        add("undecided");
      if (out.noPositiveToken > 0) add("no-positive-token");
      if (run.head == "joint" && out.headGrowth > out.weightGrowth) add("head-faster");
      if (out.selectionChanges > 0) add("selection-moving");
      if (out.trainAccuracy < 1.0) add("not-separated");
      if (f.empty()) add("slow");
      out.failing = f;
    }
    analyzed = true;
  }
};

RealLadderRunner::RealLadderRunner(const ImageSet& images, const RealLadderRun& run)
    : impl_(std::make_shared<Impl>(images, run)) {}
bool RealLadderRunner::advance(int steps) {
  if (steps < 0) throw InputError("advance(" + std::to_string(steps) + "): must be >= 0");
  return impl_->advance(steps);
}
bool RealLadderRunner::trained() const { return impl_->finished(); }
int RealLadderRunner::step() const { return impl_->trainer->steps(); }
void RealLadderRunner::analyze() { impl_->analyze(); }
bool RealLadderRunner::done() const { return impl_->analyzed; }
RealLadderRunResult RealLadderRunner::result() const {
  if (!impl_->analyzed)
    throw InputError("run " + std::to_string(impl_->run.id) + " is not analyzed yet");
  return impl_->out;
}
const Dataset& RealLadderRunner::data() const { return impl_->data; }
const std::vector<int>& RealLadderRunner::selection() const { return impl_->selection; }
const MarginSolution& RealLadderRunner::svmFro() const { return impl_->fro; }
const MarginSolution& RealLadderRunner::svmLp() const { return impl_->lp; }
const Mat& RealLadderRunner::W() const { return impl_->trainer->W(); }

RealLadderRunResult runRealLadderRun(const ImageSet& images, const RealLadderRun& run) {
  RealLadderRunner r(images, run);
  r.advance(run.steps);
  r.analyze();
  return r.result();
}

}  // namespace attnsvm
