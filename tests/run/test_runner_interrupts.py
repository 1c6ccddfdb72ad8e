"""The local runner adds each chunk to the tallies whole: a Ctrl-C while a chunk is added waits for it."""
from __future__ import annotations

import os
import signal
import threading

import pytest

import balance
from balance.run import runner


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Every test here starts from Python's own SIGINT handler, the one a run in a terminal has, and leaves the
    handler it found. A suite started as a background job of a non-interactive shell inherits SIGINT ignored (POSIX
    shells start `&` jobs so): a fresh-clone `make test` started that way once failed the two tests below that send a
    SIGINT (the run was not interrupted at all)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_results_do_not_depend_on_the_chunk_size_or_the_threads():
    a = balance.simulate(games=5000, progress=False, chunk_size=1000, threads=1)
    b = balance.simulate(games=5000, progress=False, chunk_size=5000)
    assert a.tallies.to_dict() == b.tallies.to_dict()


def test_a_ctrl_c_while_a_chunk_is_added_lets_the_chunk_be_added_whole(monkeypatch):
    """SIGINT in the middle of adding a chunk: the chunk is counted whole (no half-added tallies), then the run stops
    as interrupted."""
    from balance.stats.aggregate import Aggregator
    real_update, calls = Aggregator.update, []

    def update(self, chunk):
        calls.append(int(chunk["game"][0]))
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)         # arrives now, in the middle of the update
            real_update(self, chunk)
            calls.append("after")
        else:
            real_update(self, chunk)
    monkeypatch.setattr(Aggregator, "update", update)
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 1e-9)
    monkeypatch.setattr(runner, "warm_statistics", lambda *args: None)   # its throwaway update is not a chunk
    cut = balance.simulate(games=50_000, progress=False)
    assert cut.meta["interrupted"] is True
    assert calls[:3] == [0, 1000, "after"] and cut.tallies.games == 2000
    whole = balance.simulate(games=2000, progress=False, chunk_size=2000)
    assert cut.tallies.to_dict() == whole.tallies.to_dict()


def test_a_deferred_ctrl_c_acts_after_the_chunk_is_checkpointed(monkeypatch, tmp_path):
    """The chunk whose update held the Ctrl-C back is in the checkpoint, so --resume goes on from it."""
    import json

    from balance.run.runner import RunOptions, run
    from balance.scenario import load_scenario
    from balance.stats.aggregate import Aggregator
    real_update, calls = Aggregator.update, []

    def update(self, chunk):
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        real_update(self, chunk)
    monkeypatch.setattr(Aggregator, "update", update)
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 1e-9)
    monkeypatch.setattr(runner, "warm_statistics", lambda *args: None)   # its throwaway update is not a chunk
    ck = tmp_path / "run.ckpt"
    cut = run(load_scenario(None, games=50_000), RunOptions(progress=False, checkpoint=str(ck)))
    assert cut.meta["interrupted"] is True and cut.tallies.games == 2000
    assert json.loads(ck.read_text())["tallies"]["games"] == 2000


def test_a_ctrl_c_is_delivered_as_the_handler_before_would_act():
    calls = []
    deferred = runner.DeferredInterrupt(previous=lambda *args: calls.append(args))
    deferred.deliver()
    assert calls == []                                  # nothing caught, nothing delivered
    deferred.catch(signal.SIGINT, None)
    deferred.catch(signal.SIGINT, "second")             # the first one counts
    deferred.deliver()
    deferred.deliver()
    assert calls == [(signal.SIGINT, None)]
    ignored = runner.DeferredInterrupt(previous=signal.SIG_IGN)
    ignored.catch(signal.SIGINT, None)
    ignored.deliver()                                   # an ignored Ctrl-C stays ignored


def test_the_default_action_of_a_deferred_ctrl_c_ends_the_process():
    import subprocess
    import sys
    code = ("import signal; from balance.run import runner\n"
            "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
            "with runner.interrupts_deferred() as d:\n"
            "    signal.raise_signal(signal.SIGINT)\n"
            "    print('held back', flush=True)\n"
            "d.deliver()\n"
            "print('not reached', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == -signal.SIGINT and done.stdout == "held back\n"


def test_interrupts_deferred_outside_the_main_thread_runs_the_block_as_it_is():
    ran = []

    def body():
        with runner.interrupts_deferred():
            ran.append(signal.getsignal(signal.SIGINT))
    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert len(ran) == 1 and ran[0] is signal.getsignal(signal.SIGINT)
