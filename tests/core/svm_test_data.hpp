// Local, self-contained data generation for the solver tests (independent of the engine's
// generators, so that solver tests do not depend on them): sphere-like data of SPEC section 5.
#pragma once
#include <cmath>
#include <cstdint>

#include "attnsvm/data/dataset.hpp"

namespace svmtest {

class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL) {}
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double normal() {
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  attnsvm::Vec unit(int d) {
    attnsvm::Vec x(d);
    do {
      for (int k = 0; k < d; ++k) x(k) = normal();
    } while (x.norm() == 0.0);
    return x / x.norm();
  }

 private:
  std::uint64_t s_;
};

// Unit Gaussian tokens, queries and head; alpha = optimal tokens.
inline attnsvm::Dataset sphere(int n, int T, int d, std::uint64_t seed) {
  TestRng rng(seed);
  attnsvm::Dataset data;
  data.n = n;
  data.T = T;
  data.d = d;
  data.X.resize(static_cast<attnsvm::Index>(n) * T, d);
  data.Z.resize(n, d);
  data.Y.resize(n);
  data.v = rng.unit(d);
  for (int i = 0; i < n; ++i) {
    data.Y(i) = rng.uniform() < 0.5 ? -1.0 : 1.0;
    for (int t = 0; t < T; ++t)
      data.X.row(static_cast<attnsvm::Index>(i) * T + t) = rng.unit(d).transpose();
    data.Z.row(i) = rng.unit(d).transpose();
  }
  data.alpha.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    int best = 0;
    double bestScore = -1e300;
    for (int t = 0; t < T; ++t) {
      const double g = data.Y(i) * data.token(i, t).dot(data.v);
      if (g > bestScore) {
        bestScore = g;
        best = t;
      }
    }
    data.alpha[static_cast<std::size_t>(i)] = best;
  }
  return data;
}

}  // namespace svmtest
