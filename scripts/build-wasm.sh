#!/usr/bin/env bash
# Builds the WebAssembly module (and, with --tests, the wasm GoogleTest suite) through the `wasm`
# CMake preset, which sets NODE_PATH for emcc's -O2 link and uses node as the test emulator.
set -euo pipefail
cd "$(dirname "$0")/.."
# (Re)configure when there is no build yet or the presets changed (their cache variables, such as the
# compile flags, are applied only at configure time).
if [[ ! -f build/wasm/build.ninja || CMakePresets.json -nt build/wasm/CMakeCache.txt ]]; then
  cmake --preset wasm >/dev/null
fi
if [[ "${1:-}" == "--tests" ]]; then
  cmake --build --preset wasm
else
  cmake --build --preset wasm --target attnsvm_web_module
fi
