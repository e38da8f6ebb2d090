#!/bin/bash
# After d = 64: d = 256 first (if it does not reach 99.5 %, no d of the probe does), then d = 128.
cd /work/wt/study995
while kill -0 24417 2>/dev/null; do sleep 2; done
echo "driver d=64 end (observed) $(date -u +%FT%TZ)" >> runs/probe.log
exec runs/probe-driver.sh "$@"
