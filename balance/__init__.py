"""balance: Monte Carlo balance analysis for tabletop games.

Entry points: :func:`simulate` (run a scenario, get DataFrames and plots), :func:`load_scenario` and the game
registry :mod:`balance.games`.
"""
from __future__ import annotations

from . import games
from .api import simulate
from .scenario import Scenario, ScenarioError, load_scenario

__version__ = "0.1.0"
__all__ = ["simulate", "load_scenario", "Scenario", "ScenarioError", "games", "__version__"]
