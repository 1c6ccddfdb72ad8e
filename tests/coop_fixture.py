"""TEST FIXTURE, NOT A GAME: a synthetic co-operative GameSpec that drives the shared layers without Numba.

Its ``run_chunk`` draws each game's outcome from a counter-based hash of (seed, game, purpose) in vectorised NumPy,
so any chunking gives the same games, with known win probabilities per label of its one category ("tower"): label i
of n wins with probability ``0.10 + 0.80 * i / (n - 1)`` (+ ``lift_bonus`` when ``rules.limit`` is false). A lost
game ends in "round_limit" (70%), "stuck" (25%) or "unfinished" (5%). Players are exactly 2; the counter groups are
per team (one seat: ``[G, 1, I, C]``), as a co-operative game's may be. ``install(monkeypatch)`` adds it to the
game registry for one test.
"""
from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from balance.games import CategorySpec, Contrast, CounterGroup, GameSpec, StrategySpec

NAME = "coop_fixture"
VICTORIES = ("unfinished", "boss_defeated", "round_limit", "stuck")
CARDS = ("sword", "arrow", "shield", "potion")
SKILLS = ("jump", "climb")
ROUND_LIMIT = 12


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: bool = Field(True, description="the communication limit (lifting it adds lift_bonus to the win rate)")
    lift_bonus: float = Field(0.10, description="win probability added when the limit is lifted")
    supply: str = Field("easy", description="easy or hard; hard takes 0.05 off the win probability")


class Components(BaseModel):
    model_config = ConfigDict(extra="forbid")
    towers: int = Field(8, ge=2, le=500, description="labels of the tower category")


def win_probability(label: np.ndarray, n: int, rules: dict) -> np.ndarray:
    """The known win probability of a game of tower ``label`` (the tests check the tallies against it)."""
    p = 0.10 + 0.80 * label / (n - 1)
    p = p + (0.0 if rules["limit"] else rules["lift_bonus"]) - (0.05 if rules["supply"] == "hard" else 0.0)
    return np.clip(p, 0.0, 1.0)


def _uniform(seed: int, games: np.ndarray, purpose: int) -> np.ndarray:
    """A uniform [0, 1) number per game from splitmix64 of (seed, game, purpose): the same in any chunking."""
    with np.errstate(over="ignore"):
        x = (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + games.astype(np.uint64) * np.uint64(0xBF58476D1CE4E5B9)
             + np.uint64(purpose) * np.uint64(0x94D049BB133111EB))
        for _ in range(2):
            x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def compile_scenario(scenario) -> dict:
    return {"towers": scenario.components.towers, "rules": scenario.rules.model_dump()}


