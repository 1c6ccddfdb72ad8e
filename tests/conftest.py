"""Shared fixtures: Spooky Tower compiled for the kernel, and strategy lineups by name."""
from __future__ import annotations

import numpy as np
import pytest

from balance.games.spooky_tower import STRATEGIES
from balance.games.spooky_tower.components import SpookyTowerComponents, SpookyTowerRules, compile_rules
from balance.games.spooky_tower.layout import N_PARAMS


@pytest.fixture()
def cli():
    """Invoke `balance ...` through click's CliRunner (exceptions propagate, so a traceback fails the test)."""
    from click.testing import CliRunner

    from balance.cli import main
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    return invoke


def lineup(*names: str) -> tuple[np.ndarray, np.ndarray]:
    """Kernel strategy inputs for these seats: (kinds int64[P], params float64[P, 4]), default parameters."""
    kinds = np.array([STRATEGIES[n].kind for n in names], np.int64)
    params = np.zeros((len(names), N_PARAMS), np.float64)
    for i, n in enumerate(names):
        vec = STRATEGIES[n].vector({})
        params[i, :len(vec)] = vec
    return kinds, params


def compile_spooky(players: int, seats=None, *, turn_cap: int = 1000, rules=None, components=None):
    """``run_chunk``'s ``compiled`` tuple: (s0, f0, kinds, params); `seats` are strategy names (default random)."""
    s0, f0 = compile_rules(components or SpookyTowerComponents(), rules or SpookyTowerRules(), players, turn_cap)
    kinds, params = lineup(*(seats or ["random"] * players))
    return s0, f0, kinds, params


@pytest.fixture
def spooky_compiled():
    """Factory fixture: ``spooky_compiled(players, seats=None, turn_cap=..., rules=..., components=...)``."""
    return compile_spooky
