#!/usr/bin/env bash
# Every test: native GoogleTest under ASan+UBSan (ctest), the same suite compiled to wasm (ctest,
# run by node), the wasm module's JS API (node's test runner), then the built site in headless
# Chromium (node's test runner + playwright-core). Each runner prints its own summary; the script
# runs every stage it can and exits non-zero if any stage failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

bash scripts/ensure-deps.sh || exit 1

failed=()
stage() {  # stage NAME COMMAND...
  local name=$1; shift
  echo ""
  echo "==== $name"
  local start=$SECONDS
  if "$@"; then
    echo "==== $name: ok ($((SECONDS - start)) s)"
  else
    echo "==== $name: FAILED ($((SECONDS - start)) s)"
    failed+=("$name")
    return 1
  fi
}

native_build() {
  [[ -f build/native-debug/build.ninja ]] || cmake --preset native-debug >/dev/null || return 1
  cmake --build --preset native-debug
}
wasm_build() { bash scripts/build-wasm.sh --tests; }
site_build() { npx vite build --logLevel warn && npx vite build -c vite.element.config.js --logLevel warn; }

if stage "native build (ASan+UBSan)" native_build; then
  stage "native tests (ctest)" ctest --preset native-debug
fi
if stage "wasm build" wasm_build; then
  stage "wasm gtest (ctest, node)" ctest --preset wasm
  stage "wasm API tests (node --test)" node --test --test-reporter=spec tests/wasm/
  if stage "site build (vite)" site_build; then
    stage "browser tests (node --test, chromium)" node --test --test-concurrency=1 --test-reporter=spec tests/browser/
  fi
fi

echo ""
if ((${#failed[@]})); then
  echo "test.sh: FAILED stages: ${failed[*]}"
  exit 1
fi
echo "test.sh: all stages passed"
