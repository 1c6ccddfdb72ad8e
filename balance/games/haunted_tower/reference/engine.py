"""The Haunted Tower reference engine: the rulebook as plain, readable Python.

This is the executable rulebook of The Haunted Tower. It plays exactly the games the Numba kernel plays (same scenario,
seed and game index give the same events, row for row), but it is written from the rulebook
(``docs/sources/haunted_tower_rulebook.txt``), the rules as simulated (``docs/rules/haunted_tower.md``, sections 2 and
4) and the event list (``docs/trace.md``), not from the kernel: heroes are dataclasses and chits small objects, hands,
the cup and a hero's items are Python lists, the end of the game is an exception, and each rule is a method named after
its section. ``tests/games/haunted_tower/test_differential*.py`` play both engines on thousands of games.

The sections of the rulebook are the methods of :class:`Table`: here The Order of Play, Experience, Ending the Game
and Winning; Setting Up the Board in ``setup.py``; Movement, Encountering a Chit and Magical Items in ``movement.py``;
the combat sections (Initiative, Attacking, Running Away, Damage, Dying, the monsters' special abilities, the Specter)
in ``combat.py``; and what a strategy is shown before each decision in ``view.py``.

Rulings the documents leave open, as the kernel plays them (each reported, none a rule option): a hero's second
death, which puts it out of the game, gives no "-1" chit; a death ends a ghoul's hold; with `trading` on, a hero
may offer a trade after its move only when it encountered no chit that turn (stopping to trade ends a move, as an
encounter does); an illegal blue-chit placement reports the square as the answer.

Shared with the kernel on purpose, and only these:

* randomness: ``balance.core.rng.PyStream`` keyed by (seed, game, purpose): the dice stream (each die ``below(6) + 1``
  or ``below(10) + 1``), the shuffle stream (``rng.py_shuffled``) and one stream per seat for its strategy;
* decisions: the same jitted functions of ``strategies``. They read a flat array, so :meth:`Table.decide`
  writes one from this engine's objects before every call (``layout``'s regions), with the content of every chit
  the deciding seat does not know blanked (-1): a strategy that peeked would play differently here;
* the map: ``board.Board`` (adjacency, doors, rooms, the movement costs ``dist[t]``).

The pieces (chits, heroes, snapshots, the result) are in ``pieces.py``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from ....core.rng import PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, PyStream
from ..board import N_LEVELS, Board
from .. import board_of
from .. import enums
from .. import layout
from .. import strategies
from ..components import HauntedTowerComponents, HauntedTowerRules, Item, Monster
from .combat import Combat, GameEnds
from .pieces import Chit, Hero, HeroSnapshot, ReferenceGame, Snapshot, number_chits
from .lookahead import Lookahead
from .view import View
from .movement import Movement
from .setup import SetUp


# --- the game --------------------------------------------------------------------------------------------------------

class Table(SetUp, Movement, Combat, Lookahead, View):
    """A game of The Haunted Tower in progress.

    ``dice`` (used before the dice stream, one die per entry) and ``choices`` (decisions of seats playing the
    scripted strategy) mirror the kernel's test hooks ``script_dice`` and ``script_choices``.
    """

    def __init__(self, components: HauntedTowerComponents, rules: HauntedTowerRules, board: Board,
                 n_players: int, turn_cap: int, kinds, params, heroes: Sequence[int], seed: int, game: int, *,
                 dice: Sequence[int] = (), choices: Sequence[int] = ()):
        self.c, self.rules, self.board = components, rules, board
        self.n_players, self.turn_cap = n_players, turn_cap
        self.kinds = tuple(int(k) for k in kinds)
        self.seed, self.game = int(seed), int(game)
        self.monsters: list[Monster] = list(components.monsters)
        self.item_table: list[Item] = list(components.items)
        self.hero_names = [h.name for h in components.heroes]
        self.chits = number_chits(components)
        self.specter = self.chits[-1]
        self.dice_stream = PyStream(self.seed, self.game, PURPOSE_DICE)
        self.shuffle_stream = PyStream(self.seed, self.game, PURPOSE_SHUFFLE)
        self.strategy_streams = [PyStream(self.seed, self.game, PURPOSE_STRATEGY + p) for p in range(n_players)]
        self.dice_script = list(dice)
        self.choices = list(choices)
        self.choice_i = 0
        self.events: list[tuple[int, int, int, int, int]] = []
        self.snapshots: list[Snapshot] = []
        self.mcnt = np.zeros((n_players, len(self.monsters), layout.N_MC), np.int64)
        self.icnt = np.zeros((n_players, len(self.item_table), layout.N_IC), np.int64)
        n = board.n_squares
        self.chit_on = np.full(n, -1, np.int64)      # chit lying on each square
        self.hero_on = np.full(n, -1, np.int64)      # hero (seat) standing on each square
        self.on_level = [0] * (N_LEVELS + 1)       # chits lying on Tower 1, 2, 3 (index 0 unused)
        self.hidden_on = [0] * (N_LEVELS + 1)      # ... of them face down
        self.room_blue = [0] * board.n_rooms
        self.room_full = [0] * board.n_rooms
        self.room_purple = [0] * board.n_rooms
        self.cup: list[int] = []             # purple chits still in the cup, next drawn first
        self.heroes = [Hero(p, int(heroes[p]), components.heroes[int(heroes[p])], int(board.outside[p]),
                            components.heroes[int(heroes[p])].hp) for p in range(n_players)]
        for h in self.heroes:
            self.hero_on[h.square] = h.seat
        self.round_no = self.turn_no = 0
        self.active = 0
        self.first = -1
        self.round_start = -1
        self.level_filled = 0                # level being filled with purple chits
        self.mp = self.climb = self.left = 0
        self.path: list[int] = []            # this turn's path, start first
        self.battle = None                   # combat.Fight while a monster is fought
        self.victim = -1
        self.winner, self.win_mask, self.victory, self.specter_killer = -1, 0, enums.WIN_NONE, -1
        self._init_view(params)

    # --- dice, shuffles, events ------------------------------------------------------------------------------------

    def die(self, faces: int) -> int:
        """1d6 or 1d10 (the "0" counts as 10): a scripted die while any is left, else one word of the dice stream."""
        if self.dice_script:
            return self.dice_script.pop(0)
        return self.dice_stream.below(faces) + 1

    def emit(self, kind: int, player: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        self.events.append((kind, player, a, b, c))

    # --- what a square, a room, a level holds ----------------------------------------------------------------------

    def level_chits(self, level: int) -> int:
        """Chits lying on a level: face down, face up (the Specter, items on the floor) or being fought."""
        return self.on_level[level]

    def level_hidden(self, level: int) -> int:
        """Face-down chits lying on a level."""
        return self.hidden_on[level]

    def gate_open(self, level: int) -> bool:
        """Has the level been emptied for its gate: no face-down chit left on it (`gate_opens = "all_revealed"`), or
        no chit at all (`"no_chits"`)?"""
        left = self.level_hidden(level) if self.rules.gate_opens == "all_revealed" else self.level_chits(level)
        return left == 0

    def free(self, q: int) -> bool:
        """No hero and no chit on square q."""
        return self.chit_on[q] < 0 and self.hero_on[q] < 0

    def put_chit(self, ch: Chit, q: int, loc: int) -> None:
        """The chit lies on square q (face down, or face up: ``loc``)."""
        self.lift_chit(ch, loc)
        ch.square = q
        self.chit_on[q] = ch.id
        self.on_level[self.board.level[q]] += 1
        self.hidden_on[self.board.level[q]] += not ch.face_up

    def lift_chit(self, ch: Chit, loc: int, owner: int = -1) -> None:
        """The chit leaves its square, if on one (taken, kept, gone), for ``loc``."""
        if ch.square >= 0:
            self.chit_on[ch.square] = -1
            self.on_level[self.board.level[ch.square]] -= 1
            self.hidden_on[self.board.level[ch.square]] -= not ch.face_up
        ch.loc, ch.square, ch.owner = loc, -1, owner

    def move_hero(self, h: Hero, q: int) -> None:
        if h.square >= 0 and self.hero_on[h.square] == h.seat:
            self.hero_on[h.square] = -1
        h.square = q
        if q >= 0:
            self.hero_on[q] = h.seat

    def adjacent(self, q: int) -> list[int]:
        """The squares adjacent to q for encounters, drops and trades (the map's adjacency, no door edges)."""
        return [int(x) for x in self.board.adj[q] if x >= 0]

    # --- The Order of Play -------------------------------------------------------------------------------------------

    def play(self) -> None:
        """Set up, then rounds until the game ends; then the score."""
        try:
            self.setup()
            while True:
                self.round()
        except GameEnds as end:
            self.victory = end.victory
        self.finish()

    def in_game(self) -> list[int]:
        return [h.seat for h in self.heroes if not h.out]

    def round(self) -> None:
        """Every hero still in rolls 1d10 (roll off ties); from the highest, clockwise, each hero still in takes a
        turn."""
        seats = self.in_game()
        start = seats[0] if len(seats) == 1 else self.rolloff(seats, 1)
        self.round_no += 1
        self.round_start = start
        self.emit(enums.EV_ROUND, -1, self.round_no, start)
        for k in range(self.n_players):
            h = self.heroes[(start + k) % self.n_players]
            if h.out:
                continue
            if self.turn_no >= self.turn_cap:
                self.emit(enums.EV_CAP, -1, self.turn_no)
                raise GameEnds(enums.WIN_NONE)
            try:
                self.turn(h)
            finally:
                self.snapshots.append(self.snapshot())
            if not self.in_game():
                raise GameEnds(enums.WIN_ALL_OUT)

    def turn(self, h: Hero) -> None:
        """Experience trade-ins and a potion; Movement; Encountering a Chit; trading; dropping an item."""
        self.turn_no += 1
        self.active = h.seat
        self.mp = self.climb = self.left = 0
        self.path = [h.square]
        self.emit(enums.EV_TURN, h.seat, self.turn_no, self.round_no)
        self.experience(h)
        self.drink_at_start(h)
        self.move(h)
        deaths = h.deaths
        encountered = self.encounter(h)
        if h.out or h.deaths != deaths:
            return
        if self.rules.trading and not encountered:      # one stop a turn: an encounter or a trade
            self.offer_trade(h)
        self.drop(h)

    # --- Experience ----------------------------------------------------------------------------------------------

    def kept_of(self, h: Hero, purple: bool) -> list[int]:
        return [c for c in h.kept if self.chits[c].purple_backed == purple]

    def experience(self, h: Hero) -> None:
        """A hero with a "-1" chit may trade in two blue monster chits or one purple monster chit to remove it,
        asked again after each trade."""
        while h.drains > 0 and (len(self.kept_of(h, False)) >= 2 or self.kept_of(h, True)):
            answer = int(self.decide(strategies.trade_in_nb, h.seat, h.seat))
            if answer == enums.TRADE_NONE:
                return
            if answer == enums.TRADE_TWO_BLUE and len(self.kept_of(h, False)) >= 2:
                paid = self.kept_of(h, False)[:2]
            elif answer == enums.TRADE_ONE_PURPLE and self.kept_of(h, True):
                paid = self.kept_of(h, True)[:1]
            else:
                self.illegal(h.seat, enums.DEC_TRADE_IN, answer)
            for c in paid:
                h.kept.remove(c)
                self.chits[c].loc, self.chits[c].owner = enums.LOC_GONE, -1
            h.drains -= 1
            h.trade_ins += 1
            self.emit(enums.EV_TRADE_IN, h.seat, answer, h.drains)

    # --- Ending the Game and Winning -------------------------------------------------------------------------------

    def illegal(self, seat: int, decision: int, answer: int) -> None:
        """A strategy answered with something the rules do not allow: the game stops, unfinished."""
        self.emit(enums.EV_ILLEGAL, seat, decision, int(answer))
        raise GameEnds(enums.WIN_NONE)

    def score_lines(self, h: Hero) -> tuple[int, ...]:
        """Winning: stand-ups, chits (blue 1, purple-backed 2), the vampire killed with the stake, damaging the
        Specter, killing it."""
        sc = self.c.scoring
        chits = sum(sc.purple_chit if self.chits[c].purple_backed else sc.blue_chit for c in h.items + h.kept)
        return (h.standups * sc.standup, chits, h.bane_kills * sc.bane_kill, h.specter_hits * sc.specter_damage,
                h.specter_kill * sc.specter_kill)

    def scores(self, h: Hero) -> tuple[int, ...]:
        """The score lines the hero would have if the game ended now: nothing for a hero out of the game unless
        `out_hero_scores`."""
        return self.score_lines(h) if (not h.out or self.rules.out_hero_scores) else (0,) * 5

    def finish(self) -> None:
        """Every seat's points (an out hero's only with `out_hero_scores`); the most points wins, ties by `ties`.
        An unfinished game has no winner."""
        for h in self.heroes:
            h.score = self.scores(h)
            self.emit(enums.EV_SCORE, h.seat, sum(h.score))
            for c in h.items:
                self.icnt[h.seat, self.chits[c].index, layout.IC_HELD_END] += 1
        if self.victory == enums.WIN_NONE:
            return
        points = [sum(h.score) for h in self.heroes]
        best = max(points)
        winners = [p for p in range(self.n_players) if points[p] == best]
        if self.rules.ties == "specter_killer" and self.specter_killer in winners:
            winners = [self.specter_killer]
        self.winner = winners[0]
        self.win_mask = sum(1 << p for p in winners)
        self.emit(enums.EV_WIN, -1, self.victory, self.win_mask)

    # --- snapshots and the result ------------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(
            turn=self.turn_no, round=self.round_no,
            heroes=tuple(HeroSnapshot(h.seat, h.index, h.square, h.hp, h.attack, h.drains, h.deaths, h.out, h.held,
                                      tuple(h.items), tuple(h.kept), h.standups, sum(self.scores(h)),
                                      tuple(self.chits[c].uses for c in h.items))
                         for h in self.heroes),
            chits_left=(self.level_chits(1), self.level_chits(2), self.level_chits(3)),
            board=self.board_chits())

    def board_chits(self) -> tuple[tuple[int, int, bool], ...]:
        """(chit, square, face up) of every chit lying on the board, in chit order: read from the chits' shared
        state rows (``pieces.CHIT_STATE``) at once, instead of chit by chit after every turn."""
        _, square, _, _, face_up, _ = self.chits[0].state
        on = np.flatnonzero(square >= 0)
        return tuple(zip(on.tolist(), square[on].tolist(), (face_up[on] != 0).tolist()))

    def final_counts(self, h: Hero) -> list[int]:
        """The per-seat outputs in ``layout.FINAL_NAMES`` order."""
        blue = sum(1 for c in h.items + h.kept if not self.chits[c].purple_backed)
        purple = len(h.items) + len(h.kept) - blue
        return [sum(h.score), h.standups, blue, purple, h.bane_kills, h.specter_hits, h.specter_kill, h.kills,
                h.deaths, int(h.out), h.drains, h.encounters, h.runs, h.trade_ins, len(h.items), h.damage_dealt,
                h.damage_taken, *h.score, h.fight_cap]

    def result(self) -> ReferenceGame:
        return ReferenceGame(
            n_players=self.n_players, kinds=self.kinds, heroes=tuple(h.index for h in self.heroes), seed=self.seed,
            game=self.game, events=self.events, snapshots=self.snapshots, winner=self.winner,
            win_mask=self.win_mask, victory=self.victory, turns=self.turn_no, rounds=self.round_no,
            final=np.array([self.final_counts(h) for h in self.heroes], np.int64), monsters=self.mcnt.copy(),
            items=self.icnt.copy(),
            draws=self.dice_stream.counter + self.shuffle_stream.counter
            + sum(st.counter for st in self.strategy_streams))


