"""balance: Monte Carlo balance analysis for tabletop games.

Entry points: :func:`simulate` (run a scenario, get DataFrames and plots), :func:`tournament` (rate strategies
against each other), :func:`check` (decide a scenario's balance claims), :func:`load_scenario` and the game
registry :mod:`balance.games`.
"""
from __future__ import annotations

from ._cache import configure as _configure_cache

_configure_cache()  # before anything imports numba

from . import games  # noqa: E402
from .api import simulate  # noqa: E402
from .checks.run import check  # noqa: E402
from .results import Results  # noqa: E402
from .scenario import Scenario, ScenarioError, load_scenario  # noqa: E402
from .tournaments import tournament  # noqa: E402

__version__ = "0.1.0"
__all__ = ["simulate", "check", "tournament", "load_scenario", "Results", "Scenario", "ScenarioError", "games",
           "__version__"]
