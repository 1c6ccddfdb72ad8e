"""balance: Monte Carlo balance analysis for tabletop games.

Entry points: :func:`simulate` (run a scenario, get DataFrames and plots), :func:`tournament` (rate strategies
against each other), :func:`check` (decide a scenario's balance claims), :func:`tune` (tune a strategy's parameters
for one seat, role or team), :func:`strength` (whether findings hold under stronger play), :func:`design` (values
that make claims true), :func:`load_scenario` and the game registry :mod:`balance.games`.
"""
from __future__ import annotations

from .core.cache import configure as _configure_cache
from .core.threads import configure as _configure_threads

_configure_cache()  # before anything imports numba
_configure_threads()  # before Numba loads its threading layer

__version__ = "0.1.0"
__all__ = ["simulate", "compare", "sweep", "cards", "tournament", "check", "tune", "strength", "design",
           "load_scenario", "Results", "Scenario", "ScenarioError", "games", "__version__"]


def __getattr__(name: str):
    """``balance.simulate`` and ``balance.Results``, ``balance.compare``, ``balance.sweep`` and ``balance.cards``
    (:mod:`balance.analysis.studies`), ``balance.tournament`` (:mod:`balance.analysis.tournaments`) and
    ``balance.check`` (:mod:`balance.analysis.checks`), ``balance.tune`` (:mod:`balance.analysis.tuning`),
    ``balance.strength`` (:mod:`balance.analysis.strength`), ``balance.design`` (:mod:`balance.analysis.design`),
    ``balance.games``, ``balance.load_scenario``,
    ``balance.Scenario`` and ``balance.ScenarioError``, each imported when first used: ``import balance`` imports
    neither numpy nor pydantic, so that the command line answers ``--help`` at once and a Ctrl-C while it starts is one
    line, and compiling a kernel (:mod:`balance.run.warm`) needs neither pandas nor matplotlib."""
    if name == "games":
        import importlib
        return importlib.import_module(".games", __name__)
    if name in ("Scenario", "ScenarioError", "load_scenario"):
        from .scenario import model as scenario
        return getattr(scenario, name)
    if name in ("simulate", "tune", "strength", "design"):
        from . import api
        return getattr(api, name)
    if name == "Results":
        from .stats.results import Results
        return Results
    if name in ("compare", "sweep", "cards"):
        from .analysis import studies
        return getattr(studies, name)
    if name == "tournament":
        from .analysis.tournaments import tournament
        return tournament
    if name == "check":
        from .analysis.checks.run import check
        return check
    raise AttributeError(f"module 'balance' has no attribute {name!r}")
