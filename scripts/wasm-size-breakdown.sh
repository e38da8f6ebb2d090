#!/usr/bin/env bash
# Links the default module's objects (build/wasm, built by scripts/build-wasm.sh) once more with
# --profiling-funcs (function names kept, same code) and prints where the bytes go.
# The libraries are attnsvm::core (libattnsvm.a) and attnsvm::experiments (the bindings' scenarios).
# Extra arguments go to scripts/wasm-size-breakdown.py (--top N, --grep REGEX).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
flags=$(grep -A2 '^build wasm/attnsvm.js:' build/wasm/build.ninja | sed -n 's/^ *LINK_FLAGS = //p')
# The bindings' objects: one per source, or the unity batches (the wasm preset is a unity build).
mapfile -t bindings < <(cd build/wasm && find wasm/CMakeFiles/attnsvm_bindings.dir -name '*.o' | sort)
(( ${#bindings[@]} )) || { echo "no objects in build/wasm: run bash scripts/build-wasm.sh first" >&2; exit 1; }
(cd build/wasm && NODE_PATH=/usr/share/nodejs eval em++ -O3 $flags --profiling-funcs \
  "${bindings[@]}" core/libattnsvm_experiments.a core/libattnsvm.a -o "$out/attnsvm.js")
cp "$out/attnsvm.wasm" "${WASM_PROFILE_OUT:-$out/attnsvm.wasm}" 2>/dev/null || true
objects=build/wasm/core/libattnsvm.a,build/wasm/core/libattnsvm_experiments.a
for o in "${bindings[@]}"; do objects+=",build/wasm/$o"; done
python3 scripts/wasm-size-breakdown.py "$out/attnsvm.wasm" --objects "$objects" "$@"
rm -rf "$out"