def run_chunk(compiled, *, seed, rotate, game0, n_games, n_blocks=1, out=None, counter_rows=True) -> dict:
    """Games game0 .. game0 + n_games - 1 as a co-operative chunk (balance.stats.aggregate's layout); its
    counters are tallied from the rows, so they are always there (``counter_rows`` asks nothing, as for The Haunted
    Tower)."""
    g = np.arange(game0, game0 + n_games, dtype=np.int64)
    n = compiled["towers"]
    tower = np.minimum((_uniform(seed, g, 1) * n).astype(np.int64), n - 1)
    won = _uniform(seed, g, 2) < win_probability(tower, n, compiled["rules"])
    how = _uniform(seed, g, 3)
    victory = np.where(won, 1, np.where(how < 0.70, 2, np.where(how < 0.95, 3, 0))).astype(np.int8)
    rounds = np.where(won, 4 + (_uniform(seed, g, 4) * 6).astype(np.int64),
                      np.where(victory == 2, ROUND_LIMIT, 2 + (_uniform(seed, g, 5) * 9).astype(np.int64)))
    rounds = np.where(victory == 0, ROUND_LIMIT + 1, rounds).astype(np.int32)
    u = _uniform(seed, g, 6)
    final = np.stack([np.stack([rounds + s, (u * 5).astype(np.int64) + s], axis=1) for s in range(2)], axis=1)
    cards = (np.stack([_uniform(seed, g, 10 + i) for i in range(len(CARDS) * 3)], axis=1) * 3).astype(np.int16)
    cards[:, 0] = np.where(won, cards[:, 0] + 1, cards[:, 0] // 2)       # buying swords goes with winning
    skills = (np.stack([_uniform(seed, g, 30 + i) for i in range(len(SKILLS))], axis=1) < 0.5).astype(np.int16)
    seat_strategy = np.tile(np.array([0, 1], np.int8), (n_games, 1))
    if rotate:
        seat_strategy = (seat_strategy + (g % 2)[:, None]).astype(np.int8) % 2
    return {"game": g, "winner": np.where(won, 0, -1).astype(np.int8), "win_mask": np.where(won, 3, 0).astype(np.int8),
            "victory": victory, "turns": (2 * rounds).astype(np.int32), "rounds": rounds,
            "seat_strategy": seat_strategy.astype(np.int8), "final": final.astype(np.int16),
            "cards": cards.reshape(n_games, 1, len(CARDS), 3), "skills": skills.reshape(n_games, 1, len(SKILLS), 1),
            "tower": tower.astype(np.int16), "boss": (_uniform(seed, g, 40) < 0.5).astype(np.int16)}


def _tower_labels(scenario) -> tuple:
    n = scenario.components.towers if scenario is not None else 8
    return tuple(f"T{i:03d}" for i in range(n))


def _lift(scenario):
    return ("communication limit lifted", {"rules.limit": False}) if scenario.rules.limit else None


def _supply(scenario):
    other = "hard" if scenario.rules.supply == "easy" else "easy"
    return (f"{other} supply", {"rules.supply": other})


SPEC = GameSpec(
    name=NAME, title="Co-op Fixture (test only)", min_players=2, max_players=2, components_model=Components,
    rules_model=Rules, strategies={"plain": StrategySpec("plain", 0, "the fixture's only strategy")},
    victory_names=VICTORIES, player_counter_names=("floor", "swords"), counter_names=("bought", "removed", "played"),
    item_name="card", item_labels=CARDS, compile_scenario=compile_scenario, run_chunk=run_chunk,
    default_scenario=lambda: {"name": "co-op fixture", "game": NAME, "players": 2, "games": 4000, "seed": 3,
                              "strategy": {"name": "plain"}},
    assumptions=lambda scenario: [],
    groups=lambda scenario: (
        CounterGroup("card", ("bought", "removed", "played"), 0, "cards", labels=lambda _s: CARDS,
                     used_phrase="bought a {}"),
        CounterGroup("skill", ("gained",), 0, "skills", labels=lambda _s: SKILLS, used_phrase="gained {}")),
    cooperative=True, turn_cap=40,
    categories=lambda scenario: (CategorySpec("tower", "tower", labels=_tower_labels, doc="the tower built"),
                                 CategorySpec("BOSS side", "boss", labels=lambda _s: ("A", "B"))),
    contrasts=(Contrast("communication", _lift, "the communication limit lifted"),
               Contrast("supply", _supply, "the other supply option")),
)


def install(monkeypatch, spec: GameSpec = SPEC) -> GameSpec:
    """Add ``spec`` to the games for one test: its name to ``balance.games.NAMES`` and its spec to what
    ``get_game`` and ``registry`` give (each looked up at call time)."""
    import balance.games as games

    real_get, real_names = games.get_game, games.NAMES
    monkeypatch.setattr(games, "NAMES", real_names + (spec.name,))
    monkeypatch.setattr(games, "get_game", lambda name: spec if name == spec.name else real_get(name))
    monkeypatch.setattr(games, "registry", lambda: {n: games.get_game(n) for n in games.NAMES})
    return spec
