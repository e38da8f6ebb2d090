#!/usr/bin/python3
"""local-convergence's training as a batched PyTorch program, timed against the native CLI.

The workload of `attnsvm experiment local-convergence` (SPEC 4.1): 100 seeds of sphere data (n = 6
sequences, T = 8 tokens, d = 10; cross attention, linear head v, logistic loss), 2000 normalized
gradient steps (lr 0.1) on W from zero and on (K, Q) from 0.1 N(0, 1), every factor normalized by its
own Frobenius norm. PyTorch trains all seeds as one batch (float64, autograd, every seed's loss summed:
each seed's gradient is its own); the native CLI also solves 200 max-margin SVMs and writes its
JSON, which this program does not.

    /usr/bin/python3 bench/torch/local_convergence.py [--cli build/native-release/cli/attnsvm]
        [--pairs 5] [--threads 2] [--torch-threads 1] [--bench build/native-release/bench/bench_train]

Runs native and torch alternately (A B A B ...), prints every pair and the median of the per-pair
ratios torch / native (wall and CPU). With --bench, also the batched kernels' share of the flop
floor (bench_train's batched NGD rates at (6, 8, 10) against its Eigen GEMM rate).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time


def torch_training(torch, seeds=100, n=6, T=8, d=10, iters=2000, lr=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64

    def unit(*shape):
        x = torch.randn(*shape, generator=g, dtype=f64)
        return x / x.norm(dim=-1, keepdim=True)

    X, Z, v = unit(seeds, n, T, d), unit(seeds, n, d), unit(seeds, d)
    Y = torch.where(torch.rand(seeds, n, generator=g, dtype=f64) < 0.5, -1.0, 1.0).to(f64)

    def loss_of(W):  # W: seeds x d x d; the sum over seeds of each seed's mean loss
        q = torch.einsum("bij,bnj->bni", W, Z)                 # W z_i
        s = torch.softmax(torch.einsum("bntd,bnd->bnt", X, q), dim=-1)
        r = torch.einsum("bnt,bntd->bnd", s, X)                # X_i^T s_i
        f = torch.einsum("bnd,bd->bn", r, v)
        return torch.nn.functional.softplus(-Y * f).mean(dim=1).sum()

    def ngd(params):
        for k in range(iters):
            for p in params:
                p.grad = None
            loss_fn(params).backward()
            with torch.no_grad():
                for p in params:
                    norm = p.grad.flatten(1).norm(dim=1).clamp_min(1e-300).view(-1, 1, 1)
                    p -= lr * p.grad / norm

    W = torch.zeros(seeds, d, d, dtype=f64, requires_grad=True)
    loss_fn = lambda ps: loss_of(ps[0])
    ngd([W])
    K = (0.1 * torch.randn(seeds, d, d, generator=g, dtype=f64)).requires_grad_()
    Q = (0.1 * torch.randn(seeds, d, d, generator=g, dtype=f64)).requires_grad_()
    loss_fn = lambda ps: loss_of(ps[0] @ ps[1].transpose(1, 2))
    ngd([K, Q])
    return float(loss_of(W.detach())), float(loss_of(K.detach() @ Q.detach().transpose(1, 2)))


def timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    fn()
    ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - c0 + (ch1.ru_utime - ch0.ru_utime) + (ch1.ru_stime - ch0.ru_stime)
    return time.perf_counter() - w0, cpu


def kernel_share(bench):
    """The batched NGD kernels' flop rate at (6, 8, 10) x 16 runs against Eigen's GEMM (bench_train)."""
    out = subprocess.run(
        [bench, "--benchmark_filter=BM_Batched_NGD_(W|KQ)/6/8/10/16$|BM_PeakGemm",
         "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    rows = {b["run_name"]: b for b in json.loads(out)["benchmarks"] if b.get("aggregate_name") == "median"}
    n, T, d = 6, 8, 10
    flops = {"W": 4 * n * d * d + 10 * n * T * d + 5 * d * d}
    flops["KQ"] = flops["W"] + 2 * n * d * d + 4 * d ** 3 + 5 * d * d
    peak = next(b for k, b in rows.items() if "PeakGemm" in k)
    peak_rate = peak.get("GFLOP/s", peak.get("flops", 0))
    if peak_rate > 1e3:
        peak_rate /= 1e9
    res = []
    for kind in ("W", "KQ"):
        b = next((b for k, b in rows.items() if f"BM_Batched_NGD_{kind}/6/8/10/16" in k), None)
        if not b:
            continue
        steps = b.get("items_per_second", 0)
        rate = steps * flops[kind] / 1e9
        res.append((kind, steps, rate, rate / peak_rate if peak_rate else float("nan")))
    return peak_rate, res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/native-release/cli/attnsvm")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2, help="the native CLI's threads")
    ap.add_argument("--torch-threads", type=int, default=1,
                    help="torch's intra-op threads (1: this batch's ops are small, and on a loaded "
                         "2-core machine 2 threads spin-wait: 17x slower in one trial)")
    ap.add_argument("--bench", default="")
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("torch is not installed (Debian: python3-torch): native only")
        torch = None
    if torch:
        torch.set_num_threads(a.torch_threads)
    native_cmd = [a.cli, "experiment", "local-convergence", "--threads", str(a.threads), "--out",
                  os.devnull]
    pairs = []
    for k in range(a.pairs):
        nw, nc = timed(lambda: subprocess.run(native_cmd, check=True, stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.DEVNULL))
        tw, tc = timed(lambda: torch_training(torch)) if torch else (float("nan"), float("nan"))
        pairs.append((nw, nc, tw, tc))
        print(f"pair {k + 1}: native {nw:.3f} s wall ({nc:.3f} s CPU), torch {tw:.3f} s wall "
              f"({tc:.3f} s CPU): {tw / nw:.1f}x wall, {tc / nc:.1f}x CPU  load {os.getloadavg()[0]:.1f}",
              flush=True)
    med = lambda i: statistics.median(p[i] for p in pairs)
    print(f"median native {med(0):.3f} s wall ({med(1):.3f} s CPU), torch {med(2):.3f} s wall "
          f"({med(3):.3f} s CPU); median ratio torch / native "
          f"{statistics.median(p[2] / p[0] for p in pairs):.1f}x wall, "
          f"{statistics.median(p[3] / p[1] for p in pairs):.1f}x CPU")
    if a.bench:
        peak, res = kernel_share(a.bench)
        for kind, steps, rate, share in res:
            print(f"batched NGD {kind} (6, 8, 10) x 16: {steps / 1e6:.2f}M steps/s, {rate:.1f} GFLOP/s, "
                  f"{100 * share:.0f} % of the GEMM floor ({peak:.1f} GFLOP/s)")


if __name__ == "__main__":
    sys.exit(main())
