from . import interop as interop
from .figure import figure as figure
from ._core import InputError as InputError, NumericalError as NumericalError
from .api import (
    analyze as analyze,
    experiment as experiment,
    experiment_names as experiment_names,
    path as path,
    scenario as scenario,
    scenario_names as scenario_names,
    solve as solve,
    to_json as to_json,
    train as train,
    version as version,
)

__version__: str
