// xoshiro256** (Blackman & Vigna) seeded through splitmix64; Gaussian by Box-Muller.
// Everything here is integer arithmetic except uniform() (exact: 53 bits times 2^-53) and the
// Box-Muller transform (std::log, std::sqrt, std::cos, std::sin), so the integer stream is
// identical on every platform and the doubles agree up to libm rounding.
#include "attnsvm/base/rng.hpp"

#include <cmath>

#include "attnsvm/base/portable_math.hpp"

namespace attnsvm {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  x += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

constexpr double kTwoPi = 6.283185307179586476925286766559;

}  // namespace

Rng::Rng(std::uint64_t seed) {
  // splitmix64 never yields four zero words from one seed, so the xoshiro state is valid.
  std::uint64_t x = seed;
  for (auto& w : s_) w = splitmix64(x);
}

std::uint64_t Rng::nextU64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() { return static_cast<double>(nextU64() >> 11) * 0x1.0p-53; }

double Rng::normal() {
  // Box-Muller with both outputs: a call draws two uniforms (u1 first, then u2) and returns
  // r cos(2 pi u2); the next call returns the stored r sin(2 pi u2) without drawing.
  if (hasSpare_) {
    hasSpare_ = false;
    return spare_;
  }
  const double u1 = 1.0 - uniform();  // in (0, 1]: log(u1) is finite
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = kTwoPi * u2;
  spare_ = r * std::sin(theta);
  hasSpare_ = true;
  return r * std::cos(theta);
}

Vec Rng::normalVector(Index d) {
  Vec out(d);
  for (Index k = 0; k < d; ++k) out[k] = normal();
  return out;
}

Vec Rng::unitVector(Index d) {
  if (d <= 0) return Vec(0);  // no unit vector exists; avoid redrawing forever
  for (;;) {
    Vec out = normalVector(d);
    const double norm = out.norm();
    if (norm > 0.0) return out / norm;
  }
}

Mat Rng::normalMatrix(Index rows, Index cols) {
  Mat out(rows, cols);
  for (Index r = 0; r < rows; ++r)
    for (Index c = 0; c < cols; ++c) out(r, c) = normal();
  return out;
}

double PortableGaussian::next() {
  if (hasSpare_) {
    hasSpare_ = false;
    return spare_;
  }
  for (;;) {
    const double u = 2.0 * rng_.uniform() - 1.0, v = 2.0 * rng_.uniform() - 1.0;
    const double s = u * u + v * v;
    if (!(s > 0.0 && s < 1.0)) continue;
    const double f = std::sqrt(-2.0 * pmath::log(s) / s);
    spare_ = v * f;
    hasSpare_ = true;
    return u * f;
  }
}

}  // namespace attnsvm
