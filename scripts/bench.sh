#!/usr/bin/env bash
# Native benchmarks (Google Benchmark, release build). Medians of 5 repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
[[ -f build/native-release/build.ninja ]] || cmake --preset native-release >/dev/null
cmake --build --preset native-release
for b in build/native-release/bench/bench_*; do
  [[ -x "$b" ]] || continue
  echo "==== $b"
  "$b" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_display_aggregates_only=true
done
