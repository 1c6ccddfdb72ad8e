"""Shared fixtures: Spooky Tower compiled for the kernel, and strategy lineups by name."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

# Test files live in folders that mirror the package (tests/games/<game>/, tests/<layer>/) and share file names, so
# pytest imports them by path (--import-mode=importlib); the shared helpers (event_diff, haunted_table ...) stay
# importable by name from here.
TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

from balance.games.spooky_tower import STRATEGIES
from balance.games.spooky_tower.compile import compile_rules
from balance.games.spooky_tower.components import SpookyTowerComponents, SpookyTowerRules
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


def compile_spooky(players: int, seats=None, *, turn_cap: int = 1000, rules=None, components=None,
                   rotate: bool = False):
    """``compile_scenario``'s tuple: (s0, f0, kinds, params, rotate); `seats` are strategy names (default random)."""
    s0, f0 = compile_rules(components or SpookyTowerComponents(), rules or SpookyTowerRules(), players, turn_cap)
    kinds, params = lineup(*(seats or ["random"] * players))
    return s0, f0, kinds, params, rotate


@pytest.fixture
def spooky_compiled():
    """Factory fixture: ``spooky_compiled(players, seats=None, turn_cap=..., rules=..., components=...)``."""
    return compile_spooky


# The files that take longest, longest first (measured with `pytest --durations=0`, in worker-seconds). `make test`
# runs with `-n 2 --dist loadfile --no-loadscope-reorder`, which hands out whole files in collection order: starting
# the long ones first keeps one worker from finishing a long file alone at the end (longest processing time first).
# Paths are relative to tests/.
LONGEST_FIRST = (
    "games/haunted_tower/test_differential_options.py", "games/haunted_tower/test_differential.py",
    "games/climbing_tower/test_differential.py", "run/test_executor.py", "core/test_numba_patches.py",
    "games/spooky_tower/test_differential.py", "cli/test_cli.py", "games/haunted_tower/test_invariants.py",
    "games/haunted_tower/test_strategies.py", "games/haunted_tower/test_rules_combat.py", "core/test_kernel_build.py",
    "present/test_notebook.py", "present/test_report.py", "games/climbing_tower/test_rules.py",
    "games/climbing_tower/test_invariants.py", "cli/test_ci_workflow.py",
    "cli/test_bench.py", "analysis/test_studies.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.relative_to(TESTS).as_posix(), len(rank)))      # stable: the rest keep their order
