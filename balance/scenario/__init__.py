"""The scenario layer: a scenario read from TOML, a dict or a game's embedded default (:mod:`.model`), every check of
its settings (:mod:`.checks`), the ``extends`` chain and ``--set`` overrides (:mod:`.layers`), the assumption tables
of a game's rules (:mod:`.assumptions`) and which scenarios a change of files touches (:mod:`.affected`). It may
import :mod:`balance.core` and the game registry, and nothing of the layers above it (core ← scenario ← games ← run ←
analysis ← present ← cli, with :mod:`balance.api` at the top).

``load_scenario``, ``Scenario``, ``ScenarioError``, ``Seat`` and ``dumps_toml`` are imported from here on first use,
so that importing a submodule such as :mod:`.layers` does not load pydantic."""
from __future__ import annotations

__all__ = ["load_scenario", "Scenario", "ScenarioError", "Seat", "dumps_toml"]


def __getattr__(name: str):
    if name in __all__:
        from . import model
        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
