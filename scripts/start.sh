#!/usr/bin/env bash
# The main job: build the wasm module and the page, then serve the lab on 127.0.0.1 and print its URL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
PORT="${PORT:-5173}"
echo ""
echo "attnsvm lab: http://127.0.0.1:${PORT}/"
echo ""
exec npx vite preview --host 127.0.0.1 --port "$PORT" --strictPort
