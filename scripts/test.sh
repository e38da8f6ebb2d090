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
# A test stage whose inputs are byte-identical to those of a run in which it passed is skipped and
# says so (scripts/test-cache.sh); its builds are skipped too when no stage needs them.
# `npm test -- --all` runs everything.
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

bash scripts/ensure-deps.sh || exit 1

# Compiler cache (ccache, a Debian package ensure-deps installs): a fresh clone or a wiped build dir
# recompiles only what changed since any earlier build on this machine. The base dir makes the cache
# keys relative, so clones in different folders share entries. Read by CMake at configure time.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}
  # The debug preset compiles with -g1, for which ccache also hashes the working directory by default,
  # so that no two clones shared an entry (a fresh clone of a built tree recompiled the whole ASan build:
  # 484 s). Not hashing it lets them share; the price is that an object's debug info may name the
  # folder of the clone that first compiled it.
  export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi

logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
start_all=$SECONDS

source scripts/test-cache.sh

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

# test_stage CACHE_NAME TITLE COMMAND...: a test stage, skipped when cached, recorded when it passes.
test_stage() {
  local name=$1 title=$2; shift 2
  if is_cached "$name"; then
    echo ""; echo "==== $title: cached (inputs unchanged since a run in which it passed)"
    return 0
  fi
  stage "$title" "$@" && record_pass "$name"
}
needed() { for s in "$@"; do is_cached "$s" || return 0; done; return 1; }

# The wasm API tests compare with the native CLI (tests/wasm/cli-agreement.test.mjs, experiment.test.mjs):
# they wait for the native pipeline's build, which runs in parallel, instead of skipping those tests.
native_pipeline() {
  if ! needed native-tests cmake-consumer wasm-api; then
    echo "native build not needed (its tests are cached)"; touch "$logdir/native-built"; return 0
  fi
  if stage "native build (ASan+UBSan)" native_build; then
    touch "$logdir/native-built"
    test_stage native-tests "native tests (ctest)" ctest --preset native-debug
    test_stage cmake-consumer "package: CMake consumer of the installed core" \
      bash tests/package/cmake-consumer.sh build/native-debug
  else
    touch "$logdir/native-failed"
  fi
}
wait_for_native_build() {
  while [[ ! -f "$logdir/native-built" && ! -f "$logdir/native-failed" ]]; do sleep 2; done
  [[ -f "$logdir/native-built" ]] || { echo "no native CLI: the native build failed"; return 1; }
}
# The agreement tests' native driver is built by the native build (linked against its core), so no
# second copy of the core is compiled here (tests/wasm/native/CMakeLists.txt).
wasm_api_tests() {
  wait_for_native_build || return 1
  ATTNSVM_NATIVE_REF=${ATTNSVM_NATIVE_REF:-$PWD/build/native-debug/tests/wasm/native/native_ref} \
    node --test --test-reporter=spec tests/wasm/
}
wasm_pipeline() {
  if ! needed wasm-gtest wasm-api npm-tarball browser; then
    echo "wasm build not needed (its tests are cached)"; return 0
  fi
  if stage "wasm build" wasm_build; then
    test_stage wasm-gtest "wasm gtest (ctest, node)" ctest --preset wasm
    test_stage wasm-api "wasm API tests (node --test)" wasm_api_tests
    if needed npm-tarball browser; then
      stage "site build (vite)" site_build || echo "site build" >> "$logdir/no-site"
    fi
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
  test_stage npm-tarball "package: npm tarball (node --test)" node --test --test-reporter=spec tests/package/
  test_stage browser "browser tests (node --test, chromium)" \
    node --test --test-concurrency=1 --test-reporter=spec tests/browser/
fi

echo ""
if [[ -f "$logdir/failed" ]]; then
  echo "test.sh: FAILED stages: $(paste -sd, "$logdir/failed") ($((SECONDS - start_all)) s)"
  exit 1
fi
echo "test.sh: all stages passed ($((SECONDS - start_all)) s)"
