"""The Haunted Tower reference engine, what the strategies see: the flat view a seat's strategy reads.

The strategies (``strategies``) are jitted functions of flat arrays laid out by ``layout.py``. :class:`View` is a
part of ``reference.Table`` (a mixin) that writes such an array from the table's own objects before every decision:
the compiled rules and the board (``compile.compile_rules``, read only), then every state region a strategy may read
(shared scalars, every hero's fields and items, the deciding seat's own hand, where every chit lies and whether it is
face up, the squares, rooms and levels, this decision's candidates, the seat's random stream and the choice script).

What the deciding seat does not know is blanked: ``CHIT_KIND`` and ``CHIT_INDEX`` are -1 for every chit that is
face down and was not drawn and placed by that seat; the cup's order and the other players' hands are not written.
A strategy that peeked at hidden contents would therefore play differently here than in the kernel, and the
differential tests would say so.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ....core.rng import flat_seek_nb
from ..board import LEVELS, N_LEVELS
from .. import enums
from .. import layout
from ..compile import bit_words, compile_rules
from ..rules.lookahead import look_seats_nb

MAX_SCRIPT = layout.KINDS - layout.CHOICE_SCRIPT     # room for scripted choices in the flat view
CHIT_REGIONS = (layout.CHIT_LOC, layout.CHIT_SQ, layout.CHIT_OWNER, layout.CHIT_PLACER, layout.CHIT_FACEUP,
                layout.CHIT_USES, layout.CHIT_KIND, layout.CHIT_INDEX)


# Hero.* -> layout.HS_* in the order View.hero_fields lists them; the layout must number them 0.. in this order.
HERO_FIELDS = (layout.HS_HERO, layout.HS_SQ, layout.HS_HP, layout.HS_MAXHP, layout.HS_ATTACK, layout.HS_DRAINS,
               layout.HS_DEATHS, layout.HS_OUT, layout.HS_HELD_TURN, layout.HS_N_ITEMS, layout.HS_BLUE,
               layout.HS_PURPLE, layout.HS_STANDUPS, layout.HS_KEPT_BLUE, layout.HS_KEPT_PURPLE, layout.HS_BANE_KILLS,
               layout.HS_SPECTER_HIT, layout.HS_SPECTER_KILL, layout.HS_POINTS, layout.HS_KILLS, layout.HS_ENCOUNTERS,
               layout.HS_RUNS, layout.HS_TRADE_INS, layout.HS_HAND_N, layout.HS_HIT_SPECTER_NOW, layout.HS_DAMAGE_DEALT,
               layout.HS_DAMAGE_TAKEN, layout.HS_PTS_STANDUPS, layout.HS_PTS_CHITS, layout.HS_PTS_BANE,
               layout.HS_PTS_SPECTER_HIT, layout.HS_PTS_SPECTER_KILL, layout.HS_FIGHT_CAP)
if HERO_FIELDS != tuple(range(layout.N_HS)):
    raise ImportError("layout.HS_* are no longer numbered in View.hero_fields' order: update HERO_FIELDS and it")


def _as_int64(word: int) -> int:
    """A 64-bit stream key as the signed integer the flat state stores."""
    return word - (1 << 64) if word >= (1 << 63) else word


class View:
    """The strategies' view for ``reference.Table``."""

    def _init_view(self, params) -> None:
        """The flat arrays ``(state, params, tables, costs)``: the compiled rules and board (read only) and a state
        region written before each decision. Strategy kinds, parameters, seat heroes and the choice script are set
        once."""
        self._state, self._params, self.tables, self.costs = compile_rules(self.c, self.rules, self.n_players,
                                                                           self.turn_cap, self.board)
        state = self._state
        self.placeable = frozenset(int(q) for q in self.board.placeable)
        self.purple_backed = [int(ch.purple_backed) for ch in self.chits]
        self.content_kind = np.array([ch.kind for ch in self.chits], np.int64)
        # where each chit bit set starts: CHIT_ON, CHIT_HIDDEN, each seat's CHIT_PLACED, each level's CHIT_LEVEL
        self._seats = np.arange(self.n_players)
        self._levels = np.array(LEVELS)
        self._bit_sets = ([layout.CHIT_ON, layout.CHIT_HIDDEN]
                          + [int(layout.placed_at(p, 0)) for p in range(self.n_players)]
                          + [int(layout.level_bits_at(lv, 0)) for lv in LEVELS])
        self.content_index = np.array([ch.index for ch in self.chits], np.int64)
        params = np.asarray(params, np.float64)
        for p in range(self.n_players):
            state[layout.KINDS + p] = self.kinds[p]
            state[layout.SEAT_HERO + p] = self.heroes[p].index
            for j in range(min(layout.N_PARAMS, params.shape[1])):
                self._params[layout.F_PARAMS + p * layout.N_PARAMS + j] = params[p, j]
        look_seats_nb(state, self._params)      # a lookahead seat decides as its base (reference/lookahead.py)
        if len(self.choices) > MAX_SCRIPT:
            raise ValueError(f"at most {MAX_SCRIPT} scripted choices, got {len(self.choices)}")
        state[layout.CHOICE_SCRIPT:layout.CHOICE_SCRIPT + len(self.choices)] = self.choices
        state[layout.HAND:layout.HAND + layout.MAX_PLAYERS * layout.MAX_HAND] = -1
        self.hands_in_view = False

    def hero_fields(self, h) -> list[int]:
        """One hero's ``layout.HS_*`` fields, in the layout's order (``HERO_FIELDS``)."""
        purple = self.purple_backed
        kept_purple = sum(purple[c] for c in h.kept)
        chits_purple = kept_purple + sum(purple[c] for c in h.items)
        return [h.index, h.square, h.hp, h.card.hp, h.card.attack, h.drains, h.deaths, int(h.out), int(h.held),
                len(h.items), len(h.items) + len(h.kept) - chits_purple, chits_purple, h.standups,
                len(h.kept) - kept_purple, kept_purple, h.bane_kills, h.specter_hits, h.specter_kill, sum(h.score),
                h.kills, h.encounters, h.runs, h.trade_ins, len(h.hand),
                int(h.hit_specter_now and self.battle is not None), h.damage_dealt, h.damage_taken, *h.score,
                h.fight_cap]

    def scalars(self, n_cand: int) -> list[int]:
        """The shared ``layout.SC_*`` scalars."""
        fight = self.battle
        sc = [0] * layout.N_SC
        sc[layout.SC_ROUND] = self.round_no
        sc[layout.SC_TURN] = self.turn_no
        sc[layout.SC_ACTIVE] = self.active
        sc[layout.SC_WINNER] = self.winner
        sc[layout.SC_WIN_MASK] = self.win_mask
        sc[layout.SC_VICTORY] = self.victory
        sc[layout.SC_SPECTER_KILLER] = self.specter_killer
        sc[layout.SC_FIRST] = self.first
        sc[layout.SC_IN] = sum(1 for h in self.heroes if not h.out)
        sc[layout.SC_CUP_N] = len(self.cup)
        sc[layout.SC_MP] = self.mp
        sc[layout.SC_CLIMB] = self.climb
        sc[layout.SC_LEFT] = self.left
        sc[layout.SC_FIGHT] = fight.chit.id if fight else -1
        sc[layout.SC_FIGHT_HP] = fight.hp if fight else 0
        sc[layout.SC_FIGHT_DRAINED] = int(fight.drained) if fight else 0
        sc[layout.SC_SLOWED] = int(fight.slowed) if fight else 0
        sc[layout.SC_LEVEL] = self.level_filled
        sc[layout.SC_N_CAND] = n_cand
        sc[layout.SC_PATH_N] = len(self.path)
        sc[layout.SC_PATH_FROM] = self.path[0] if self.path else -1
        sc[layout.SC_VICTIM] = self.victim
        sc[layout.SC_ROUND_START] = self.round_start
        sc[layout.SC_HURT] = int(fight.hurt) if fight else 0
        return sc

    def chit_fields(self, seat: int) -> tuple[np.ndarray, ...]:
        """Per chit, the values of ``CHIT_REGIONS``: where it is, who holds or placed it, face up, uses left, and
        its content only where `seat` knows it (face up, or a blue chit it drew and placed), else -1."""
        loc, square, owner, placer, face_up, uses = self.chits[0].state
        known = (face_up == 1) | (placer == seat)
        return (loc, square, owner, placer, face_up, uses, np.where(known, self.content_kind, -1),
                np.where(known, self.content_index, -1))

    def write_view(self, seat: int, cand: Sequence[int], n_cand: int, opts: Sequence[tuple[int, int]]) -> None:
        """Everything public, the deciding seat's own hand and the contents it knows; nothing else."""
        state, n_sq, n_rooms = self._state, self.board.n_squares, self.board.n_rooms
        state[layout.SC:layout.SC + layout.N_SC] = self.scalars(n_cand)
        rows, held = [], []
        for h in self.heroes:
            rows += self.hero_fields(h)
            held += h.items + [-1] * (layout.MAX_HELD - len(h.items))
        state[layout.HS:layout.HS + self.n_players * layout.N_HS] = rows
        state[layout.HELD:layout.HELD + self.n_players * layout.MAX_HELD] = held
        if self.hands_in_view or self.heroes[seat].hand:          # set-up: only the deciding seat's own hand
            state[layout.HAND:layout.HAND + self.n_players * layout.MAX_HAND] = -1
            own = self.heroes[seat].hand
            state[layout.HAND + seat * layout.MAX_HAND:layout.HAND + seat * layout.MAX_HAND + len(own)] = own
            self.hands_in_view = bool(own)
        self.write_chits(self.chit_fields(seat), self.chit_on)
        state[layout.SQ_HERO:layout.SQ_HERO + n_sq] = self.hero_on
        state[layout.ROOM_BLUE:layout.ROOM_BLUE + n_rooms] = self.room_blue
        state[layout.ROOM_FULL:layout.ROOM_FULL + n_rooms] = self.room_full
        state[layout.ROOM_PURPLE:layout.ROOM_PURPLE + n_rooms] = self.room_purple
        state[layout.LEVEL_CHITS:layout.LEVEL_CHITS + N_LEVELS + 1] = [0] + [self.level_chits(lv) for lv in LEVELS]
        state[layout.LEVEL_HIDDEN:layout.LEVEL_HIDDEN + N_LEVELS + 1] = [0] + [self.level_hidden(lv) for lv in LEVELS]
        state[layout.SLOTS_OK:layout.SLOTS_OK + layout.MAX_PLAYERS] = 0      # the heuristics' memo of their slots: none
        state[layout.PATH:layout.PATH + len(self.path)] = self.path
        if cand:
            state[layout.CAND:layout.CAND + len(cand)] = cand
        for i, (kind, c) in enumerate(opts):
            state[layout.OPTS + 2 * i] = kind
            state[layout.OPTS + 2 * i + 1] = c
        stream = self.strategy_streams[seat]
        flat_seek_nb(state, layout.stream_at(2 + seat), _as_int64(stream.key), stream.counter)
        state[layout.M_CHOICE_N] = len(self.choices)
        state[layout.M_CHOICE_I] = self.choice_i

    def write_chits(self, fields: Sequence[np.ndarray], chit_on: np.ndarray) -> None:
        """The chits' regions (``CHIT_REGIONS``, `fields` as :meth:`chit_fields` gives them), their bit sets and
        the chit on each square (`chit_on`)."""
        state, n_chits = self._state, len(self.chits)
        for region, values in zip(CHIT_REGIONS, fields):
            state[region:region + n_chits] = values
        # the bit sets from the chits' places, faces, placers and levels: one row of flags a set, packed at once
        loc, placer = fields[0], fields[3]
        level = np.where(fields[1] >= 0, self.board.level[fields[1]], 0)
        flags = np.zeros((len(self._bit_sets), layout.MAX_CHITS), np.bool_)
        flags[0, :n_chits] = (loc == enums.LOC_BOARD) | (loc == enums.LOC_FLOOR)          # (not np.isin: 10x)
        flags[1, :n_chits] = fields[4] == 0
        flags[2:2 + self.n_players, :n_chits] = placer == self._seats[:, None]
        flags[2 + self.n_players:, :n_chits] = level == self._levels[:, None]
        words = bit_words(flags)
        for first, row in zip(self._bit_sets, words):
            state[first:first + row.size] = row
        state[layout.SQ_CHIT:layout.SQ_CHIT + self.board.n_squares] = chit_on

    def decide(self, decision, seat: int, *args, cand: Sequence[int] = (), n_cand: int | None = None,
               opts: Sequence[tuple[int, int]] = ()):
        """Ask `seat`'s strategy (a jitted ``strategies`` function, called as ``decision(state, params, *args)``)
        through its view; keep its random stream and the choice script in step with what it consumed."""
        self.write_view(seat, cand, len(opts) if opts else (len(cand) if n_cand is None else n_cand), opts)
        answer = decision(self._state, self._params, *args)
        self.strategy_streams[seat].counter = int(self._state[layout.stream_at(2 + seat) + 1])
        self.choice_i = int(self._state[layout.M_CHOICE_I])
        return answer

    def choose(self, decision, code: int, options: Sequence[int], seat: int, *args):
        """A decision answered with an index into `options` (written to ``CAND``); out of range is illegal."""
        i = int(self.decide(decision, seat, *args, cand=options))
        if not 0 <= i < len(options):
            self.illegal(seat, code, i)
        return options[i]
