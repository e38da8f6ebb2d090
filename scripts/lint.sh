#!/usr/bin/env bash
# Formatting check for the C++ sources (clang-format, style in .clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
clang-format --dry-run -Werror "${files[@]}"
echo "lint: ${#files[@]} C++ files formatted"
