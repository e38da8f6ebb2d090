#!/usr/bin/env bash
# Installs what the build and the tests need, only when something is missing (fast otherwise):
# Debian packages through apt-get (as root; otherwise prints the exact command), npm packages from
# the lock file through `npm ci` when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  clang                    # the sanitizer build of the tests (ASan+UBSan; faster to compile than GCC's)
  libeigen3-dev            # the core's linear algebra
  libgtest-dev googletest  # unit tests (native, and the sources for the wasm build of gtest)
  libbenchmark-dev         # npm run bench
  nlohmann-json3-dev       # the CLI's JSON
  libcli11-dev             # the CLI's option parsing
  emscripten               # C++ -> WebAssembly (Debian's 3.1.6)
  chromium                 # headless browser tests
  poppler-utils            # the print test: pdfimages lists a printed page's images, pdftoppm renders its pages
  clang-format             # npm run lint
  ccache                   # compiler cache: rebuilds of unchanged files (other clones, other build dirs) are free
  zlib1g-dev               # the core's gzipped IDX reader (real images)
  dataset-fashion-mnist    # Fashion-MNIST (MIT), the real-images scenario (SPEC section 6)
  # the Python package and its tests (scripts/test-python.sh, docs/PYTHON.md)
  python3-dev python3-venv python3-setuptools python3-pybind11 python3-numpy python3-pytest python3-tqdm
  python3-torch            # the PyTorch interop and its worked example
  python3-distributed      # the real-data study on Dask
  jupyter-nbconvert python3-nbclient python3-ipykernel  # the notebooks run in the tests
  mypy                     # the type stubs checked in the tests
  libjs-requirejs libjs-mathjax  # what nbconvert's HTML export of a notebook loads (tests/python/test_notebook.py)
)

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  [[ "$pkg" == \#* ]] && continue
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    echo "ensure-deps: installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "ensure-deps: missing Debian packages. Run as root:" >&2
    echo "  sudo sh -c '$cmd'" >&2
    exit 1
  fi
fi

if ! command -v node >/dev/null || ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a==20&&b>=19)?0:1)'; then
  echo "ensure-deps: node >= 20.19 is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "ensure-deps: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
