"""Builds attnsvm._core with the repository's CMake project (python/CMakeLists.txt).

The CMake build folder is the repository's build/python (override: ATTNSVM_PYTHON_BUILD), kept
between installs so that a rebuild with nothing changed only re-links nothing and copies one file;
the compiler cache (ccache, when installed) shares objects between clones. No step needs PyPI.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build = Path(os.environ.get("ATTNSVM_PYTHON_BUILD", REPO / "build" / "python")).resolve()
        build.mkdir(parents=True, exist_ok=True)
        cache = build / "CMakeCache.txt"
        python = Path(sys.executable)
        # Configure once (or when the Python changes); later builds let Ninja decide what is stale.
        if not cache.exists() or f"PYTHON_EXECUTABLE:FILEPATH={python}" not in cache.read_text():
            args = [
                "cmake", "-S", str(HERE), "-B", str(build), "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=Release",
                # the native-release preset's flags (CMakePresets.json), so results equal its CLI's
                "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG",
                f"-DPYTHON_EXECUTABLE={python}",
            ]
            if shutil.which("ccache"):
                args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            subprocess.run(args, check=True)
        jobs = os.environ.get("ATTNSVM_BUILD_JOBS", "2")
        subprocess.run(["cmake", "--build", str(build), "--target", "_core", "attnsvm", "-j", jobs],
                       check=True)
        built = sorted(build.glob("_core*.so"))
        if not built:
            raise RuntimeError(f"the CMake build made no _core*.so in {build}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


def copy_figure_script() -> None:
    """attnsvm.figure's script: the site's dist/attnsvm-figure.js (npx vite build -c
    vite.element.config.js; scripts/test-python.sh builds it when missing) into the package's
    assets/, so that an installed package draws live figures with no network and no repository."""
    src, dst = REPO / "dist" / "attnsvm-figure.js", HERE / "attnsvm" / "assets" / "attnsvm-figure.js"
    if src.is_file():
        dst.parent.mkdir(exist_ok=True)
        if not dst.is_file() or dst.read_bytes() != src.read_bytes():
            shutil.copy2(src, dst)
    elif not dst.is_file():
        print(f"attnsvm: {src} is missing: attnsvm.figure() will not work (build it: docs/PYTHON.md)",
              file=sys.stderr)


copy_figure_script()
setup(ext_modules=[CMakeExtension("attnsvm._core")], cmdclass={"build_ext": CMakeBuild})
