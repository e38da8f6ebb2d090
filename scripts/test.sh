#!/usr/bin/env bash
# Every test. Two pipelines run side by side (the machine has 2 cores; each pipeline's long phases
# are compiles whose tails leave a core idle):
#   native: GoogleTest + CLI tests under ASan+UBSan (ctest), then a consumer project built against
#           `cmake --install` of the core (CMake package and pkg-config);
#   wasm:   the same GoogleTest suite compiled to wasm (ctest, run by node), the wasm module's JS API
#           (node's test runner), the site build (vite).
# Then, alone on the machine because some of them time the page: the packed npm tarball installed into
# a throwaway project, and the built site in headless Chromium (node's test runner + playwright-core).
# Each runner prints its own summary; the script runs every stage it can and exits non-zero if any
# stage failed. Logs of the two pipelines are printed whole, one after the other.
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

bash scripts/ensure-deps.sh || exit 1

logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
start_all=$SECONDS

stage() {  # stage NAME COMMAND...: runs it, prints its status line, records a failure in $logdir/failed
  local name=$1; shift
  echo ""
  echo "==== $name"
  local start=$SECONDS
  if "$@"; then
    echo "==== $name: ok ($((SECONDS - start)) s)"
  else
    echo "==== $name: FAILED ($((SECONDS - start)) s)"
    echo "$name" >> "$logdir/failed"
    return 1
  fi
}

native_build() {
  [[ -f build/native-debug/build.ninja && CMakePresets.json -ot build/native-debug/CMakeCache.txt ]] ||
    cmake --preset native-debug >/dev/null || return 1
  cmake --build --preset native-debug
}
wasm_build() { bash scripts/build-wasm.sh --tests; }
site_build() { npx vite build --logLevel warn && npx vite build -c vite.element.config.js --logLevel warn; }

native_pipeline() {
  if stage "native build (ASan+UBSan)" native_build; then
    stage "native tests (ctest)" ctest --preset native-debug
    stage "package: CMake consumer of the installed core" bash tests/package/cmake-consumer.sh build/native-debug
  fi
}
wasm_pipeline() {
  if stage "wasm build" wasm_build; then
    stage "wasm gtest (ctest, node)" ctest --preset wasm
    stage "wasm API tests (node --test)" node --test --test-reporter=spec tests/wasm/
    stage "site build (vite)" site_build || echo "site build" >> "$logdir/no-site"
  else
    echo "wasm build" >> "$logdir/no-site"
  fi
}

native_pipeline > "$logdir/native.log" 2>&1 &
native_pid=$!
wasm_pipeline > "$logdir/wasm.log" 2>&1 &
wasm_pid=$!
wait "$native_pid" "$wasm_pid"
echo "#### native pipeline"; cat "$logdir/native.log"
echo ""; echo "#### wasm pipeline"; cat "$logdir/wasm.log"

if [[ ! -f "$logdir/no-site" ]]; then
  echo ""; echo "#### packaged API and browser tests"
  stage "package: npm tarball (node --test)" node --test --test-reporter=spec tests/package/
  stage "browser tests (node --test, chromium)" node --test --test-concurrency=1 --test-reporter=spec tests/browser/
fi

echo ""
if [[ -f "$logdir/failed" ]]; then
  echo "test.sh: FAILED stages: $(paste -sd, "$logdir/failed") ($((SECONDS - start_all)) s)"
  exit 1
fi
echo "test.sh: all stages passed ($((SECONDS - start_all)) s)"
