#!/usr/bin/env bash
# Links the default module's objects (build/wasm, built by scripts/build-wasm.sh) once more with
# --profiling-funcs (function names kept, same code) and prints where the bytes go.
# The libraries are attnsvm::core (libattnsvm.a) and attnsvm::experiments (the bindings' scenarios).
# Extra arguments go to scripts/wasm-size-breakdown.py (--top N, --grep REGEX).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
flags=$(grep -A2 '^build wasm/attnsvm.js:' build/wasm/build.ninja | sed -n 's/^ *LINK_FLAGS = //p')
(cd build/wasm && NODE_PATH=/usr/share/nodejs eval em++ -O3 $flags --profiling-funcs \
  wasm/CMakeFiles/attnsvm_bindings.dir/bindings.cpp.o wasm/CMakeFiles/attnsvm_bindings.dir/convert.cpp.o \
  core/libattnsvm_experiments.a core/libattnsvm.a -o "$out/attnsvm.js")
cp "$out/attnsvm.wasm" "${WASM_PROFILE_OUT:-$out/attnsvm.wasm}" 2>/dev/null || true
python3 scripts/wasm-size-breakdown.py "$out/attnsvm.wasm" --objects build/wasm/core/libattnsvm.a,build/wasm/core/libattnsvm_experiments.a,build/wasm/wasm/CMakeFiles/attnsvm_bindings.dir/bindings.cpp.o,build/wasm/wasm/CMakeFiles/attnsvm_bindings.dir/convert.cpp.o "$@"
rm -rf "$out"
