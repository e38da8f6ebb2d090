"""Shared fixtures of the Python tests: the CLI of the same build, and running it on a dict."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# The CLI built with the extension (python/setup.py: same CMake build, same flags), so Python and
# the CLI are the same code compiled the same way: results must match to the last bit.
DEFAULT_CLI = REPO / "build" / "python" / "attnsvm" / "cli" / "attnsvm"


def pytest_configure(config):
    # Deprecations inside Debian's Dask (tornado's IOLoop.make_current) and nbconvert (validate's
    # relax_add_props), raised by their own code, not ours: 12 lines of noise in every run's summary
    # that would hide a warning of ours. Only warnings attributed to those packages are dropped.
    for package in ("tornado", "nbconvert"):
        config.addinivalue_line("filterwarnings", f"ignore::DeprecationWarning:{package}")


@pytest.fixture(scope="session")
def cli_path() -> Path:
    path = Path(os.environ.get("ATTNSVM_CLI", DEFAULT_CLI))
    if not path.exists():
        pytest.fail(f"the CLI {path} is missing: install the package with scripts/test-python.sh")
    return path


@pytest.fixture(scope="session")
def run_cli(cli_path, tmp_path_factory):
    """run_cli(args, problem=None, ok=(0,)) -> the CLI's JSON (problem written to a file)."""
    folder = tmp_path_factory.mktemp("cli")

    def run(args, problem=None, ok=(0,)):
        args = list(args)
        if problem is not None:
            file = folder / f"input-{len(list(folder.iterdir()))}.json"
            file.write_text(json.dumps(problem))
            args = [args[0], str(file)] + args[1:]
        r = subprocess.run([str(cli_path)] + args, capture_output=True, text=True, timeout=600)
        assert r.returncode in ok, r.stderr
        return json.loads(r.stdout)

    return run
