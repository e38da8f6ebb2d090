#!/bin/bash
cd /work/wt/study995
for D in "$@"; do
  echo "driver d=$D start $(date -u +%FT%TZ)" >> runs/probe.log
  /usr/bin/time -v runs/probe_driver $D > runs/probe-d$D.tsv 2> runs/probe-d$D.time
  echo "driver d=$D end $(date -u +%FT%TZ) rc=$?" >> runs/probe.log
done
