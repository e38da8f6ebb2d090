"""The type stubs (.pyi) match the package: every public function's signature in the stub equals
the runtime one (names, kinds, defaults), and mypy (Debian's) type-checks the stubs and a usage
sample when it is installed."""

import ast
import importlib
import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import attnsvm

PACKAGE = Path(attnsvm.__file__).parent
MODULES = ["attnsvm.api", "attnsvm.interop", "attnsvm._core"]


def stub_functions(module_name):
    path = PACKAGE / (module_name.split(".")[-1] + ".pyi")
    tree = ast.parse(path.read_text())
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def stub_params(f):
    a = f.args
    out = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for p, d in zip(pos, defaults):
        out.append((p.arg, "POSITIONAL_OR_KEYWORD", None if d is None else ast.literal_eval(d)))
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL", None))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((p.arg, "KEYWORD_ONLY", None if d is None else ast.literal_eval(d)))
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD", None))
    return out


def runtime_params(fn):
    out = []
    for p in inspect.signature(fn).parameters.values():
        default = None if p.default is inspect.Parameter.empty else p.default
        out.append((p.name, p.kind.name, default))
    return out


@pytest.mark.parametrize("module_name", MODULES[:2])
def test_python_signatures_match_stubs(module_name):
    module = importlib.import_module(module_name)
    stubs = stub_functions(module_name)
    public = [n for n in module.__all__ if inspect.isfunction(getattr(module, n))]
    assert sorted(public) == sorted(stubs), "functions without a stub or stubs without a function"
    for name in public:
        assert runtime_params(getattr(module, name)) == stub_params(stubs[name]), name


def test_extension_functions_have_stubs():
    stubs = stub_functions("attnsvm._core")
    core = importlib.import_module("attnsvm._core")
    public = [n for n in dir(core) if not n.startswith("_") and callable(getattr(core, n))
              and not inspect.isclass(getattr(core, n))]
    assert sorted(public) == sorted(stubs)
    for name in public:  # pybind11 writes the signature in the docstring's first line
        params = [p[0] for p in stub_params(stubs[name])]
        first = getattr(core, name).__doc__.splitlines()[0]
        assert first.startswith(f"{name}(") and all(f"{p}:" in first for p in params), first


def test_every_public_name_is_stubbed():
    tree = ast.parse((PACKAGE / "__init__.pyi").read_text())
    stubbed = {a.asname or a.name for node in tree.body if isinstance(node, ast.ImportFrom)
               for a in node.names}
    assert set(attnsvm.__all__) <= stubbed


@pytest.mark.skipif(shutil.which("mypy") is None and importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (Debian: apt-get install mypy)")
def test_mypy_on_stubs_and_usage(tmp_path):
    sample = tmp_path / "usage.py"
    sample.write_text(
        "import numpy as np\nimport attnsvm\n"
        "s = attnsvm.scenario('sphere', seed=1, n=3)\n"
        "r = attnsvm.solve(s, norm='nuclear')\n"
        "status: str = r['status']\n"
        "pt = attnsvm.path(s, radii=[1.0, 2.0], iterations=20)\n"
        "certified: bool = pt['allCertified']\n"
        "e = attnsvm.experiment('rank', progress=False, seeds=1)\n"
        "c = attnsvm.interop.check(s['X'], s['Y'], s['v'], W=np.eye(3), Z=s['Z'])\n")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                        "--python-executable", sys.executable, str(sample)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
