// Two-lane double vectors for the solvers' hand-written kernels (grouped_constraints.cpp,
// dense_cholesky.cpp). Eigen 3.4 has no WebAssembly SIMD path (EIGEN_VECTORIZE is off under
// Emscripten's -msimd128), so every Eigen product runs in scalars there; these kernels use the GCC
// and clang vector extensions instead: SSE2 natively, SIMD128 in wasm, two doubles as a struct
// elsewhere. Internal.
#pragma once
#include <cstring>

namespace attnsvm {
namespace detail {

#if defined(__GNUC__)
using Lanes = double __attribute__((vector_size(16)));
inline Lanes splat(double x) { return Lanes{x, x}; }
inline double lane(const Lanes& v, int i) { return v[i]; }
#else
struct Lanes {
  double v[2];
  Lanes& operator+=(const Lanes& o) {
    v[0] += o.v[0];
    v[1] += o.v[1];
    return *this;
  }
  Lanes& operator-=(const Lanes& o) {
    v[0] -= o.v[0];
    v[1] -= o.v[1];
    return *this;
  }
  Lanes operator*(const Lanes& o) const { return Lanes{{v[0] * o.v[0], v[1] * o.v[1]}}; }
};
inline Lanes splat(double x) { return Lanes{{x, x}}; }
inline double lane(const Lanes& v, int i) { return v.v[i]; }
#endif
// Unaligned loads and stores (memcpy compiles to one vector load / store).
inline Lanes load(const double* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, const Lanes& v) { std::memcpy(p, &v, sizeof v); }

}  // namespace detail
}  // namespace attnsvm

// Fully unrolled (the wasm build compiles with -fno-unroll-loops, which leaves only forced ones).
#if defined(__clang__)
#define ATTNSVM_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define ATTNSVM_UNROLL _Pragma("GCC unroll 8")
#else
#define ATTNSVM_UNROLL
#endif
