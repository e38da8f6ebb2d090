"""The public API: the CLI's commands and the JS API's calls, with their names and JSON keys.

``scenario``, ``solve``, ``analyze``, ``train`` and ``path`` run the command-line tool's own code
in process (``attnsvm._core.cli``: the CLI's parser and commands, its standard input and output
captured), so a result is exactly ``attnsvm <command> ...``'s JSON with its matrices as numpy
arrays.
``experiment`` calls the CLI's experiment registry.
Every long call releases the GIL and stops on Ctrl-C (KeyboardInterrupt) within a fraction of a
second (a solve, an analysis or a path finishes first: they are short at the CLI's limits).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from . import _core
from ._convert import arrays, to_json

__all__ = [
    "analyze",
    "experiment",
    "experiment_names",
    "path",
    "scenario",
    "scenario_names",
    "solve",
    "to_json",
    "train",
    "version",
]


def version() -> str:
    """The version of the C++ core (the CLI's ``attnsvm --version``)."""
    return _core.version()


def scenario_names() -> List[str]:
    """The named scenarios of the papers (``attnsvm scenario --list``; SPEC section 5)."""
    return list(_core.scenario_names())


def experiment_names() -> List[str]:
    """The experiments ``experiment`` runs (``attnsvm experiment --list``; SPEC sections 5, 6)."""
    return list(_core.experiment_names())


# --- the command line ------------------------------------------------------------------------


def _int(name: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return str(int(value))


def _float(name: str, value: Any) -> str:
    if isinstance(value, (bool, str)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    return repr(float(value))  # shortest round-trip text: the CLI parses back the same double


def _str(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def _problem(problem: Any, name: str = "problem") -> Mapping:
    if not isinstance(problem, Mapping):
        raise TypeError(
            f"{name} must be a dict with the dataset's fields (X, Z or query, alpha, Y, v), "
            f"not {type(problem).__name__}"
        )
    return problem


def _run(args: List[str], problem: Optional[Mapping] = None, ok: Sequence[int] = (0,)) -> Any:
    """`attnsvm <args>` with `problem` as its input file; its JSON, or ValueError with its message."""
    r = _core.cli(args, None if problem is None else dict(problem))
    if r["code"] not in ok:
        message = r["err"].strip() or r["out"].strip() or f"exit code {r['code']}"
        for prefix in ("attnsvm: error: ", "attnsvm: numerical error: "):
            if message.startswith(prefix):
                message = message[len(prefix):]
        raise ValueError(message)
    import json

    return arrays(json.loads(r["out"]))


def _scenario_options(n: Optional[int], T: Optional[int], d: Optional[int], C: Optional[float],
                      start: Optional[int], local: bool, variant: Optional[int]) -> List[str]:
    args: List[str] = []
    for name, value in (("n", n), ("T", T), ("d", d), ("start", start), ("variant", variant)):
        if value is not None:
            args += [f"--{name}", _int(name, value)]
    if C is not None:
        args += ["--C", _float("C", C)]
    if local:
        args.append("--local")
    return args


def scenario(name: str, seed: int = 0, *, n: Optional[int] = None, T: Optional[int] = None,
             d: Optional[int] = None, C: Optional[float] = None, start: Optional[int] = None,
             local: bool = False, variant: Optional[int] = None) -> Dict[str, Any]:
    """A named scenario of the papers (SPEC section 5): ``attnsvm scenario NAME --seed S``.

    Returns the dataset under its fields -- ``X`` (n x T x d), ``Z`` (n x d; self-attention: ``query``
    instead), ``alpha``, ``Y``, ``v`` -- plus ``scenario``, ``title``, ``iterations``, ``model``,
    ``train`` and ``init`` (the run the paper makes of it). Every other function takes it as
    ``problem``. ``n``, ``T``, ``d``, ``C``, ``start``, ``local``, ``variant``: the CLI's scenario
    options (sizes; the loss-function scenario's C; the prompt scenarios' start and local case;
    joint-pv's variant).
    """
    args = ["scenario", _str("name", name), "--seed", _int("seed", seed)]
    return _run(args + _scenario_options(n, T, d, C, start, local, variant))


def solve(problem: Mapping, norm: str = "fro", p: float = 2.0, *, tol: Optional[float] = None,
          max_iterations: Optional[int] = None) -> Dict[str, Any]:
    """The Att-SVM of the problem's selection alpha (SPEC section 3): ``attnsvm solve --norm``.

        W^mm = argmin ||W||  s.t.  <A_it, W> >= 1  for all i, t != alpha_i,
        A_it = (x_{i,alpha_i} - x_it) z_i^T,

    in the Frobenius (``"fro"``), nuclear (``"nuclear"``) or entrywise l_p (``"lp"``, ``p > 1``)
    norm. Without ``alpha`` the selection is the optimal tokens opt_i = argmax_t Y_i v^T x_it.
    Returns the CLI's JSON: ``status`` ("optimal", "infeasible", "max_iterations", "boundary"),
    ``W`` (numpy d x d), ``lambda`` (the multipliers), ``objective``, ``lowerBound``, ``gap``,
    ``maxViolation`` (the certificate of SPEC section 3: lowerBound = sum(lambda) /
    ||sum lambda_it A_it||_dual <= optimum <= objective), ``support``, ``selection``, ``norm``.
    An infeasible selection is a result (``status``, ``message``: the Farkas certificate), not an
    exception; bad input raises ValueError naming the field, sequence and token.
    """
    args = ["solve", "-", "--norm", _str("norm", norm), "--p", _float("p", p)]
    if tol is not None:
        args += ["--tol", _float("tol", tol)]
    if max_iterations is not None:
        args += ["--max-iterations", _int("max_iterations", max_iterations)]
    return _run(args, _problem(problem), ok=(0, 2, 3, 4))


def analyze(problem: Mapping, W: Any = None, *, enumerate: bool = False,
            max_selections: int = 200000) -> Dict[str, Any]:
    """Token-selection analysis (SPEC section 4): ``attnsvm analyze``.

    For the problem's selection alpha (default: the optimal tokens): the optimal tokens and ties,
    feasibility, the Frobenius Att-SVM ``svm``, its support tokens T_i = {t : <A_it, W^mm> = 1} and
    the ``verdict``: "globally optimal" (alpha_i = opt_i for all i), "locally optimal" (feasible
    and gamma_{i,alpha_i} > gamma_it for every support token t) or neither. With ``W`` (d x d) also
    ``weights``: the same report for the selection of W, alpha_i = argmax_t softmax(X_i W z_i)_t.
    ``enumerate=True`` lists every feasible, locally optimal selection (``locallyOptimal``; T^n
    selections, at most ``max_selections``).
    """
    data = dict(_problem(problem))
    if W is not None:
        data["W"] = W
    args = ["analyze", "-", "--max-selections", _int("max_selections", max_selections)]
    if enumerate:
        args.append("--enumerate")
    return _run(args, data)


def train(problem: Optional[Mapping] = None, *, scenario: Optional[str] = None,
          param: Optional[str] = None, optimizer: Optional[str] = None, lr: Optional[float] = None,
          iters: Optional[int] = None, p: Optional[float] = None, init: Optional[str] = None,
          scale: Optional[float] = None, seed: Optional[int] = None, loss: Optional[str] = None,
          head: Optional[str] = None, attention: Optional[str] = None,
          trace: Optional[str] = None, trace_every: Optional[int] = None,
          n: Optional[int] = None, T: Optional[int] = None, d: Optional[int] = None,
          C: Optional[float] = None, start: Optional[int] = None, local: bool = False,
          variant: Optional[int] = None) -> Dict[str, Any]:
    """Trains one attention layer (SPEC sections 1, 2): ``attnsvm train``.

    Minimizes L(W) = (1/n) sum_i l(Y_i v^T X_i^T softmax(X_i W z_i)) over W (``param="w"``) or
    W = K Q^T (``"kq"``) with ``optimizer`` gd, ngd (W <- W - lr grad/||grad||_F), md (l_p mirror
    descent), nmd or nmd-fro, for ``iters`` steps, from ``init`` zero or random (``seed``,
    ``scale``). Returns the CLI's JSON: the ``selection`` reached (argmax of the softmax), its
    ``verdict``, ``softmaxSelected``, ``corr`` = <W, W^mm> / (||W||_F ||W^mm||_F) with the
    selection's Frobenius and nuclear SVMs (and l_p for mirror descent), the Bregman
    ``divergence`` D_p (SPEC section 4), the final ``W`` (and ``K``, ``Q``), ``loss``, ``norms``.
    With ``scenario`` (no problem) the data, model and settings are the scenario's and the options
    given here override them, as on the command line. Options left at None take the CLI's
    defaults (param w, optimizer ngd, lr 0.1, iters 2000, init zero for w / random for kq).
    ``trace`` writes the CLI's CSV trace to that file every ``trace_every`` steps.
    """
    args = ["train"]
    if scenario is not None:
        if problem is not None:
            raise TypeError("train takes a problem or scenario=..., not both")
        args += ["--scenario", _str("scenario", scenario)]
        data = None
    else:
        if problem is None:
            raise TypeError("train needs a problem (a dict) or scenario=NAME")
        args.append("-")
        data = _problem(problem)
    for name, value in (("param", param), ("optimizer", optimizer), ("init", init),
                        ("loss", loss), ("head", head), ("attention", attention), ("trace", trace)):
        if value is not None:
            args += [f"--{name}", _str(name, value)]
    for name, value in (("lr", lr), ("p", p), ("scale", scale)):
        if value is not None:
            args += [f"--{name}", _float(name, value)]
    for name, value in (("iters", iters), ("seed", seed)):
        if value is not None:
            args += [f"--{name}", _int(name, value)]
    if trace_every is not None:
        args += ["--trace-every", _int("trace_every", trace_every)]
    args += _scenario_options(n, T, d, C, start, local, variant)
    return _run(args, data)


def path(problem: Optional[Mapping] = None, *, scenario: Optional[str] = None,
         seed: Optional[int] = None, norm: str = "fro", p: Optional[float] = None,
         loss: Optional[str] = None, radii: Optional[Sequence[float]] = None,
         r0: Optional[float] = None, r1: Optional[float] = None, count: Optional[int] = None,
         iterations: Optional[int] = None, gap_tol: Optional[float] = None,
         include_W: bool = True, n: Optional[int] = None, T: Optional[int] = None,
         d: Optional[int] = None, C: Optional[float] = None, start: Optional[int] = None,
         local: bool = False, variant: Optional[int] = None) -> Dict[str, Any]:
    """The regularization path with its certificate (SPEC section 5.3): ``attnsvm path``.

        W(R) = argmin_{||W|| <= R} L(W)

    for increasing radii R, in the Frobenius (``"fro"``), nuclear (``"nuclear"``: the (K,Q) path)
    or entrywise l_p (``"lp"``, ``p > 1``) ball: Frank-Wolfe from W = 0 at the first radius, each
    later radius warm-started at the previous W(R). The theory: W(R)/R tends to the Att-SVM
    direction of ``solve(problem, norm)`` as R grows. The problem is non-convex, so each W(R) is
    certified *stationary* on its ball, not globally optimal, by the Frank-Wolfe gap

        g(R) = max_{||S|| <= R} <-grad L(W(R)), S - W(R)>
             = R ||grad L(W(R))||_dual + <grad L(W(R)), W(R)>  >= 0   (zero iff stationary),

    reported as the relative gap g / (R ||grad L||_dual) in [0, 2] (exact at every R: it is
    computed from the log-domain gradient direction); a radius is ``certified`` when that is
    <= ``gap_tol``. Dual norms: Frobenius, spectral, l_q with q = p/(p-1).

    The data: ``problem`` (a dict, as for ``solve``; its model is attention with a linear head)
    or ``scenario=NAME`` with ``seed`` and the scenario options ``n``, ``T``, ``d``, ``C``,
    ``start``, ``local``, ``variant`` (the scenario's model; a (K,Q) one is run on W). The radii:
    ``radii`` (increasing, positive) or the geometric schedule ``r0``, ``r1``, ``count``
    (CLI default: 1 .. 10^4, 17 radii). ``loss`` (logistic, exponential, correlation),
    ``iterations`` (Frank-Wolfe iterations per radius at most; 500) and ``gap_tol`` (1e-3) are
    the CLI's ``--loss``, ``--iterations``, ``--gap-tol``; options left at None take the CLI's
    defaults.
    ``include_W=False`` is ``--no-w``.

    Returns the CLI's JSON: ``norm`` (and ``p``), ``scenario``, ``iterationsPerRadius``,
    ``gapTolerance``, ``guarantee``, ``allCertified`` and ``points``, one dict per radius:
    ``radius``, ``W`` (numpy d x d), ``loss``, ``selection``, ``corrOwn`` / ``corrGlobal`` (corr
    of W(R) with the Att-SVM, in the ball's norm, of its own / the globally optimal selection;
    None where infeasible), ``globallyOptimal``, ``gap``, ``relativeGap``, ``logGradDual``,
    ``norm``, ``iterations``, ``certified``, ``lossResolved`` (R ||grad L||_dual >= eps L: the
    loss still tells points apart), ``rank``. An uncertified radius is a result
    (``allCertified`` false), not an exception.
    """
    args = ["path"]
    given = {name: value for name, value in (("seed", seed), ("n", n), ("T", T), ("d", d), ("C", C),
                                             ("start", start), ("variant", variant))
             if value is not None}
    if local:
        given["local"] = local
    if scenario is not None:
        if problem is not None:
            raise TypeError("path takes a problem or scenario=..., not both")
        args += ["--scenario", _str("scenario", scenario)]
        if seed is not None:
            args += ["--seed", _int("seed", seed)]
        args += _scenario_options(n, T, d, C, start, local, variant)
        data = None
    else:
        if problem is None:
            raise TypeError("path needs a problem (a dict) or scenario=NAME")
        if given:
            name = next(iter(given))
            raise TypeError(f"{name} is a scenario option: give it with scenario=NAME")
        args.append("-")
        data = _problem(problem)
    args += ["--norm", _str("norm", norm)]
    if p is not None:
        args += ["--p", _float("p", p)]
    if loss is not None:
        args += ["--loss", _str("loss", loss)]
    schedule = [(name, value) for name, value in (("r0", r0), ("r1", r1), ("count", count))
                if value is not None]
    if radii is not None:
        if schedule:
            raise TypeError(f"path takes radii or r0/r1/count, not both (got radii and "
                            f"{schedule[0][0]})")
        if isinstance(radii, (str, bytes)) or not isinstance(radii, (Sequence, np.ndarray)):
            raise TypeError(f"radii must be a sequence of numbers, not {type(radii).__name__}")
        values = [_float(f"radii[{k}]", r) for k, r in enumerate(radii)]
        if not values:
            raise ValueError("radii must not be empty")
        for k, text in enumerate(values):
            if not math.isfinite(float(text)):
                raise ValueError(f"radii[{k}] = {text} is not finite")
        args.append("--radii=" + ",".join(values))
    for name, value in schedule:
        args += [f"--{name}", _int(name, value) if name == "count" else _float(name, value)]
    if iterations is not None:
        args += ["--iterations", _int("iterations", iterations)]
    if gap_tol is not None:
        args += ["--gap-tol", _float("gap_tol", gap_tol)]
    if not isinstance(include_W, bool):
        raise TypeError(f"include_W must be a bool, not {type(include_W).__name__}")
    if not include_W:
        args.append("--no-w")
    return _run(args, data)


class _Bar:
    """A tqdm bar per progress label (an experiment may run several stages)."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.label = ""

    def __call__(self, label: str, done: int, total: int) -> None:
        from tqdm.auto import tqdm

        if self.bar is None or label != self.label:
            self.close()
            self.label = label
            self.bar = tqdm(total=total, desc=label, unit="run")
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def experiment(name: str, progress: bool = True, **settings: Any) -> Dict[str, Any]:
    """One of the papers' experiments (SPEC sections 5, 6): ``attnsvm experiment NAME``.

    ``settings`` are the CLI's options with '-' as '_': seeds, iters, threads, grid, every,
    seed_base, dims, ps, rank_tol, classes, optimizer, train, test, n_svm, lr, adam_lr, data_dir,
    settings (a dict: real-study / real-ladder's field lists). Defaults are the paper's. Returns
    the CLI's JSON (settings, per-iteration mean and std over seeds, per-seed finals, summary);
    results do not depend on ``threads``. ``progress`` shows a tqdm bar (runs done / planned).
    """
    bar: Optional[Callable[[str, int, int], None]] = None
    if progress:
        try:
            import tqdm  # noqa: F401

            bar = _Bar()
        except ImportError:  # the bar is optional (Debian's python3-tqdm)
            bar = None
    try:
        result = _core.experiment(_str("name", name), settings, bar)
    finally:
        if isinstance(bar, _Bar):
            bar.close()
    return arrays(result)


