#!/bin/bash
# Queued after the d = 128 probe: the longer-budget curves (6v0 at d = 64 to 6000 epochs; d = 18 on
# both pairs to 2000 epochs).
cd /work/wt/study995
A=$(cat runs/after256.pid)
while kill -0 $A 2>/dev/null || pgrep -f "^runs/probe_driver 128" > /dev/null; do sleep 2; done
echo "driver d=128 end (observed) $(date -u +%FT%TZ)" >> runs/probe.log
curve() {
  local name=$1; shift
  echo "curve $name start $(date -u +%FT%TZ) args: $*" >> runs/probe.log
  /usr/bin/time -v runs/curve_driver "$@" > runs/curve-$name.tsv 2> runs/curve-$name.time
  echo "curve $name end $(date -u +%FT%TZ)" >> runs/probe.log
}
curve d18-7v9 18 7 9 nmd 2 1 2000 100 1 50
curve d64-6v0-long 64 6 0 nmd 2 1 6000 100 1 250