# --- entry points ----------------------------------------------------------------------------------------------------

def play_reference(components: HauntedTowerComponents, rules: HauntedTowerRules, board: Board, n_players: int,
                   turn_cap: int, kinds, params, heroes: Sequence[int], seed: int, game: int, *,
                   dice: Sequence[int] = (), choices: Sequence[int] = ()) -> ReferenceGame:
    """Play game `game` of run `seed` with the reference engine: seat s plays strategy kinds[s] (parameters
    params[s]) and hero heroes[s] (indices into the components' hero list). ``dice`` and ``choices`` script the
    game as ``rules.script_dice`` and ``rules.script_choices`` do."""
    kinds = np.asarray(kinds, np.int64)
    if kinds.shape[0] != n_players or len(heroes) != n_players:
        raise ValueError(f"{kinds.shape[0]} strategy kinds and {len(heroes)} heroes for {n_players} players")
    table = Table(components, rules, board, n_players, turn_cap, kinds, params, heroes, seed, game, dice=dice,
                  choices=choices)
    table.play()
    return table.result()


def scenario_lineup(scenario, game: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Strategy kinds, parameters and heroes by seat in game `game` of a scenario's run, as the batch kernel seats
    them: with seat rotation seat s plays lineup slot (s + game) mod P; seat s plays hero heroes[(s + shift) mod H]
    of the scenario's hero list, shift = game // P with hero rotation, else 0."""
    kinds, params = scenario.strategy_lineup()
    kinds, params = np.asarray(kinds, np.int64), np.asarray(params, np.float64)
    n = kinds.shape[0]
    if scenario.seat_rotation:
        slots = (np.arange(n) + game) % n
        kinds, params = kinds[slots], params[slots]
    names = [h.name for h in scenario.components.heroes]
    listed = [names.index(name) for name in scenario.rules.heroes]
    shift = (game // n) % len(listed) if scenario.rules.hero_rotation else 0
    heroes = [listed[(s + shift) % len(listed)] for s in range(n)]
    return np.ascontiguousarray(kinds), np.ascontiguousarray(params), heroes


def play_scenario(scenario, seed: int | None = None, game: int = 0, *, dice: Sequence[int] = (),
                  choices: Sequence[int] = ()) -> ReferenceGame:
    """Reference game `game` of a :class:`balance.scenario.Scenario`'s run (its own seed unless `seed` is given),
    seated as the run seats it."""
    kinds, params, heroes = scenario_lineup(scenario, game)
    board = board_of(Path(scenario.resources["map"]))
    played = play_reference(scenario.components, scenario.rules, board, scenario.players, scenario.turn_cap, kinds,
                            params, heroes, scenario.seed if seed is None else seed, game, dice=dice, choices=choices)
    played.scenario = scenario
    return played
