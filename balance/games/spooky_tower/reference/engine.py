"""Spooky Tower reference engine: the rulebook as plain, readable Python.

This is the executable rulebook. It plays exactly the games the Numba kernel plays (same scenario, seed and game
index give the same events, move for move), but it is written from the rulebook and the pydantic settings, not from
the kernel's flat state: players, Town stacks, the Grimoire and the Park are lists (top of a pile = last item),
effect chains resolve by recursion, and the immediate win is an exception.
``tests/games/spooky_tower/test_differential.py`` plays both engines on thousands of seeds; ``narrate`` tells one
reference game in English or JSON lines.

Two things are shared with the kernel on purpose:

* randomness: ``balance.core.rng.PyStream`` keyed by (seed, game, purpose), the plain twin of the kernel's streams;
* decisions: the same jitted strategy functions (``strategies.*_nb``). They read a flat array, so
  :meth:`Table.public_view` builds one holding only what every player can see (counts, counters, the clock...).

Card ids are given as ``compile_rules`` gives them: by Building value ascending, then in the listed order of Photos.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ....core.rng import PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, PyStream, py_shuffled
from .. import enums
from .. import strategies
from ..components import SpookyTowerComponents, SpookyTowerRules
from .cards import VALUES, CardBook
from .effects import Effects
from .state import GameOver, Player, ReferenceGame, Revealed, SeatSnapshot, Snapshot
from .view import StrategyView


class Table(StrategyView, Effects):
    """A game of Spooky Tower in progress.

    ``dice`` (scripted dice, used before the dice stream), ``town`` ({value: card ids bottom to top}, replacing the
    shuffled stack) and ``choices`` (decisions of seats playing the scripted strategy) mirror the kernel's test hooks
    ``script_dice``, ``stack_town`` and ``script_choices``.
    """

    def __init__(self, components: SpookyTowerComponents, rules: SpookyTowerRules, n_players: int, turn_cap: int,
                 kinds, params, seed: int, game: int, *, dice: Sequence[int] = (),
                 town: dict[int, Sequence[int]] | None = None, choices: Sequence[int] = ()):
        self.book = CardBook.from_components(components)
        self.rules = rules
        self.n_players = n_players
        self.turn_cap = turn_cap
        self.kinds = tuple(int(k) for k in kinds)
        self.seed, self.game = int(seed), int(game)
        self.events: list[tuple[int, int, int, int, int]] = []
        self.snapshots: list[Snapshot] = []
        self.counters = np.zeros((n_players, enums.N_VALUES, enums.N_CNT), np.int64)
        self.dice_script = list(dice)
        self.choices = list(choices)
        self.choice_i = 0
        self._setup(town or {})
        self._init_view(components, params)

    # --- Setup ---------------------------------------------------------------------------------------------------

    def _setup(self, town: dict[int, Sequence[int]]) -> None:
        """Setup: shuffle each Building (values 1..12), then the Grimoire; pets and fragments in the centre; every
        Reroll token available; the clock hand at midnight; the Park stack with its first card on top."""
        book = self.book
        self.dice = PyStream(self.seed, self.game, PURPOSE_DICE)
        self.deal = deal = PyStream(self.seed, self.game, PURPOSE_SHUFFLE)
        self.strategy_streams = [PyStream(self.seed, self.game, PURPOSE_STRATEGY + p) for p in range(self.n_players)]
        self.town: list[list[int]] = [[]]
        for v in VALUES:
            self.town.append(py_shuffled(range(book.first[v], book.first[v] + book.count[v]), deal))
        self.grimoire = list(reversed(py_shuffled(range(len(book.grimoire)), deal)))    # top = last
        self.park = list(reversed(range(len(book.park))))                            # top = last
        for v, cards in town.items():
            self.town[v] = list(cards)
        self.players = [Player(p) for p in range(self.n_players)]
        self.pets_centre = book.ghost_pets
        self.fragment_reserve = book.amulet_fragments
        self.clock = 0
        self.turn = 0
        self.round = 0
        self.active = 0
        self.extra_owed = 0
        self.clues_gained = 0        # this turn
        self.extra_gained = 0        # extra-turn effects this turn
        self.winner = -1
        self.victory = enums.WIN_NONE

    # --- events and snapshots ------------------------------------------------------------------------------------

    def emit(self, kind: int, player: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        self.events.append((kind, player, a, b, c))

    def scalars(self) -> list[int]:
        """The shared scalars in ``enums.SC_*`` order."""
        return [self.clock, len(self.book.grimoire) - len(self.grimoire), len(self.book.park) - len(self.park),
                self.pets_centre, self.fragment_reserve, self.turn, self.round, self.winner, self.victory,
                self.extra_owed, self.clues_gained, self.extra_gained, self.active]

    def snapshot(self) -> Snapshot:
        return Snapshot(
            turn=self.turn,
            seats=tuple(SeatSnapshot(tuple(tuple(c) for c in pl.cards), pl.ghosts, pl.pets, pl.fragments, pl.clues,
                                     pl.token) for pl in self.players),
            town=tuple(len(stack) for stack in self.town), clock=self.clock, grimoire_left=len(self.grimoire),
            park_left=len(self.park), pets_left=self.pets_centre, fragments_left=self.fragment_reserve)

    # --- Gameplay Overview ---------------------------------------------------------------------------------------

    def play(self) -> None:
        """Seat 0 starts, then clockwise; an owed extra turn is played by the same seat first. The game ends at a
        win, or unfinished when the turn cap is reached before a turn starts."""
        seat, extra = 0, False
        while True:
            if self.turn >= self.turn_cap:
                self.emit(enums.EV_CAP, -1, self.turn)
                return
            try:
                self.play_turn(seat, extra)
            except GameOver as win:
                self.winner, self.victory = win.winner, win.victory
                self.snapshots.append(self.snapshot())
                return
            self.snapshots.append(self.snapshot())
            if self.extra_owed > 0:
                self.extra_owed -= 1
                extra = True
            else:
                seat, extra = (seat + 1) % self.n_players, False

    def play_turn(self, seat: int, extra: bool) -> None:
        """1. Roll Dice (maybe reroll), 2. Take a Card or Flip Your Cards (or the clock, when nothing is legal),
        then Go to the Park and count extra turns."""
        self.turn += 1
        self.clues_gained = 0
        self.extra_gained = 0
        self.active = seat
        if seat == 0 and not extra:
            self.round += 1
        self.emit(enums.EV_TURN, seat, self.turn, self.round, int(extra))
        me = self.players[seat]
        d1, d2 = self.roll()
        self.emit(enums.EV_ROLL, seat, d1, d2)
        legal = self.legal_actions(me, d1, d2)
        if me.token:
            reroll = self.decide(strategies.wants_reroll_nb, len(legal), legal=legal)
            if not legal and not reroll and self.rules.stuck_with_token == "reroll":
                reroll = True
            if reroll:
                me.token = False
                d1, d2 = self.roll()
                self.emit(enums.EV_REROLL, seat, d1, d2)
                legal = self.legal_actions(me, d1, d2)
            elif not legal:
                # Stuck, token in hand, declined to reroll: the rule option says what happens.
                clock_moves = self.rules.stuck_with_token == "clock"
                self.emit(enums.EV_STUCK, seat, int(clock_moves))
                if clock_moves:
                    self.clock_penalty()
                self.end_of_turn(me)
                return
        if not legal:
            self.emit(enums.EV_STUCK, seat, 1)
            self.clock_penalty()
        else:
            act, v = self.choose(strategies.choose_action_nb, legal, legal=legal)
            if act == enums.ACT_TAKE:
                self.resolve_all(self.take_building(me, v, by_effect=False))
            else:
                self.resolve_all(self.flip_building(me, v, len(me.cards[v]), by_effect=False))
        self.end_of_turn(me)

    def roll(self) -> tuple[int, int]:
        """Both dice from one word of the dice stream (``PyStream.pair``); scripted dice, while any are left, one
        at a time."""
        if self.dice_script:
            return self.die(), self.die()
        d1, d2 = self.dice.pair(6, 6)
        return d1 + 1, d2 + 1

    def die(self) -> int:
        if self.dice_script:
            return self.dice_script.pop(0)
        return self.dice.below(6) + 1

    def legal_actions(self, me: Player, d1: int, d2: int) -> list[tuple[int, int]]:
        """Distinct (take | flip, value) for a single die or the sum: takes first, then flips, values ascending.
        A take needs a card in that Town stack, a flip a card of that value in hand."""
        lo, hi = min(d1, d2), max(d1, d2)
        values = [lo] + ([hi] if hi != lo else []) + [d1 + d2]
        takes = [(enums.ACT_TAKE, v) for v in values if self.town[v]]
        flips = [(enums.ACT_FLIP, v) for v in values if me.cards[v]]
        return takes + flips

    def clock_penalty(self) -> None:
        """No legal action and no Reroll token: the clock hand moves one step and its effect applies."""
        self.resolve(Revealed(enums.FX_CLOCK, enums.SRC_RULE, 0))

    def end_of_turn(self, me: Player) -> None:
        """Go to the Park if clues were gained this turn; then the extra turns earned."""
        if self.clues_gained > 0:
            if self.decide(strategies.wants_park_nb):
                self.go_to_park(me)
            else:
                self.emit(enums.EV_PARK_SKIP, me.seat)
        earned = self.extra_gained if self.rules.extra_turns == "stack" else min(self.extra_gained, 1)
        self.extra_owed += earned

    def go_to_park(self, me: Player) -> None:
        """Take Park cards from the top while the clues cover the top card's requirement."""
        while self.park and me.clues >= self.book.park[self.park[-1]]:
            k = self.park.pop()
            need = self.book.park[k]
            me.clues -= need
            me.ghosts += self.book.park_ghosts
            self.emit(enums.EV_PARK, me.seat, k, need)
            self.check_win(me)

    def check_win(self, me: Player) -> None:
        """End of the Game: enough ghosts (pets count) or enough Amulet fragments win at once."""
        if me.ghosts + me.pets >= self.book.ghosts_to_win:
            victory = enums.WIN_GHOSTS
        elif me.fragments >= self.book.fragments_to_win:
            victory = enums.WIN_AMULET
        else:
            return
        self.emit(enums.EV_WIN, me.seat, victory)
        raise GameOver(me.seat, victory)

    # --- Take a Card / Flip Your Cards ---------------------------------------------------------------------------

    def take_building(self, me: Player, v: int, by_effect: bool) -> list[Revealed]:
        """Take the top card of Building v, Building side up; returns its bonus effects, revealed."""
        card = self.town[v].pop()
        me.cards[v].append(card)
        self.counters[me.seat, v, enums.CNT_TAKEN] += 1
        self.emit(enums.EV_TAKE, me.seat, v, card, int(by_effect))
        return [Revealed(fx, enums.SRC_BONUS, card) for fx in self.book.bonus[v]]

    def flip_building(self, me: Player, v: int, n_flip: int, by_effect: bool) -> list[Revealed]:
        """Flip the last `n_flip` cards taken of value v to their Photo side; returns every revealed effect, cards in
        the order taken. Flipped cards leave the hand at once."""
        flipped = me.cards[v][len(me.cards[v]) - n_flip:]
        del me.cards[v][len(me.cards[v]) - n_flip:]
        self.emit(enums.EV_FLIP, me.seat, v, n_flip, int(by_effect))
        revealed = []
        for card in flipped:
            self.emit(enums.EV_REVEAL, me.seat, card, v)
            self.counters[me.seat, v, enums.CNT_FLIPPED] += 1
            revealed += [Revealed(fx, enums.SRC_PHOTO, card) for fx in self.book.photo[card]]
        return revealed

    # --- result --------------------------------------------------------------------------------------------------

    def result(self) -> ReferenceGame:
        return ReferenceGame(
            n_players=self.n_players, kinds=self.kinds, seed=self.seed, game=self.game, book=self.book,
            events=self.events, snapshots=self.snapshots, winner=self.winner, victory=self.victory,
            turns=self.turn, rounds=self.round,
            final=np.array([pl.counters() for pl in self.players], np.int64),
            scalars=np.array(self.scalars(), np.int64), counters=self.counters.copy(),
            town=[list(stack) for stack in self.town],
            draws=self.dice.counter + self.deal.counter + sum(st.counter for st in self.strategy_streams))


