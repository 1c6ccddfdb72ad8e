"""A Climbing Tower table for rule tests: a scenario compiled into the kernel's state array, set up, with helpers to
script deals and choices, stack the piles, run phases and read the trace (shared by the rule and strategy tests)."""
from __future__ import annotations

import numpy as np

from balance.games.climbing_tower import SPEC, STRATEGIES
from balance.games.climbing_tower import enums as E
from balance.games.climbing_tower import layout as L
from balance.games.climbing_tower import rules as K
from balance.games.climbing_tower import strategies as S
from balance.games.climbing_tower.rules import play, rounds, setup
from balance.scenario import load_scenario

SCRIPTED = S.SCRIPTED
TRACE_ROWS = 4000


class Table:
    """One game's state and parameters: ``t.s`` (with a trace region) and ``t.f``; card and tower names map to
    ids through ``t.card(name)``."""

    def __init__(self, rules=None, components=None, seats=("scripted", "scripted"), params=None, seed=1, game=0,
                 tower=("001", "003", "006"), boss_side="A"):
        r = {"tower": list(tower) if tower is not None else "random", "boss_side": boss_side, **(rules or {})}
        if r["tower"] == "random":
            r.pop("tower")
        if r["boss_side"] is None:
            r.pop("boss_side")
        names = [n if n != "scripted" else "random" for n in seats]
        self.scenario = load_scenario({"game": "climbing_tower", "players": 2, "seat_rotation": False,
                                       "seats": [{"name": n} for n in names], "rules": r,
                                       "components": components or {}})
        s0, f0, kinds, prm, _ = SPEC.compile_scenario(self.scenario)
        self.s = np.zeros(s0.shape[0] + 5 * TRACE_ROWS, np.int64)
        self.s[:s0.shape[0]] = s0
        self.f = f0.copy()
        for p, n in enumerate(seats):
            self.s[L.KINDS + p] = SCRIPTED if n == "scripted" else STRATEGIES[n].kind
            vec = STRATEGIES[names[p]].vector((params or {}).get(p, {}))
            for k, v in enumerate(vec):
                self.f[L.F_PARAMS + p * L.N_PARAMS + k] = v
        self.names = [c.name for c in self.scenario.components.cards]
        setup.reset_nb(self.s, np.uint64(seed), game)

    # --- reading -----------------------------------------------------------------------------------------------
    def card(self, name: str) -> int:
        return self.names.index(name)

    def sc(self, k: int) -> int:
        return int(self.s[L.SC + k])

    def pl(self, p: int, k: int) -> int:
        return int(self.s[L.PL + p * L.N_PL + k])

    def floor(self, p: int) -> int:
        return self.pl(p, L.PL_FLOOR)

    def hand(self, p: int) -> list[str]:
        n = self.pl(p, L.PL_HAND_N)
        return [self.names[int(self.s[L.HAND + p * L.MAX_HAND + i])] for i in range(n)]

    def loc(self, name: str) -> int:
        return int(self.s[L.LOC + self.card(name)])

    def standing(self, floor: int, side: int) -> int:
        lo, hi = int(self.s[L.FLOOR_LO + floor]), int(self.s[L.FLOOR_HI + floor])
        return int(sum(self.s[L.STANDING + 2 * slot + side] for slot in range(lo, hi + 1)))

    def tokens_on_tower(self) -> int:
        return int(self.s[L.STANDING:L.STANDING + 2 * L.MAX_SLOTS].sum())

    def final(self, p: int, name: str) -> int:
        return int(self.s[L.FINAL + p * L.N_FINAL + L.FINAL_NAMES.index(name)])

    def team(self, name: str) -> int:
        return int(self.s[L.TEAM + L.TEAM_NAMES.index(name)])

    def events(self, kind: int | None = None) -> list[tuple]:
        n = int(self.s[L.M_TRACE])
        rows = self.s[L.TRACE:L.TRACE + 5 * n].reshape(n, 5)
        return [tuple(int(x) for x in r) for r in rows if kind is None or r[0] == kind]

    def legal(self, p: int) -> list[tuple[str, str]]:
        """p's legal rows as (action name, card name)."""
        from balance.games.climbing_tower.rules.play import turn_row_nb
        n = play.legal_nb(self.s, p)
        rows = [turn_row_nb(self.s, p, i) for i in range(n)]
        return [(E.ACT_NAMES[int(a)], self.names[int(c)]) for a, c in rows]

    # --- arranging -----------------------------------------------------------------------------------------------
    def deals(self, *cards: str) -> None:
        """The next deals, card names in order (start player's hand, the other's, then the draw pile top first)."""
        K.script_deals(self.s, [self.card(c) for c in cards])

    def choices(self, *rows: int) -> None:
        K.script_choices(self.s, list(rows))

    def put_in_deck(self, *cards: str) -> None:
        """These cards join the common deck (taken from wherever they are; piles are not repacked)."""
        for c in cards:
            self.s[L.LOC + self.card(c)] = E.LOC_DECK
        owned = [c for c in range(len(self.names)) if self.s[L.LOC + c] == E.LOC_DECK]
        self.s[L.OWNED:L.OWNED + len(owned)] = owned
        self.s[L.SC + L.SC_DECK_N] = len(owned)

    def deck_only(self, *cards: str) -> None:
        """The common deck is exactly these cards (the others leave the game)."""
        for i in range(len(self.names)):
            if self.s[L.LOC + i] == E.LOC_DECK:
                self.s[L.LOC + i] = E.LOC_OUT
        self.put_in_deck(*cards)

    def set_floor(self, p: int, floor: int) -> None:
        self.s[L.PL + p * L.N_PL + L.PL_FLOOR] = floor

    def set_standing(self, slot: int, side: int, n: int) -> None:
        floor = int(self.s[L.SLOT_FLOOR + slot])
        self.s[L.ON_FLOOR + 2 * floor + side] += n - self.s[L.STANDING + 2 * slot + side]
        self.s[L.STANDING + 2 * slot + side] = n

    def gain(self, skill: str) -> None:
        self.s[L.SC + L.SC_SKILLS] |= 1 << E.SKILL_KINDS.index(skill)

    # --- playing ----------------------------------------------------------------------------------------------
    def play_phase(self, start: int = 0) -> int:
        return int(rounds.play_phase_nb(self.s, self.f, start, None))

    def end_play(self) -> None:
        play.end_play_nb(self.s)

    def build(self, builder: int = 0) -> None:
        from balance.games.climbing_tower.rules.build import return_cards_nb
        return_cards_nb(self.s)
        rounds.build_phase_nb(self.s, self.f, builder)

    def next_round(self) -> None:
        from balance.games.climbing_tower.rules.build import next_round_nb
        next_round_nb(self.s)

    def play_on(self) -> None:
        rounds.play_on_nb(self.s, self.f, None)
