#!/usr/bin/env bash
# The Python package's tests (docs/PYTHON.md): ensures the Debian packages, builds and installs
# attnsvm into build/python-venv (a venv over Debian's site packages: numpy, torch, dask, tqdm,
# pytest), and runs pytest on tests/python. Fast when nothing changed: the install is skipped
# unless a source is newer than the last one (and the CMake build in build/python is incremental,
# its objects shared through ccache). Arguments go to pytest (e.g. -k torch, -x).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

bash scripts/ensure-deps.sh

export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
# the CLI's precompiled header is cacheable only with these (scripts/test.sh says why)
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
venv=build/python-venv
py=/usr/bin/python3  # Debian's Python (its packages), not a pyenv one on PATH
if [[ ! -x $venv/bin/python ]]; then
  echo "test-python: creating $venv"
  "$py" -m venv --system-site-packages "$venv"
fi

# attnsvm.figure carries the lab's figure element: setup.py copies dist/attnsvm-figure.js (the wasm
# engine inside) into the package. Built when missing or older than the web sources.
element=dist/attnsvm-figure.js
if [[ ! -f $element || -n $(find web/src web/public/wasm -newer "$element" -type f -print -quit 2>/dev/null) ]]; then
  echo "test-python: building the figure element ($element)"
  [[ -f web/public/wasm/attnsvm.wasm ]] || nice -n 10 bash scripts/build-wasm.sh
  nice -n 10 npx vite build -c vite.element.config.js
fi

stamp=$venv/.attnsvm-installed
sources=(python core cli cmake CMakeLists.txt "$element")
if [[ ! -f $stamp || ! -f build/python/attnsvm/cli/attnsvm ]] ||
  [[ -n $(find "${sources[@]}" \( -path python/build -o -name '*.egg-info' -o -name __pycache__ \) -prune \
    -o -newer "$stamp" -type f -print -quit) ]]; then
  echo "test-python: building and installing attnsvm (build/python)"
  t0=$(date +%s.%N)
  touch "$stamp.new"
  nice -n 10 "$venv/bin/python" -m pip install --no-build-isolation --no-deps --quiet ./python
  mv "$stamp.new" "$stamp"
  echo "test-python: installed in $(echo "$(date +%s.%N) - $t0" | bc) s"
fi

cd "$root"
# The package's CLI (build/python/attnsvm/cli/attnsvm) is current from here on: scripts/test.sh's wasm API
# tests compare with it and need not wait for pytest (a cold run's critical path otherwise).
if [[ -n ${ATTNSVM_RELEASE_CLI_MARK:-} ]]; then touch "$ATTNSVM_RELEASE_CLI_MARK"; fi
exec "$venv/bin/python" -m pytest -q tests/python "$@"
