"""The rule-test table for The Haunted Tower: one game set up by hand, every seat playing the "scripted" strategy.

Shared by ``games/haunted_tower/test_rules.py`` and ``games/haunted_tower/test_rules_combat.py``. :class:`Table`
compiles a scenario (the same ``balance.load_scenario`` + ``compile_scenario`` path every run takes, so ``rules``,
``components`` and ``turn_cap`` are checked as in a scenario file), resets one game with a trace region and, unless
``deal=True``, clears the table: every blue chit dealt at set-up is set aside and no chit lies on the board. Tests then
lay chits by content (``put``), give heroes items and kept monster chits, set hit points, "-1" chits and squares, and
play one turn (``turn``), one fight (``fight``), the set-up placements (``place_chits``) or the rounds (``rounds``),
each with scripted dice and scripted decisions.

Scripts are strict: every die of the step must be scripted (the dice stream must not move) and every decision
scripted and used (a sentinel after the script makes one decision more stop the game as illegal, and the count of
used decisions is checked). The scripted strategy's answers (``strategies.SCRIPTED``): squares for ``move`` and the
placements (``place_blue`` takes two answers: hand index, square), 0/1/2 for ``trade_in``, 0/1 for ``trade_accept``,
an index into the candidates (``CAND``, docs/rules/haunted_tower.md section 4) for everything else (-1 for none where
the list has none).

Squares are named by the map's (level, row, col) as ``balance show-map`` draws them (``sq``); ``show`` draws the
table (heroes as seat digits, chits as ``?`` face down and ``!`` face up).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import balance
from balance.games.haunted_tower import board as B
from balance.games.haunted_tower import board_of, compile_scenario
from balance.games.haunted_tower.rules import combat as C
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import rules as K
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower.rules import pieces as P
from balance.games.haunted_tower.rules import setup as SU
from balance.games.haunted_tower import strategies as S
from balance.games.haunted_tower.compile import chit_contents

SENTINEL = 7777                      # after the scripted decisions: one decision more is an illegal answer
FREE_CLIMB = 2                       # board.dist table with climbing allowed everywhere


# The hero cards the rule tests are written against, fixed here so that a change to the reconstructed defaults
# (components.hero_list, an assumption a designer may replace) does not change what these tests compute.
TEST_HEROES = [
    {"name": "fighter", "speed": 3, "hp": 8, "attack": 3, "ac": 7, "ability": "damage_bonus", "ability_value": 1},
    {"name": "dwarf", "speed": 2, "hp": 9, "attack": 3, "ac": 7, "ability": "extra_weapon_slot", "ability_value": 1},
    {"name": "elf", "speed": 3, "hp": 6, "attack": 2, "ac": 6, "ability": "magic"},
    {"name": "magic_user", "speed": 3, "hp": 5, "attack": 1, "ac": 5, "ability": "magic"},
    {"name": "cleric", "speed": 3, "hp": 7, "attack": 2, "ac": 7, "ability": "undead_bonus", "ability_value": 2},
    {"name": "thief", "speed": 4, "hp": 6, "attack": 2, "ac": 6, "ability": "run_bonus", "ability_value": 2},
]


class Table:
    """One Haunted Tower game set up by hand: every seat scripted, a trace region, helpers to lay it out and read it.

    ``heroes``: hero names by seat (default the scenario's order: fighter, dwarf, elf, magic_user, cleric, thief),
    with the cards of TEST_HEROES unless ``components`` gives its own.
    ``rules`` / ``components``: the scenario's ``[rules]`` / ``[components]`` tables (dicts). ``deal``: keep the
    set-up deal (blue chits in hand, nothing placed) for the set-up tests.
    """

    def __init__(self, players=3, heroes=None, rules=None, components=None, turn_cap=1000, seed=1, rows=20000,
                 deal=False):
        rules = dict(rules or {})
        if heroes is not None:
            rules["heroes"] = list(heroes)
        scenario = balance.load_scenario({"game": "haunted_tower", "players": players, "turn_cap": max(10, turn_cap),
                                          "seed": seed, "strategy": {"name": "random"}, "rules": rules,
                                          "components": {"heroes": TEST_HEROES, **(components or {})}})
        self.scenario = scenario
        self.board = board_of(Path(scenario.resources["map"]))
        s0, f0, self.g, self.d, _kinds, _params, heroes_idx, _rot, _hrot = compile_scenario(scenario)
        self.s = np.zeros(s0.size + 5 * rows, np.int64)
        self.s[:s0.size] = s0
        self.s[L.OPT + L.OPT_TURN_CAP] = turn_cap          # scenarios start at 10; a test may cap lower
        self.f = f0.copy()
        self.players = players
        self.comp = scenario.components
        self.contents = chit_contents(scenario.components)
        self.s[L.KINDS:L.KINDS + players] = S.SCRIPTED
        self.s[L.SEAT_HERO:L.SEAT_HERO + players] = heroes_idx[:players]
        SU.reset_nb(self.s, self.g, np.uint64(seed), 0)
        if not deal:
            self.clear()
        self.seen = 0

    # --- names -------------------------------------------------------------------------------------------------
    def monster(self, name):
        return [m.name for m in self.comp.monsters].index(name)

    def item(self, name):
        return [i.name for i in self.comp.items].index(name)

    def hero(self, name):
        return [h.name for h in self.comp.heroes].index(name)

    def chits_of(self, name, colour=None):
        """Ids of every chit holding this monster or item (of this colour: E.BLUE, E.PURPLE, E.SPECTER_CHIT)."""
        kind, index = ((E.CONTENT_MONSTER, self.monster(name)) if name in [m.name for m in self.comp.monsters]
                       else (E.CONTENT_ITEM, self.item(name)))
        return [c for c, (col, k, i) in enumerate(self.contents)
                if k == kind and i == index and (colour is None or col == colour)]

    @property
    def specter_chit(self):
        return len(self.contents) - 1

    def spare(self, name, colour=None):
        """A chit of this content that is out of play (set aside), to lay on the board or hand to a hero."""
        for c in self.chits_of(name, colour):
            if self.loc(c) in (E.LOC_ASIDE, E.LOC_CUP):
                return c
        raise AssertionError(f"no spare chit of {name!r}")

    def sq(self, level, row, col):
        """The square at (level, row, col) of the map (row 1 / col 1: the first grid line / character)."""
        return self.board.square_at[(level, row, col)]

    def where(self, q):
        """(level, row, col) of square q."""
        return int(self.board.level[q]), int(self.board.row[q]), int(self.board.col[q])

    def cost(self, a, b, table=FREE_CLIMB):
        return int(self.board.dist[table, a, b])

    def show(self, level=None):
        marks = {}
        for q in range(self.board.n_squares):
            c = int(self.s[L.SQ_CHIT + q])
            if c >= 0:
                marks[q] = "!" if self.s[L.CHIT_FACEUP + c] else "?"
            h = int(self.s[L.SQ_HERO + q])
            if h >= 0:
                marks[q] = str(h)
        return B.render(self.board, marks, level=level)

    # --- reading -------------------------------------------------------------------------------------------------
    def hs(self, p, k):
        return int(self.s[L.hs_at(p, k)])

    def sc(self, k):
        return int(self.s[L.SC + k])

    def opt(self, k):
        return int(self.s[L.OPT + k])

    def loc(self, c):
        return int(self.s[L.CHIT_LOC + c])

    def chit_sq(self, c):
        return int(self.s[L.CHIT_SQ + c])

    def owner(self, c):
        return int(self.s[L.CHIT_OWNER + c])

    def faceup(self, c):
        return int(self.s[L.CHIT_FACEUP + c])

    def at_sq(self, q):
        """(chit, hero seat) on square q, -1 for none."""
        return int(self.s[L.SQ_CHIT + q]), int(self.s[L.SQ_HERO + q])

    def items(self, p):
        return [int(x) for x in self.s[L.held_at(p, 0):L.held_at(p, 0) + self.hs(p, L.HS_N_ITEMS)]]

    def hand(self, p):
        return [int(x) for x in self.s[L.hand_at(p, 0):L.hand_at(p, 0) + self.hs(p, L.HS_HAND_N)]]

    def level_chits(self, level):
        return int(self.s[L.LEVEL_CHITS + level])

    def cand(self, n=None):
        n = self.sc(L.SC_N_CAND) if n is None else n
        return [int(x) for x in self.s[L.CAND:L.CAND + n]]

    def events(self):
        n = int(self.s[L.M_TRACE])
        assert 5 * n <= self.s.size - L.TRACE, "trace overflow"
        return [tuple(int(x) for x in r) for r in self.s[L.TRACE:L.TRACE + 5 * n].reshape(n, 5)]

    def new_events(self):
        ev = self.events()[self.seen:]
        self.seen += len(ev)
        return ev

    # --- setting up ----------------------------------------------------------------------------------------------
    def clear(self):
        """No chit in any hand or on the board: the dealt blue chits go aside; the trace starts empty."""
        for p in range(self.players):
            self.s[L.hs_at(p, L.HS_HAND_N)] = 0
        for c in range(len(self.contents)):
            if self.loc(c) in (E.LOC_HAND, E.LOC_CUP):
                P.set_loc_nb(self.s, c, E.LOC_ASIDE)
            self.s[L.CHIT_OWNER + c] = -1
            P.set_placer_nb(self.s, c, -1)
        self.s[L.M_TRACE] = 0
        self.seen = 0

    def put(self, name, q, face_up=False, colour=None, placer=-1):
        """Lay a chit of this content on square q: face down, or face up (a revealed item on the floor; a revealed
        monster such as the Specter after a fight). Returns its id."""
        c = self.spare(name, colour)
        self.put_chit(c, q, face_up, placer)
        return c

    def put_chit(self, c, q, face_up=False, placer=-1):
        assert self.at_sq(q)[0] < 0, f"square {self.where(q)} holds a chit"
        item = self.contents[c][1] == E.CONTENT_ITEM
        assert self.s[L.CHIT_FACEUP + c] == 0, "a chit is turned face down only by a game's reset"
        if face_up:
            P.turn_up_nb(self.s, c)
        P.lay_chit_nb(self.s, self.g, c, q, E.LOC_FLOOR if face_up and item else E.LOC_BOARD)
        P.set_placer_nb(self.s, c, placer)

    def remove(self, c):
        """Chit c leaves the board (set aside)."""
        P.lift_chit_nb(self.s, self.g, c)
        P.set_loc_nb(self.s, c, E.LOC_ASIDE)

    def empty_level(self, level):
        for c in range(len(self.contents)):
            q = self.chit_sq(c)
            if q >= 0 and self.board.level[q] == level:
                self.remove(c)

    def give(self, p, *names, colour=None):
        """Hero p carries items of these contents (in this order, after what it carries). Returns their ids."""
        out = []
        for name in names:
            c = self.spare(name, colour)
            P.carry_nb(self.s, p, c)
            out.append(c)
        return out

    def keep(self, p, *names, colour=None):
        """Hero p killed monsters of these contents earlier: it has their chits and stand-ups. Returns the ids."""
        out = []
        for name in names:
            c = self.spare(name, colour)
            P.keep_monster_nb(self.s, p, c)
            out.append(c)
        return out

    def set_hs(self, p, k, n):
        self.s[L.hs_at(p, k)] = n

    def set_hp(self, p, hp):
        self.set_hs(p, L.HS_HP, hp)

    def set_drains(self, p, n):
        self.set_hs(p, L.HS_DRAINS, n)

    def place(self, p, q):
        """Hero p stands on square q."""
        assert self.at_sq(q)[1] in (-1, p), f"square {self.where(q)} holds a hero"
        P.place_hero_nb(self.s, p, q)

    def set_out(self, p):
        self.set_hs(p, L.HS_OUT, 1)
        self.s[L.SC + L.SC_IN] -= 1
        P.place_hero_nb(self.s, p, -1)

    # --- playing -------------------------------------------------------------------------------------------------
    def _script(self, dice, choices):
        K.script_dice(self.s, dice)
        K.script_choices(self.s, list(choices) + [SENTINEL])
        self._words = [int(self.s[L.stream_at(i) + 1]) for i in range(2 + self.players)]

    def _check_script(self, dice, choices):
        words = [int(self.s[L.stream_at(i) + 1]) for i in range(2 + self.players)]
        assert words[0] == self._words[0], f"{words[0] - self._words[0]} unscripted dice rolled"
        assert words[2:] == self._words[2:], "a strategy drew from its stream"
        assert self.s[L.M_DICE_I] == len(dice), f"{len(dice) - int(self.s[L.M_DICE_I])} scripted dice left over"
        used = int(self.s[L.M_CHOICE_I])
        assert used <= len(choices), "a decision more than scripted was asked"
        assert used == len(choices), f"{len(choices) - used} scripted decisions left over"

    def turn(self, p=0, dice=(), choices=()):
        """Play one hero turn of seat p with these dice and decisions; returns the events of the turn
        (``self.on``: play_turn_nb's answer, False when the game stops)."""
        self._script(dice, choices)
        self.s[L.SC + L.SC_ACTIVE] = p
        on = K.play_turn_nb(self.s, self.f, self.g, self.d, p)
        self._check_script(dice, choices)
        self.on = bool(on)
        return self.new_events()

    def fight(self, p, c, dice=(), choices=()):
        """One encounter of hero p with the monster on chit c (already revealed or not); returns the events. The
        outcome (combat.MONSTER_DIED, HERO_ESCAPED, HERO_DIED, MONSTER_LEFT, STOP) is in ``self.result``."""
        self._script(dice, choices)
        self.s[L.SC + L.SC_ACTIVE] = p
        self.result = int(C.fight_nb(self.s, self.f, self.g, self.d, p, c))
        self._check_script(dice, choices)
        return self.new_events()

    def place_chits(self, dice=(), choices=(), strict=True):
        """The set-up after the deal: the roll-off and every placement (``strict=False``: unscripted placements take
        the scripted strategy's default, the first legal square). Returns (placed, events)."""
        K.script_dice(self.s, dice)
        K.script_choices(self.s, list(choices) + ([SENTINEL] if strict else []))
        self._words = [int(self.s[L.stream_at(i) + 1]) for i in range(2 + self.players)]
        ok = bool(SU.place_chits_nb(self.s, self.f, self.g, self.d))
        words = [int(self.s[L.stream_at(i) + 1]) for i in range(2 + self.players)]
        assert words[0] == self._words[0] and self.s[L.M_DICE_I] == len(dice)
        if strict:
            assert int(self.s[L.M_CHOICE_I]) == len(choices)
        return ok, self.new_events()

    def rounds(self, dice=(), choices=()):
        """Play rounds (kernel.play_rounds_nb) to the end of the game; returns the events."""
        self._script(dice, choices)
        K.play_rounds_nb(self.s, self.f, self.g, self.d)
        self._check_script(dice, choices)
        return self.new_events()

    def finish(self):
        """Ending the Game and Winning: the score rows and the winner."""
        K.finish_nb(self.s)
        return self.new_events()


def kinds(events):
    return [e[0] for e in events]


def only(events, *kinds_):
    return [e for e in events if e[0] in kinds_]


def names(events):
    return [E.EVENT_NAMES[e[0]] for e in events]
