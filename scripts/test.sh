#!/usr/bin/env bash
# Every test. Two pipelines run side by side (the machine has 2 cores; each pipeline's long phases
# are compiles whose tails leave a core idle):
#   native: build under ASan+UBSan, GoogleTest + CLI tests (ctest), then a consumer project built
#           against `cmake --install` of the core (CMake package and pkg-config);
#   wasm:   build, the site build (vite), the packed npm tarball installed into a throwaway project,
#           the built site in headless Chromium (node's test runner + playwright-core);
# and then, in whichever pipeline ends first, the same GoogleTest suite compiled to wasm (ctest, run by
# node) and the wasm module's JS API (node's test runner; it compares with the native CLI and driver,
# so it also waits for the native build).
# The browser tests start as soon as the site is built instead of after everything else (the cold
# run's critical path was native build -> native tests -> browser tests); those that time the page
# (tests/browser/*-perf.test.mjs) run alone at the end. Every stage but the browser's runs at a lower
# CPU priority (nice 10): when the browser wants a core it gets it (its tests wait for frames and
# workers with timeouts), and the compiles and the CPU-bound tests take the rest.
# First, alone (under a second): the README's and docs' links, and the architecture's rules (tests/docs/:
# scripts/check-layout.mjs, the layers and include direction of docs/ARCHITECTURE.md).
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
  # The CLI's precompiled header (cli/CMakeLists.txt, builds that are not unity: the Python stage's)
  # made ccache refuse every CLI object ("could not use precompiled header": 785 of the machine's
  # 3420 calls), so every run rebuilt them at -O3. With these two sloppinesses it caches them (a
  # second build dir of the same sources hits: checked); no source uses __DATE__ or __TIME__.
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
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
    echo "==== $name: ok ($((SECONDS - start)) s, done at $((SECONDS - start_all)) s)"
  else
    echo "==== $name: FAILED ($((SECONDS - start)) s, done at $((SECONDS - start_all)) s)"
    echo "$name" >> "$logdir/failed"
    return 1
  fi
}

low=(nice -n 10)  # the priority of everything but the browser tests (see the top)
native_build() {
  [[ -f build/native-debug/build.ninja && CMakePresets.json -ot build/native-debug/CMakeCache.txt ]] ||
    cmake --preset native-debug >/dev/null || return 1
  "${low[@]}" cmake --build --preset native-debug
}
wasm_build() { "${low[@]}" bash scripts/build-wasm.sh --tests; }
site_build() {
  "${low[@]}" npx vite build --logLevel warn && "${low[@]}" npx vite build -c vite.element.config.js --logLevel warn
}

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

# Further stages, one line each: "NAME|TITLE|INPUT PATHS (space-separated)|COMMAND". Each runs in the
# native pipeline after its tests (at nice 10, whether or not the native build was needed), is skipped
# when its inputs (and the harness) are unchanged since a run in which it passed, and its failure fails
# the run. Example: "python|python: the bindings (pytest)|python tests/python core|bash scripts/test-python.sh"
extra_stages=(
  # The Python package (docs/PYTHON.md): built against the same core, its figure carries the site's
  # element, so the stage waits for the site build of the other pipeline (wait_for_site).
  "python|python package (pytest)|python tests/python core cli cmake CMakeLists.txt web scripts/test-python.sh|wait_for_site && bash scripts/test-python.sh"
)
for line in "${extra_stages[@]}"; do
  IFS='|' read -r name _ inputs _ <<< "$line"
  # shellcheck disable=SC2086  # the inputs are a space-separated list of paths
  key[$name]=$(stage_key "$name" $inputs)
done
# wait_for_site: until the other pipeline's site build has ended or will not run (the Python
# package's build copies dist/attnsvm-figure.js and would otherwise build it at the same time).
wait_for_site() {
  while [[ ! -f "$logdir/site-done" && ! -f "$logdir/no-site" ]]; do sleep 2; done
}
export -f wait_for_site; export logdir
run_extra_stages() {
  for line in "${extra_stages[@]}"; do
    IFS='|' read -r name title _ command <<< "$line"
    test_stage "$name" "$title" "${low[@]}" bash -c "$command"
  done
}

