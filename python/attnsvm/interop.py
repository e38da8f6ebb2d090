"""PyTorch interop: check a trained one-layer attention against the Att-SVM theory.

Given the attention's key-query weights -- one matrix ``W``, factors ``K, Q`` (W = K Q^T), or a
``torch.nn.MultiheadAttention`` with one head -- its inputs (tokens X, query tokens Z for
cross-attention or a query position for self-attention), labels Y and the head v, ``check``
returns per sequence the token the attention selects, whether that selection is locally or
globally optimal (SPEC section 4), the certified Att-SVM of the selection in the norm the
parameterization is biased towards (W: Frobenius, (K, Q): nuclear; SPEC section 3), the
correlation of W with it and 1 - corr, and the solver's certificate.

torch is imported only when a tensor or module is given; arrays work without it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from .api import analyze, solve

__all__ = ["check", "multihead_kq", "weights_of"]


def _numpy(x: Any, name: str) -> np.ndarray:
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach().cpu().double().numpy()
    a = np.asarray(x, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        bad = tuple(int(k) for k in np.argwhere(~np.isfinite(a))[0])
        raise ValueError(f"{name}{list(bad)} is not finite")
    return a


def multihead_kq(attention: Any) -> Tuple[np.ndarray, np.ndarray]:
    """(K, Q) of a one-head ``torch.nn.MultiheadAttention`` in the core's convention.

    The module scores key token x against query token z as (Wq z + bq) . (Wk x + bk) / sqrt(h),
    h = head_dim (torch's in_proj_weight stacks Wq, Wk, Wv; x, z are columns here). Without a
    query bias that is x^T (Wk^T Wq / sqrt(h)) z, plus terms constant over the keys, which the
    softmax ignores (bk). The core's score is x^T W z with W = K Q^T (SPEC section 1), so
    K = Wk^T / h^(1/4) and Q = Wq^T / h^(1/4). A query bias adds x^T Wk^T bq / sqrt(h), a term the
    core's model has no place for: it is refused.
    """
    m = attention
    if getattr(m, "num_heads", None) != 1:
        raise ValueError(f"the attention must have one head, not {getattr(m, 'num_heads', None)}")
    d = m.embed_dim
    if getattr(m, "bias_k", None) is not None or getattr(m, "add_zero_attn", False):
        raise ValueError("add_bias_kv / add_zero_attn add tokens the core's model does not have")
    if m._qkv_same_embed_dim:
        Wq, Wk = m.in_proj_weight[:d], m.in_proj_weight[d:2 * d]
    else:
        if m.kdim != d:
            raise ValueError(f"keys of dimension kdim = {m.kdim} != embed_dim = {d}: W must be square")
        Wq, Wk = m.q_proj_weight, m.k_proj_weight
    if m.in_proj_bias is not None:
        bq = _numpy(m.in_proj_bias[:d], "in_proj_bias")
        if np.any(bq != 0):
            raise ValueError(
                "the query bias bq is not zero: it adds x^T Wk^T bq / sqrt(head_dim) to the scores, "
                "which the core's model x^T W z cannot express (use bias=False)")
    scale = float(m.head_dim) ** -0.25
    return _numpy(Wk, "Wk").T * scale, _numpy(Wq, "Wq").T * scale


def weights_of(W: Any = None, K: Any = None, Q: Any = None,
               attention: Any = None) -> Tuple[np.ndarray, str]:
    """The effective key-query matrix W (scores x^T W z) and the parameterization ("W" or "KQ")."""
    given = sum(x is not None for x in (W, attention)) + (K is not None or Q is not None)
    if given != 1:
        raise TypeError("give exactly one of W, (K, Q) or attention")
    if W is not None:
        return _numpy(W, "W"), "W"
    if attention is not None:
        K, Q = multihead_kq(attention)
    if K is None or Q is None:
        raise TypeError("K and Q go together")
    K, Q = _numpy(K, "K"), _numpy(Q, "Q")
    if K.ndim != 2 or Q.ndim != 2 or K.shape != Q.shape:
        raise ValueError(f"K {K.shape} and Q {Q.shape} must be d x m matrices of one shape")
    return K @ Q.T, "KQ"


def check(X: Any, Y: Any, v: Any, *, W: Any = None, K: Any = None, Q: Any = None,
          attention: Any = None, Z: Any = None, query: Optional[int] = None) -> Dict[str, Any]:
    """Which tokens a trained attention selects, and how close it is to the Att-SVM (SPEC 3, 4).

    X: n x T x d tokens; Z: n x d query tokens (cross-attention) or ``query`` = q, the position
    whose token is the query (self-attention, z_i = x_iq); Y: n labels in {-1, +1}; v: the
    linear head (d), which defines the token scores gamma_it = Y_i v^T x_it. The weights: ``W``,
    or ``K`` and ``Q`` (W = K Q^T), or ``attention`` (a one-head nn.MultiheadAttention:
    ``multihead_kq``).

    Returns a dict: ``selection`` (alpha_i = argmax_t softmax(X_i W z_i)_t), ``softmaxSelected``,
    ``optimal`` (opt_i = argmax_t gamma_it) and ``selectsOptimal`` per sequence, ``verdict``
    ("globally_optimal", "locally_optimal" or "neither"), ``locallyOptimal`` and
    ``globallyOptimal``, ``supportTokens``; ``norm`` ("fro" for W, "nuclear" for (K, Q)) and
    ``svm``: that norm's Att-SVM of the selection (``solve``'s result: status, W, objective,
    lowerBound, gap, maxViolation); ``corr`` = <W, W^mm> / (||W||_F ||W^mm||_F) and
    ``oneMinusCorr``; ``certificate``: the solver's optimality certificate (the optimum lies in
    [lowerBound, objective], gap = relative difference; SPEC section 3); ``analysis``: the
    core's full report for W (``analyze(problem, W)["weights"]``), ``W``: the matrix checked.
    """
    Wm, param = weights_of(W, K, Q, attention)
    Xn = _numpy(X, "X")
    if Xn.ndim != 3:
        raise ValueError(f"X must be n x T x d, not of shape {Xn.shape}")
    n, T, d = Xn.shape
    if Wm.shape != (d, d):
        raise ValueError(f"W is {Wm.shape[0]} x {Wm.shape[1]}, expected {d} x {d} (d of X)")
    problem: Dict[str, Any] = {"X": Xn, "Y": _numpy(Y, "Y").reshape(-1), "v": _numpy(v, "v").reshape(-1)}
    if (Z is None) == (query is None):
        raise TypeError("give Z (cross-attention) or query (self-attention), not both or neither")
    if Z is not None:
        problem["Z"] = _numpy(Z, "Z")
        zs = problem["Z"]
    else:
        problem["query"] = int(query)
        if not 0 <= int(query) < T:
            raise ValueError(f"query = {query} is out of range 0..{T - 1}")
        zs = Xn[:, int(query), :]
    report = analyze(problem, Wm)["weights"]
    selection = [int(a) for a in report["selection"]]
    norm = "fro" if param == "W" else "nuclear"
    svm = solve(dict(problem, alpha=selection), norm=norm)
    scores = np.einsum("itd,de,ie->it", Xn, Wm, zs)
    s = np.exp(scores - scores.max(axis=1, keepdims=True))
    s /= s.sum(axis=1, keepdims=True)
    out: Dict[str, Any] = {
        "parameterization": param,
        "W": Wm,
        "selection": selection,
        "softmaxSelected": s[np.arange(n), selection],
        "optimal": report["optimal"],
        "selectsOptimal": [bool(a in ties) for a, ties in zip(selection, report["ties"])],
        "verdict": report["verdict"],
        "locallyOptimal": report["verdict"] in ("locally_optimal", "globally_optimal"),
        "globallyOptimal": report["verdict"] == "globally_optimal",
        "supportTokens": report["supportTokens"],
        "norm": norm,
        "svm": svm,
        "certificate": {k: svm[k] for k in ("status", "objective", "lowerBound", "gap", "maxViolation")},
        "analysis": report,
    }
    if svm["status"] == "optimal":
        Wsvm = svm["W"]
        corr = float(np.sum(Wm * Wsvm) / (np.linalg.norm(Wm) * np.linalg.norm(Wsvm)))
        out["corr"], out["oneMinusCorr"] = corr, 1.0 - corr
    else:  # an infeasible selection has no SVM direction (svm["message"] says why)
        out["corr"], out["oneMinusCorr"] = None, None
    return out
