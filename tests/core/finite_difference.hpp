// Central finite differences of a model's loss, shared by the gradient checks
// (test_gradient.cpp, test_real_images.cpp).
#pragma once

#include "attnsvm/model/model.hpp"

namespace attnsvm {

// Central differences (loss(x + h) - loss(x - h)) / 2h w.r.t. every entry of one parameter block
// (Params::W, K, Q or v; any model with loss(params), e.g. TwoLayerModel's W1, W2, v).
template <class ModelT, class ParamsT, class Block>
Mat finiteDifference(const ModelT& model, ParamsT params, Block ParamsT::*field, double h) {
  Block& x = params.*field;
  Mat g(x.rows(), x.cols());
  for (Index r = 0; r < x.rows(); ++r)
    for (Index c = 0; c < x.cols(); ++c) {
      const double keep = x(r, c);
      x(r, c) = keep + h;
      const double up = model.loss(params);
      x(r, c) = keep - h;
      const double down = model.loss(params);
      x(r, c) = keep;
      g(r, c) = (up - down) / (2.0 * h);
    }
  return g;
}

}  // namespace attnsvm
