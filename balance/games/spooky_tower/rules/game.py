"""A whole game: the turn loop, every seat on its strategy (a lookahead seat's turns are ``lookahead.look_turn_nb``;
its playouts run ``turn.play_out_nb``, the same turns with base strategies only)."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from ..layout import KINDS, WINNER, at
from ..strategies.kinds import LOOKAHEAD
from .lookahead import look_turn_nb
from .setup import reset_nb
from .turn import base_turn_nb, capped_nb, next_turn_nb


@rules_jit_inline
def play_turn_nb(state, params, p, extra):
    """One turn of seat p, on whatever strategy it plays."""
    if state[at(KINDS, p)] == LOOKAHEAD:
        look_turn_nb(state, params, p, extra)
    else:
        base_turn_nb(state, params, p, extra)


@rules_jit
def play_on_nb(state, params):
    """Gameplay Overview: seat 0 starts, turns go clockwise, extra turns first, until a win or the turn cap."""
    p = 0
    extra = 0
    while not capped_nb(state):
        play_turn_nb(state, params, p, extra)
        if state[WINNER] >= 0:
            return
        p, extra = next_turn_nb(state, p)


@rules_jit
def play_game_nb(state, params, seed, game):
    """Deal game `game` of run `seed` and play it to the end."""
    reset_nb(state, seed, game)
    play_on_nb(state, params)
