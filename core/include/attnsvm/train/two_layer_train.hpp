// Normalized gradient descent on the two-layer model (two_layer.hpp, SPEC 5.3): W1 and W2 (and the
// head v when asked) each step by eta along their own gradient divided by its Frobenius norm, as
// the one-layer NGD does for the factors K and Q.
#pragma once
#include <string>

#include "attnsvm/model/two_layer.hpp"

namespace attnsvm {

struct TwoLayerTrainSettings {
  double lr = 0.1;
  bool trainHead = false;  // false: v stays the data's (or the given) head
};

// One step from `params` in place, using `grad` as scratch (it holds the gradient at the step's
// start on return). A block whose gradient is exactly zero (the softmax's other probabilities
// underflowed) stays in place; returns a reason ("gradient underflow: ...", "non-finite
// gradient") and leaves params unchanged when no block can move, else "".
std::string twoLayerNgdStep(const TwoLayerModel& model, const TwoLayerTrainSettings& settings,
                            TwoLayerParams& params, TwoLayerGradient& grad);

}  // namespace attnsvm
