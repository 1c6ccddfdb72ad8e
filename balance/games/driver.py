"""What every game does the same way with one traced game: read the trace out of the kernel's state, find where it
departs from the reference engine's events, turn records into JSON lines, and replay one game of a scenario checked
against the kernel.

A game package provides the pieces that differ (``docs/adding_a_game.md``):

* ``compile_scenario(scenario)`` in its ``__init__``: the kernel's inputs;
* ``rules.trace_game(compiled, seed, game, max_rows)``: one game with its trace, as (events int64[n, 5], final state);
* ``reference.play_scenario(scenario, seed=, game=)``: the same game, played by the readable engine;
* ``narrate.kernel_disagreement(reference_game, events, state)``: where the two differ (None when they agree), and
  ``narrate.replay_result(reference_game, scenario)``: what ``replay`` hands back (the reference game, or a view of it
  that also knows the scenario's names).

Nothing here imports numpy or Numba at import time: a game's spec names these functions without loading a kernel.
"""
from __future__ import annotations

import importlib
import json
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import EngineDisagreement

TRACE_WIDTH = 5     # a trace row: (kind, player, a, b, c)


def read_trace(state, trace_at: int, count_at: int, max_rows: int):
    """The trace rows a traced game wrote into ``state`` (its count at ``state[count_at]``, rows from ``trace_at``),
    as a copy int64[n, 5]; raises RuntimeError when the game wrote more than the ``max_rows`` it had room for."""
    n = int(state[count_at])
    if n > max_rows:
        raise RuntimeError(f"trace overflow: {n} events, room for {max_rows}")
    return state[trace_at:trace_at + TRACE_WIDTH * n].reshape(n, TRACE_WIDTH).copy()


def first_event_difference(kernel_events, reference_events: Sequence, describe: Callable[[tuple], str]) -> str | None:
    """Where the kernel's trace departs from the reference's events: the first event that differs, or the first
    event only one engine has (each told by ``describe``); None when the two lists are equal."""
    kernel = [tuple(int(x) for x in row) for row in kernel_events]
    for i, (k, r) in enumerate(zip(kernel, reference_events)):
        if k != tuple(r):
            return f"event {i} differs: kernel {describe(k)}, reference {describe(tuple(r))}"
    if len(kernel) != len(reference_events):
        n = min(len(kernel), len(reference_events))
        extra = kernel[n:] or list(reference_events[n:])
        who = "kernel" if len(kernel) > n else "reference"
        return (f"event counts differ: kernel {len(kernel)}, reference {len(reference_events)}; "
                f"event {n} only in the {who}: {describe(tuple(extra[0]))}")
    return None


def json_lines(records: Iterable[dict]) -> Iterator[str]:
    """Records as JSON lines: one compact object per line, no newline characters (schema in docs/trace.md)."""
    for record in records:
        yield json.dumps(record, separators=(",", ":"))


def replay(package: str, scenario: Any, seed: int | None = None, game: int = 0) -> Any:
    """Game ``game`` of a scenario's run (its seed unless ``seed`` is given), played by the reference engine of the
    game package ``package`` and checked against the kernel's trace of the same game; raises
    :class:`EngineDisagreement` when the two engines disagree."""
    game_package = importlib.import_module(package)
    reference = importlib.import_module(package + ".reference")
    rules = importlib.import_module(package + ".rules")
    narrate = importlib.import_module(package + ".narrate")
    seed = scenario.seed if seed is None else int(seed)
    played = reference.play_scenario(scenario, seed=seed, game=game)
    events, state = rules.trace_game(game_package.compile_scenario(scenario), seed, game)
    problem = narrate.kernel_disagreement(played, events, state)
    if problem:
        raise EngineDisagreement(scenario, seed, game, problem)
    return narrate.replay_result(played, scenario)
