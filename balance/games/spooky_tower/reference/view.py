"""What the strategies see: the reference engine asks the same jitted strategy functions as the kernel, through a
flat array holding only public information (counts, counters, the clock ...)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ....core.rng import flat_seek_nb
from .. import enums
from .. import layout
from ..compile import compile_rules

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
