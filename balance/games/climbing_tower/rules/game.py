"""A whole game: set up, then rounds (``rounds.play_on_nb``), every seat on its strategy.

``look`` says which kernel this is: None in a lineup without a lookahead seat, where the search is pruned before
Numba types it (never compiled, the kernel as fast as without it); True where a seat plays the lookahead: the rounds
stop at each of its turn decisions, ``lookahead.choice_nb`` searches it, and the game goes on from the row taken. A
lookahead's playouts run the same rounds with ``look`` None, so the search never calls the function that is being
compiled around it.
"""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .lookahead import choice_nb
from .rounds import act_on_nb, play_on_nb
from .setup import reset_nb


@rules_jit_flat
def play_game_nb(state, params, seed, game, look):
    """Set up game `game` of run `seed` and play it to the end (`look`: module docstring)."""
    reset_nb(state, seed, game)
    p, n = play_on_nb(state, params, -1, look)
    if look is not None:
        while p >= 0:
            p, n = act_on_nb(state, params, p, n, choice_nb(state, params, p, n), look)
