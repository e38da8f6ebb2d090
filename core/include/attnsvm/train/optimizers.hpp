// The optimizer registry: one entry per Optimizer with its wire names and the properties every
// consumer reads (the Trainer's step, the real-images trainer, the batched trainer, the wire
// vocabulary, the lab's controls through engine.vocabulary().optimizers). Adding an optimizer is
// its enum value (train.hpp), its entry in core/src/train/optimizers.cpp and its step where the
// StepScale switches ask for one (the compiler's -Wswitch names them).
#pragma once
#include <vector>

#include "attnsvm/train/train.hpp"

namespace attnsvm {

// How a step scales the gradient g of a parameter block (SPEC section 2).
enum class StepScale {
  Plain,      // lr g
  Frobenius,  // lr g / ||g||_F (undefined at g = 0: the Trainer stops there)
  DualNorm,   // lr g / (||g||_q + eps), 1/p + 1/q = 1: the mirror-descent paper's step
  Adaptive    // Adam's moments (adamBeta1, adamBeta2, adamEps)
};

struct OptimizerInfo {
  Optimizer kind;
  const char* names[3];    // the wire name first, then accepted aliases (null: unused)
  bool mirror;             // the step goes through the mirror map of psi = (1/p)||W||_p^p
  StepScale scale;         // normalized: Frobenius or DualNorm
  const char* notBatched;  // null when the batched trainer runs it, else the reason it does not
};

// Every optimizer, in the enum's order (the wire vocabulary's order).
const std::vector<OptimizerInfo>& optimizerRegistry();
const OptimizerInfo& optimizerInfo(Optimizer o);

}  // namespace attnsvm
