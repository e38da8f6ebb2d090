// The drivers' loop over the batched trainer (attnsvm/train/train_batched.hpp): many runs of one
// shape with snapshots, returned as the RunRecords of runTraining (experiment.hpp).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/train/train_batched.hpp"

namespace attnsvm {

// Storage for the snapshots' weights of runTrainingBatched that outlives a call: one block for
// every run's snapshots, reused by the next call. A Mat per snapshot (200 runs x 201 snapshots of
// 10 x 10 in local-convergence) cost 12 % of that experiment: the allocator returned each batch's
// freed snapshots to the kernel, and the next batch paid the first touch of fresh pages again.
// On Linux the block asks for transparent huge pages: a 4 KB page's first touch costs ~15-30 us on
// this project's (virtualized) machines, so 4 MB of snapshots in 4 KB pages cost ~5 % of the
// experiment, and in 2 MB pages two faults.
class SnapshotArena {
 public:
  // Room for `perRun` snapshots of rows x cols for each of `runs` runs; grows, never shrinks.
  void reset(int runs, int perRun, Eigen::Index rows, Eigen::Index cols);
  int perRun() const { return perRun_; }
  // Snapshot k of run r (k < perRun()).
  Eigen::Map<Mat> at(int r, int k) { return {slot(r, k), rows_, cols_}; }
  Eigen::Map<const Mat> at(int r, int k) const { return {slot(r, k), rows_, cols_}; }

 private:
  double* slot(int r, int k) { return data_.get() + offset(r, k); }
  const double* slot(int r, int k) const { return data_.get() + offset(r, k); }
  std::size_t offset(int r, int k) const;
  struct Free {
    void operator()(double* p) const;
  };
  std::unique_ptr<double[], Free> data_;
  std::size_t capacity_ = 0;  // doubles
  int runs_ = 0, perRun_ = 0;
  Eigen::Index rows_ = 0, cols_ = 0;
};

// runTraining (experiment.hpp) for K runs at once: every record as runTraining would give for the
// same (data[k], spec, settings, inits[k], iters, every) up to reassociation (no schedule, no head
// snapshots). Falls back to runTraining per run when batchedUnsupported() says so. With an arena,
// the weights of snapshot k of run r go to arena->at(r, k) instead of RunRecord::weights (which
// stays empty); the arena is reset to the calls' runs and snapshots.
std::vector<RunRecord> runTrainingBatched(const std::vector<const Dataset*>& data,
                                          const ModelSpec& spec, const TrainSettings& settings,
                                          const std::vector<Params>& inits, int iters, int every,
                                          SnapshotArena* arena = nullptr);

}  // namespace attnsvm
