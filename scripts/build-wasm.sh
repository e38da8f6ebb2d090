#!/usr/bin/env bash
# Builds the WebAssembly module (and, with --tests, the wasm GoogleTest suite) through the `wasm`
# CMake preset, which sets NODE_PATH for emcc's -O2 link and uses node as the test emulator.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/wasm/build.ninja ]]; then
  cmake --preset wasm >/dev/null
fi
if [[ "${1:-}" == "--tests" ]]; then
  cmake --build --preset wasm
else
  cmake --build --preset wasm --target attnsvm_web_module
fi
