# Sourced by scripts/test.sh: which test stages can be skipped because their inputs have not changed
# since a run in which they passed (like a build system's test cache: a result is reused only for
# byte-identical inputs, so nothing is tested less).
#
# A stage's key is a hash of (a) the git tree hashes of the working-tree folders and files the stage
# reads, untracked files included (a throwaway index; the real one is not touched), and (b) the
# versions of the tools and Debian packages the builds use. A stage that passes writes its key to
# build/test-stamps/STAGE; wiping build/ wipes the cache. `npm test -- --all` (or ATTNSVM_TEST_ALL=1)
# runs every stage regardless.

stamp_dir=build/test-stamps

# The working tree as a git tree object (tracked and untracked, ignored files excluded).
working_tree_hash() {
  local index
  index=$(mktemp)
  cp "$(git rev-parse --git-path index)" "$index" 2>/dev/null || rm -f "$index"
  GIT_INDEX_FILE=$index git add -A . >/dev/null 2>&1 && GIT_INDEX_FILE=$index git write-tree
  rm -f "$index"
}

tool_versions() {
  {
    g++ --version | head -1
    clang++ --version 2>/dev/null | head -1
    emcc --version 2>/dev/null | head -1
    node --version
    chromium --version 2>/dev/null
    dpkg-query -W -f='${Package}=${Version}\n' libeigen3-dev libgtest-dev nlohmann-json3-dev libcli11-dev \
      zlib1g-dev dataset-fashion-mnist emscripten 2>/dev/null
  } | sha256sum | cut -d' ' -f1
}

# stage_key NAME PATH...: the hash of the stage's inputs and the harness (a path missing from the tree
# counts as absent).
stage_key() {
  local name=$1; shift
  {
    echo "$name $tools"
    for p in "$@" "${harness[@]}"; do echo "$p $(git rev-parse -q --verify "$tree:$p" 2>/dev/null || echo absent)"; done
  } | sha256sum | cut -d' ' -f1
}

# is_cached NAME: true when the stage passed before with the same key (and caching is on).
is_cached() {
  [[ "$use_cache" == 1 && -f "$stamp_dir/$1" && "$(cat "$stamp_dir/$1")" == "${key[$1]}" ]]
}
record_pass() { mkdir -p "$stamp_dir" && echo "${key[$1]}" > "$stamp_dir/$1"; }

use_cache=1
if [[ "${1:-}" == "--all" || "${ATTNSVM_TEST_ALL:-0}" == 1 ]] || ! git rev-parse --git-dir >/dev/null 2>&1; then
  use_cache=0
fi
tree=$(working_tree_hash || true)
[[ -n "$tree" ]] || use_cache=0
tools=$(tool_versions)

# The scripts that build or run tests: every key covers them (the others in scripts/, benchmarks and
# the figure export, change no test's result).
harness=(scripts/test.sh scripts/test-cache.sh scripts/ensure-deps.sh scripts/build-wasm.sh
  scripts/make-real-images-asset.mjs scripts/pack-npm.mjs scripts/browser-host.mjs)
# Inputs of each stage.
native_inputs=(core cli tests/core tests/cli CMakeLists.txt CMakePresets.json cmake)
wasm_inputs=(core wasm tests/core CMakeLists.txt CMakePresets.json cmake)
web_inputs=(core wasm cli web tests/wasm tests/browser tests/package CMakeLists.txt CMakePresets.json cmake
  package.json package-lock.json vite.config.js vite.element.config.js scripts/vite-static-shell.mjs)
# (tests/docs/architecture.test.mjs checks the include direction of core, cli and wasm and every path
# docs/ARCHITECTURE.md names: those folders are its inputs too.)
docs_inputs=(README.md CHANGELOG.md docs tests/docs package.json .ci web/examples web/src/access web/src/lab/describe.js
  web/src/real/describe.js core cli wasm web/src tests bench scripts)
declare -A key=(
  [native-tests]=$(stage_key native-tests "${native_inputs[@]}")
  [cmake-consumer]=$(stage_key cmake-consumer "${native_inputs[@]}" tests/package)
  [wasm-gtest]=$(stage_key wasm-gtest "${wasm_inputs[@]}")
  [wasm-api]=$(stage_key wasm-api "${web_inputs[@]}")
  [npm-tarball]=$(stage_key npm-tarball "${web_inputs[@]}")
  [browser]=$(stage_key browser "${web_inputs[@]}")
  [browser-perf]=$(stage_key browser-perf "${web_inputs[@]}")
  [docs]=$(stage_key docs "${docs_inputs[@]}")
)
