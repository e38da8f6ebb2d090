"""Train one attention layer in PyTorch, then ask attnsvm what it learned.

The model is the papers' (SPEC section 1): f_i = v^T X_i^T softmax(X_i W z_i) with a fixed head v,
trained on the logistic loss by normalized gradient descent. The scores come from a one-head
torch.nn.MultiheadAttention (its own weights: (Wq z) . (Wk x) / sqrt(d), so W = Wk^T Wq / sqrt(d)
and the parameterization is (K, Q): attnsvm compares W with the nuclear-norm Att-SVM), and from a
plain matrix W (Frobenius). attnsvm.interop.check reports the selected tokens, whether they are
locally / globally optimal, corr with the Att-SVM of that selection and its certificate.

    build/python-venv/bin/python python/examples/torch_check.py [--steps 1000]

For comparison it also prints corr of the same model trained by attnsvm's core (attnsvm.train, same
data, optimizer and steps). Up to ~1000 steps the two trainings agree (the one-matrix runs to
1e-4 entrywise); beyond, the softmax saturates (1 - s ~ 1e-12) and float64 autograd's gradient
through torch.softmax loses its digits, so normalized GD in PyTorch drifts off the direction the
core's training keeps following (docs/PYTHON.md).
"""

import argparse

import numpy as np
import torch

import attnsvm
from attnsvm.interop import check


def logistic_loss(scores_weights, X, Y, v):
    r = torch.einsum("it,itd->id", scores_weights, X)  # r_i = X_i^T s_i
    return torch.nn.functional.softplus(-Y * (r @ v)).mean()


def train_multihead(X, Z, Y, v, steps, lr):
    torch.manual_seed(0)
    d = X.shape[2]
    mha = torch.nn.MultiheadAttention(d, num_heads=1, bias=False, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.mul_(0.1)  # a small random start (the papers' random init)
    for _ in range(steps):
        _, s = mha(Z[:, None, :], X, X, need_weights=True)  # s: n x 1 x T, torch's own softmax
        loss = logistic_loss(s[:, 0, :], X, Y, v)
        mha.zero_grad()
        loss.backward()
        with torch.no_grad():  # normalized GD, each factor separately (Wq and Wk; SPEC section 2)
            g = mha.in_proj_weight.grad
            for block in (slice(0, d), slice(d, 2 * d)):
                mha.in_proj_weight[block] -= lr * g[block] / g[block].norm()
    return mha, float(loss)


def train_matrix(X, Z, Y, v, steps, lr):
    d = X.shape[2]
    W = torch.zeros(d, d, dtype=torch.float64, requires_grad=True)
    for _ in range(steps):
        s = torch.softmax(torch.einsum("itd,de,ie->it", X, W, Z), dim=1)
        loss = logistic_loss(s, X, Y, v)
        (g,) = torch.autograd.grad(loss, W)
        with torch.no_grad():
            W -= lr * g / g.norm()
    return W.detach(), float(loss)


def report(name, r, loss):
    print(f"{name}: loss {loss:.4g}, selection {r['selection']} (optimal tokens {r['optimal']})")
    print(f"  verdict {r['verdict']}; min softmax of the selected tokens {min(r['softmaxSelected']):.4f}")
    c = r["certificate"]
    print(f"  {r['norm']} Att-SVM of this selection: {c['status']}, objective {c['objective']:.6g} "
          f">= lower bound {c['lowerBound']:.6g} (gap {c['gap']:.1e})")
    print(f"  corr(W, W^mm) = {r['corr']:.6f}, 1 - corr = {r['oneMinusCorr']:.2e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=0.1)
    args = ap.parse_args()
    data = attnsvm.scenario("local-convergence", seed=0)  # n = 6, T = 8, d = 10 (SPEC 5.1)
    X, Z, Y, v = (torch.from_numpy(data[k]) for k in ("X", "Z", "Y", "v"))

    problem = {k: data[k] for k in ("X", "Z", "Y", "v")}

    mha, loss = train_multihead(X, Z, Y, v, args.steps, args.lr)
    r = check(data["X"], data["Y"], data["v"], attention=mha, Z=data["Z"])
    report("nn.MultiheadAttention (K, Q)", r, loss)
    core = attnsvm.train(problem, param="kq", optimizer="ngd", lr=args.lr, iters=args.steps)
    print(f"  the core's own (K, Q) training: corr with the nuclear SVM {core['corr']['nuclear']:.6f}")

    W, loss = train_matrix(X, Z, Y, v, args.steps, args.lr)
    r2 = check(X, Y, v, W=W, Z=Z)
    report("one matrix W", r2, loss)
    core = attnsvm.train(problem, param="w", optimizer="ngd", lr=args.lr, iters=args.steps)
    print(f"  the core's own W training (same start, steps): corr {core['corr']['fro']:.6f}")
    return r, r2


if __name__ == "__main__":
    main()
