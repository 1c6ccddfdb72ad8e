"""The Climbing Tower reference engine: the rules as plain, readable Python.

This is the executable rulebook of Climbing Tower. It plays exactly the games the Numba kernel plays (same scenario,
seed and game index give the same events, row for row, and the same final counts), but it is written from the
rulebook summary (``docs/sources/climbing_tower_rules_en.md``), the rules as simulated
(``docs/rules/climbing_tower.md``) and the event list (``docs/trace.md``), not from the kernel's flat state: the
tower is a list of places holding printed floors (slots) joined into floors, the players hold Python lists of card
ids, the decks are lists and sets, and each phase is a method named after its rulebook section.
``tests/games/climbing_tower/test_differential.py`` plays both engines on thousands of games; ``narrate.py`` tells
one game.

This module is the table and its rounds; the set-up is in ``setup.py``, the play phase in ``play.py``, the build and
next-round phases in ``build.py`` (each a part of the table), the pieces (places, slots, floors, players, snapshots,
the result) in ``pieces.py``, and what a strategy sees and how each decides in ``strategies.py``.

Shared with the kernel on purpose, and only these:

* randomness: ``balance.core.rng.PyStream`` keyed by (seed, game, purpose): the shuffle stream (set-up and the rounds'
  shuffles, ``rng.py_shuffled``, and the BOSS side) and one stream per seat for its strategy;
* the strategies' numbers (``strategies.RANDOM`` ...); the strategies themselves are re-written in this package's
  ``strategies.py`` (its docstring says why) and see only a :class:`~.strategies.View`.

Card ids are the scenario's card list order; tower cards are numbered as listed (001 = 0); floors count from 0 at
the bottom here and in the events (``narrate`` adds 1 for people).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ....core.rng import PURPOSE_SHUFFLE, PURPOSE_STRATEGY, PyStream
from .. import enums
from .. import layout
from ..components import TOKENS, ClimbingTowerComponents, ClimbingTowerRules
from .build import BuildAndNextRound
from .pieces import ReferenceGame, Snapshot, StandingView
from .play import PlayPhase
from .setup import SetUp
from .strategies import ChoiceScript, PlayCard, Strategy, View

MAX_SCRIPT = 512            # the kernel's script regions (``layout.CHOICE_SCRIPT``, ``layout.DEAL_SCRIPT``)
LEFT, RIGHT = enums.LEFT, enums.RIGHT


# --- the game --------------------------------------------------------------------------------------------------------

class Table(SetUp, PlayPhase, BuildAndNextRound):
    """A game of Climbing Tower in progress.

    ``choices`` (answers of seats playing the scripted strategy) and ``deals`` (card ids the next deals use in order
    instead of shuffles) mirror the kernel's test hooks ``script_choices`` and ``script_deals``.
    """

    def __init__(self, components: ClimbingTowerComponents, rules: ClimbingTowerRules, kinds, params, seed: int,
                 game: int, *, choices: Sequence[int] = (), deals: Sequence[int] = ()):
        if len(choices) > MAX_SCRIPT or len(deals) > MAX_SCRIPT:
            raise ValueError(f"at most {MAX_SCRIPT} scripted choices and deals, got {len(choices)} and {len(deals)}")
        self.c, self.rules = components, rules
        self.seed, self.game = int(seed), int(game)
        self.kinds = (int(kinds[0]), int(kinds[1]))
        self.cards = [PlayCard(i, k.name, k.level, k.colour, k.number, k.swords, k.arrows)
                      for i, k in enumerate(components.cards)]
        self.shuffle_stream = PyStream(self.seed, self.game, PURPOSE_SHUFFLE)
        self.strategy_streams = [PyStream(self.seed, self.game, PURPOSE_STRATEGY + p) for p in range(2)]
        script = ChoiceScript(choices)
        self.strategies = [Strategy(self.kinds[p], params[p], self.strategy_streams[p], script) for p in range(2)]
        self.deal_script = [int(c) for c in deals]
        self.events: list[tuple[int, int, int, int, int]] = []
        self.snapshots: list[Snapshot] = []
        self.round = self.turn = 0
        self.start = 0
        self.gold = 0
        self.supply_tokens = TOKENS
        self.skills: set[int] = set()
        self.card_count = [dict.fromkeys(layout.CARD_COUNTER_NAMES, 0) for _ in self.cards]
        self.skill_count = [dict.fromkeys(layout.SKILL_COUNTER_NAMES, 0) for _ in range(layout.N_SKILLS)]
        self.team = dict.fromkeys(layout.TEAM_NAMES, 0)
        self.top: int | None = None
        self.free_play_used = False
        self.blocked: int | None = None
        self.draw_pile: list[int] = []
        self.played: list[int] = []
        self.discard: list[int] = []
        self.winner, self.victory = -1, enums.WIN_NONE
        self.set_up()

    def emit(self, kind: int, player: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        self.events.append((kind, player, int(a), int(b), int(c)))

    # --- the rounds ------------------------------------------------------------------------------------------------

    def play(self) -> None:
        """Rounds until the BOSS falls or the round limit: play phase, build phase, next-round phase (the last
        round has no build). The start player alternates from the first player (or is always the first)."""
        limit = self.rules.round_limit
        while self.round < limit:
            self.round += 1
            self.start = (self.round - 1) % 2 if self.rules.start_player == "alternate" else 0
            self.emit(enums.EV_ROUND, self.start, self.round, len(self.deck), 0)
            if self.play_phase(self.start):
                self.finish(won=True)
                return
            self.end_play_phase()
            self.gather_cards()
            if self.round == limit:
                break
            self.build_phase(self.start)
            self.next_round()
        self.finish(won=False)

    # --- the end ---------------------------------------------------------------------------------------------------

    def finish(self, won: bool) -> None:
        """The BOSS defeated (the team wins), or the round limit with a pawn on the BOSS floor or none."""
        if won:
            self.winner, self.victory = 0, enums.WIN_BOSS
        elif any(pl.floor == self.boss_floor for pl in self.players):
            self.victory = enums.LOST_AT_BOSS
        else:
            self.victory = enums.LOST_BELOW
        self.emit(enums.EV_END, -1, self.victory, self.round, self.boss.damage)
        self.gather_cards()
        for pl in self.players:
            pl.count["floor"] = pl.floor + 1
        for c in range(len(self.cards)):
            self.card_count[c]["in_deck_end"] = int(c in self.deck)
        self.team["deck_end"] = len(self.deck)

    # --- what a strategy sees, snapshots, the result ---------------------------------------------------------------

    def view(self, seat: int) -> View:
        """The deciding seat's view (``strategies.fill_view_nb``): the partner's hand only while the players may
        communicate."""
        me, partner = self.players[seat], self.players[1 - seat]
        talk = self.rules.communication == "always" or (
            self.rules.communication == "same_floor" and me.floor == partner.floor)
        return View(
            seat=seat, hand=tuple(self.cards[c] for c in me.hand),
            partner_hand=tuple(self.cards[c] for c in partner.hand) if talk else None,
            partner_card_down=partner.face_down is not None,
            pawn_floors=(self.players[0].floor, self.players[1].floor),
            pawn_sides=(self.players[0].side, self.players[1].side), boss_floor=self.boss_floor,
            boss_hp=self.boss.hp, boss_damage=self.boss.damage, boss_needs_both=self.boss.both_pawns,
            standing=StandingView(self.floors), deck_size=len(self.deck),
            piles=tuple(tuple(self.cards[c] for c in pile) for pile in self.piles))

    def take_snapshot(self) -> None:
        p0, p1 = self.players
        self.snapshots.append(Snapshot(
            round=self.round, turn=self.turn, events=len(self.events), start=self.start, floors=(p0.floor, p1.floor),
            hands=(tuple(p0.hand), tuple(p1.hand)),
            face_down=tuple(-1 if pl.face_down is None else pl.face_down for pl in self.players),
            top=-1 if self.top is None else self.top, draw_pile=len(self.draw_pile),
            standing=tuple((f.standing(LEFT), f.standing(RIGHT)) for f in self.floors), gold=self.gold,
            fallen=tuple((f.fallen(LEFT), f.fallen(RIGHT)) for f in self.floors),
            missing=tuple((f.missing(LEFT), f.missing(RIGHT)) for f in self.floors),
            supply_tokens=self.supply_tokens, boss_damage=self.boss.damage, skills=tuple(sorted(self.skills)),
            deck_size=len(self.deck)))

    def result(self) -> ReferenceGame:
        return ReferenceGame(
            seed=self.seed, game=self.game, kinds=self.kinds, card_names=tuple(k.name for k in self.cards),
            card_icons=tuple((k.swords, k.arrows) for k in self.cards), tower_list=tuple(t.name for t in self.c.tower),
            pile_names=self.pile_names,
            boss_names=(self.c.boss[0].name, self.c.boss[1].name), tower_names=tuple(p.name for p in self.places),
            sides=(self.players[0].side, self.players[1].side), floor_count=len(self.floors), boss_hp=self.boss.hp,
            events=self.events,
            snapshots=self.snapshots, winner=self.winner, victory=self.victory, turns=self.turn, rounds=self.round,
            final=np.array([[pl.count[k] for k in layout.FINAL_NAMES] for pl in self.players], np.int64),
            cards=np.array([[cc[k] for k in layout.CARD_COUNTER_NAMES] for cc in self.card_count], np.int64).reshape(
                len(self.cards), layout.N_CC),
            skills=np.array([[sc[k] for k in layout.SKILL_COUNTER_NAMES] for sc in self.skill_count], np.int64),
            team=np.array([self.team[k] for k in layout.TEAM_NAMES], np.int64), tower=self.tower_id,
            boss_side=self.boss.side,
            draws=self.shuffle_stream.counter + sum(st.counter for st in self.strategy_streams))


# --- entry points ----------------------------------------------------------------------------------------------------

def play_reference(components: ClimbingTowerComponents, rules: ClimbingTowerRules, kinds, params, seed: int,
                   game: int, *, choices: Sequence[int] = (), deals: Sequence[int] = ()) -> ReferenceGame:
    """Play game `game` of run `seed` with the reference engine: seat s plays strategy kinds[s] with parameters
    params[s]. ``choices`` and ``deals`` script the game as ``rules.script_choices`` and ``rules.script_deals``
    do."""
    if len(kinds) != enums.PLAYERS:
        raise ValueError(f"{len(kinds)} strategy kinds (allowed: exactly {enums.PLAYERS})")
    table = Table(components, rules, kinds, np.asarray(params, np.float64), seed, game, choices=choices,
                  deals=deals)
    table.play()
    return table.result()


def scenario_lineup(scenario, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Strategy kinds and parameters by seat in game `game` of a scenario's run: with seat rotation seat s plays
    lineup slot (s + game) mod 2, as the batch kernel seats them; parameters padded to ``layout.N_PARAMS``."""
    kinds, params = scenario.strategy_lineup()
    kinds = np.asarray(kinds, np.int64)
    p = np.zeros((2, layout.N_PARAMS), np.float64)
    p[:, :min(layout.N_PARAMS, params.shape[1])] = np.asarray(params, np.float64)[:, :layout.N_PARAMS]
    if scenario.seat_rotation:
        slots = (np.arange(2) + game) % 2
        kinds, p = kinds[slots], p[slots]
    return np.ascontiguousarray(kinds), np.ascontiguousarray(p)


def play_scenario(scenario, seed: int | None = None, game: int = 0, **script) -> ReferenceGame:
    """Reference game `game` of a :class:`balance.scenario.Scenario`'s run (its own seed unless `seed` is given;
    seats rotated as the run rotates them). ``script``: ``choices``, ``deals`` as in :func:`play_reference`."""
    kinds, params = scenario_lineup(scenario, game)
    played = play_reference(scenario.components, scenario.rules, kinds, params,
                            scenario.seed if seed is None else seed, game, **script)
    played.scenario = scenario
    return played
