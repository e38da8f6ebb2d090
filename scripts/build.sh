#!/usr/bin/env bash
# Static site build: the wasm module, then vite bundles web/ into dist/ with relative paths
# (works from any static host, any sub-path, and inside a cross-origin iframe).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/build-wasm.sh
npx vite build --logLevel warn
npx vite build -c vite.element.config.js --logLevel warn  # dist/attnsvm-figure.js, the single-script <attnsvm-figure> embed
echo "build: static site in $(pwd)/dist"
