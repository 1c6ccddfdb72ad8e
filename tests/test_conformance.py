"""Every game in the registry honours the same contract with the shared layers (pgx's shared conformance check):
the outputs its GameSpec promises, in the shapes and ranges promised; the same games on any split; the reference
engine agreeing with the kernel; narration; rule code compiled without Numba's runtime; its scenario file writing
out its defaults. A new game is added to this test by adding it to the registry (docs/adding_a_game.md)."""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import numba.core.registry
import numpy as np
import pytest

from balance.games import categories, counter_groups, registry
from balance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(registry())
ALLOCATING = {"simulate_nb", "trace_game_nb"}       # the drivers that allocate (the parallel loop, trace buffers)


def _scenario(game: str):
    spec = registry()[game]
    return load_scenario({**spec.default_scenario(), "games": 300, "seed": 4})


def _chunk(sc, game0=0, n=300, blocks=1):
    spec = sc.spec()
    return spec.run_chunk(spec.compile_scenario(sc), seed=sc.seed, rotate=sc.seat_rotation, game0=game0,
                          n_games=n, n_blocks=blocks)


@pytest.mark.parametrize("game", GAMES)
def test_outputs_have_the_promised_shapes_and_ranges(game):
    sc = _scenario(game)
    spec = sc.spec()
    out = _chunk(sc)
    G, P = 300, sc.players
    assert np.array_equal(out["game"], np.arange(G))
    assert ((0 <= out["victory"]) & (out["victory"] < len(spec.victory_names))).all()
    mask = out["win_mask"] if "win_mask" in out else np.where(out["winner"] >= 0, 1 << out["winner"].astype(int), 0)
    won = mask != 0
    assert ((out["winner"] >= 0) == won).all()
    assert (won <= (out["victory"] != 0)).all()                  # no winner in an unfinished game
    if spec.cooperative:
        assert set(np.unique(mask)) <= {0, (1 << P) - 1}
    else:
        assert ((mask[won] >> out["winner"][won]) & 1).all()
    assert out["final"].shape == (G, P, len(spec.player_counter_names))
    assert out["seat_strategy"].shape == (G, P)
    for g in counter_groups(spec, sc):
        arr = out[g.chunk_key]
        assert arr.shape[0] == G and arr.shape[1] in (1, P)
        assert arr.shape[2:] == (len(g.labels(sc)), len(g.counter_names))
    for c in categories(spec, sc):
        labels = c.labels(sc)
        assert ((-1 <= out[c.chunk_key]) & (out[c.chunk_key] < len(labels))).all()
        assert (out[c.chunk_key] >= 0).any() or not labels


@pytest.mark.parametrize("game", GAMES)
def test_the_same_games_on_any_split(game):
    sc = _scenario(game)
    whole = _chunk(sc, n=300, blocks=1)
    parts = [_chunk(sc, game0=a, n=b - a, blocks=2) for a, b in ((0, 113), (113, 300))]
    for key in whole:
        assert np.array_equal(whole[key], np.concatenate([p[key] for p in parts])), key


@pytest.mark.parametrize("game", GAMES)
def test_reference_engine_agrees_and_the_game_narrates(game):
    sc = _scenario(game)
    spec = sc.spec()
    for g in (0, 1, 2):
        played = spec.replay(sc, seed=sc.seed, game=g)          # raises on any disagreement with the kernel
        text = spec.narrate_text(played)
        lines = list(spec.narrate_jsonl(played))
        assert len(text.splitlines()) > 10 and len(lines) > 10


@pytest.mark.parametrize("game", GAMES)
def test_rule_functions_compile_without_the_numba_runtime(game):
    package = importlib.import_module(f"balance.games.{game}")
    found = 0
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("reference") or info.name == "narrate":
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, fn in vars(module).items():
            if (isinstance(fn, numba.core.registry.CPUDispatcher) and fn.__module__ == module.__name__
                    and name not in ALLOCATING):
                found += 1
                assert fn.targetoptions.get("_nrt") is False, f"{module.__name__}.{name} is compiled with the runtime"
    assert found > 20


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_scenario_writes_out_the_defaults(game):
    spec = registry()[game]
    sc = load_scenario(ROOT / "scenarios" / f"{game}.toml")
    assert sc.game == game
    assert sc.components == spec.components_model()
    assert sc.rules == spec.rules_model()
