// The drivers' loop over the batched trainer (attnsvm/train/train_batched.hpp): many runs of one
// shape with snapshots, returned as the RunRecords of runTraining (experiment.hpp).
#pragma once
#include <vector>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/train/train_batched.hpp"

namespace attnsvm {

// runTraining (experiment.hpp) for K runs at once: every record as runTraining would give for the
// same (data[k], spec, settings, inits[k], iters, every) up to reassociation (no schedule, no head
// snapshots). Falls back to runTraining per run when batchedUnsupported() says so.
std::vector<RunRecord> runTrainingBatched(const std::vector<const Dataset*>& data,
                                          const ModelSpec& spec, const TrainSettings& settings,
                                          const std::vector<Params>& inits, int iters, int every);

}  // namespace attnsvm