def play_reference(components: SpookyTowerComponents, rules: SpookyTowerRules, n_players: int, turn_cap: int,
                   kinds, params, seed: int, game: int, *, dice: Sequence[int] = (),
                   town: dict[int, Sequence[int]] | None = None, choices: Sequence[int] = ()) -> ReferenceGame:
    """Play game `game` of run `seed` with the reference engine (the kernel's inputs, seat i playing lineup slot i).

    ``dice``, ``town`` and ``choices`` script the game as ``rules.script_dice``, ``stack_town`` and
    ``script_choices`` do (applied after the setup shuffles).
    """
    kinds = np.asarray(kinds, np.int64)
    if kinds.shape[0] != n_players:
        raise ValueError(f"{kinds.shape[0]} strategy kinds for {n_players} players")
    table = Table(components, rules, n_players, turn_cap, kinds, params, seed, game, dice=dice, town=town,
                  choices=choices)
    table.play()
    return table.result()


def scenario_lineup(scenario, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Strategy kinds and parameters by seat in game `game` of a scenario's run: with seat rotation, seat s plays
    lineup slot (s + game) mod P, as the batch kernel seats them."""
    kinds, params = scenario.strategy_lineup()
    kinds = np.asarray(kinds, np.int64)
    params = np.asarray(params, np.float64)
    if scenario.seat_rotation:
        slots = (np.arange(kinds.shape[0]) + game) % kinds.shape[0]
        kinds, params = kinds[slots], params[slots]
    return np.ascontiguousarray(kinds), np.ascontiguousarray(params)


def play_scenario(scenario, seed: int | None = None, game: int = 0, **script) -> ReferenceGame:
    """Reference game `game` of a :class:`balance.scenario.Scenario`'s run (its own seed unless `seed` is given;
    seats rotated as the run rotates them). ``script``: ``dice``, ``town``, ``choices`` as in :func:`play_reference`.
    """
    kinds, params = scenario_lineup(scenario, game)
    played = play_reference(scenario.components, scenario.rules, scenario.players, scenario.turn_cap, kinds, params,
                            scenario.seed if seed is None else seed, game, **script)
    played.scenario = scenario
    return played
