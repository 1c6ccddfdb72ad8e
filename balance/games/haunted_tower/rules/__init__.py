"""The Haunted Tower rule kernel: whole games in nopython Numba, arrays in and arrays out (``turn`` and the modules
it calls, ``simulate`` the batch driver); what other modules use is re-exported here."""
from .simulate import (draws_nb, script_choices, script_dice, seat_lineup_nb, simulate_nb, trace_game,
                       trace_game_nb)
from .turn import finish_nb, play_game_nb, play_on_nb, play_rounds_nb, play_turn_nb

__all__ = ["draws_nb", "finish_nb", "play_game_nb", "play_on_nb", "play_rounds_nb", "play_turn_nb", "script_choices",
           "script_dice", "seat_lineup_nb", "simulate_nb", "trace_game", "trace_game_nb"]
