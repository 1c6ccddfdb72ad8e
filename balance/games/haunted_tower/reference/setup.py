"""The reference engine's Setting Up the Board (a mixin of :class:`engine.Table`): the roll-off, the blue chits
dealt and placed by the players, the purple chits placed level by level."""
from __future__ import annotations

from ....core.rng import py_shuffled
from ..board import LEVELS, TOP_LEVEL
from .. import enums
from .. import strategies


class SetUp:
    """Setting Up the Board: the methods :class:`engine.Table` plays it with (its state, dice and decisions)."""

    # --- Setting Up the Board ----------------------------------------------------------------------------------------

    def setup(self) -> None:
        """Place the Blue Chits (draw, roll off, place), then Place the Purple Chits, level by level."""
        blue = [ch.id for ch in self.chits if ch.colour == enums.BLUE]
        pool = py_shuffled(blue, self.shuffle_stream)
        each = self.rules.blue_per_player[self.n_players - enums.MIN_PLAYERS]
        for h in self.heroes:
            h.hand = pool[h.seat * each:(h.seat + 1) * each]
            for c in h.hand:
                ch = self.chits[c]
                ch.loc, ch.owner, ch.placer = enums.LOC_HAND, h.seat, h.seat
                self.emit(enums.EV_DEAL, h.seat, c)
        for c in pool[self.n_players * each:]:
            self.chits[c].loc = enums.LOC_ASIDE
        self.first = self.rolloff(list(range(self.n_players)), 0)
        self.place_blue_chits()
        self.place_purple_chits()

    def rolloff(self, seats: list[int], why: int) -> int:
        """Everyone rolls 1d10 in seat order; the highest wins; tied highest seats roll again ("roll off ties")."""
        while True:
            rolls = []
            for p in seats:
                rolls.append(self.die(10))
                self.emit(enums.EV_ROLLOFF, p, rolls[-1], why)
            best = max(rolls)
            seats = [p for p, r in zip(seats, rolls) if r == best]
            if len(seats) == 1:
                return seats[0]

    def blue_square_ok(self, q: int) -> bool:
        """Chits go in rooms, not on the four squares in front of the double doors, not on another chit; a room
        keeps two empty squares for every blue chit in it, the new one included."""
        if not 0 <= q < self.board.n_squares or q not in self.placeable or self.chit_on[q] >= 0:
            return False
        r = int(self.board.room[q])
        empty_after = int(self.board.room_size[r]) - self.room_full[r] - 1
        return empty_after >= 2 * (self.room_blue[r] + 1)

    def place_blue_chits(self) -> None:
        """From the first player clockwise, one chit at a time, face down, until every hand is empty."""
        p = self.first
        while any(h.hand for h in self.heroes):
            h = self.heroes[p]
            if h.hand:
                self.active = p
                k, q = self.decide(strategies.place_blue_nb, p, self.tables, self.costs, p)
                k, q = int(k), int(q)
                if not 0 <= k < len(h.hand):
                    self.illegal(p, enums.DEC_PLACE_BLUE, k)      # the bad part of the answer is reported
                if not self.blue_square_ok(q):
                    self.illegal(p, enums.DEC_PLACE_BLUE, q)
                ch = self.chits[h.hand.pop(k)]
                self.put_chit(ch, q, enums.LOC_BOARD)
                r = int(self.board.room[q])
                self.room_blue[r] += 1
                self.room_full[r] += 1
                self.emit(enums.EV_PLACE, p, ch.id, q)
            p = (p + 1) % self.n_players

    def place_purple_chits(self) -> None:
        """The cup goes round clockwise from the first player: one purple chit, unseen, in each room of Tower 1, then
        Tower 2; then the Specter's chit joins the cup, the cup is shaken, and Tower 3 is filled the same way. The
        Specter is always placed: of what is left in the cup, Tower 3's rooms less one go back with it, and any
        surplus (a scenario with more purple chits than the rooms need) is set aside first."""
        purple = [ch.id for ch in self.chits if ch.colour == enums.PURPLE]
        self.cup = py_shuffled(purple, self.shuffle_stream)
        p = self.first
        for level in LEVELS:
            if level == TOP_LEVEL:
                keep = self.board.rooms_per_level[level - 1] - 1
                for c in self.cup[keep:]:
                    self.chits[c].loc = enums.LOC_ASIDE
                self.cup = py_shuffled(self.cup[:keep] + [self.specter.id], self.shuffle_stream)
            self.level_filled = level
            for _ in range(self.board.rooms_per_level[level - 1]):
                self.active = p
                q = int(self.decide(strategies.place_purple_nb, p, self.tables, self.costs, p, level))
                if not self.purple_square_ok(q, level):
                    self.illegal(p, enums.DEC_PLACE_PURPLE, q)
                ch = self.chits[self.cup.pop(0)]
                self.put_chit(ch, q, enums.LOC_BOARD)
                r = int(self.board.room[q])
                self.room_full[r] += 1
                self.room_purple[r] = 1
                self.emit(enums.EV_PLACE, p, ch.id, q)
                p = (p + 1) % self.n_players
        for c in self.cup:
            self.chits[c].loc = enums.LOC_ASIDE
        self.cup = []
        self.level_filled = 0

    def purple_square_ok(self, q: int, level: int) -> bool:
        """Any free square of a room (not in front of the double doors) on this level without a purple chit yet."""
        if not 0 <= q < self.board.n_squares or q not in self.placeable or self.chit_on[q] >= 0:
            return False
        r = int(self.board.room[q])
        return int(self.board.level[q]) == level and not self.room_purple[r]
