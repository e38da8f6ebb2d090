"""The PyTorch check agrees with an independent computation.

- multihead_kq: W = K Q^T reproduces the module's own attention weights (torch's softmax of its
  scaled projections), so the selection is the module's argmax.
- check(): the selection is numpy's argmax of softmax(X_i W z_i); corr is recomputed in numpy from
  the returned SVM matrix; the SVM is feasible (<A_it, W^mm> >= 1, checked in numpy) and its norm
  is the reported objective; the certificate's lower bound is recomputed from the multipliers:
  sum(lambda) / ||sum lambda_it A_it||_dual (SPEC section 3), and it is <= the objective.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import attnsvm
from attnsvm.interop import check, multihead_kq

torch = pytest.importorskip("torch")
REPO = Path(__file__).resolve().parents[2]


def softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def dual_norm(M, norm):
    if norm == "nuclear":
        return np.linalg.norm(M, 2)  # spectral
    return np.linalg.norm(M)  # Frobenius is self-dual


def independent(r, X, Z, Y, v):
    n, T, d = X.shape
    W = r["W"]
    s = softmax(np.einsum("itd,de,ie->it", X, W, Z))
    alpha = s.argmax(axis=1)
    assert r["selection"] == alpha.tolist()
    assert np.allclose(r["softmaxSelected"], s[np.arange(n), alpha], rtol=1e-12)
    gamma = Y[:, None] * (X @ v)
    assert r["selectsOptimal"] == [bool(gamma[i, alpha[i]] == gamma[i].max()) for i in range(n)]
    svm = r["svm"]
    assert svm["status"] == "optimal"
    Wm = svm["W"]
    corr = np.sum(W * Wm) / (np.linalg.norm(W) * np.linalg.norm(Wm))
    assert abs(r["corr"] - corr) < 1e-12 and abs(r["oneMinusCorr"] - (1 - corr)) < 1e-12
    # feasibility and objective of the SVM, in numpy
    A = [np.outer(X[i, alpha[i]] - X[i, t], Z[i]) for i in range(n) for t in range(T) if t != alpha[i]]
    margins = np.array([np.sum(a * Wm) for a in A])
    assert margins.min() >= 1 - 1e-6
    objective = np.linalg.svd(Wm, compute_uv=False).sum() if r["norm"] == "nuclear" else np.linalg.norm(Wm)
    assert abs(objective - svm["objective"]) <= 1e-9 * objective
    # the dual certificate from the multipliers (constraints i-major, t ascending, t != alpha_i)
    lam = np.asarray(svm["lambda"])
    assert lam.shape == (len(A),) and lam.min() >= 0
    lower = lam.sum() / dual_norm(sum(l * a for l, a in zip(lam, A)), r["norm"])
    assert abs(lower - svm["lowerBound"]) <= 1e-9 * lower
    assert lower <= objective * (1 + 1e-12) and (objective - lower) / objective < 1e-5


@pytest.fixture(scope="module")
def data():
    s = attnsvm.scenario("local-convergence", seed=0)
    return s["X"], s["Z"], s["Y"], s["v"]


def test_multihead_convention_matches_module(data):
    X, Z, Y, v = data
    torch.manual_seed(1)
    for bias in (False, True):
        mha = torch.nn.MultiheadAttention(10, num_heads=1, bias=bias, batch_first=True).double()
        if bias:
            with torch.no_grad():  # a key bias shifts every score of a sequence alike: allowed
                mha.in_proj_bias.zero_()
                mha.in_proj_bias[10:20] = torch.randn(10)
        _, s = mha(torch.from_numpy(Z)[:, None, :], torch.from_numpy(X), torch.from_numpy(X))
        K, Q = multihead_kq(mha)
        mine = softmax(np.einsum("itd,de,ie->it", X, K @ Q.T, Z))
        assert np.allclose(s[:, 0, :].detach().numpy(), mine, atol=1e-14)
    with torch.no_grad():
        mha.in_proj_bias[:10] = 1.0
    with pytest.raises(ValueError, match="query bias"):
        multihead_kq(mha)


def test_check_after_training(data):
    sys.path.insert(0, str(REPO / "python" / "examples"))
    import torch_check

    X, Z, Y, v = data
    Xt, Zt, Yt, vt = (torch.from_numpy(a) for a in data)
    mha, _ = torch_check.train_multihead(Xt, Zt, Yt, vt, steps=400, lr=0.1)
    r = check(X, Y, v, attention=mha, Z=Z)
    assert r["parameterization"] == "KQ" and r["norm"] == "nuclear"
    independent(r, X, Z, Y, v)
    W, _ = torch_check.train_matrix(Xt, Zt, Yt, vt, steps=400, lr=0.1)
    r = check(Xt, Yt, vt, W=W, Z=Zt)  # tensors in
    assert r["norm"] == "fro"
    independent(r, X, Z, Y, v)
    assert r["corr"] > 0.5  # normalized GD heads to the SVM direction (SPEC section 2)


def test_self_attention_and_kq_arrays(data):
    X, _, Y, v = data
    rng = np.random.default_rng(3)
    K, Q = rng.standard_normal((10, 4)), rng.standard_normal((10, 4))
    r = check(X, Y, v, K=K, Q=Q, query=2)
    assert np.allclose(r["W"], K @ Q.T)
    independent(r, X, X[:, 2, :], Y, v)


def test_example_runs():
    r = subprocess.run([sys.executable, str(REPO / "python" / "examples" / "torch_check.py"),
                        "--steps", "200"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "corr(W, W^mm)" in r.stdout and "nuclear Att-SVM" in r.stdout
