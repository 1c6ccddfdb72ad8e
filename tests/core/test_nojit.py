"""The kernel stays runnable as plain Python (NUMBA_DISABLE_JIT=1) for debugging, and plays the same game."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from balance import load_scenario
from balance.games.spooky_tower import compile_scenario
from balance.games.spooky_tower.rules import trace_game

SCRIPT = """
import sys, warnings
import numpy as np
warnings.simplefilter("ignore", RuntimeWarning)   # numpy scalars warn on the RNG's intended 64-bit wrap-around
from balance import load_scenario
from balance.games.spooky_tower import compile_scenario
from balance.games.spooky_tower.rules import trace_game
sc = load_scenario(None, players=4, seat_rotation=True,
                   seats=[{"name": n} for n in ("random", "ghost_hunter", "collector", "clock_rusher")])
ev, _ = trace_game(compile_scenario(sc), 5, 2)
np.save(sys.argv[1], ev)
"""


def test_kernel_without_jit_plays_the_same_game(tmp_path):
    out = tmp_path / "events.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", SCRIPT, str(out)], check=True, env=env, timeout=300)
    sc = load_scenario(None, players=4, seat_rotation=True,
                       seats=[{"name": n} for n in ("random", "ghost_hunter", "collector", "clock_rusher")])
    ev, _ = trace_game(compile_scenario(sc), 5, 2)
    assert len(ev) > 50
    assert np.array_equal(np.load(out), ev)
