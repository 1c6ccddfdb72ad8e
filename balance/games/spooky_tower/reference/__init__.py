"""Spooky Tower reference engine: the rulebook as plain, readable Python, playing the games the kernel plays.

``engine`` holds the table and its turn loop, ``effects`` the Description of Effects, ``view`` what the strategies
see, ``cards`` the numbered components and ``state`` the House, snapshots and finished game.
"""
from __future__ import annotations

from .cards import VALUES, CardBook
from .engine import Table, play_reference, play_scenario, scenario_lineup
from .state import GameOver, Player, ReferenceGame, Revealed, SeatSnapshot, Snapshot

__all__ = ["VALUES", "CardBook", "GameOver", "Player", "ReferenceGame", "Revealed", "SeatSnapshot", "Snapshot", "Table",
           "play_reference", "play_scenario", "scenario_lineup"]
