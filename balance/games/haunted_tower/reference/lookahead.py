"""The Haunted Tower reference engine, a lookahead seat's move and encounter: the kernel's own search
(``rules.lookahead``) run on the flat view, filled with what the seat may know.

A lookahead seat is its base heuristic in this engine's view (``view.View`` sets it up with
``rules.lookahead.look_seats_nb``, as the kernel does), so every decision but the move and the encounter is the
base's, asked as any seat's. For those two, the view is written as for any decision (everything public, the seat's
own chits) and the answers to try are found on it (``candidates_nb``, ``encounter_answers_nb``); then, for the
search (``search_nb``), the chits the seat cannot know (face down and not placed by it, or set aside) are laid out
in chit-id order, never as they lie: per back colour, the ids in order over their places (squares in square order,
then the aside pile), each square keeping its placer; the Specter's chit, while face down, on the first of those
squares on Tower 3. With the contents of those ids (``CHIT_KIND``, ``CHIT_INDEX``) the search deals them again
itself, so it cannot tell the difference; the view cannot leak the real layout. Its key word comes from the seat's
stream, which moves on by one word as the kernel's does (``decide``).
"""
from __future__ import annotations

import numpy as np

from ..board import N_LEVELS
from .. import enums
from .. import layout
from ..rules.lookahead import ENCOUNTER, MOVE, candidates_nb, encounter_answers_nb, search_nb


class Lookahead:
    """A lookahead seat's searched move and encounter, for ``reference.Table`` (with ``view.View``)."""

    def searches(self, seat: int) -> bool:
        """Is `seat` a lookahead seat (its move and encounter searched)?"""
        return int(self._state[layout.look_at(seat, 0)]) > 0

    def look_move(self, seat: int) -> int:
        """The square the kernel's search picks for `seat` from what the seat may know."""
        return int(self.decide(self._look_move, seat, seat))

    def _look_move(self, state, params, seat: int) -> int:
        """``rules.lookahead.look_move_nb``: the squares to try from the view every strategy gets, the search from
        what the seat may know."""
        n = candidates_nb(state, params, self.tables, self.costs, seat, state[layout.look_at(seat, 1)])
        if n == 1:
            return state[layout.LOOK_SQ]
        self.write_chits(*self.known_layout(seat))
        return search_nb(state, params, self.tables, self.costs, seat, n, state[layout.look_at(seat, 0)],
                         state[layout.KINDS + seat], MOVE)

    def look_encounter(self, seat: int, candidates: list[int]) -> int:
        """The encounter answer (an index into `candidates`, -1 none) the kernel's search picks for `seat`."""
        return int(self.decide(self._look_encounter, seat, seat, cand=candidates))

    def _look_encounter(self, state, params, seat: int) -> int:
        """``rules.lookahead.look_encounter_nb``: the answers to try from the view every strategy gets (the base's
        first), the search from what the seat may know."""
        n = encounter_answers_nb(state, params, self.tables, self.costs, seat)
        self.write_chits(*self.known_layout(seat))
        return search_nb(state, params, self.tables, self.costs, seat, n, state[layout.look_at(seat, 0)],
                         state[layout.KINDS + seat], ENCOUNTER)

    def known_layout(self, seat: int) -> tuple[list[np.ndarray], np.ndarray]:
        """(:meth:`chit_fields`, the chit on each square) for the search: every content shown, the chits `seat`
        cannot know laid out in id order over their places (module docstring)."""
        loc, square, owner, placer, face_up, uses = (a.copy() for a in self.chits[0].state)
        chit_on = self.chit_on.copy()
        level = self.board.level
        specter = self.specter.id
        for blue in (True, False):
            ids = [c for c in range(len(self.chits)) if self.purple_backed[c] != blue
                   and (loc[c] == enums.LOC_ASIDE or (loc[c] == enums.LOC_BOARD and face_up[c] == 0
                                                      and placer[c] != seat))]
            squares = sorted(int(square[c]) for c in ids if square[c] >= 0)
            placed_by = {int(square[c]): int(placer[c]) for c in ids if square[c] >= 0}
            places = squares + [-1] * (len(ids) - len(squares))
            if specter in ids:
                q = next(q for q in squares if level[q] == N_LEVELS)
                ids.remove(specter)
                places.remove(q)
                ids.append(specter)
                places.append(q)
            for c, q in zip(ids, places):
                square[c], placer[c] = q, placed_by.get(q, -1)
                loc[c] = enums.LOC_BOARD if q >= 0 else enums.LOC_ASIDE
                if q >= 0:
                    chit_on[q] = c
        return [loc, square, owner, placer, face_up, uses, self.content_kind, self.content_index], chit_on
