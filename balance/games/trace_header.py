"""The header that opens every game's trace (``balance replay``; ``docs/trace.md``): the scenario the game was played
from (its name, its content hash, the turn cap and the rules in force) and which game of which run it is, so that a
trace can be checked without guessing what it was played under. Every game's narration builds it here, the JSON
record and the opening of the English text alike; the game adds its own fields (heroes, sides, the tower) after."""
from __future__ import annotations

from typing import Any, Sequence


def header(scenario: Any, seed: int, game: int, strategies: Sequence[str]) -> dict:
    """The trace's ``game`` record: ``scenario`` (its name), ``scenario_hash`` (``Scenario.hash``, as `balance show`
    with the same scenario and options heads its output), ``turn_cap``, ``rules`` (the resolved ``[rules]`` table, as
    `balance show` writes it), then ``seed``, ``game``, ``players`` and ``strategies`` by seat. The scenario fields are
    null for a game played from pieces rather than from a scenario (``play_reference`` in the tests)."""
    known = scenario is not None
    return {"type": "game", "scenario": scenario.name if known else None,
            "scenario_hash": scenario.hash() if known else None, "turn_cap": scenario.turn_cap if known else None,
            "rules": scenario.to_dict()["rules"] if known else None,
            "seed": int(seed), "game": int(game), "players": len(strategies), "strategies": list(strategies)}


def header_lines(title: str, record: dict, seats: str) -> list[str]:
    """The English text's opening, from a :func:`header` record: ``<title>, seed S, game G: <seats>``, then the
    scenario by name and the first 12 characters of its hash, the turn cap and the rules in force, on one line."""
    from .assumptions import toml_value

    lines = [f"{title}, seed {record['seed']}, game {record['game']}: {seats}"]
    if record["scenario"] is not None:
        rules = "; ".join(f"{key} = {toml_value(value)}" for key, value in record["rules"].items())
        lines.append(f"Scenario {record['scenario']!r} (hash {record['scenario_hash'][:12]}), turn cap "
                     f"{record['turn_cap']}; rules: {rules or 'none'}")
    return lines
