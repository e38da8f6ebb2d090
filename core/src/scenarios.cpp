// Named datasets and scenarios of SPEC section 5.
#include "attnsvm/scenarios.hpp"

#include <cmath>

#include "attnsvm/errors.hpp"
#include "attnsvm/rng.hpp"

namespace attnsvm {

Dataset sphereDataset(int n, int T, int d, std::uint64_t seed) {
  if (n < 1 || T < 1 || d < 1)
    throw InputError("sphere dataset: n, T, d must be >= 1 (got n = " + std::to_string(n) +
                     ", T = " + std::to_string(T) + ", d = " + std::to_string(d) + ")");
  Rng rng(seed);
  Dataset data;
  data.n = n;
  data.T = T;
  data.d = d;
  data.X.resize(static_cast<Index>(n) * T, d);
  data.Z.resize(n, d);
  data.Y.resize(n);
  // Draw order (contract): v, then per sequence: Y_i, its T tokens, z_i.
  data.v = rng.unitVector(d);
  for (int i = 0; i < n; ++i) {
    data.Y[i] = rng.uniform() < 0.5 ? 1.0 : -1.0;
    for (int t = 0; t < T; ++t) data.X.row(static_cast<Index>(i) * T + t) = rng.unitVector(d).transpose();
    data.Z.row(i) = rng.unitVector(d).transpose();
  }
  data.alpha = optimalTokens(data).opt;
  return data;
}

}  // namespace attnsvm
