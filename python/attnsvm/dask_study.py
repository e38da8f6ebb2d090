"""The real-data study (SPEC 6.1, ``attnsvm experiment real-study``) on a Dask cluster.

The study is a plan of independent runs (every method, step of its grid, seed and setting; SPEC
6.1): the core's planner (``_core.RealStudy``) stays in this process, hands out the runs that are
ready, and takes their results back in any order; a step is chosen (and a grid extended) when all
the tuning runs of a configuration are in, so the plan and the table do not depend on where or in
which order the runs finish. Each run is one Dask task, a pure function of a dict (RealStudyRun's
fields) to a dict (RealStudyRunResult's fields) computed by the core's ``runRealStudyRun``: a
worker computes the same doubles as the CLI's threads, and the JSON is written by the CLI's own
code, so the result equals ``attnsvm experiment real-study`` on the same settings (all but the
timings: ``seconds``, ``cpuSeconds`` and each run's ``cpuSeconds``).

A worker that dies mid-run (killed, out of memory, its machine lost) loses its tasks; the
scheduler gives them to another worker (Dask's ``distributed.scheduler.allowed-failures``, 3 by
default), and a task that raises is retried ``retries`` times. A run is deterministic, so a retried
run returns the same result.

Workers need this package installed (the same version) and Fashion-MNIST (Debian's
dataset-fashion-mnist, or ``data_dir`` / ``$ATTNSVM_FASHION_MNIST`` on every worker).
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from . import _core

__all__ = ["real_study_dask", "run_one"]

RunTask = Callable[[Dict[str, Any], str], Tuple[Dict[str, Any], float]]


def run_one(run: Dict[str, Any], data_dir: str = "") -> Tuple[Dict[str, Any], float]:
    """One run of the plan on this process: (its result, the CPU seconds of the run).

    The images are read once per worker process (before the clock starts, as the CLI reads them
    before its threads start), so the seconds are those of the run alone.
    """
    _core.load_real_study_images(data_dir)
    t0 = time.thread_time()
    result = _core.run_real_study_run(run, data_dir)
    return result, time.thread_time() - t0


def _client_of(client: Any):
    from distributed import Client

    if isinstance(client, Client):
        return client, False
    if isinstance(client, str):
        return Client(client), True
    if client is None:
        from distributed import default_client

        try:
            return default_client(), False
        except ValueError:
            raise ValueError(
                "no Dask client: pass client=distributed.Client(...) or a scheduler address "
                "such as client='tcp://scheduler:8786'"
            ) from None
    raise TypeError(f"client must be a distributed.Client, a scheduler address or None, got {type(client).__name__}")


def _progress_bar(progress: bool, total: int):
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional: no bar then
        return None
    return tqdm(total=total, desc="real-study", unit="run")


def real_study_dask(
    settings: Optional[Mapping[str, Any]] = None,
    *,
    client: Any = None,
    data_dir: str = "",
    retries: int = 2,
    progress: bool = True,
    out: Optional[str] = None,
    csv: Optional[str] = None,
    task: RunTask = run_one,
) -> Dict[str, Any]:
    """Runs the real-data study's plan as Dask tasks; returns the CLI's JSON (a dict).

    settings: RealStudySettings' fields (tasks, nTrain, nValidation, nTest, methods, design,
        ablationMethods, batch, initScale, epochs, stopAccuracy, evalEvery, seeds, tuneSeeds,
        seedBase, gridPoints, gridRatio, maxExtensions, gridCenters), as the CLI's
        ``--settings``; absent keys keep the defaults. A bad key or value: ValueError naming it.
    client: a ``distributed.Client``, a scheduler address (``'tcp://host:8786'``) or None (the
        default client of this process).
    data_dir: Fashion-MNIST's folder on the workers ('' : ``$ATTNSVM_FASHION_MNIST`` or
        /usr/share/datasets/fashion-mnist).
    retries: how many times a task that raised is run again (a dead worker's tasks are moved
        to another worker by the scheduler in any case).
    out, csv: also write the JSON text (as ``attnsvm experiment real-study --out``) and the CSV.
    task: the function a worker runs per run (default :func:`run_one`); a wrapper of it can
        inject faults (the tests kill a worker with one).

    The JSON's ``settings.threads`` is the number of worker threads when the study started; the
    timings are those of the workers (``cpuSeconds`` per run and in all) and of this call
    (``seconds``). Everything else equals the CLI's output on the same settings, double for
    double.
    """
    from distributed import as_completed

    study = _core.RealStudy(dict(settings or {}))
    dask, owned = _client_of(client)
    started = time.perf_counter()
    futures: List[Any] = []
    try:
        threads = sum(dask.nthreads().values())
        if threads < 1:
            raise ValueError(f"the Dask cluster at {dask.scheduler.address} has no workers")
        token = uuid.uuid4().hex[:12]
        pending = as_completed()
        cpu_seconds: Dict[int, float] = {}
        bar = _progress_bar(progress, study.planned_runs)

        def hand_out() -> None:
            for run in study.take(1 << 30):  # every run that is ready: the scheduler queues them
                future = dask.submit(task, run, data_dir, key=f"attnsvm-real-study-{token}-{run['id']}",
                                     pure=False, retries=retries)
                futures.append(future)
                pending.add(future)

        hand_out()
        for future in pending:
            result, seconds = future.result()  # a task's error is raised here
            study.submit(result)
            cpu_seconds[result["id"]] = seconds
            if bar is not None:
                bar.total = study.planned_runs
                bar.update(1)
            hand_out()
        if bar is not None:
            bar.close()
        if not study.done:
            raise RuntimeError(f"the study stopped with {study.submitted} of {study.planned_runs} runs "
                               "done and none in flight (a planner error)")
        runs = len(study.runs())
        text, table = study.result_json(threads, [cpu_seconds.get(k, 0.0) for k in range(runs)],
                                        time.perf_counter() - started)
    except BaseException:
        dask.cancel(futures)  # Ctrl-C or an error: stop the runs in flight, release the results
        raise
    finally:
        if owned:
            dask.close()
    if out is not None:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if csv is not None:
        with open(csv, "w", encoding="utf-8") as f:
            f.write(table)
    return json.loads(text)
