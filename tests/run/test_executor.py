"""Runs on a real Dask cluster (two single-thread worker processes) give exactly a local run's results, survive a
worker killed mid-run, and fail in one line when the workers keep dying. Dask comes with the test extra."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from distributed import Client, LocalCluster

from balance.api import simulate
from balance.run.runner import ExecutorError


def _same(results) -> dict:
    """Everything a run reports but its timing (which says where and how fast it ran)."""
    d = results.to_dict()
    d["meta"] = {k: v for k, v in d["meta"].items() if k != "timing"}
    return d


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with Client(cluster) as c:
        yield c
    cluster.close()


@pytest.mark.parametrize("scenario, games, kw", [
    (None, 40_000, {"seed": 11, "keep_games": 9_000}),
    (None, 30_000, {"seed": 3, "players": 4, "seat_rotation": True}),
    ("scenarios/haunted_tower.toml", 1_500, {"seed": 2}),
    ("scenarios/climbing_tower.toml", 6_000, {"seed": 5}),
])
def test_dask_run_is_the_local_run(client, scenario, games, kw):
    local = simulate(scenario, games=games, progress=False, **kw)
    remote = simulate(scenario, games=games, progress=False, chunk_size=3_000, client=client, **kw)
    assert remote.meta["timing"]["executor"] == "dask" and remote.meta["timing"]["workers"] == 2
    assert _same(remote) == _same(local)
    assert remote.games.equals(local.games)


def test_dask_target_ci_stops_where_the_local_run_stops(client):
    local = simulate(None, target_ci=0.03, seed=8, progress=False)
    remote = simulate(None, target_ci=0.03, seed=8, progress=False, client=client)
    assert remote.tallies.games == local.tallies.games
    assert _same(remote) == _same(local)


def _kill_a_busy_worker(client, running: threading.Thread) -> None:
    """SIGKILL a worker process while it plays a task (the nanny starts a new one)."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        busy = [w for w, tasks in client.processing().items() if any("play_payload" in t for t in tasks)]
        if busy:
            time.sleep(0.05)
            os.kill(pids[busy[0]], signal.SIGKILL)
            return
        assert running.is_alive(), "the run ended before any worker was killed"
        time.sleep(0.01)
    raise AssertionError("no worker ever played a task")


def _run_in_thread(client, out: dict, **kw):
    def target():
        try:
            out["results"] = simulate(None, progress=False, client=client, **kw)
        except ExecutorError as err:
            out["error"] = err
    thread = threading.Thread(target=target)
    thread.start()
    return thread


def test_a_worker_killed_mid_run_changes_no_number(client):
    kw = dict(games=120_000, seed=21, chunk_size=4_000)
    local = simulate(None, progress=False, **kw)
    out: dict = {}
    thread = _run_in_thread(client, out, **kw)
    _kill_a_busy_worker(client, thread)
    thread.join(300)
    assert "error" not in out, out.get("error")
    assert _same(out["results"]) == _same(local)
    client.wait_for_workers(2, timeout=60)


def test_workers_dying_fail_in_one_line_or_finish_right(client):
    """With no failures allowed, a task whose worker dies fails the run: one line, no results. Should the kill miss
    (the task finished first), the run must still give the local numbers."""
    kw = dict(games=120_000, seed=22, chunk_size=4_000)
    scheduler = client.cluster.scheduler
    allowed, scheduler.allowed_failures = scheduler.allowed_failures, 0
    try:
        out: dict = {}
        thread = _run_in_thread(client, out, **kw)
        _kill_a_busy_worker(client, thread)
        thread.join(300)
    finally:
        scheduler.allowed_failures = allowed
    client.wait_for_workers(2, timeout=60)
    if "error" in out:
        message = str(out["error"])
        assert "\n" not in message and "died playing games" in message and out["error"].code == 1
    else:
        assert _same(out["results"]) == _same(simulate(None, progress=False, **kw))


SLOW_EXIT = """import atexit, os, pathlib, time
def _end():
    time.sleep(5)
    pathlib.Path(os.environ["BALANCE_TEST_EXITED"], str(os.getpid())).touch()
atexit.register(_end)
"""


