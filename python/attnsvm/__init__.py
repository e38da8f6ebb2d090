"""attnsvm: transformers as support vector machines, the C++ core as a numpy library.

The functions mirror the command-line tool ``attnsvm`` and the JavaScript API with the same names
(docs/PYTHON.md): matrices in and out as numpy float64 arrays, everything else as dicts with the
CLI's JSON keys. The maths is in SPEC.md (docs/SPEC.md).
"""

from . import interop
from ._core import InputError, NumericalError
from .api import (
    analyze,
    experiment,
    experiment_names,
    path,
    scenario,
    scenario_names,
    solve,
    to_json,
    train,
    version,
)

from .figure import figure  # live figures in notebooks (figure.py)

__all__ = [
    "InputError",
    "NumericalError",
    "analyze",
    "experiment",
    "experiment_names",
    "figure",
    "interop",
    "path",
    "scenario",
    "scenario_names",
    "solve",
    "to_json",
    "train",
    "version",
]
__version__ = version()
