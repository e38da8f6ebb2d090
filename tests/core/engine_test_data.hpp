// Small deterministic problems shared by the engine tests (header only; not a test source).
#pragma once
#include <cmath>

#include "attnsvm/base/rng.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/model/model.hpp"

namespace attnsvm::testdata {

// n sequences of T Gaussian tokens in R^d, Gaussian cross queries, random +-1 labels, Gaussian
// head v. Well conditioned on purpose (no normalization, no ties).
inline Dataset gaussianDataset(int n, int T, int d, std::uint64_t seed) {
  Rng rng(seed);
  Dataset data;
  data.n = n;
  data.T = T;
  data.d = d;
  data.X = rng.normalMatrix(static_cast<Index>(n) * T, d);
  data.Z = rng.normalMatrix(n, d);
  data.Y.resize(n);
  for (int i = 0; i < n; ++i) data.Y[i] = rng.uniform() < 0.5 ? -1.0 : 1.0;
  data.v = rng.normalVector(d);
  data.query = 1 % T;
  return data;
}

}  // namespace attnsvm::testdata
