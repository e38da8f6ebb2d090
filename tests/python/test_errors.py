"""Bad input raises ValueError / TypeError carrying the core's message: which field, which
sequence, which token (never a crash, a NaN or a hang)."""

import math

import numpy as np
import pytest

import attnsvm


@pytest.fixture(scope="module")
def small():
    return attnsvm.scenario("sphere", seed=1, n=3, T=4, d=3)


def test_ragged_sequence_names_it(small):
    X = [list(map(list, x)) for x in small["X"]]
    X[1] = X[1][:3]  # sequence 1 has 3 tokens, the others 4
    with pytest.raises(ValueError, match=r"X\[1\].*3 tokens.*4"):
        attnsvm.solve(dict(small, X=X))


def test_nan_names_the_entry(small):
    Y = small["Y"].copy()
    Y[2] = math.nan
    with pytest.raises(ValueError, match=r"Y\[2\] is NaN"):
        attnsvm.analyze(dict(small, Y=Y))
    X = small["X"].copy()
    X[0, 3, 1] = math.inf
    with pytest.raises(ValueError, match=r"X\[0\]\[3\]\[1\]"):
        attnsvm.solve(dict(small, X=X))


def test_alpha_out_of_range(small):
    with pytest.raises(ValueError, match=r"alpha\[2\] = 9 is out of range"):
        attnsvm.solve(dict(small, alpha=[0, 1, 9]))


def test_weights_of_the_wrong_shape(small):
    with pytest.raises(ValueError, match=r"W"):
        attnsvm.analyze(small, np.zeros((2, 3)))


def test_unknown_names_list_the_accepted_ones(small):
    with pytest.raises(ValueError, match=r"nuclear"):
        attnsvm.solve(small, norm="bogus")
    with pytest.raises(ValueError, match=r"local-convergence"):
        attnsvm.scenario("no-such-scenario")
    with pytest.raises(ValueError, match=r"experiment"):
        attnsvm.experiment("no-such-experiment", progress=False)
    with pytest.raises(ValueError, match=r"p"):
        attnsvm.solve(small, norm="lp", p=0.5)


def test_wrong_types_are_type_errors(small):
    with pytest.raises(TypeError, match="problem must be a dict"):
        attnsvm.solve([1, 2, 3])
    with pytest.raises(TypeError, match="seed must be an int"):
        attnsvm.scenario("sphere", seed="1")
    with pytest.raises(TypeError, match=r"problem\['X'\]\[0\]"):
        attnsvm.solve(dict(small, X=[object()]))
    with pytest.raises(TypeError, match="unexpected keyword 'sedes'"):
        attnsvm.experiment("local-convergence", progress=False, sedes=2)


def test_infeasible_is_a_result_not_an_error(small):
    X = small["X"].copy()
    X[0, 1] = X[0, small["alpha"][0]]  # a token equal to the selected one: no margin possible
    alpha = list(small["alpha"])
    if alpha[0] == 1:
        X = small["X"].copy()
        X[0, 0] = X[0, 1]
    r = attnsvm.solve(dict(small, X=X))
    assert r["status"] == "infeasible" and r["message"]