# The wasm API tests compare with the native CLI (tests/wasm/cli-agreement.test.mjs, experiment.test.mjs):
# they wait for the native pipeline's build, which runs in parallel, instead of skipping those tests.
native_pipeline() {
  if ! needed native-tests cmake-consumer wasm-api; then
    echo "native build not needed (its tests are cached)"; touch "$logdir/native-built"
    run_extra_stages; return 0
  fi
  if stage "native build (ASan+UBSan)" native_build; then
    touch "$logdir/native-built"
    test_stage native-tests "native tests (ctest)" "${low[@]}" ctest --preset native-debug
    test_stage cmake-consumer "package: CMake consumer of the installed core" \
      "${low[@]}" bash tests/package/cmake-consumer.sh build/native-debug
  else
    touch "$logdir/native-failed"
  fi
  run_extra_stages
}
# The native pipeline, and then a mark that its further stages (the Python package's build among
# them) have ended, whatever became of them: the wasm API tests wait for it (release_cli below).
native_pipeline_marked() { native_pipeline; touch "$logdir/extra-done"; }
# wait_for_build native|wasm: waits until that pipeline's build has ended; true when it succeeded.
wait_for_build() {
  while [[ ! -f "$logdir/$1-built" && ! -f "$logdir/$1-failed" ]]; do sleep 2; done
  [[ -f "$logdir/$1-built" ]]
}
# The agreement tests' native driver is built by the native build (linked against its core), so no
# second copy of the core is compiled here (tests/wasm/native/CMakeLists.txt).
# The CLI they compare with: the Python stage's release build of it (build/python, -O3, the
# native-release preset's flags) when that is at least as new as every source it is built from, else
# the ASan one. Under ASan the same experiments cost 7x (hierarchy: 70 against 10 CPU-s) to 18x
# (seq2seq-convergence) the CPU, and the two files that run them were 180 of the stage's CPU-s
# (docs/BENCHMARKS.md, "Where npm test's time goes"); a cold run builds that release CLI anyway. The
# ASan CLI is still what the CLI's own tests (ctest) run.
# It waits until the Python stage has built that CLI (scripts/test-python.sh marks it before pytest
# starts) or the native pipeline's further stages have ended (cached, failed or done).
export ATTNSVM_RELEASE_CLI_MARK=$logdir/release-cli-built
release_cli() {
  local cli=build/python/attnsvm/cli/attnsvm
  while [[ ! -f "$logdir/extra-done" && ! -f $ATTNSVM_RELEASE_CLI_MARK ]]; do sleep 2; done
  [[ -x $cli && -z $(find core cli cmake CMakeLists.txt -newer "$cli" -type f -print -quit) ]] && echo "$PWD/$cli"
}
wasm_api_tests() {
  wait_for_build native || { echo "no native CLI: the native build failed"; return 1; }
  local cli
  cli=${ATTNSVM_CLI:-$(release_cli)}
  echo "wasm API tests: the native CLI is ${cli:-build/native-debug/cli/attnsvm (ASan)}"
  ATTNSVM_CLI=$cli ATTNSVM_NATIVE_REF=${ATTNSVM_NATIVE_REF:-$PWD/build/native-debug/tests/wasm/native/native_ref} \
    "${low[@]}" node --test --test-reporter=spec tests/wasm/
}
# The functional browser tests share one Chromium and one server of dist/ (scripts/browser-host.mjs;
# tests/browser/harness.mjs connects to them): each file started its own, about 3 CPU-s a file for
# Chromium's start and end alone (docs/BENCHMARKS.md, "The functional browser tests' CPU"). Each page
# still gets a context of its own. The host is stopped by its pid when the tests end.
browser_functional_tests() {
  local hostinfo=$logdir/browser-host.json host_pid rc
  node scripts/browser-host.mjs "$hostinfo" & host_pid=$!
  while [[ ! -f $hostinfo ]]; do
    kill -0 "$host_pid" 2>/dev/null || { echo "browser host failed to start"; return 1; }
    sleep 0.2
  done
  # (ATTNSVM_SCREENSHOTS=0: no pictures for a reader, which no assertion reads: tests/browser/harness.mjs)
  # (ATTNSVM_NATIVE_BUILD_MARKS: the files that compare with the native CLI wait for its build to end)
  ATTNSVM_BROWSER_WS=$(node -p "require('$hostinfo').ws") ATTNSVM_SITE_URL=$(node -p "require('$hostinfo').url") \
    ATTNSVM_NATIVE_BUILD_MARKS="$logdir/native-built:$logdir/native-failed" ATTNSVM_SCREENSHOTS=0 node --test --test-concurrency=1 --test-reporter=spec "${browser_functional[@]}"
  rc=$?
  kill "$host_pid"; wait "$host_pid" 2>/dev/null
  return $rc
}
browser_stages() {
  if needed npm-tarball browser browser-perf; then
    stage "site build (vite)" site_build || { touch "$logdir/no-site"; return 0; }
    touch "$logdir/site-done"
    test_stage npm-tarball "package: npm tarball (node --test)" node --test --test-reporter=spec tests/package/
    test_stage browser "browser tests (node --test, chromium)" browser_functional_tests
  else
    touch "$logdir/site-done"
  fi
}
# The browser tests that time the page (*-perf.test.mjs: frame rate, main-thread tasks) run alone at
# the end; the others start as soon as the site is built.
mapfile -t browser_functional < <(ls tests/browser/*.test.mjs | grep -v -- '-perf\.test\.mjs$')
mapfile -t browser_timed < <(ls tests/browser/*-perf.test.mjs)
# The wasm gtest and the wasm API tests need the wasm build (and the API tests the native build): the
# pipeline that is free first runs them (a warm rerun's native pipeline is done long before the
# browser tests; a cold run's wasm pipeline is).
wasm_tests() {
  mkdir "$logdir/wasm-tests-claimed" 2>/dev/null || return 0
  wait_for_build wasm || return 0  # the wasm build's failure is recorded already
  test_stage wasm-gtest "wasm gtest (ctest, node)" "${low[@]}" ctest --preset wasm
  test_stage wasm-api "wasm API tests (node --test)" wasm_api_tests
}
wasm_pipeline() {
  if ! needed wasm-gtest wasm-api npm-tarball browser browser-perf; then
    echo "wasm build not needed (its tests are cached)"; touch "$logdir/wasm-built" "$logdir/site-done"; return 0
  fi
  if ! stage "wasm build" wasm_build; then
    touch "$logdir/no-site" "$logdir/wasm-failed"
  else
    touch "$logdir/wasm-built"
    browser_stages
  fi
}

# The README and docs: every link leads somewhere, the README starts with the two commands (under a second).
test_stage docs "docs: links and the README (node --test)" node --test --test-reporter=spec tests/docs/

{ native_pipeline_marked; wasm_tests; } > "$logdir/native.log" 2>&1 &
native_pid=$!
{ wasm_pipeline; wasm_tests; } > "$logdir/wasm.log" 2>&1 &
wasm_pid=$!
wait "$native_pid" "$wasm_pid"
echo "#### native pipeline"; cat "$logdir/native.log"
echo ""; echo "#### wasm pipeline (with the site, the npm tarball and the browser tests)"; cat "$logdir/wasm.log"

if [[ ! -f "$logdir/no-site" ]]; then
  echo ""; echo "#### alone on the machine"
  test_stage browser-perf "browser tests that time the page (node --test, chromium)" \
    node --test --test-concurrency=1 --test-reporter=spec "${browser_timed[@]}"
fi

echo ""
if [[ -f "$logdir/failed" ]]; then
  echo "test.sh: FAILED stages: $(paste -sd, "$logdir/failed") ($((SECONDS - start_all)) s)"
  exit 1
fi
echo "test.sh: all stages passed ($((SECONDS - start_all)) s)"
