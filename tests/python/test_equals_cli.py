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


def test_path_against_theory(local):
    """No `attnsvm path` command in this build: W(R) is checked against SPEC section 2/4 instead.

    Each W(R) lies in the ball ||W||_F <= R, the loss decreases with R, and the direction
    W(R)/R approaches the Att-SVM direction of the optimal selection as R grows.
    """
    radii = [0.5, 2.0, 8.0, 32.0]
    Ws = attnsvm.path(local, radii, norm="fro", iterations_per_radius=400)
    assert len(Ws) == 4 and all(W.shape == (10, 10) for W in Ws)
    for R, W in zip(radii, Ws):
        assert np.linalg.norm(W) <= R * (1 + 1e-9)
    # the path's limit is the SVM of the globally optimal tokens (no alpha: solve takes them)
    optimal = {k: v for k, v in local.items() if k != "alpha"}
    svm = attnsvm.solve(optimal, norm="fro")["W"]
    corr = [float(np.sum(W * svm) / (np.linalg.norm(W) * np.linalg.norm(svm))) for W in Ws]
    assert corr[-1] > corr[0] and corr[-1] > 0.9, corr
    # nuclear ball: the nuclear norm stays within R
    Wn = attnsvm.path(local, [1.0, 4.0], norm="nuclear", iterations_per_radius=200)
    assert np.linalg.svd(Wn[-1], compute_uv=False).sum() <= 4.0 * (1 + 1e-9)
