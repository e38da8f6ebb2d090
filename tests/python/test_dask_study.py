"""The real-data study on Dask (python/attnsvm/dask_study.py) equals the CLI's `experiment
real-study` on the same settings, on a LocalCluster of 2 worker processes started here, also when
a worker process dies in the middle of a run (its task is moved to another worker and the result
does not change).

Reduced size (100 training images a pair, 4 epochs, 3 seeds, 3-point grids): the same plan
machinery (grids, their extension, tuning and final seeds, three settings) in seconds.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
import cloudpickle  # noqa: E402  (distributed's dependency)

import attnsvm  # noqa: E402
from attnsvm import _core  # noqa: E402
from attnsvm.dask_study import real_study_dask, run_one  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("ATTNSVM_FASHION_MNIST", "/usr/share/datasets/fashion-mnist"))
pytestmark = pytest.mark.skipif(not (DATA / "train-images-idx3-ubyte.gz").exists(),
                                reason="Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)")

# The reduced study of tests/wasm/real-study.test.mjs (an nmd, Adam, two ablations; 51 runs) with
# low grid centers, so that a grid is extended while the study runs.
STUDY = {
    "tasks": "7v9", "nTrain": 100, "nValidation": 40, "nTest": 100, "epochs": 4, "seeds": 3,
    "tuneSeeds": 2, "design": "main", "methods": "md:2,nmd:1.1,adam", "ablationMethods": "md:2,md:1.1",
    "gridPoints": 3, "maxExtensions": 1,
    "gridCenters": "md:2=0.001,adam=0.0001",  # Adam's best step is above this grid: it is extended
}

# The tasks below are pickled by value: the workers need not import this test module.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def cli_path() -> Path:
    for p in (os.environ.get("ATTNSVM_CLI"), REPO / "build/python/attnsvm/cli/attnsvm",
              REPO / "build/native-release/cli/attnsvm"):
        if p and Path(p).is_file():
            return Path(p)
    pytest.skip("no attnsvm CLI built (build/python/attnsvm/cli/attnsvm)")


@pytest.fixture(scope="module")
def cli_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "study.json"
    subprocess.run([str(cli_path()), "experiment", "real-study", "--settings", json.dumps(STUDY),
                    "--threads", "2", "--quiet", "--out", str(out)], check=True)
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def run_key(run):
    return (run["classA"], run["classB"], run["setting"], run["method"], run["train"]["lr"], run["train"]["seed"])


def assert_same_study(got, want):
    """Everything but the timings, double for double. Run ids after the first round are given in
    the order tuning rounds complete (as between the CLI's threads), so runs are matched by what
    they are (task, setting, method, step, seed) and compared without the id."""
    assert got["table"] == want["table"]
    assert got["runCount"] == want["runCount"] == len(want["runs"])
    assert {k: v for k, v in got["settings"].items()} == want["settings"]
    without = lambda r: {k: v for k, v in r.items() if k not in ("id", "cpuSeconds")}  # noqa: E731
    result_without = lambda r: {k: v for k, v in r.items() if k != "id"}  # noqa: E731
    cli_runs = {run_key(r): r for r in want["runs"]}
    assert len(cli_runs) == len(want["runs"]), "every CLI run has its own (task, setting, method, step, seed)"
    for r in got["runs"]:
        c = cli_runs[run_key(r)]
        assert {k: v for k, v in without(r).items() if k != "result"} == {k: v for k, v in without(c).items() if k != "result"}
        assert result_without(r["result"]) == result_without(c["result"]), run_key(r)
        assert r["result"]["id"] == r["id"]
    assert got["cpuSeconds"] > 0 and all(r["cpuSeconds"] > 0 for r in got["runs"])


def test_the_study_on_dask_equals_the_cli(cli_study, client, tmp_path):
    got = real_study_dask(STUDY, client=client, progress=False, out=str(tmp_path / "s.json"), csv=str(tmp_path / "s.csv"))
    assert_same_study(got, cli_study)
    assert json.loads((tmp_path / "s.json").read_text()) == got
    assert (tmp_path / "s.csv").read_text().startswith("task,setting,method,lr,")
    extended = sum(1 for r in got["table"] if r["extendedDown"] + r["extendedUp"] > 0)
    assert extended > 0, "the reduced study extends a grid (the plan grows while it runs)"
    print(f"# {got['runCount']} runs, {len(got['table'])} rows, {extended} grids extended, "
          f"{got['seconds']:.1f} s wall, {got['cpuSeconds']:.2f} CPU s in runs")


def kill_once(marker: str, victim: int):
    """A task that kills its own worker process (SIGKILL: no cleanup, as a lost machine) the first
    time it is given run `victim`; the marker file records that it did."""

    def task(run, data_dir=""):
        if run["id"] == victim:
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                os.kill(os.getpid(), signal.SIGKILL)
        return run_one(run, data_dir)

    return task


def test_a_worker_killed_mid_run_changes_nothing(cli_study, client, tmp_path):
    marker = tmp_path / "killed"
    pids_before = set(client.run(os.getpid).values())
    got = real_study_dask(STUDY, client=client, progress=False, task=kill_once(str(marker), 5))
    killed = int(marker.read_text())
    assert killed in pids_before, "the task ran in (and killed) one of the cluster's worker processes"
    assert_same_study(got, cli_study)
    client.wait_for_workers(2, timeout=60)  # the nanny restarted the dead worker
    assert killed not in set(client.run(os.getpid).values())


def test_bad_settings_and_runs_name_the_field(client):
    with pytest.raises(ValueError, match=r"settings\.epoch is not a field"):
        real_study_dask({"epoch": 3}, client=client, progress=False)
    with pytest.raises(ValueError, match=r"p must be in \(1, 1000\]"):
        _core.RealStudy({"methods": "md:1"})
    study = _core.RealStudy(STUDY)
    run = study.take(1)[0]
    result = run_one(run)[0]
    with pytest.raises(ValueError, match="result for run 10000: no such run was handed out"):
        study.submit({**result, "id": 10_000})
    study.submit(result)
    with pytest.raises(ValueError, match="result for run 0 submitted twice"):
        study.submit(result)
    with pytest.raises(ValueError, match=r"result\.epoch is not a field"):
        study.submit({**result, "epoch": 3})


def test_the_stub_matches():
    from test_figure import check_stub

    check_stub("attnsvm.dask_study")


def test_the_planner_is_order_independent(cli_study):
    """Results submitted in order and in reverse order give the CLI's table (what lets Dask finish
    runs in any order), with the runs in this process."""
    tables = []
    for reverse in (False, True):
        study = _core.RealStudy(STUDY)
        while not study.done:
            runs = study.take(1 << 20)
            results = [run_one(r)[0] for r in runs]
            for res in (reversed(results) if reverse else results):
                study.submit(res)
        tables.append(study.table())
    assert tables[0] == tables[1] == cli_study["table"]
    assert attnsvm.__version__


def fail_on(victim: int):
    """A task whose run `victim` always raises (a bad worker, a broken installation)."""

    def task(run, data_dir=""):
        if run["id"] == victim:
            raise RuntimeError(f"run {victim} failed on purpose")
        return run_one(run, data_dir)

    return task


def test_a_failing_run_stops_the_study_and_frees_the_cluster(client):
    with pytest.raises(RuntimeError, match="run 2 failed on purpose"):
        real_study_dask(STUDY, client=client, progress=False, retries=1, task=fail_on(2))

    def study_tasks(dask_scheduler):  # the study's tasks still to run or running
        return [(str(k), t.state) for k, t in dask_scheduler.tasks.items()
                if "attnsvm-real-study" in str(k) and t.state in ("released", "waiting", "queued", "no-worker", "processing")]

    for _ in range(50):  # cancelling is asynchronous
        left = client.run_on_scheduler(study_tasks)
        if not left:
            break
        time.sleep(0.1)
    assert left == [], "the study's other runs were cancelled"
