"""Python results equal the CLI's JSON on the same inputs, to the last bit (same code, same build).

Only wall/CPU times differ between two runs; they are removed before comparing.
"""

import numpy as np
import pytest

import attnsvm

TIMES = {"seconds", "cpuSeconds", "wallSeconds", "secondsPerRun", "elapsed"}


def untimed(obj):
    if isinstance(obj, dict):
        return {k: untimed(v) for k, v in obj.items() if k not in TIMES}
    if isinstance(obj, list):
        return [untimed(v) for v in obj]
    return obj


def same(python_result, cli_json):
    assert untimed(attnsvm.to_json(python_result)) == untimed(cli_json)


@pytest.fixture(scope="module")
def local(run_cli):
    """local-convergence (SPEC 5.1): n = 6 sequences, T = 8 tokens, d = 10."""
    return run_cli(["scenario", "local-convergence", "--seed", "3"])


def test_scenario(run_cli, local):
    s = attnsvm.scenario("local-convergence", seed=3)
    assert isinstance(s["X"], np.ndarray) and s["X"].dtype == np.float64 and s["X"].shape == (6, 8, 10)
    same(s, local)
    same(attnsvm.scenario("sphere", seed=2, n=4, T=5, d=3),
         run_cli(["scenario", "sphere", "--seed", "2", "--n", "4", "--T", "5", "--d", "3"]))


@pytest.mark.parametrize("norm,p", [("fro", 2.0), ("nuclear", 2.0), ("lp", 1.5)])
def test_solve(run_cli, local, norm, p):
    # the problem as numpy arrays (from Python's scenario) and as the CLI's file
    r = attnsvm.solve(attnsvm.scenario("local-convergence", seed=3), norm=norm, p=p)
    assert r["status"] == "optimal" and r["W"].shape == (10, 10)
    same(r, run_cli(["solve", "--norm", norm, "--p", repr(p)], local))


def test_analyze_with_weights(run_cli, local):
    W = attnsvm.solve(local, norm="fro")["W"]
    rng = np.random.default_rng(0)
    W = W + 0.3 * rng.standard_normal(W.shape)  # some selection, not necessarily the optimal one
    r = attnsvm.analyze(local, W)
    same(r, run_cli(["analyze"], dict(local, W=W.tolist())))
    assert r["weights"]["svm"]["W"].shape == (10, 10)


def test_analyze_enumerate(run_cli):
    small = run_cli(["scenario", "sphere", "--seed", "4", "--n", "3", "--T", "4", "--d", "3"])
    r = attnsvm.analyze(small, enumerate=True, max_selections=64)  # T^n = 64 selections
    same(r, run_cli(["analyze", "--enumerate", "--max-selections", "64"], small))
    assert len(r["locallyOptimal"]) >= 1


def test_train_scenario_kq(run_cli):
    r = attnsvm.train(scenario="local-convergence", seed=3, param="kq", iters=300)
    assert r["K"].shape == (10, 10) and r["iterations"] == 300
    same(r, run_cli(["train", "--scenario", "local-convergence", "--seed", "3", "--param", "kq",
                     "--iters", "300"]))


def test_train_file_mirror_descent(run_cli, local):
    r = attnsvm.train(local, optimizer="md", p=3.0, lr=0.05, iters=500, init="random", seed=7)
    same(r, run_cli(["train", "--optimizer", "md", "--p", "3.0", "--lr", "0.05", "--iters", "500",
                     "--init", "random", "--seed", "7"], local))
    assert "lp" in r["corr"]


def test_experiment_reduced(run_cli):
    settings = dict(seeds=2, iters=60, threads=1)
    r = attnsvm.experiment("local-convergence", progress=False, **settings)
    cli = run_cli(["experiment", "local-convergence", "--seeds", "2", "--iters", "60",
                   "--threads", "1", "--quiet"])
    same(r, cli)
    # the thread count is not part of the result (experiments.hpp): 2 threads, same doubles
    r2 = attnsvm.to_json(attnsvm.experiment("local-convergence", progress=False, seeds=2, iters=60,
                                            threads=2))
    assert r2["settings"].pop("threads") == 2 and cli["settings"].pop("threads") == 1
    assert untimed(r2) == untimed(cli)


