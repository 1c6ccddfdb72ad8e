"""Tallies aggregated apart and added (a Dask task's) against the same games aggregated in one stream."""
from __future__ import annotations

import numpy as np
import pytest

from balance.stats import Aggregator
from synthetic_games import CAP, LINEUP, SPEC, make_games, split


def _agg(chunks, keep=0):
    agg = Aggregator(SPEC, LINEUP, CAP, keep_games=keep)
    for c in chunks:
        agg.update(c)
    return agg


@pytest.mark.parametrize("sizes", [[1000, 2000], [1, 2999], [1500, 1, 1499], [700] * 4 + [200]])
def test_added_tallies_equal_one_stream(sizes):
    games = make_games(3000, seed=4)
    games["turns"][2500] = CAP + 7          # a game past the cap in a later part: the length histograms grow
    parts = split(games, sizes)
    whole = _agg(parts, keep=1200)
    merged = Aggregator(SPEC, LINEUP, CAP, keep_games=1200)
    first = 0
    for part in parts:
        kept_before = first
        sub = Aggregator(SPEC, LINEUP, CAP, keep_games=max(0, 1200 - kept_before))
        sub.update(part)
        n = part["game"].size
        merged.add(sub.tallies, first, first + n - 1, sub.kept_games() if sub.keep_games else None)
        first += n
    assert merged.tallies.to_dict() == whole.tallies.to_dict()
    assert merged.kept_games().equals(whole.kept_games())


def test_watch_ties_keep_the_lowest_game():
    games = make_games(2000, seed=9)
    games["turns"][:] = 20
    games["victory"][:] = 1
    games["winner"][:] = 0
    whole = _agg(split(games, [1000, 1000]))
    a, b = _agg(split(games, [1000, 1000])[:1]), Aggregator(SPEC, LINEUP, CAP)
    b.update(split(games, [1000, 1000])[1])
    a.add(b.tallies, 1000, 1999)
    assert a.tallies.watch == whole.tallies.watch == {"longest": [20, 0], "shortest": [20, 0]}


def test_tallies_out_of_order_are_refused():
    games = make_games(200, seed=1)
    a, b = split(games, [100, 100])
    agg = Aggregator(SPEC, LINEUP, CAP)
    later = Aggregator(SPEC, LINEUP, CAP)
    later.update(b)
    with pytest.raises(ValueError, match="do not follow"):
        agg.add(later.tallies, 100, 199)
    agg.update(a)
    agg.add(later.tallies, 100, 199)
    assert agg.games == 200 and np.array_equal(agg.tallies.seat_games, [200] * 3)


def _halves_and_one_pass(monkeypatch, chunks, make):
    """Tallies of the same chunks aggregated with each long chunk split in two halves on two threads, and in one
    pass (Aggregator._tally)."""
    from balance.stats import aggregate
    monkeypatch.setattr(aggregate.numba, "get_num_threads", lambda: 2)
    out = []
    for split_games in (1, 10**12):
        monkeypatch.setattr(aggregate, "SPLIT_GAMES", split_games)
        agg = make()
        for c in chunks:
            agg.update(c)
        assert (agg._half is not None) == (split_games == 1)       # the halves were taken, or not
        out.append(agg.tallies.to_dict())
    return out


def test_a_chunk_tallied_in_two_halves_at_once_equals_one_pass(monkeypatch):
    games = make_games(3001, seed=6)
    games["turns"][2999] = CAP + 3          # past the cap in the second half of the second chunk
    halves, one = _halves_and_one_pass(monkeypatch, split(games, [1001, 2000]),
                                       lambda: Aggregator(SPEC, LINEUP, CAP))
    assert halves == one


@pytest.mark.parametrize("game", ["spooky_tower", "haunted_tower", "climbing_tower"])
def test_every_game_tallies_the_same_in_two_halves(monkeypatch, game):
    """Real chunks of each game (roles, final counters, kernel-summed groups, categories) give the same tallies."""
    from balance import load_scenario
    from balance.run.chunks import play_chunk
    sc = load_scenario(None, game=game, seed=3)
    spec = sc.spec()
    compiled = spec.compile_scenario(sc)
    chunks = [{k: v.copy() for k, v in play_chunk(spec, compiled, sc, g0, n, 2).items()}
              for g0, n in ((0, 301), (301, 1200))]
    halves, one = _halves_and_one_pass(
        monkeypatch, chunks,
        lambda: Aggregator(spec, [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc))
    assert halves == one
