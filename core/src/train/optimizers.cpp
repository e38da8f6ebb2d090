// The optimizer registry (attnsvm/train/optimizers.hpp). The steps it describes: stepBlock and the
// Adam steps in train.cpp (the Trainer), Block::step in real_train.cpp (the real-images trainer),
// the batched trainer's lanes (train/train_batched.cpp).
#include "attnsvm/train/optimizers.hpp"

namespace attnsvm {

const std::vector<OptimizerInfo>& optimizerRegistry() {
  // kind, wire names, mirror, step scale, why the batched trainer does not run it (null: it does)
  static const std::vector<OptimizerInfo> registry = {
      {Optimizer::GD, {"gd"}, false, StepScale::Plain, nullptr},
      {Optimizer::NGD, {"ngd"}, false, StepScale::Frobenius, nullptr},
      {Optimizer::MD, {"md"}, true, StepScale::Plain, nullptr},
      {Optimizer::NMD, {"nmd"}, true, StepScale::DualNorm, nullptr},
      {Optimizer::NMDFro, {"nmd-fro", "nmd_fro"}, true, StepScale::Frobenius, nullptr},
      {Optimizer::Adam, {"adam"}, false, StepScale::Adaptive, nullptr},
  };
  return registry;
}

const OptimizerInfo& optimizerInfo(Optimizer o) {
  for (const OptimizerInfo& info : optimizerRegistry())
    if (info.kind == o) return info;
  return optimizerRegistry().front();  // unreachable for a valid enum value
}

// Declared in train.hpp.
bool isMirrorOptimizer(Optimizer o) { return optimizerInfo(o).mirror; }
bool isNormalizedOptimizer(Optimizer o) {
  const StepScale s = optimizerInfo(o).scale;
  return s == StepScale::Frobenius || s == StepScale::DualNorm;
}

}  // namespace attnsvm
