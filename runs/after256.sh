#!/bin/bash
# Queued after the d = 256 probe (one computation at a time): training curves (why no run reaches
# 99.5 %), then the d = 128 probe.
cd /work/wt/study995
P=$(pgrep -f "^runs/probe_driver 256")
while [ -n "$P" ] && kill -0 $P 2>/dev/null; do sleep 2; done
# the probe-driver.sh loop would start d = 128 next: stop that loop first (it is this helper's)
echo "driver d=256 end (observed) $(date -u +%FT%TZ)" >> runs/probe.log

curve() {  # name args...
  local name=$1; shift
  echo "curve $name start $(date -u +%FT%TZ) args: $*" >> runs/probe.log
  /usr/bin/time -v runs/curve_driver "$@" > runs/curve-$name.tsv 2> runs/curve-$name.time
  echo "curve $name end $(date -u +%FT%TZ)" >> runs/probe.log
}
curve d64-6v0 64 6 0 nmd 2 1 2000 100 1 50
curve d64-7v9 64 7 9 nmd 2 1 2000 100 1 50
curve d256-7v9 256 7 9 nmd 2 1 600 100 1 25
curve d256-6v0 256 6 0 nmd 2 1 600 100 1 25
curve d64-6v0-n200 64 6 0 nmd 2 1 1000 100 1 50 1 200
curve d64-6v0-W0 64 6 0 nmd 2 1 1000 100 1 50 1 1000 0
exec runs/probe-driver.sh 128
