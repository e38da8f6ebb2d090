// NGD on the two-layer model (two_layer_train.hpp).
#include "attnsvm/train/two_layer_train.hpp"

#include <cmath>

namespace attnsvm {

std::string twoLayerNgdStep(const TwoLayerModel& model, const TwoLayerTrainSettings& settings,
                            TwoLayerParams& params, TwoLayerGradient& grad) {
  model.gradient(params, grad);
  const double n1 = grad.W1.norm(), n2 = grad.W2.norm();
  const double nv = settings.trainHead ? grad.v.norm() : 0.0;
  if (!std::isfinite(n1) || !std::isfinite(n2) || !std::isfinite(nv)) return "non-finite gradient";
  if (n1 == 0.0 && n2 == 0.0 && nv == 0.0)
    return "gradient underflow: every block's gradient is exactly zero";
  if (n1 > 0.0) params.W1 -= (settings.lr / n1) * grad.W1;
  if (n2 > 0.0) params.W2 -= (settings.lr / n2) * grad.W2;
  if (nv > 0.0) params.v -= (settings.lr / nv) * grad.v;
  return "";
}

}  // namespace attnsvm
