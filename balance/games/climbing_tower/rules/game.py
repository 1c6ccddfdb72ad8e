"""A whole game: set up, then rounds (``rounds.play_on_nb``), every seat on its strategy.

``look`` says which kernel this is: None in a lineup without a lookahead seat, where the search is pruned before
Numba types it (never compiled; the kernel compiles and runs as it would without a lookahead); True where a seat
plays the lookahead: the rounds stop at each of its turn decisions, ``lookahead.choice_nb`` searches it, and the game
goes on after the row taken (``rounds.act_on_nb``). A lookahead's playouts run the same rules with ``look`` None, so
the search never calls a function that is being compiled around it.
"""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .lookahead import choice_nb
from .play import legal_nb
from .rounds import act_on_nb, play_on_nb
from .setup import reset_nb


@rules_jit_flat
def play_game_nb(state, params, seed, game, look):
    """Set up game `game` of run `seed` and play it to the end (`look`: module docstring)."""
    reset_nb(state, seed, game)
    p = play_on_nb(state, params, look)
    if look is not None:
        while p >= 0:
            n = legal_nb(state, p)              # the rows the rounds stopped at, counted again
            p = act_on_nb(state, params, p, n, choice_nb(state, params, p, n), look)
