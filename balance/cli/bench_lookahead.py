"""A lookahead's speed for `balance bench`: how many of its decisions the kernel searches a second.

A game whose spec names a lookahead strategy and how to count its searched decisions (``GameSpec.lookahead``,
``GameSpec.lookahead_searched``) gets the line; another game none. The benchmarked scenario is played with that strategy, at its defaults, in seat 0 (unless a seat plays it
already), the other seats as the scenario has them; the kernel plays its first games on one thread, each game
counting the decisions its lookahead seats searched (a counter the search keeps in the game's state). The rate is
the decisions over the seconds of the fastest of REPEATS passes over the same games; the first pass, which compiles
the lookahead's kernel, is not timed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..scenario.model import Scenario

REPEATS = 3
GAMES = 20                  # games a lookahead plays for the measurement (`balance bench --lookahead-games`)


@dataclass
class LookaheadSpeed:
    """The decisions a lookahead searched in ``games`` games and the best seconds they took, one thread."""

    strategy: str
    lineup: list[str]
    games: int
    decisions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.decisions / max(self.seconds, 1e-9)

    def lines(self) -> list[str]:
        return [f"lookahead  {self.per_second:>14,.0f} decisions/s  ({self.strategy} at its defaults, lineup "
                f"{', '.join(self.lineup)}: {self.decisions:,} decisions searched in {self.games:,} games, 1 thread, "
                f"best of {REPEATS})"]


def lookahead_lineup(scenario: Scenario, strategy: str) -> Scenario:
    """The scenario with `strategy` (its defaults) in seat 0, unless a seat plays it already."""
    from ..scenario.model import load_scenario
    table = scenario.to_dict()
    if all(seat["name"] != strategy for seat in table["seats"]):
        table["seats"] = [{"name": strategy}] + table["seats"][1:]
    return load_scenario(table)


def lookahead_speed(scenario: Scenario, games: int = GAMES) -> LookaheadSpeed | None:
    """The lookahead's decisions per second (module docstring); None for a game without one, or for no games."""
    spec = scenario.spec()
    if spec.lookahead is None or spec.lookahead_searched is None or games <= 0:
        return None
    sc = lookahead_lineup(scenario, spec.lookahead)
    compiled = spec.compile_scenario(sc)
    searched = spec.lookahead_searched
    decisions = sum(searched(compiled, sc.seed, g) for g in range(games))        # compiles; untimed
    best = float("inf")
    for _ in range(REPEATS):
        t = time.perf_counter()
        again = sum(searched(compiled, sc.seed, g) for g in range(games))
        best = min(best, time.perf_counter() - t)
        if again != decisions:
            raise RuntimeError(f"the lookahead searched {again} decisions in games it searched {decisions} in before")
    return LookaheadSpeed(spec.lookahead, [s.strategy for s in sc.seats], games, decisions, best)
