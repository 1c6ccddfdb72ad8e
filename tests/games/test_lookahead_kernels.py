"""A game's lookahead strategy (``GameSpec.lookahead``) is compiled only into the kernel of a lineup that seats it:
a lineup without one runs the kernel without the search (``look`` None, pruned before Numba types it), as fast and
as quick to compile as a game without a lookahead. The decisions the search counts (for ``balance bench``) are the
decisions it searched: the reference engine, which runs the same search, searches as many."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance.games import get_game
from balance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]

COMPILED = """
import importlib, json, sys
from balance.scenario import load_scenario
game, with_lookahead = sys.argv[1], sys.argv[2] == "1"
sc = load_scenario(f"scenarios/{game}.toml", games=1)
spec = sc.spec()
search = importlib.import_module(f"balance.games.{game}.rules.lookahead")


def compiled():
    return sorted(name for name, fn in vars(search).items() if getattr(fn, "overloads", None)
                  and fn.py_func.__module__ == search.__name__)


spec.run_chunk(spec.compile_scenario(sc), seed=1, rotate=True, game0=0, n_games=4, n_blocks=2)
out = {"without": compiled()}
if with_lookahead:
    table = sc.to_dict()
    table["seats"] = [{"name": spec.lookahead}] + table["seats"][1:]
    look = load_scenario(table)
    spec.run_chunk(spec.compile_scenario(look), seed=1, rotate=True, game0=0, n_games=2, n_blocks=2)
    out["with"] = compiled()
print(json.dumps(out))
"""


@pytest.mark.parametrize("game, with_lookahead", [("spooky_tower", True), ("climbing_tower", False)])
def test_a_lineup_without_a_lookahead_seat_never_compiles_the_search(tmp_path, game, with_lookahead):
    """In a new process with an empty Numba cache, the shipped scenario's batch kernel compiles no function of
    ``rules.lookahead``; a lineup with a lookahead seat then compiles them (the check sees a compile)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", COMPILED, game, "1" if with_lookahead else "0"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    got = json.loads(res.stdout.strip().splitlines()[-1])
    assert got["without"] == []
    if with_lookahead:
        assert {"search_nb", "redeal_nb", "playout_nb"} <= set(got["with"])


@pytest.mark.parametrize("game, seats, n_games", [
    ("spooky_tower", [{"name": "lookahead", "playouts": 3}, {"name": "ghost_hunter"},
                      {"name": "lookahead", "playouts": 2, "base": 2}], 6),
    ("climbing_tower", [{"name": "lookahead", "playouts": 4}, {"name": "skeleton_farmer"}], 4),
])
def test_the_searched_decisions_are_those_the_reference_engine_searches(monkeypatch, game, seats, n_games):
    """``GameSpec.lookahead_searched`` counts, game by game, as many decisions as the reference engine hands the
    kernel's search (``search_nb``, counted where the engine calls it); a lineup without a lookahead counts none."""
    import importlib
    spec = get_game(game)
    sc = load_scenario({"game": game, "players": len(seats), "seed": 3, "seat_rotation": True, "seats": seats})
    caller = importlib.import_module({"spooky_tower": f"balance.games.{game}.reference.view",
                                     "climbing_tower": f"balance.games.{game}.reference.lookahead"}[game])
    searches = []
    real = caller.search_nb

    def counted(*args):
        searches.append(1)
        return real(*args)

    monkeypatch.setattr(caller, "search_nb", counted)
    compiled = spec.compile_scenario(sc)
    total = 0
    for g in range(n_games):
        searches.clear()
        spec.reference(sc, sc.seed, g)
        got = spec.lookahead_searched(compiled, sc.seed, g)
        assert got == len(searches), g
        total += got
    assert total > 5 * n_games
    plain = load_scenario({"game": game, "players": len(seats), "seed": 3, "strategy": seats[1]})
    assert spec.lookahead_searched(spec.compile_scenario(plain), plain.seed, 0) == 0