def test_cli_dask_local_prints_the_local_json_lets_its_workers_end_on_their_own_and_logs_no_warning(tmp_path):
    """`balance run --executor dask-local --json` prints what the local run prints, timing aside. A worker that
    compiled a kernel takes seconds in Python's own shutdown after its last task; here each worker's shutdown takes
    5 s (a preload with an exit hook, which then leaves a file): the run ends with exit code 0, no WARNING line on
    stderr, and every worker's shutdown run to its end (Dask's own close kills it after 4 s). One cluster serves
    both checks: starting one costs seconds of the suite."""
    (tmp_path / "slow_exit.py").write_text(SLOW_EXIT)
    exited = tmp_path / "exited"
    exited.mkdir()
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__PRELOAD": f'["{tmp_path / "slow_exit.py"}"]',
           "BALANCE_TEST_EXITED": str(exited)}
    base = [sys.executable, "-m", "balance", "run", "-n", "20000", "--seed", "4", "--json"]
    local = subprocess.run(base, capture_output=True, text=True, check=True)
    done = subprocess.run(base + ["--executor", "dask-local", "--workers", "2"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    strip = lambda text: {**json.loads(text), "meta": {k: v for k, v in json.loads(text)["meta"].items()  # noqa
                                                        if k != "timing"}}
    assert strip(done.stdout) == strip(local.stdout)
    assert json.loads(done.stdout)["meta"]["timing"]["workers"] == 2
    assert [line for line in done.stderr.splitlines() if "WARNING" in line] == []
    assert len(list(exited.iterdir())) == 2


@pytest.mark.parametrize("study, args, kw", [
    ("compare", (None, None, {"players": 4}), {"games": 30_000, "seed": 3, "chunk_size": 7_000}),
    ("compare", (None, None, {"players": 4}), {"seed": 5, "target_ci": 0.03}),
    ("compare", (None, None, {"components.buildings.12.ghost_worth": 2}),
     {"seed": 6, "question": "win_rate[0](B) - win_rate[0](A) > 0.5", "until_decided": True, "max_games": 20_000}),
    ("sweep", ("scenarios/haunted_tower.toml", {"turn_cap": [30, 2000]}), {"games": 3_000, "seed": 2, "chunk_size": 500}),
    ("cards", ("scenarios/climbing_tower.toml",), {"games": 4_000, "seed": 1, "chunk_size": 700}),
])
def test_dask_studies_are_the_local_studies(client, study, args, kw):
    """compare, sweep and cards on two workers: the same tables, intervals and decisions as on this machine (the
    paired sums are exact, so the order they are added in cannot matter); the study says it ran on Dask."""
    import importlib

    from balance.run.executor import task_ranges
    if "chunk_size" in kw:      # several tasks, so that their sums are added together
        assert len(task_ranges(2, 0, kw["games"], kw["chunk_size"])) > 1
    fn = getattr(importlib.import_module(f"balance.analysis.studies.{study}"), study)
    local, dask = fn(*args, **kw), fn(*args, client=client, **kw)
    assert _same(dask) == _same(local)
    assert dask.meta["games"] > 0
    assert dask.meta["timing"]["executor"] == "dask" and "executor" not in local.meta["timing"]


@pytest.mark.parametrize("scenario, strategies, kw", [
    (None, "random,collector,ghost_hunter", {"games": 30_000, "chunk_size": 700}),
    (None, "random,collector", {"target_ci": 0.05, "seed": 2}),
    ("scenarios/climbing_tower.toml", "climber,deck_thinner", {"games": 12_000, "chunk_size": 500}),
])
def test_dask_tournament_is_the_local_tournament(client, scenario, strategies, kw):
    """Every seating's games as tasks on two workers, the seatings' tasks in one queue: the same ratings, matrix and
    tables as on this machine, competitive and co-operative."""
    from balance.analysis.tournaments import tournament
    local, dask = tournament(scenario, strategies, **kw), tournament(scenario, strategies, client=client, **kw)
    assert dask.to_dict() == local.to_dict()
    assert dask.meta["games"] == local.meta["games"] > 0


@pytest.mark.parametrize("command", [["sweep", "--set", "turn_cap=50,100"], ["compare", "--set", "players=4"],
                                     ["cards"], ["tournament", "--strategies", "random,collector"]])
def test_every_study_command_takes_the_executor(cli, command):
    result = cli(*command, "-n", "10", "--executor", "dask")
    assert result.exit_code == 2
    assert "needs --scheduler" in result.output


def test_cli_tournament_on_dask_local_prints_the_local_json():
    base = [sys.executable, "-m", "balance", "tournament", "--strategies", "random,collector", "-n", "2000", "--json"]
    local = subprocess.run(base, capture_output=True, text=True, check=True)
    dask = subprocess.run(base + ["--executor", "dask-local", "--workers", "2"], capture_output=True, text=True,
                          check=True)
    assert dask.stdout == local.stdout


def test_the_local_cluster_balance_starts_runs_without_dask_profiler_and_with_rare_ticks():
    """`--executor dask-local` hands its workers QUIET_CLUSTER (their settings, read on each worker), and leaves the
    caller's own Dask settings as they were."""
    import dask

    from balance.run.executor import QUIET_CLUSTER, close, connect
    before = {key: dask.config.get(key) for key in QUIET_CLUSTER}
    assert before != QUIET_CLUSTER          # else this test could not tell
    client = connect("dask-local", workers=1)
    try:
        seen = client.run(lambda: {key: dask.config.get(key) for key in QUIET_CLUSTER})
        assert list(seen.values()) == [QUIET_CLUSTER]
        assert {key: dask.config.get(key) for key in QUIET_CLUSTER} == before
    finally:
        close(client)


def test_without_dask_the_executor_is_one_line_and_balance_never_imports_it(tmp_path):
    fake = tmp_path / "distributed"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('No module named distributed')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "balance", "run", "-n", "10", "--executor", "dask-local"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: --executor dask-local needs Dask, which is not installed (allowed: pip install 'balance[dask]')"]
    code = ("import sys, balance, balance.api, balance.cli, balance.run.runner; "
            "assert not {'dask', 'distributed'} & set(sys.modules), sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_dask_executor_needs_a_scheduler(cli):
    result = cli("run", "-n", "10", "--executor", "dask")
    assert result.exit_code == 2
    assert "needs --scheduler" in result.output


@pytest.mark.parametrize("start, stop, threads, smallest", [
    (0, 4_000_000, 2, 50_000), (7, 4_000_007, 1, 50_000), (0, 100_000_000, 2, 50_000), (0, 40_000, 2, 1_000),
    (0, 1_000, 2, 1_000), (5, 5, 2, 1_000), (0, 3, 4, 1_000),
])
def test_guided_tasks_cover_the_games_once_in_order_largest_first(start, stop, threads, smallest):
    from balance.run.executor import TASK_GAMES, TASK_SHARE, guided_tasks
    tasks = guided_tasks(start, stop, threads, smallest)
    assert [g for g, _ in tasks] == [start + sum(n for _, n in tasks[:i]) for i in range(len(tasks))]
    assert sum(n for _, n in tasks) == stop - start
    sizes = [n for _, n in tasks]
    assert sizes == sorted(sizes, reverse=True)
    assert all(n <= TASK_GAMES for n in sizes)
    assert all(n >= smallest for n in sizes[:-1])
    for game0, n in tasks:      # each a share of what was left, or the floor, or the cap
        left = stop - game0
        assert n == min(left, TASK_GAMES, max(smallest, -(-left // (TASK_SHARE * threads))))


def test_guided_tasks_end_short_so_the_workers_finish_together():
    from balance.run.executor import guided_tasks
    tasks = guided_tasks(0, 4_000_000, 2, 50_000)
    assert tasks[0] == (0, 666_667)                  # 1 / (TASK_SHARE x 2 threads) of the games
    assert [n for _, n in tasks[-4:]] == [50_000, 50_000, 50_000, 9_620]
    assert len(guided_tasks(0, 4_000_000, 1, 50_000)) == 12
