"""Every shipped scenario as a user runs it: its own lineup, seed, seat rotation and turn cap. The kernel and the
reference engine agree on a sample of its games (the first games every run plays, and indices spread over the whole
run, which a run of the scenario's size can name as games worth watching), and `balance replay` tells games of it.

The differential suites of each game vary strategies, table sizes and rules on short games; these play the scenarios
the tool ships, whole, which is where a designer starts. `benchmarks/agreement.py` checks 10,000 games a game the
same way (docs/testing.md).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from balance.run import agreement
from balance.cli import main
from balance.games import registry

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = agreement.shipped(ROOT / "scenarios")
# The Haunted Tower's reference engine plays a few games a second: its sample is smaller.
SAMPLE = {"haunted_tower": (10, 8)}         # game: (first games, indices spread over the run)
DEFAULT_SAMPLE = (30, 20)
# Games in which a hero escapes the Specter and backs up 0 squares (seed, game) of scenarios/haunted_tower.toml.
HAUNTED_ESCAPES = [(1, 8), (1, 108), (1, 128), (1, 161), (7, 36)]


def sample(sc) -> list[int]:
    first, spread = SAMPLE.get(sc.game, DEFAULT_SAMPLE)
    return sorted(set(range(min(first, sc.games))) | set(np.linspace(0, sc.games - 1, spread).astype(int).tolist()))


def test_every_scenario_file_and_every_game_is_covered():
    labels = [label for label, _ in SHIPPED]
    assert [Path(x).name for x in labels if not x.startswith("<")] == \
        sorted(p.name for p in (ROOT / "scenarios").glob("*.toml"))
    assert {sc.game for _, sc in SHIPPED} == set(registry())


@pytest.mark.parametrize("label", [label for label, _ in SHIPPED], ids=[Path(label).name for label, _ in SHIPPED])
def test_kernel_and_reference_agree_on_the_shipped_scenario_as_it_runs(label):
    sc = agreement.load(label)
    games = sample(sc)
    assert games[-1] == sc.games - 1 and len(games) >= sum(SAMPLE.get(sc.game, DEFAULT_SAMPLE)) - 1
    problems = agreement.disagreements(sc, games)
    assert not problems, f"{label}: the engines disagree on {len(problems)} of {len(games)} games:\n" + "\n".join(
        f"  game {g}: {what}" for g, what in problems[:10])


def replay_cases():
    for label, sc in SHIPPED:
        if label.startswith("<") and sc.game != "spooky_tower":      # `balance replay` names no other default
            continue
        args = [] if label.startswith("<") else [str(Path(label).relative_to(ROOT))]
        for game in (0, sc.games // 2, sc.games - 1):
            yield pytest.param(args, sc.seed, game, id=f"{Path(label).name}-{game}")
        if Path(label).name == "haunted_tower.toml":
            for seed, game in HAUNTED_ESCAPES:
                yield pytest.param(args, seed, game, id=f"{Path(label).name}-seed{seed}-{game}")


@pytest.mark.parametrize("args, seed, game", list(replay_cases()))
def test_replay_tells_games_of_every_shipped_scenario(args, seed, game, monkeypatch):
    monkeypatch.chdir(ROOT)
    res = CliRunner().invoke(main, ["replay", *args, "--seed", str(seed), "--game", str(game)])
    assert res.exit_code == 0, res.output[-3000:]
    assert f", seed {seed}, game {game}: " in res.stdout.splitlines()[0]


def test_the_check_reports_a_traced_or_a_batch_kernel_that_departs(monkeypatch):
    import balance.games as games
    import balance.games.spooky_tower.rules as K
    label, sc = next((label, sc) for label, sc in SHIPPED if sc.game == "spooky_tower")
    assert agreement.disagreements(sc, [3, 4, 9]) == []
    real_trace = K.trace_game
    monkeypatch.setattr(K, "trace_game", lambda *a, **k: (lambda e, s: (e[:-1], s))(*real_trace(*a, **k)))
    assert [g for g, _ in agreement.disagreements(sc, [3, 4])] == [3, 4]
    monkeypatch.setattr(K, "trace_game", real_trace)
    spec = games.get_game("spooky_tower")
    shifted = dataclasses.replace(spec, run_chunk=lambda *a, **k: _shift_game(spec, 4, *a, **k))
    monkeypatch.setattr(games, "get_game", lambda name: shifted if name == "spooky_tower" else spec)
    found = agreement.disagreements(sc, [3, 4, 9])
    assert [g for g, _ in found] == [4] and "the batch kernel (balance run) and the reference differ" in found[0][1]


def _shift_game(spec, game, *args, **kw):
    """The batch kernel with game `game` one turn longer: a bug in `balance run`'s kernel alone."""
    out = spec.run_chunk(*args, **kw)
    if kw["game0"] <= game < kw["game0"] + kw["n_games"]:
        out["turns"][game - kw["game0"]] += 1
    return out
