"""Synthetic game outcomes (a fake three-seat game, seeded) for the tests of the statistics and presentation layers:
rows as a game's ``run_chunk`` returns them, chunked and aggregated, with no kernel."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from balance.stats import Aggregator
from balance.stats.results import Results

SPEC = SimpleNamespace(
    name="fake", title="Fake Game", victory_names=("unfinished", "ghosts", "amulet"),
    player_counter_names=("ghosts", "pets", "fragments", "clues"), counter_names=("taken", "flipped", "ghosts"),
    item_name="value", item_labels=tuple(range(1, 13)))
LINEUP = ["greedy", "cautious", "greedy"]
P, I, C, CAP = 3, 12, 3, 40


def make_games(n: int, seed: int = 0, rotate: bool = True) -> dict[str, np.ndarray]:
    """Random but seeded outcomes of n games: ~12% unfinished, seat 0 favoured, rotated seats, sparse counters."""
    rng = np.random.default_rng(seed)
    victory = rng.choice(3, size=n, p=[0.12, 0.55, 0.33]).astype(np.int8)
    winner = np.where(victory == 0, -1, rng.choice(P, size=n, p=[0.4, 0.35, 0.25])).astype(np.int8)
    turns = np.where(victory == 0, CAP, rng.integers(5, CAP, size=n)).astype(np.int32)
    g = np.arange(n, dtype=np.int64)
    seat_strategy = (np.arange(P)[None, :] + g[:, None] * rotate) % P
    counters = rng.poisson(0.5, size=(n, P, I, C)) * (rng.random((n, P, I, 1)) < 0.4)
    return dict(game=g, winner=winner, victory=victory, turns=turns, rounds=((turns + P - 1) // P).astype(np.int32),
                seat_strategy=seat_strategy.astype(np.int8),
                final=rng.integers(0, 9, size=(n, P, len(SPEC.player_counter_names))).astype(np.int16),
                counters=counters.astype(np.int16))


def split(games: dict[str, np.ndarray], sizes) -> list[dict[str, np.ndarray]]:
    edges = np.cumsum([0] + list(sizes))
    assert edges[-1] == len(games["game"])
    return [{k: v[a:b] for k, v in games.items()} for a, b in zip(edges[:-1], edges[1:])]


def aggregate(games, sizes, keep_games=0) -> Results:
    agg = Aggregator(SPEC, LINEUP, CAP, keep_games=keep_games)
    for chunk in split(games, sizes):
        agg.update(chunk)
    return agg.finalize(seed=7, scenario={"players": P})


N = 3001
GAMES = make_games(N, seed=42)
