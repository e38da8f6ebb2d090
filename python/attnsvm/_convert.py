"""The CLI's JSON <-> Python values: matrices (and the vectors of the model) become numpy float64
arrays, everything else stays as the CLI writes it (dicts with its keys, lists, numbers, strings).

Which values are arrays is decided by their key, the same at any depth (a result's "W" and its
"svm"'s "W"), never by their content: ``to_json`` turns a result back into exactly the CLI's JSON.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

# Matrices and stacks of matrices (the core's field names: SPEC section 1): X is n x T x d.
MATRIX_KEYS = frozenset({"X", "Z", "W", "K", "Q", "V", "Wk"})
# Real vectors: labels, head, prompt, multipliers, softmax probabilities of the selected tokens.
VECTOR_KEYS = frozenset({"Y", "v", "p", "lambda", "softmaxSelected"})


def _array(value: list) -> np.ndarray:
    # The CLI writes a non-finite double as null: back to NaN inside an array.
    try:
        return np.asarray(value, dtype=np.float64)
    except TypeError:
        return np.asarray(_nan_for_none(value), dtype=np.float64)


def _nan_for_none(value: Any) -> Any:
    if value is None:
        return math.nan
    if isinstance(value, list):
        return [_nan_for_none(v) for v in value]
    return value


def arrays(obj: Any) -> Any:
    """The CLI's JSON value with its matrices and model vectors as numpy float64 arrays."""
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            if isinstance(value, list) and (key in MATRIX_KEYS or key in VECTOR_KEYS):
                out[key] = _array(value)
            else:
                out[key] = arrays(value)
        return out
    if isinstance(obj, list):
        return [arrays(v) for v in obj]
    return obj


def _plain(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def to_json(obj: Any) -> Any:
    """A result as the CLI writes it: numpy arrays to nested lists, NaN/Inf to None (null)."""
    if isinstance(obj, dict):
        return {key: to_json(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _plain(obj.tolist())
    if isinstance(obj, np.generic):
        return _plain(obj.item())
    return _plain(obj)
