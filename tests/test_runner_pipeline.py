"""The local runner aggregates one chunk while the next one plays (issue 14, part 2), without changing a number."""
from __future__ import annotations

import importlib
import os
import signal
import threading

import pytest

import balance
from balance import runner
from balance.games import registry


@pytest.mark.parametrize("game", sorted(registry()))
def test_every_game_kernel_releases_the_gil_so_aggregation_can_overlap_it(game):
    kernel = importlib.import_module(f"balance.games.{game}.kernel")
    assert kernel.simulate_nb.targetoptions.get("nogil") is True


def test_the_next_chunk_is_playing_while_a_chunk_is_added(monkeypatch):
    """Adding chunk k waits until chunk k+1 has started playing on the worker thread: a runner that played and added
    in turn would never start it, and the wait would time out."""
    from balance.stats.aggregate import Aggregator
    real_play, real_update = runner.play_chunk, Aggregator.update
    started = {g: threading.Event() for g in (0, 1000, 2000, 3000)}
    on_worker, overlapped = [], []
    main = threading.get_ident()

    def play_chunk(spec, compiled, scenario, game0, n, *args, **kwargs):
        if n > 1:                                           # not the one-game warm-up
            on_worker.append(threading.get_ident() != main)
            started[game0].set()
        return real_play(spec, compiled, scenario, game0, n, *args, **kwargs)

    def update(self, chunk):
        first = int(chunk["game"][0])
        if first + 1000 in started:
            overlapped.append(started[first + 1000].wait(timeout=5))
        real_update(self, chunk)
    monkeypatch.setattr(runner, "play_chunk", play_chunk)
    monkeypatch.setattr(Aggregator, "update", update)
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 1e-9)      # chunks of 1,000 games
    res = balance.simulate(games=4000, progress=False)
    assert res.tallies.games == 4000
    assert on_worker == [True] * 4 and overlapped == [True] * 3


def test_results_do_not_depend_on_the_overlap_or_the_chunk_size():
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
    cut = balance.simulate(games=50_000, progress=False)
    assert cut.meta["interrupted"] is True
    assert calls[:3] == [0, 1000, "after"] and cut.tallies.games == 2000
    whole = balance.simulate(games=2000, progress=False, chunk_size=2000)
    assert cut.tallies.to_dict() == whole.tallies.to_dict()


def test_interrupts_deferred_outside_the_main_thread_runs_the_block_as_it_is():
    ran = []

    def body():
        with runner.interrupts_deferred():
            ran.append(signal.getsignal(signal.SIGINT))
    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert len(ran) == 1 and ran[0] is signal.getsignal(signal.SIGINT)
