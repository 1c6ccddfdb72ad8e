"""What the strategies see: the reference engine asks the same jitted strategy functions as the kernel, through a
flat array holding only public information (counts, counters, the clock ...).

A lookahead seat's action is the kernel's own search (``rules.lookahead.search_nb``) run on that array: besides the
public words it needs which cards are still unseen (``LOC``: in the Town or held, else flipped) and which Grimoire
cards are revealed, both public; the Town stacks, the holdings and the Grimoire's order it re-deals itself, so the
array carries them in card-id order, not as they lie. Every other decision of that seat is its base strategy's.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ....core.rng import flat_seek_nb
from .. import enums
from .. import layout
from .. import strategies
from ..compile import compile_rules
from ..rules.lookahead import base_kind_nb, playouts_nb, search_nb
from ..rules.setup import LOC_TOWN, LOC_TRUNK

MAX_SCRIPT = layout.KINDS - layout.CHOICE_SCRIPT   # room for scripted choices in the flat view (the kernel's limit too)


def _as_int64(word: int) -> int:
    """A 64-bit stream key as the signed integer the flat state stores."""
    return word - (1 << 64) if word >= (1 << 63) else word


class StrategyView:
    """The public flat view of a :class:`~.engine.Table` and the decisions asked through it (a part of ``Table``)."""

    def _init_view(self, components, params) -> None:
        initial_state, initial_params = compile_rules(components, self.rules, self.n_players, self.turn_cap)
        self._state = initial_state  # the rules region; the state regions start at zero and only public ones are set
        self._params = initial_params
        params = np.asarray(params, np.float64)
        for p in range(self.n_players):
            self._state[layout.KINDS + p] = self.kinds[p]
            for j in range(min(layout.N_PARAMS, params.shape[1])):
                self._params[layout.F_PARAMS + p * layout.N_PARAMS + j] = params[p, j]
        self.lookahead = {}         # seat: (playouts, base kind); the seat decides as its base strategy otherwise
        for p in range(self.n_players):
            if self.kinds[p] == strategies.LOOKAHEAD:
                base = int(base_kind_nb(self._params, p))
                self.lookahead[p] = (int(playouts_nb(self._params, p)), base)
                self._state[layout.KINDS + p] = base
                row = layout.F_BASE + base * layout.N_PARAMS
                seat = layout.F_PARAMS + p * layout.N_PARAMS
                self._params[seat:seat + layout.N_PARAMS] = self._params[row:row + layout.N_PARAMS]
        if len(self.choices) > MAX_SCRIPT:
            raise ValueError(f"at most {MAX_SCRIPT} scripted choices, got {len(self.choices)}")
        self._state[layout.CHOICE_SCRIPT:layout.CHOICE_SCRIPT + len(self.choices)] = self.choices

    def public_view(self, legal: Sequence[tuple[int, int]] = (), candidates: Sequence[int] = ()):
        """The flat ``(s, f)`` arrays the strategy functions read, holding only public information: shared
        scalars, every player's counters and card counts per value, Town stack sizes, this decision's legal rows or
        candidates, the active seat's strategy stream and the choice script position."""
        state = self._state
        p = self.active
        state[layout.SC:layout.SC + enums.N_SC] = self.scalars()
        for q, player in enumerate(self.players):
            state[layout.PL + q * enums.N_PL:layout.PL + (q + 1) * enums.N_PL] = player.counters()
            state[layout.HAND_N + q * layout.NV:layout.HAND_N + (q + 1) * layout.NV] = [len(c) for c in player.cards]
        state[layout.TOWN_N:layout.TOWN_N + layout.NV] = [len(stack) for stack in self.town]
        for i, (act, v) in enumerate(legal):
            state[layout.LEGAL + 2 * i] = act
            state[layout.LEGAL + 2 * i + 1] = v
        state[layout.CAND:layout.CAND + len(candidates)] = list(candidates)
        stream = self.strategy_streams[p]
        flat_seek_nb(state, layout.stream_at(2 + p), _as_int64(stream.key), stream.counter)
        state[layout.M_CHOICE_N] = len(self.choices)
        state[layout.M_CHOICE_I] = self.choice_i
        return state, self._params

    def decide(self, decision, *args, legal=(), candidates=()):
        """Ask the active seat's strategy (a jitted ``strategies`` function) and keep its random stream and the
        choice script in step with what it consumed."""
        p = self.active
        state, params = self.public_view(legal, candidates)
        answer = decision(state, params, p, *args)
        self.strategy_streams[p].counter = int(state[layout.stream_at(2 + p) + 1])
        self.choice_i = int(state[layout.M_CHOICE_I])
        return answer

    def choose(self, decision, options: Sequence, *args, **view):
        """A decision that picks one of `options` by index."""
        i = int(self.decide(decision, *args, len(options), **view))
        if not 0 <= i < len(options):
            raise ValueError(f"seat {self.active}: choice {i} out of range for {len(options)} options "
                             f"(scripted choices {self.choices})")
        return options[i]

    def choose_action(self, legal: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """The active seat's (take | flip, value) row: its strategy's choice, or a lookahead seat's search (none
        when there is one row, as in the kernel)."""
        p = self.active
        if p not in self.lookahead:
            return self.choose(strategies.choose_action_nb, legal, legal=legal)
        if len(legal) == 1:
            return legal[0]
        playouts, base = self.lookahead[p]
        self._unseen_view()
        return self.choose(lambda s, f, q, n: search_nb(s, f, q, n, playouts, base), legal, legal=legal)

    def _unseen_view(self) -> None:
        """``LOC``: each card not yet flipped (in the Town or held) as in the Town, every other as in the trunk;
        ``GRIM``: the revealed Grimoire cards, then the others in id order. (Both sets are public.)"""
        state = self._state
        state[layout.LOC:layout.LOC + layout.MAX_CARDS] = LOC_TRUNK
        for cards in self.town[1:] + [c for player in self.players for c in player.cards[1:]]:
            state[[layout.LOC + c for c in cards]] = LOC_TOWN
        left = set(self.grimoire)
        order = [g for g in range(len(self.book.grimoire)) if g not in left] + sorted(left)
        state[layout.GRIM:layout.GRIM + len(order)] = order
