"""The Haunted Tower reference engine, the rulebook as plain, readable Python (``engine``: the turn loop and the
rulebook's sections; ``combat``, ``view`` and ``pieces`` beside it); what other modules use is re-exported here."""
from .combat import GameEnds
from .engine import Table, play_reference, play_scenario, scenario_lineup
from .pieces import ReferenceGame, Snapshot
from .view import MAX_SCRIPT

__all__ = ["GameEnds", "MAX_SCRIPT", "ReferenceGame", "Snapshot", "Table", "play_reference", "play_scenario",
           "scenario_lineup"]
