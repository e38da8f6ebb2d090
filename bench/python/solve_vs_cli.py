"""A solve in Python (in process) against the same solve by the CLI (one process per solve).

    build/python-venv/bin/python bench/python/solve_vs_cli.py [--scenario local-convergence] [--norm fro]

Interleaved (Python, CLI, Python, CLI, ...) so that a drift of the shared machine's speed hits both;
prints the medians in ms and the ratio of the medians. The CLI is the one of the same build
(build/python/attnsvm/cli/attnsvm). For whole-process timing use farm-bench (docs/PYTHON.md).
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import attnsvm

REPO = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default="local-convergence")
    ap.add_argument("--norm", default="fro")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--cli", default=str(REPO / "build" / "python" / "attnsvm" / "cli" / "attnsvm"))
    a = ap.parse_args()
    problem = attnsvm.scenario(a.scenario)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(attnsvm.to_json(problem), f)
    py_ms, cli_ms = [], []
    for _ in range(a.rounds):
        t0 = time.perf_counter()
        attnsvm.solve(problem, norm=a.norm)
        py_ms.append(1e3 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        subprocess.run([a.cli, "solve", "--norm", a.norm, f.name], check=True, capture_output=True)
        cli_ms.append(1e3 * (time.perf_counter() - t0))
    p, c = statistics.median(py_ms), statistics.median(cli_ms)
    print(f"{a.scenario} --norm {a.norm}, {a.rounds} rounds interleaved: Python {p:.2f} ms "
          f"(min {min(py_ms):.2f}), CLI process {c:.2f} ms (min {min(cli_ms):.2f}); CLI/Python {c / p:.2f}")


if __name__ == "__main__":
    main()
