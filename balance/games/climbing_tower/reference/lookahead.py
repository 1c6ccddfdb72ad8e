"""The Climbing Tower reference engine, a lookahead seat's turn: the kernel's own search (``rules.lookahead``) run on a
flat array the table fills from its pieces with what the seat may know.

The array holds the public table (the tower and its skeletons, the pawns, the BOSS, gold and tokens, skills, the
round's counters, the deck's contents, the cards played and discarded, the supply piles' contents), the seat's own
hand and, while the players may communicate, the partner's hand and face-down card. What the seat cannot see goes in
card-id order, never as it lies: the draw pile (and the partner's hand and face-down card when hidden) as one pool
over those places, each supply pile's cards. The search deals these again itself, so it cannot tell the difference.
The search's tie-break is this engine's own base strategy's choice (``strategies.Strategy``, the kernel's twin), and
its key word comes from the seat's stream, which moves on by one word as the kernel's does.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ....core.rng import flat_seek_nb
from .. import enums
from .. import layout as L
from ..compile import compile_rules
from ..rules.lookahead import search_nb
from ..rules.play import legal_nb, turn_row_nb


class LookaheadSeat:
    """A lookahead seat's searched turns, for ``engine.Table``: `playouts` per row, `base` the base strategy kind."""

    def __init__(self, table, seat: int, playouts: int, base: int):
        self.table, self.seat, self.playouts, self.base = table, seat, playouts, base
        self.state0, self.params0 = compile_rules(table.c, table.rules)

    def choose(self, rows: Sequence[tuple[int, int]], first: int) -> int:
        """The row the kernel's search picks from this seat's knowledge (`first`: the base strategy's choice)."""
        s, f = self.flat()
        n = int(legal_nb(s, self.seat))
        kernel_rows = [tuple(int(x) for x in turn_row_nb(s, self.seat, i)) for i in range(n)]
        if kernel_rows != [tuple(r) for r in rows]:
            raise AssertionError(f"legal rows differ: kernel {kernel_rows}, reference {list(rows)}")
        stream = self.table.strategy_streams[self.seat]
        i = int(search_nb(s, f, self.seat, n, self.playouts, self.base, first))
        stream.next_u64()                       # the search's key word
        return i

    def flat(self) -> tuple[np.ndarray, np.ndarray]:
        t, me = self.table, self.seat
        s, f = self.state0.copy(), self.params0.copy()
        q = 1 - me
        view = t.view(me)
        # the tower
        slot_index = {}
        k = 0
        for place in t.places:
            s[L.POS_TC + place.position] = place.tower_card if place.tower_card >= 0 else L.BOSS_ROW + t.boss.side
            s[L.POS_SLOT0 + place.position] = k
            s[L.POS_PLACED + place.position] = int(place.placed)
            s[L.POS_FLIPPED + place.position] = place.flipped
            for slot in place.slots:
                slot_index[id(slot)] = k
                s[L.SLOT_POS + k], s[L.SLOT_FLOOR + k] = place.position, slot.floor
                for side in (0, 1):
                    s[L.STANDING + 2 * k + side] = slot.standing[side]
                    s[L.HIT + 2 * k + side] = slot.fallen[side]
                    s[L.MISSING + 2 * k + side] = slot.missing[side]
                k += 1
        hit_floors = 0
        for floor in t.floors:
            s[L.FLOOR_LO + floor.number] = slot_index[id(floor.slots[0])]
            s[L.FLOOR_HI + floor.number] = slot_index[id(floor.slots[-1])]
            for side in (0, 1):
                s[L.ON_FLOOR + 2 * floor.number + side] = floor.standing(side)
                hit_floors |= (floor.fallen(side) > 0) << floor.number
        # shared scalars
        sc = {L.ROUND: t.round, L.TURN: t.turn, L.WINNER: -1, L.GOLD: t.gold, L.SUPPLY_TOKENS: t.supply_tokens,
              L.BOSS_IN_PLAY: L.BOSS_ROW + t.boss.side, L.BOSS_SIDE: t.boss.side, L.BOSS_DAMAGE: t.boss.damage,
              L.N_POSITIONS: len(t.places), L.N_SLOTS: k, L.N_FLOORS: len(t.floors),
              L.TOP_CARD: -1 if t.top is None else t.top, L.FREE_PLAY_USED: int(t.free_play_used),
              L.SKILLS: sum(1 << x for x in t.skills), L.DECK_SIZE: len(t.deck), L.START_PLAYER: t.start,
              L.BLOCKED_SEAT: -1, L.TOWER_LABEL: t.tower_id, L.HIT_FLOORS: hit_floors}
        for i, v in sc.items():
            s[i] = v
        # the cards: what the seat cannot see as pools in card-id order
        loc = np.full(len(t.cards), enums.LOC_OUT)
        for c in t.deck:
            loc[c] = enums.LOC_DECK
        for c in t.played:
            loc[c] = enums.LOC_PLAYED
        for c in t.discard:
            loc[c] = enums.LOC_DISCARD
        hidden = sorted(t.draw_pile + ([] if view.talk else t.players[q].hand
                                       + [x for x in [t.players[q].face_down] if x is not None]))
        for p, pl in enumerate(t.players):
            s[L.PL + p * L.N_PL + L.PL_FLOOR], s[L.PL + p * L.N_PL + L.PL_SIDE] = pl.floor, pl.side
            s[L.PL + p * L.N_PL + L.PL_REDRAWS] = pl.redraws_used
            s[L.PL + p * L.N_PL + L.PL_OFFERED] = int(pl.offered)
            s[L.PL + p * L.N_PL + L.PL_HAND_N] = len(pl.hand)
            hand = list(pl.hand)
            down = pl.face_down
            if p == q and not view.talk:
                hand, hidden = hidden[:len(hand)], hidden[len(hand):]
                if down is not None:
                    down, hidden = hidden[0], hidden[1:]
            s[L.HAND + p * L.MAX_HAND:L.HAND + p * L.MAX_HAND + len(hand)] = hand
            s[L.PL + p * L.N_PL + L.PL_DOWN] = -1 if down is None else down
            for c in hand:
                loc[c] = enums.LOC_HAND + p
            if down is not None:
                loc[down] = enums.LOC_DOWN + p
        hidden = sorted(hidden)
        out_of_pile = [c for c in sorted(t.deck) if c not in hidden]
        s[L.DECK:L.DECK + len(out_of_pile) + len(hidden)] = out_of_pile + hidden
        s[L.DRAW_PILE_TOP] = len(out_of_pile)
        s[L.OWNED:L.OWNED + len(t.deck)] = sorted(t.deck)
        for k_pile, pile in enumerate(t.piles):
            cards = sorted(pile)
            s[L.PILE_SIZE + k_pile], s[L.PILE_NEXT + k_pile] = len(cards), 0
            s[L.PILES + k_pile * L.MAX_CARDS:L.PILES + k_pile * L.MAX_CARDS + len(cards)] = cards
            for c in cards:
                loc[c] = enums.LOC_PILE2 + k_pile
        s[L.LOC:L.LOC + len(loc)] = loc
        # both seats on the base strategy; the seat's stream where the reference's is
        for p in range(2):
            s[L.KINDS + p] = self.base
            row = L.F_BASE + self.base * L.N_PARAMS
            f[L.F_PARAMS + p * L.N_PARAMS:L.F_PARAMS + (p + 1) * L.N_PARAMS] = f[row:row + L.N_PARAMS]
        stream = t.strategy_streams[me]
        key = np.array([stream.key], np.uint64).view(np.int64)[0]
        flat_seek_nb(s, L.stream_at(1 + me), key, stream.counter)
        return s, f
