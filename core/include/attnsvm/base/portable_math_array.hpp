// pmath::pow over an array, four entries at a time, with the scalar pow's bits. For loops that
// raise many entries to one exponent (the experiments' divergences of every snapshot against every
// SVM): the scalar pow is a call per entry that neither compiler vectorizes. Header-only and called
// by the experiments' code alone, so that a module without them (the page's wasm) does not carry
// the vector code (2.4 KB there: docs/BENCHMARKS.md, issue 42).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "attnsvm/base/portable_math.hpp"

namespace attnsvm::pmath {

// v[i] <- pow(v[i], e) for i < n, bit for bit. Where pow takes its core path (v finite, positive,
// not 1; e not 0 and |e| <= 2^64), through the V4 instance of detail::powCore, which computes the
// scalar instance's operations lane by lane; pow itself for the rest (0, 1, inf, NaN, negative
// entries, the exponents pow treats apart) and for the last n mod 4 entries.
inline void powInPlace(double* __restrict v, std::size_t n, double e) {
  namespace pd = detail;
  std::size_t i = 0;
  if (e != 0.0 && std::abs(e) <= 0x1p64) {
    const pd::V4 ev = pd::V4{} + e;
    for (; i + 4 <= n; i += 4) {
      double a[4], safe[4];
      for (int l = 0; l < 4; ++l) {
        a[l] = v[i + l];
        const bool core =
            a[l] > 0.0 && a[l] < std::numeric_limits<double>::infinity() && a[l] != 1.0;
        safe[l] = core ? a[l] : 2.0;  // any argument of the core path; replaced below
      }
      pd::V4 x;
      std::memcpy(&x, safe, sizeof x);
      const pd::V4 r = pd::powCore(x, ev);
      std::memcpy(v + i, &r, sizeof r);
      for (int l = 0; l < 4; ++l)
        if (!(safe[l] == a[l])) v[i + l] = pow(a[l], e);
    }
  }
  for (; i < n; ++i) v[i] = pow(v[i], e);
}

}  // namespace attnsvm::pmath
