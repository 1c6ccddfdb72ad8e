"""The Climbing Tower reference engine: the rules as plain, readable Python (``engine`` the set-up, the rounds and
the play phase; ``build`` the build and next-round phases; ``pieces`` the tower, the players and a finished game;
``strategies`` what a seat sees and how each strategy decides). ``engine``'s docstring says how it is written and
what it shares with the kernel."""
from __future__ import annotations

from .engine import Table, play_reference, play_scenario, scenario_lineup
from .pieces import ReferenceGame, Snapshot

__all__ = ["ReferenceGame", "Snapshot", "Table", "play_reference", "play_scenario", "scenario_lineup"]
