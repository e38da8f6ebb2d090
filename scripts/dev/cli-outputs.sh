#!/usr/bin/env bash
# Every CLI command of a broad set, its stdout (and exit code) written to one file each, so that two
# builds can be compared byte for byte (issue 25's relayout; issue 17's splits checked the same way):
#   bash scripts/dev/cli-outputs.sh build/native-release/cli/attnsvm /tmp/before
#   ... change the code, rebuild ...
#   bash scripts/dev/cli-outputs.sh build/native-release/cli/attnsvm /tmp/after
#   diff -r /tmp/before /tmp/after && echo byte-identical
# Timings and thread counts are not in the compared output: experiments run with --threads 1 and
# every "...seconds" / "...Seconds" field (a number or a summary object) is masked. Reduced sizes keep the whole set under ~2
# minutes; real-image runs need Debian's dataset-fashion-mnist (skipped without it).
set -uo pipefail
exe=${1:?usage: cli-outputs.sh ATTNSVM_EXE OUT_DIR}
out=${2:?usage: cli-outputs.sh ATTNSVM_EXE OUT_DIR}
cd "$(dirname "$0")/../.."
data=tests/cli/data
mkdir -p "$out"
n=0
run() {  # run NAME ARG...: stdout to OUT/NAME.out, exit code appended, "seconds" masked
  local name=$1; shift
  local code
  "$exe" "$@" >"$out/$name.out" 2>"$out/$name.err"
  code=$?
  sed -i -E 's/"([A-Za-z]*[sS]econds)":[ ]?(\{[^}]*\}|[0-9.eE+-]+)/"\1":0/g; s/"threads":[ ]?[0-9]+/"threads":0/g' \
    "$out/$name.out"
  echo "exit $code" >>"$out/$name.out"
  n=$((n + 1))
}

# Solve / analyze / train on the test data, every norm, errors included.
for f in small self infeasible nan ragged alpha_range; do
  for norm in fro nuclear; do run "solve-$f-$norm" solve --norm "$norm" "$data/$f.json"; done
  run "solve-$f-lp3" solve --norm lp --p 3 "$data/$f.json"
  run "solve-$f-lp1.5" solve --norm lp --p 1.5 "$data/$f.json"
  run "analyze-$f" analyze "$data/$f.json"
done
for opt in gd ngd md nmd adam; do
  run "train-w-$opt" train --param w --optimizer "$opt" --lr 0.1 --iters 150 "$data/small.json"
  run "train-kq-$opt" train --param kq --optimizer "$opt" --lr 0.1 --iters 150 "$data/small.json"
done
run train-trace train --param w --optimizer ngd --lr 0.1 --iters 100 --trace "$out/train-trace.csv" "$data/small.json"

# Scenarios and generators.
mapfile -t scenarios < <("$exe" scenario --list 2>/dev/null | grep -oE '"[a-z0-9-]+"' | tr -d '"' || true)
for s in "${scenarios[@]}"; do
  run "scenario-$s" scenario "$s" --seed 3
  run "train-scenario-$s" train --scenario "$s" --iters 120 --seed 2
done
run generate-sphere generate sphere --n 3 --T 4 --d 5 --seed 1

# Experiments, reduced (JSON and CSV).
mapfile -t experiments < <("$exe" experiment --list 2>/dev/null | grep -oE '"[a-z0-9-]+"' | tr -d '"' || true)
for e in "${experiments[@]}"; do
  case $e in
    real-*) continue ;;
    basin-map) args=(--grid 12) ;;
    rank) args=(--seeds 3 --dims 1,2,3) ;;
    *) args=(--seeds 2 --iters 300 --every 7) ;;
  esac
  [[ $e == paths2d* ]] && args=(--iters 300 --every 7 --seed-base 2)
  run "exp-$e" experiment "$e" --threads 1 --csv "$out/exp-$e.csv" "${args[@]}"
done
if "$exe" experiment real-images --seeds 1 --iters 1 --train 20 --test 20 --n-svm 20 >/dev/null 2>&1; then
  run exp-real-images experiment real-images --threads 1 --seeds 1 --iters 20 --train 40 --test 40 \
    --n-svm 40 --csv "$out/exp-real-images.csv"
fi
# Errors.
run err-unknown experiment no-such-thing
run err-zero-seeds experiment local-convergence --seeds 0
run err-classes experiment real-images --classes 7,7 --seeds 1 --iters 1
echo "cli-outputs: $n commands -> $out"
