// runTrainingBatched: many runs of one shape with snapshots every `every` steps, the batched form
// of runTraining's loop (experiment_util.cpp), returning the drivers' RunRecords.
#include <cstdlib>
#include <new>
#include <string>
#include <vector>
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"

namespace attnsvm {

void SnapshotArena::reset(int runs, int perRun, Eigen::Index rows, Eigen::Index cols) {
  runs_ = runs;
  perRun_ = perRun;
  rows_ = rows;
  cols_ = cols;
  const std::size_t need = static_cast<std::size_t>(runs) * static_cast<std::size_t>(perRun) *
                           static_cast<std::size_t>(rows * cols);
  if (need <= capacity_) return;
  data_.reset();
  capacity_ = 0;
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t bytes = (need * sizeof(double) + kHugePage - 1) / kHugePage * kHugePage;
  void* block = std::aligned_alloc(kHugePage, bytes);
  if (block) madvise(block, bytes, MADV_HUGEPAGE);  // a hint: without it, 4 KB pages
#else
  void* block = std::malloc(need * sizeof(double));
#endif
  if (!block) throw std::bad_alloc();
  data_.reset(static_cast<double*>(block));
  capacity_ = need;
}

void SnapshotArena::Free::operator()(double* p) const { std::free(p); }

std::size_t SnapshotArena::offset(int r, int k) const {
  if (r < 0 || r >= runs_ || k < 0 || k >= perRun_)
    throw InputError("snapshot " + std::to_string(k) + " of run " + std::to_string(r) +
                     " is outside the arena's " + std::to_string(runs_) + " runs x " +
                     std::to_string(perRun_) + " snapshots");
  return (static_cast<std::size_t>(r) * static_cast<std::size_t>(perRun_) +
          static_cast<std::size_t>(k)) *
         static_cast<std::size_t>(rows_ * cols_);
}

// ---- many runs with snapshots (runTraining's loop, experiment_util.cpp) ----

std::vector<RunRecord> runTrainingBatched(const std::vector<const Dataset*>& data,
                                          const ModelSpec& spec, const TrainSettings& settingsIn,
                                          const std::vector<Params>& inits, int iters, int every,
                                          SnapshotArena* arena) {
  if (data.size() != inits.size())
    throw InputError("runTrainingBatched: " + std::to_string(data.size()) + " data sets for " +
                     std::to_string(inits.size()) + " starts");
  std::vector<RunRecord> recs(data.size());
  if (data.empty()) return recs;
  // Snapshots per run at most: the start, one per chunk of `every`, one where a run stopped.
  const int planned = std::max(0, iters) / std::max(1, every) + 2;
  if (arena) {
    const Eigen::Index cols = spec.param == Parameterization::Prompt ? 1 : data.front()->d;
    arena->reset(static_cast<int>(data.size()), planned, data.front()->d, cols);
  }
  TrainSettings settings = settingsIn;
  settings.traceEvery = std::max(1, iters);
  settings.traceSoftmax = false;
  if (!batchedUnsupported(spec, settings).empty()) {
    for (std::size_t r = 0; r < data.size(); ++r) {
      recs[r] = runTraining(*data[r], spec, settingsIn, inits[r], iters, every);
      if (!arena) continue;
      std::vector<Mat>& w = recs[r].weights;
      for (std::size_t k = 0; k < w.size(); ++k)
        arena->at(static_cast<int>(r), static_cast<int>(k)) = w[k];
      w.clear();
    }
    return recs;
  }
  std::vector<Model> models;
  models.reserve(data.size());
  for (const Dataset* d : data) models.emplace_back(*d, spec);
  BatchedTrainer bt(std::move(models), settings, inits);
  const int K = bt.runs();
  const int units = bt.model(0).units();
  Vec prob(units);
  auto snap = [&](int r) {
    RunRecord& rec = recs[r];
    bt.selectedProbability(r, prob);
    rec.iteration.push_back(bt.iteration(r));
    if (arena)
      bt.weightsInto(r, arena->at(r, static_cast<int>(rec.iteration.size()) - 1));
    else
      rec.weights.push_back(bt.weights(r));
    rec.meanProb.push_back(prob.mean());
    rec.minProb.push_back(prob.minCoeff());
  };
  every = std::max(1, every);
  const bool snapshots = every < iters;
  std::vector<unsigned char> done(K, 0);
  if (snapshots)
    for (int r = 0; r < K; ++r) {
      recs[r].iteration.reserve(planned);
      if (!arena) recs[r].weights.reserve(planned);
      recs[r].meanProb.reserve(planned);
      recs[r].minProb.reserve(planned);
      snap(r);
    }
  // All runs advance in chunks of `every`; a run that stops inside a chunk leaves the loop there
  // (runTraining's break) and gets its final snapshot below.
  int reached = 0;
  while (reached < iters) {
    bool any = false;
    for (int r = 0; r < K; ++r) any = any || (!done[r] && !bt.stopped(r));
    if (!any) break;
    const int want = std::min(iters, reached + every) - reached;
    std::vector<int> before(K);
    for (int r = 0; r < K; ++r) before[r] = bt.iteration(r);
    bt.step(want);
    reached += want;
    for (int r = 0; r < K; ++r) {
      if (done[r]) continue;
      if (bt.stopped(r) && bt.iteration(r) - before[r] < want) {
        done[r] = 1;
        continue;
      }
      if (snapshots) snap(r);
      if (bt.stopped(r)) done[r] = 1;
    }
  }
  for (int r = 0; r < K; ++r) {
    RunRecord& rec = recs[r];
    if (!snapshots) snap(r);
    if (rec.iteration.back() != bt.iteration(r)) snap(r);
    const Params final = bt.params(r);
    const Forward fw = bt.model(r).forward(final);
    rec.finalSelection = fw.selected;
    rec.finalProb = fw.selectedProbability;
    rec.finalSoftmax = fw.softmax;
    rec.finalLoss = fw.loss;
    rec.finalParams = final;
    rec.stopReason = bt.stopReason(r);
  }
  return recs;
}

}  // namespace attnsvm