def test_path_scenario_fro(run_cli):
    r = attnsvm.path(scenario="local-convergence", seed=3, norm="fro", radii=[1, 10, 100])
    assert [pt["radius"] for pt in r["points"]] == [1.0, 10.0, 100.0]
    assert all(isinstance(pt["W"], np.ndarray) and pt["W"].shape == (10, 10) for pt in r["points"])
    same(r, run_cli(["path", "--scenario", "local-convergence", "--seed", "3", "--norm", "fro",
                     "--radii", "1,10,100"]))


def test_path_file_nuclear(run_cli, local):
    # the problem as numpy arrays (Python's scenario) and as the CLI's file
    r = attnsvm.path(attnsvm.scenario("local-convergence", seed=3), norm="nuclear",
                     radii=[1.0, 10.0, 100.0])
    assert r["norm"] == "nuclear" and all(pt["W"].shape == (10, 10) for pt in r["points"])
    same(r, run_cli(["path", "--norm", "nuclear", "--radii", "1,10,100"], local))


def test_path_against_theory(local):
    """W(R) against SPEC sections 2, 4 and 5.3: each W(R) lies in its ball, its Frank-Wolfe
    certificate holds, and W(R)/R approaches the Att-SVM direction of the optimal selection."""
    radii = [0.5, 2.0, 8.0, 32.0]
    r = attnsvm.path(local, radii=radii, norm="fro", iterations=400)
    points = r["points"]
    assert len(points) == 4 and all(pt["W"].shape == (10, 10) for pt in points)
    for R, pt in zip(radii, points):
        assert pt["radius"] == R and np.linalg.norm(pt["W"]) <= R * (1 + 1e-9)
        assert 0 <= pt["relativeGap"] <= 2 and pt["gap"] >= 0
        assert pt["certified"] == (pt["relativeGap"] <= r["gapTolerance"])
    # the path's limit is the SVM of the globally optimal tokens (no alpha: solve takes them)
    optimal = {k: v for k, v in local.items() if k != "alpha"}
    svm = attnsvm.solve(optimal, norm="fro")["W"]
    corr = [float(np.sum(pt["W"] * svm) / (np.linalg.norm(pt["W"]) * np.linalg.norm(svm)))
            for pt in points]
    assert corr[-1] > corr[0] and corr[-1] > 0.9, corr
    assert points[-1]["globallyOptimal"] and abs(points[-1]["corrGlobal"] - corr[-1]) < 1e-9
    # nuclear ball, geometric schedule, W left out: the nuclear norm stays within R
    n = attnsvm.path(local, r0=1.0, r1=4.0, count=2, norm="nuclear", iterations=200,
                     include_W=False)
    assert [pt["radius"] for pt in n["points"]] == [1.0, 4.0]
    assert all("W" not in pt and pt["norm"] <= pt["radius"] * (1 + 1e-9) for pt in n["points"])


def test_path_arguments(local):
    with pytest.raises(TypeError, match="problem"):
        attnsvm.path(radii=[1.0])
    with pytest.raises(TypeError, match="not both"):
        attnsvm.path(local, scenario="local-convergence")
    with pytest.raises(TypeError, match="seed is a scenario option"):
        attnsvm.path(local, seed=3)
    with pytest.raises(TypeError, match="radii or r0/r1/count"):
        attnsvm.path(local, radii=[1.0], count=3)
    with pytest.raises(TypeError, match="radii must be a sequence"):
        attnsvm.path(local, radii="1,10")
    with pytest.raises(TypeError, match=r"radii\[1\] must be a number"):
        attnsvm.path(local, radii=[1.0, "10"])
    with pytest.raises(ValueError, match="radii must not be empty"):
        attnsvm.path(local, radii=[])
    with pytest.raises(ValueError, match=r"radii\[0\] = inf is not finite"):
        attnsvm.path(local, radii=[float("inf")])
    with pytest.raises(TypeError, match="iterations must be an int"):
        attnsvm.path(local, radii=[1.0], iterations=1.5)
    with pytest.raises(TypeError, match="gap_tol must be a number"):
        attnsvm.path(local, radii=[1.0], gap_tol="1e-3")
    with pytest.raises(TypeError, match="include_W must be a bool"):
        attnsvm.path(local, radii=[1.0], include_W=0)
    with pytest.raises(ValueError, match="norm"):
        attnsvm.path(local, radii=[1.0], norm="max")
    with pytest.raises(ValueError):  # the core's check: radii increasing
        attnsvm.path(local, radii=[10.0, 1.0])
