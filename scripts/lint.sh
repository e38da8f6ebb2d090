#!/usr/bin/env bash
# Lint: clang-format over every C++ file (style in .clang-format) and ESLint (eslint.config.js) over the
# JavaScript of web/, tests/ and scripts/. Exits non-zero when either finds a problem; .ci/run runs it
# before the tests. `bash scripts/lint.sh --fix` rewrites the C++ files and applies ESLint's fixes.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh >/dev/null || exit 1
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
status=0
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  npx eslint --fix . || status=1
else
  if clang-format --dry-run -Werror "${files[@]}" 2>/tmp/attnsvm-clang-format.log; then
    echo "lint: ${#files[@]} C++ files formatted"
  else
    bad=$(grep -o '^[^:]*\.[ch]pp' /tmp/attnsvm-clang-format.log | sort -u)
    echo "lint: clang-format would change $(echo "$bad" | wc -l) file(s) (run: bash scripts/lint.sh --fix):"
    echo "$bad" | sed 's/^/  /'
    status=1
  fi
  if npx eslint .; then echo "lint: ESLint clean"; else status=1; fi
fi
exit $status
