"""The kernel against the reference engine on a scenario's games exactly as `balance run` plays them: the scenario's
own lineup, seed, seat rotation and turn cap, game by game at the indices a run plays.

Each game is checked twice: the traced kernel against the reference engine event for event and outcome for outcome
(the game's ``replay``, what `balance replay` tells), and the batch kernel that `balance run` plays (``run_chunk``)
against the reference's winner, victory kind, turns and random numbers drawn. ``tests/scenario/test_shipped_scenarios.py``
checks a sample of every shipped scenario's games with it; ``benchmarks/agreement.py`` checks thousands.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from ..games import EngineDisagreement, registry
from ..scenario.model import Scenario, load_scenario


def shipped(folder: str | Path) -> list[tuple[str, Scenario]]:
    """(label, scenario) for every scenario file in ``folder`` (its path as label), then each game's embedded default
    (``<default GAME>``) whose games no file already plays (the same settings and seed, whatever its name)."""
    out = [(str(path), load_scenario(path)) for path in sorted(Path(folder).glob("*.toml"))]
    seen = [_plays(sc) for _, sc in out]
    for name in registry():
        sc = load_scenario(None, game=name)
        if _plays(sc) not in seen:
            out.append((f"<default {name}>", sc))
            seen.append(_plays(sc))
    return out


def load(label: str) -> Scenario:
    """The scenario of a :func:`shipped` label."""
    if label.startswith("<default ") and label.endswith(">"):
        return load_scenario(None, game=label[len("<default "):-1])
    return load_scenario(label)


def _plays(sc: Scenario) -> dict:
    """What decides a scenario's games: every setting but its name and its number of games."""
    return {k: v for k, v in sc.to_dict().items() if k not in ("name", "games")}


def disagreements(scenario: Scenario, games: Iterable[int], seed: int | None = None) -> list[tuple[int, str]]:
    """The games of ``games`` (indices of the scenario's run, its seed unless ``seed`` is given) on which the two
    engines disagree, each with what differs; empty when all agree."""
    spec = scenario.spec()
    seed = scenario.seed if seed is None else int(seed)
    games = sorted(set(int(g) for g in games))
    batch = _batch_outcomes(scenario, seed, games)
    out = []
    for game in games:
        try:
            played = spec.replay(scenario, seed, game)
        except Exception as err:  # noqa: BLE001 - an engine disagreement, or any failure to play the game, is reported
            out.append((game, " ".join((str(err) if isinstance(err, EngineDisagreement)
                                        else f"{type(err).__name__}: {err}").split())))
            continue
        ref = played if hasattr(played, "events") else played.game       # The Haunted Tower's Replay holds it
        want = (ref.winner, ref.victory, ref.turns, ref.draws)
        if batch[game] != tuple(int(x) for x in want):
            out.append((game, "the batch kernel (balance run) and the reference differ: (winner, victory, turns, "
                              f"draws) {batch[game]} against {tuple(int(x) for x in want)}"))
    return out


def _batch_outcomes(scenario: Scenario, seed: int, games: Sequence[int]) -> dict[int, tuple[int, int, int, int]]:
    """(winner, victory, turns, draws) of each game as the batch kernel plays it, each run of consecutive indices
    in one chunk, as a run plays its chunks."""
    spec = scenario.spec()
    compiled = spec.compile_scenario(scenario)
    out: dict[int, tuple[int, int, int, int]] = {}
    i = 0
    while i < len(games):
        j = i + 1
        while j < len(games) and games[j] == games[j - 1] + 1:
            j += 1
        chunk = spec.run_chunk(compiled, seed=seed, rotate=scenario.seat_rotation, game0=games[i], n_games=j - i,
                               n_blocks=1)
        for k, game in enumerate(games[i:j]):
            out[game] = tuple(int(chunk[key][k]) for key in ("winner", "victory", "turns", "draws"))
        i = j
    return out
