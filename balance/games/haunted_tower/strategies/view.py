"""What a seat may know, read from the state for a strategy: a chit's content only when the seat knows it (face up,
or a blue chit it placed itself), the bit sets of the chits it does not know, and where a chit may still go in a
room. The dispatch (``strategies/__init__.py``) and every heuristic read the board through these."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from ..layout import (CHIT_FACEUP, CHIT_HIDDEN, CHIT_INDEX, CHIT_KIND, CHIT_ON, CHIT_PLACER, G_RMAX, ROOM_BLUE,
                      ROOM_FULL, SQ_CHIT, at, g_placeable, g_room_elig, g_room_size, g_room_sq, placed_at)


@rules_jit_inline
def known_content_nb(state, p, c):
    """What seat p knows chit c holds: (content kind, index), or (-1, -1) when it does not know (face down and not a
    blue chit it placed itself)."""
    if state[at(CHIT_FACEUP, c)] == 1 or state[at(CHIT_PLACER, c)] == p:
        return state[at(CHIT_KIND, c)], state[at(CHIT_INDEX, c)]
    return -1, -1


@rules_jit_inline
def unknown_bits_nb(state, p, w):
    """Word w of the bit set of the chits on the board or the floor whose content seat p does not know:
    :func:`known_content_nb`'s test over the bit sets (face down, and not placed by seat p)."""
    return state[at(CHIT_ON, w)] & state[at(CHIT_HIDDEN, w)] & ~state[placed_at(p, w)]


@rules_jit
def room_free_nb(state, tables, r, blue):
    """Squares of room r a chit may go on now: free placeable squares, and for a blue chit only while the room keeps
    two empty squares for every blue chit with this one (0 otherwise)."""
    free = g_room_elig(tables, r) - state[at(ROOM_FULL, r)]
    if blue and g_room_size(tables, r) - state[at(ROOM_FULL, r)] - 1 < 2 * (state[at(ROOM_BLUE, r)] + 1):
        return 0
    return max(0, free)


@rules_jit
def kth_free_square_nb(state, tables, r, k):
    """The k-th (0-based) free placeable square of room r, in the room's square order."""
    for j in range(tables[G_RMAX]):
        q = g_room_sq(tables, r, j)
        if q < 0:
            break
        if g_placeable(tables, q) == 1 and state[at(SQ_CHIT, q)] < 0:
            if k == 0:
                return q
            k -= 1
    return -1
