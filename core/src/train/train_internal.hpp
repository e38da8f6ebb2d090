// What the trainers of train/ share privately: the Trainer (train.cpp), the real-images trainer
// (real_train.cpp) and the batched trainer (train_batched.cpp) take Adam's step on the same terms,
// and one definition keeps them so (and lets the unity build put their files in one batch).
#pragma once

namespace attnsvm {

// Adam needs the true gradient g = exp(logScale) dir; the scale is capped at e^300 so that g^2
// cannot overflow (a true gradient that large does not occur with the bounded losses of the model;
// the cap only keeps the moments finite).
constexpr double kAdamMaxLogScale = 300.0;

}  // namespace attnsvm
