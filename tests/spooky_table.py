"""The rule-test table for Spooky Tower: one game set up by hand, every seat playing the "scripted" strategy.

Shared by ``games/spooky_tower/test_rules.py`` and ``test_rules_settings.py``. :class:`Table` compiles a scenario's
rules and components, resets a game with a trace region, and plays single turns with scripted dice
(``turn(dice=...)``) and scripted decisions (``choices=...``: reroll 0/1, index into the legal rows, index into the
candidates, victim index, Park 0/1), after the Town is stacked (``on_top``, ``give``, ``to_trunk``) and the Grimoire
dealt (``grimoire_on_top``). ``card(v, k)`` is the k-th listed Photo of value v.
"""
from __future__ import annotations

import numpy as np

from balance.games.spooky_tower import enums as E
from balance.games.spooky_tower import rules as K
from balance.games.spooky_tower import layout as L
from balance.games.spooky_tower import strategies as S
from balance.games.spooky_tower.compile import compile_rules
from balance.games.spooky_tower.components import SpookyTowerComponents, SpookyTowerRules

NO, YES = 0, 1                       # scripted reroll / Park answers
TAKE, FLIP = E.ACT_TAKE, E.ACT_FLIP


class Table:
    """One game set up by hand: every seat scripted, a trace region, helpers to stack and read it."""

    def __init__(self, players=2, rules=None, components=None, turn_cap=1000, seed=1, rows=5000, **rule_opts):
        rules = rules or SpookyTowerRules(**rule_opts)
        s0, f0 = compile_rules(components or SpookyTowerComponents(), rules, players, turn_cap)
        self.s = np.zeros(s0.size + 5 * rows, np.int64)
        self.s[:s0.size] = s0
        self.f = f0.copy()
        self.players = players
        self.s[L.KINDS:L.KINDS + players] = S.SCRIPTED
        K.reset_nb(self.s, np.uint64(seed), 0)
        self.seen = 0                # trace rows already returned by turn()

    # --- reading -------------------------------------------------------------------------------------------
    def pl(self, p, k):
        return int(self.s[L.pl_at(p, k)])

    def sc(self, k):
        return int(self.s[L.SC + k])

    def card(self, v, k):
        return int(self.s[L.VALUE_FIRST + v] + k)

    def town(self, v):
        return [int(c) for c in self.s[L.town_at(v, 0):L.town_at(v, 0) + self.s[L.TOWN_N + v]]]

    def hand(self, p, v):
        return [int(c) for c in self.s[L.hand_at(p, v, 0):L.hand_at(p, v, 0) + self.s[L.hand_n_at(p, v)]]]

    def loc(self, c):
        return int(self.s[L.LOC + c])

    def events(self):
        n = int(self.s[L.M_TRACE])
        return [tuple(int(x) for x in r) for r in self.s[L.TRACE:L.TRACE + 5 * n].reshape(n, 5)]

    # --- setting up ----------------------------------------------------------------------------------------
    def set_pl(self, p, k, n):
        self.s[L.pl_at(p, k)] = n

    def set_sc(self, k, n):
        self.s[L.SC + k] = n

    def on_top(self, v, *cards):
        """Stack value v so that `cards` are on top (the first listed is the very top); the rest keep their order."""
        rest = [c for c in self.town(v) if c not in cards]
        K.stack_town(self.s, v, rest + list(reversed(cards)))

    def to_trunk(self, v):
        """Empty value v's Town stack into the trunk (as if flipped earlier), keeping card conservation."""
        for c in self.town(v):
            self.s[L.LOC + c] = K.LOC_TRUNK
        K.stack_town(self.s, v, [])

    def give(self, p, *cards):
        """Seat p holds these cards (in the order listed, last = most recently taken), moved out of the Town."""
        for c in cards:
            v = int(self.s[L.CARD_VALUE + c])
            assert self.loc(c) == K.LOC_TOWN
            K.stack_town(self.s, v, [x for x in self.town(v) if x != c])
            self.s[L.hand_at(p, v, self.s[L.hand_n_at(p, v)])] = c
            self.s[L.hand_n_at(p, v)] += 1
            self.s[L.pl_at(p, E.PL_HELD)] += 1
            self.s[L.LOC + c] = p

    def give_pets(self, p, n):
        """Move n Ghost Pets from the centre to seat p."""
        self.s[L.SC + E.SC_PETS_CENTER] -= n
        self.s[L.pl_at(p, E.PL_PETS)] += n

    def grimoire_on_top(self, *cards):
        """Deal the Grimoire so that these card indices are revealed next, in this order."""
        top = self.sc(E.SC_GRIM_TOP)
        n = int(self.s[L.OPT + E.OPT_N_GRIMOIRE])
        rest = [int(g) for g in self.s[L.GRIM + top:L.GRIM + n] if g not in cards]
        self.s[L.GRIM + top:L.GRIM + n] = list(cards) + rest

    # --- playing -------------------------------------------------------------------------------------------
    def turn(self, p=0, dice=(), choices=(), extra=0):
        """Play one turn of seat p with these dice and decisions; returns the events of that turn."""
        K.script_dice(self.s, dice)
        K.script_choices(self.s, choices)
        K.play_turn_nb(self.s, self.f, p, extra)
        assert self.s[L.M_DICE_I] == len(dice), "scripted dice left over"
        assert self.s[L.M_CHOICE_I] == len(choices), "scripted decisions left over"
        ev = self.events()[self.seen:]
        self.seen += len(ev)
        return ev

    def play_on(self, dice=(), choices=()):
        K.script_dice(self.s, dice)
        K.script_choices(self.s, choices)
        K.play_on_nb(self.s, self.f, 0, 0, None)
        return self.events()


def kinds(events):
    return [e[0] for e in events]


def only(events, kind):
    return [e for e in events if e[0] == kind]


def legal(t, p, d1, d2):
    n = K.legal_actions_nb(t.s, p, d1, d2)
    return [(int(t.s[L.LEGAL + 2 * i]), int(t.s[L.LEGAL + 2 * i + 1])) for i in range(n)]


def effect_trail(events):
    """(effect, source kind) of each effect resolved, in order."""
    return [(e[2], e[3]) for e in only(events, E.EV_EFFECT)]
