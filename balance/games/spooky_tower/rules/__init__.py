"""Spooky Tower rule kernel: whole games in nopython Numba, arrays in and arrays out.

Rulebook sections are named in each function's docstring. Every choice a rule leaves to a player is a call into
``strategies``; the open rule points are read from the compiled options (see ``docs/rules/spooky_tower.md``).

A game lives in two flat arrays (``layout``): the int64 state (game state, compiled rules, trace) and the float64
parameters (strategy parameters and public card statistics), allocated once per worker and reset per game.

``setup`` deals a game and holds the test hooks, ``effects`` takes and flips cards and resolves what they reveal,
``turn`` plays a turn and the turn loop, ``game`` a whole game, ``lookahead`` searches a lookahead seat's actions,
``simulate`` runs the parallel batch and traces one game.
"""
from __future__ import annotations

from .effects import (check_win_nb, clock_step_nb, flip_cards_nb, grimoire_nb, pet_effect_nb, resolve_nb,
                      take_card_nb)
from .setup import LOC_KEPT, LOC_TOWN, LOC_TRUNK, emit_nb, reset_nb, roll_nb, script_choices, script_dice, stack_town
from .game import play_game_nb
from .lookahead import look_turn_nb, redeal_nb, search_nb
from .simulate import draws_nb, seat_lineup_nb, simulate_nb, trace_game, trace_game_nb
from .turn import clock_penalty_nb, go_to_park_nb, legal_actions_nb, play_next_nb, play_on_nb, play_turn_nb

__all__ = [
    "LOC_KEPT", "LOC_TOWN", "LOC_TRUNK", "check_win_nb", "clock_penalty_nb", "clock_step_nb", "draws_nb", "emit_nb",
    "flip_cards_nb", "go_to_park_nb", "grimoire_nb", "legal_actions_nb", "look_turn_nb", "pet_effect_nb",
    "play_game_nb", "play_next_nb", "play_on_nb", "play_turn_nb", "redeal_nb", "reset_nb", "resolve_nb", "roll_nb",
    "script_choices", "script_dice", "search_nb", "seat_lineup_nb", "simulate_nb", "stack_town", "take_card_nb",
    "trace_game", "trace_game_nb",
]
