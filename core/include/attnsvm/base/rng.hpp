// The project's own seeded random numbers: xoshiro256** seeded through splitmix64, Gaussian by
// Box-Muller. The integer stream is identical on every platform (native, wasm); the doubles agree
// to the last few ulps (std::log/std::cos may differ between libms). std::normal_distribution is
// not used because its output differs between standard libraries.
#pragma once
#include <cstdint>

#include "attnsvm/base/types.hpp"

namespace attnsvm {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t nextU64();
  double uniform();  // in [0, 1), 53 random bits
  // Standard Gaussian (Box-Muller, both outputs used): a call with no stored value draws
  // u1 = 1 - uniform() (in (0,1], so log is finite) then u2 = uniform(), returns
  // sqrt(-2 log u1) cos(2 pi u2) and stores sqrt(-2 log u1) sin(2 pi u2) for the next call.
  double normal();
  Vec normalVector(Index d);                 // i.i.d. N(0,1)
  Vec unitVector(Index d);                   // normalVector / norm (redrawn if the norm is 0)
  Mat normalMatrix(Index rows, Index cols);  // i.i.d. N(0,1), filled row by row

 private:
  std::uint64_t s_[4];
  bool hasSpare_ = false;
  double spare_ = 0.0;
};

// A standard Gaussian from the project's Rng computed with the portable log (Marsaglia's polar
// method: u, v uniform in (-1, 1) until 0 < s = u^2 + v^2 < 1, then u sqrt(-2 log(s) / s); the
// second value v sqrt(...) is returned by the next call): the same bits natively and in wasm,
// unlike Rng::normal's libm cos/sin.
class PortableGaussian {
 public:
  explicit PortableGaussian(std::uint64_t seed) : rng_(seed) {}
  double next();
  Rng& rng() { return rng_; }  // the underlying stream (the minibatch shuffles continue it)

 private:
  Rng rng_;
  bool hasSpare_ = false;
  double spare_ = 0.0;
};

}  // namespace attnsvm
