#!/usr/bin/env bash
# Static site build: the wasm module, then vite bundles web/ into dist/ with relative paths
# (works from any static host, any sub-path, and inside a cross-origin iframe).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/build-wasm.sh
npx vite build --logLevel warn
echo "build: static site in $(pwd)/dist"
