// Size hint for cold code in the WebAssembly build: between ATTNSVM_COLD_BEGIN and
// ATTNSVM_COLD_END every function defined (not the Eigen templates it calls, whose declarations
// come from headers included before) is optimized for size (clang's minsize: little inlining,
// no unrolling). The Eigen kernels those functions call stay out of line and fully optimized,
// shared with the hot code, unlike a per-file -Oz (docs/BENCHMARKS.md, "WebAssembly").
// ATTNSVM_COLD_FN marks a single function the same way. Only for code whose time is spent in
// callees: conversions, drivers, problem set-up, analysis, and the l_p and nuclear solvers, whose
// iterations run in Eigen's products and factorizations (wasm against wasm: same speed). Not the
// Frobenius active set and the training step: at minsize those were ~10% slower, and they are the
// two workloads with a speed bar in WebAssembly (issue 5).
// Caveat: a lambda's conversion to a function pointer (its static invoker) does not get the
// attribute, and the lambda's body is inlined into it: use a named function (wasm/guarded.hpp).
// Native builds are unaffected. Measured in docs/BENCHMARKS.md, "WebAssembly".
#pragma once

#if defined(__EMSCRIPTEN__) && defined(__clang__)
#define ATTNSVM_COLD_BEGIN \
  _Pragma("clang attribute push (__attribute__((minsize)), apply_to = function)")
#define ATTNSVM_COLD_END _Pragma("clang attribute pop")
#define ATTNSVM_COLD_FN __attribute__((minsize))  // one cold function in a hot file
#else
#define ATTNSVM_COLD_FN
#define ATTNSVM_COLD_BEGIN
#define ATTNSVM_COLD_END
#endif
