"""A whole game: dealt, then the turn loop (``turn.play_on_nb``), every seat on its strategy.

``look`` says which kernel this is: None in a lineup without a lookahead seat, where the lookahead is pruned before
Numba types it (never compiled, the kernel as fast as without it); True where a seat plays the lookahead, whose turns
``lookahead.look_turn_nb`` plays between stretches of the turn loop. A lookahead's playouts run the same loop with
``look`` None, so the search never calls the function that is being compiled around it.
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .lookahead import look_turn_nb
from .setup import reset_nb
from .turn import play_next_nb, play_on_nb


@rules_jit
def play_game_nb(state, params, seed, game, look):
    """Deal game `game` of run `seed` and play it to the end (`look`: module docstring)."""
    reset_nb(state, seed, game)
    p, extra = play_on_nb(state, params, 0, 0, look)
    if look is not None:
        while p >= 0:
            look_turn_nb(state, params, p, extra)
            p, extra = play_next_nb(state, params, p, look)
