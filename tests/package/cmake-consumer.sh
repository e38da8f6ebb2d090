#!/usr/bin/env bash
# Installs the core from a native build tree into a scratch prefix, then builds and runs a consumer
# project outside the tree twice: through the exported CMake package (find_package(attnsvm CONFIG),
# attnsvm::core) and through pkg-config (attnsvm.pc). Usage: tests/package/cmake-consumer.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
# A sanitizer build installs an instrumented library: its consumer must be compiled by the same
# compiler (the sanitizer runtimes of clang and GCC differ) and linked the same way.
flags=""
if grep -q '^ATTNSVM_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then flags="-fsanitize=address,undefined"; fi
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx=${cxx:-c++}

echo "cmake-consumer: find_package(attnsvm CONFIG) from $scratch/prefix"
cmake -S "$here/consumer" -B "$scratch/cmake-build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$scratch/cmake-build" >/dev/null
"$scratch/cmake-build/consumer"

echo "cmake-consumer: pkg-config attnsvm"
export PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/x86_64-linux-gnu/pkgconfig"
pkg-config --exists attnsvm
# shellcheck disable=SC2046
"$cxx" -std=c++17 -O1 $flags "$here/consumer/main.cpp" $(pkg-config --cflags --libs attnsvm) -o "$scratch/consumer-pc"
"$scratch/consumer-pc"
echo "cmake-consumer: ok"
