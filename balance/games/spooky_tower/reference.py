"""Spooky Tower reference engine: the rulebook as plain, readable Python.

This is the executable rulebook. It plays exactly the games the Numba kernel plays (same scenario, seed and game
index give the same events, move for move), but it is written from the rulebook and the pydantic settings, not from
the kernel's flat state: players, Town stacks, the Grimoire and the Park are lists (top of a pile = last item),
effect chains resolve by recursion, and the immediate win is an exception. ``tests/test_differential.py`` plays
both engines on thousands of seeds; ``narrate.py`` tells one reference game in English or JSON lines.

Two things are shared with the kernel on purpose:

* randomness: ``balance.core.rng.PyStream`` keyed by (seed, game, purpose), the plain twin of the kernel's streams;
* decisions: the same jitted strategy functions (``strategies.*_nb``). They read a flat array, so
  :meth:`Table.public_view` builds one holding only what every player can see (counts, counters, the clock...).

Card ids are given as ``compile_rules`` gives them: by Building value ascending, then in the listed order of Photos.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ...core.rng import PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, PyStream, flat_seek_nb, py_shuffled
from . import enums as E
from . import layout as L
from . import strategies as S
from .components import SpookyTowerComponents, SpookyTowerRules, compile_rules

VALUES = range(1, E.N_VALUES)        # Building values 1..12
TAKE_EFFECTS = (E.FX_TAKE_8MINUS, E.FX_TAKE_ANY)
FLIP_EFFECTS = (E.FX_FLIP_8MINUS, E.FX_FLIP_9PLUS)
MAX_SCRIPT = L.KINDS - L.CHOICE_SCRIPT   # room for scripted choices in the flat view (the kernel's limit too)


class GameOver(Exception):
    """A player reached a victory condition: the game ends at once (rulebook, End of the Game)."""

    def __init__(self, winner: int, victory: int):
        super().__init__(f"seat {winner} wins ({E.VICTORY_NAMES[victory]})")
        self.winner = winner
        self.victory = victory


# --- the components, numbered ------------------------------------------------------------------------------------

def _effect_codes(effects: Sequence[str]) -> tuple[int, ...]:
    """Effect codes of one card; the empty circle ("none") is no effect at all on a card."""
    return tuple(E.EFFECT_CODES[x] for x in effects if x != "none")


@dataclass(frozen=True)
class CardBook:
    """Every component, with card ids as ``compile_rules`` numbers them. Per-value tuples are indexed by value
    (index 0 unused)."""

    value: tuple[int, ...]                     # card id -> Building value
    photo: tuple[tuple[int, ...], ...]         # card id -> Photo effect codes
    first: tuple[int, ...]                     # value -> first card id of that Building
    count: tuple[int, ...]                     # value -> cards of that Building
    bonus: tuple[tuple[int, ...], ...]         # value -> Building-side bonus codes
    ghost_worth: tuple[int, ...]               # value -> ghosts on one ghost Photo
    grimoire: tuple[tuple[int, ...], ...]      # Grimoire card (index as listed) -> effect codes
    grimoire_ghost_worth: int
    dial: tuple[int, ...]                      # dial step 1..N -> effect code ("none" kept: the hand stops there)
    park: tuple[int, ...]                      # Park card (top of the stack first) -> clues needed
    park_ghosts: int
    ghost_pets: int
    amulet_fragments: int
    ghosts_to_win: int
    fragments_to_win: int

    @classmethod
    def from_components(cls, c: SpookyTowerComponents) -> "CardBook":
        by_value = {b.value: b for b in c.buildings}
        value, photo, first, count, bonus, worth = [], [], [0], [0], [()], [1]
        for v in VALUES:
            b = by_value.get(v)
            first.append(len(value))
            count.append(len(b.photos) if b else 0)
            bonus.append(_effect_codes(b.bonus) if b else ())
            worth.append(b.ghost_worth if b else 1)
            for p in (b.photos if b else []):
                value.append(v)
                photo.append(_effect_codes(p))
        return cls(
            value=tuple(value), photo=tuple(photo), first=tuple(first), count=tuple(count), bonus=tuple(bonus),
            ghost_worth=tuple(worth), grimoire=tuple(_effect_codes(g) for g in c.grimoire),
            grimoire_ghost_worth=c.grimoire_ghost_worth, dial=tuple(E.EFFECT_CODES[x] for x in c.clock_dial),
            park=tuple(c.park_requirements), park_ghosts=c.park_ghosts, ghost_pets=c.ghost_pets,
            amulet_fragments=c.amulet_fragments, ghosts_to_win=c.ghosts_to_win,
            fragments_to_win=c.fragments_to_win)


# --- state ---------------------------------------------------------------------------------------------------------

@dataclass
class Player:
    """One House: Building cards held (by value, in the order taken), captures, clues and the Reroll token."""

    seat: int
    cards: list[list[int]] = field(default_factory=lambda: [[] for _ in range(E.N_VALUES)])
    ghosts: int = 0          # ghost Photos (by their worth), Grimoire ghosts and Park cards
    pets: int = 0            # Ghost Pets; each counts as a ghost
    fragments: int = 0
    clues: int = 0
    token: bool = True       # Reroll token on its available side

    @property
    def held(self) -> int:
        return sum(len(cards) for cards in self.cards)

    def counters(self) -> list[int]:
        """The per-player counters in ``enums.PL_*`` order."""
        return [self.ghosts, self.pets, self.fragments, self.clues, int(self.token), self.held]


@dataclass(frozen=True)
class Revealed:
    """One effect waiting to resolve, and where it came from (``enums.SRC_*`` and the card, step or index)."""

    effect: int
    source: int
    source_id: int


@dataclass(frozen=True)
class SeatSnapshot:
    cards: tuple[tuple[int, ...], ...]   # card ids held per value (index 0 unused), in the order taken
    ghosts: int
    pets: int
    fragments: int
    clues: int
    token: bool


@dataclass(frozen=True)
class Snapshot:
    """The table at the end of one turn."""

    turn: int
    seats: tuple[SeatSnapshot, ...]
    town: tuple[int, ...]                # cards left per Town stack, index = value (index 0 unused)
    clock: int
    grimoire_left: int
    park_left: int
    pets_left: int
    fragments_left: int


@dataclass
class ReferenceGame:
    """One finished reference game: its events, a snapshot per turn and the final counts."""

    n_players: int
    kinds: tuple[int, ...]
    seed: int
    game: int
    book: CardBook
    events: list[tuple[int, int, int, int, int]]
    snapshots: list[Snapshot]
    winner: int                          # -1: unfinished at the turn cap
    victory: int                         # enums.WIN_*
    turns: int
    rounds: int
    final: np.ndarray                    # int64[P, N_PL], enums.PL_*
    scalars: np.ndarray                  # int64[N_SC], enums.SC_*
    counters: np.ndarray                 # int64[P, N_VALUES, N_CNT], enums.CNT_*
    town: list[list[int]]                # final Town stacks by value (index 0 unused), bottom to top
    draws: int                           # random numbers drawn, all streams together (dice, shuffles, seats)
    scenario: object = field(default=None, repr=False, compare=False)   # the Scenario of play_scenario; None: pieces


# --- the game --------------------------------------------------------------------------------------------------------

def _as_int64(word: int) -> int:
    """A 64-bit stream key as the signed integer the flat state stores."""
    return word - (1 << 64) if word >= (1 << 63) else word


class Table:
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
        self.counters = np.zeros((n_players, E.N_VALUES, E.N_CNT), np.int64)
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
        self.victory = E.WIN_NONE

    # --- what the strategies see --------------------------------------------------------------------------------

    def _init_view(self, components, params) -> None:
        s0, f0 = compile_rules(components, self.rules, self.n_players, self.turn_cap)
        self._s = s0                 # the rules region; the state regions start at zero and only public ones are set
        self._f = f0
        params = np.asarray(params, np.float64)
        for p in range(self.n_players):
            self._s[L.KINDS + p] = self.kinds[p]
            for j in range(min(L.N_PARAMS, params.shape[1])):
                self._f[L.F_PARAMS + p * L.N_PARAMS + j] = params[p, j]
        if len(self.choices) > MAX_SCRIPT:
            raise ValueError(f"at most {MAX_SCRIPT} scripted choices, got {len(self.choices)}")
        self._s[L.CHOICE_SCRIPT:L.CHOICE_SCRIPT + len(self.choices)] = self.choices

    def public_view(self, legal: Sequence[tuple[int, int]] = (), candidates: Sequence[int] = ()):
        """The flat ``(s, f)`` arrays the strategy functions read, holding only public information: shared
        scalars, every player's counters and card counts per value, Town stack sizes, this decision's legal rows or
        candidates, the active seat's strategy stream and the choice script position."""
        s = self._s
        p = self.active
        s[L.SC:L.SC + E.N_SC] = self.scalars()
        for q, player in enumerate(self.players):
            s[L.PL + q * E.N_PL:L.PL + (q + 1) * E.N_PL] = player.counters()
            s[L.HAND_N + q * L.NV:L.HAND_N + (q + 1) * L.NV] = [len(c) for c in player.cards]
        s[L.TOWN_N:L.TOWN_N + L.NV] = [len(stack) for stack in self.town]
        for i, (act, v) in enumerate(legal):
            s[L.LEGAL + 2 * i] = act
            s[L.LEGAL + 2 * i + 1] = v
        s[L.CAND:L.CAND + len(candidates)] = list(candidates)
        stream = self.strategy_streams[p]
        flat_seek_nb(s, L.stream_at(2 + p), _as_int64(stream.key), stream.counter)
        s[L.M_CHOICE_N] = len(self.choices)
        s[L.M_CHOICE_I] = self.choice_i
        return s, self._f

    def decide(self, decision, *args, legal=(), candidates=()):
        """Ask the active seat's strategy (a jitted ``strategies`` function) and keep its random stream and the
        choice script in step with what it consumed."""
        p = self.active
        s, f = self.public_view(legal, candidates)
        answer = decision(s, f, p, *args)
        self.strategy_streams[p].counter = int(s[L.stream_at(2 + p) + 1])
        self.choice_i = int(s[L.M_CHOICE_I])
        return answer

    def choose(self, decision, options: Sequence, *args, **view):
        """A decision that picks one of `options` by index."""
        i = int(self.decide(decision, *args, len(options), **view))
        if not 0 <= i < len(options):
            raise ValueError(f"seat {self.active}: choice {i} out of range for {len(options)} options "
                             f"(scripted choices {self.choices})")
        return options[i]

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
                self.emit(E.EV_CAP, -1, self.turn)
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
        self.emit(E.EV_TURN, seat, self.turn, self.round, int(extra))
        me = self.players[seat]
        d1, d2 = self.roll()
        self.emit(E.EV_ROLL, seat, d1, d2)
        legal = self.legal_actions(me, d1, d2)
        if me.token:
            reroll = self.decide(S.wants_reroll_nb, len(legal), legal=legal)
            if not legal and not reroll and self.rules.stuck_with_token == "reroll":
                reroll = True
            if reroll:
                me.token = False
                d1, d2 = self.roll()
                self.emit(E.EV_REROLL, seat, d1, d2)
                legal = self.legal_actions(me, d1, d2)
            elif not legal:
                # Stuck, token in hand, declined to reroll: the rule option says what happens.
                clock_moves = self.rules.stuck_with_token == "clock"
                self.emit(E.EV_STUCK, seat, int(clock_moves))
                if clock_moves:
                    self.clock_penalty()
                self.end_of_turn(me)
                return
        if not legal:
            self.emit(E.EV_STUCK, seat, 1)
            self.clock_penalty()
        else:
            act, v = self.choose(S.choose_action_nb, legal, legal=legal)
            if act == E.ACT_TAKE:
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
        takes = [(E.ACT_TAKE, v) for v in values if self.town[v]]
        flips = [(E.ACT_FLIP, v) for v in values if me.cards[v]]
        return takes + flips

    def clock_penalty(self) -> None:
        """No legal action and no Reroll token: the clock hand moves one step and its effect applies."""
        self.resolve(Revealed(E.FX_CLOCK, E.SRC_RULE, 0))

    def end_of_turn(self, me: Player) -> None:
        """Go to the Park if clues were gained this turn; then the extra turns earned."""
        if self.clues_gained > 0:
            if self.decide(S.wants_park_nb):
                self.go_to_park(me)
            else:
                self.emit(E.EV_PARK_SKIP, me.seat)
        earned = self.extra_gained if self.rules.extra_turns == "stack" else min(self.extra_gained, 1)
        self.extra_owed += earned

    def go_to_park(self, me: Player) -> None:
        """Take Park cards from the top while the clues cover the top card's requirement."""
        while self.park and me.clues >= self.book.park[self.park[-1]]:
            k = self.park.pop()
            need = self.book.park[k]
            me.clues -= need
            me.ghosts += self.book.park_ghosts
            self.emit(E.EV_PARK, me.seat, k, need)
            self.check_win(me)

    def check_win(self, me: Player) -> None:
        """End of the Game: enough ghosts (pets count) or enough Amulet fragments win at once."""
        if me.ghosts + me.pets >= self.book.ghosts_to_win:
            victory = E.WIN_GHOSTS
        elif me.fragments >= self.book.fragments_to_win:
            victory = E.WIN_AMULET
        else:
            return
        self.emit(E.EV_WIN, me.seat, victory)
        raise GameOver(me.seat, victory)

    # --- Take a Card / Flip Your Cards ---------------------------------------------------------------------------

    def take_building(self, me: Player, v: int, by_effect: bool) -> list[Revealed]:
        """Take the top card of Building v, Building side up; returns its bonus effects, revealed."""
        card = self.town[v].pop()
        me.cards[v].append(card)
        self.counters[me.seat, v, E.CNT_TAKEN] += 1
        self.emit(E.EV_TAKE, me.seat, v, card, int(by_effect))
        return [Revealed(fx, E.SRC_BONUS, card) for fx in self.book.bonus[v]]

    def flip_building(self, me: Player, v: int, n_flip: int, by_effect: bool) -> list[Revealed]:
        """Flip the last `n_flip` cards taken of value v to their Photo side; returns every revealed effect, cards in
        the order taken. Flipped cards leave the hand at once."""
        flipped = me.cards[v][len(me.cards[v]) - n_flip:]
        del me.cards[v][len(me.cards[v]) - n_flip:]
        self.emit(E.EV_FLIP, me.seat, v, n_flip, int(by_effect))
        revealed = []
        for card in flipped:
            self.emit(E.EV_REVEAL, me.seat, card, v)
            self.counters[me.seat, v, E.CNT_FLIPPED] += 1
            revealed += [Revealed(fx, E.SRC_PHOTO, card) for fx in self.book.photo[card]]
        return revealed

    # --- Description of Effects ----------------------------------------------------------------------------------

    def priority(self, effect: int) -> int:
        """Resolution rank of an effect among those revealed together (lower first)."""
        if self.rules.effect_order == "takes_first":
            if effect in TAKE_EFFECTS:
                return 0
            if effect in FLIP_EFFECTS:
                return 2
        return 1

    def resolve_all(self, revealed: list[Revealed]) -> None:
        """Resolve effects revealed together: by the rule option's priority, then as printed, cards in order."""
        for effect in sorted(revealed, key=lambda r: self.priority(r.effect)):
            self.resolve(effect)

    def resolve(self, r: Revealed) -> None:
        """Apply one effect, check for the win, then resolve at once whatever it revealed (depth first)."""
        me = self.players[self.active]
        self.emit(E.EV_EFFECT, me.seat, r.effect, r.source, r.source_id)
        revealed = self.apply_effect(me, r)
        self.check_win(me)
        self.resolve_all(revealed)

    def apply_effect(self, me: Player, r: Revealed) -> list[Revealed]:
        """One effect of the Description of Effects; returns the effects it reveals (a dial step, a Grimoire card,
        a taken card's bonus, flipped Photos). An effect that cannot be applied is lost."""
        fx, seat = r.effect, me.seat
        if fx == E.FX_GHOST:
            worth = self.ghost_worth(r)
            me.ghosts += worth
            if r.source == E.SRC_PHOTO:
                self.counters[seat, self.book.value[r.source_id], E.CNT_GHOSTS] += worth
            self.emit(E.EV_GHOST, seat, worth)
        elif fx == E.FX_CLUE:
            me.clues += 1
            self.clues_gained += 1
            self.emit(E.EV_CLUE, seat, me.clues)
        elif fx == E.FX_CLOCK:
            return [self.clock_step(me)]
        elif fx == E.FX_GRIMOIRE:
            return self.reveal_grimoire(me)
        elif fx == E.FX_PET:
            self.ghost_pet(me)
        elif fx == E.FX_REROLL:
            me.token = True
            self.emit(E.EV_TOKEN, seat)
        elif fx == E.FX_FRAGMENT:
            if self.fragment_reserve > 0:
                self.fragment_reserve -= 1
                me.fragments += 1
                self.emit(E.EV_FRAGMENT, seat, me.fragments)
            else:
                self.emit(E.EV_LOST, seat, fx)
        elif fx in TAKE_EFFECTS:
            return self.take_effect(me, fx)
        elif fx in FLIP_EFFECTS:
            return self.flip_effect(me, fx)
        elif fx == E.FX_EXTRA_TURN:
            self.extra_gained += 1
            self.emit(E.EV_EXTRA, seat)
        return []

    def ghost_worth(self, r: Revealed) -> int:
        """Ghosts one ghost effect captures: a Photo's Building setting, the Grimoire setting, otherwise one."""
        if r.source == E.SRC_PHOTO:
            return self.book.ghost_worth[self.book.value[r.source_id]]
        if r.source == E.SRC_GRIMOIRE:
            return self.book.grimoire_ghost_worth
        return 1

    def clock_step(self, me: Player) -> Revealed:
        """Clock hand: one step clockwise; returns the effect the hand now shows (step N is midnight)."""
        step = self.clock + 1
        effect = self.book.dial[step - 1]
        self.clock = step % len(self.book.dial)
        self.emit(E.EV_CLOCK, me.seat, self.clock, effect)
        return Revealed(effect, E.SRC_DIAL, step)

    def reveal_grimoire(self, me: Player) -> list[Revealed]:
        """Grimoire: reveal the top card and apply its effects (lost when the deck is empty)."""
        if not self.grimoire:
            self.emit(E.EV_LOST, me.seat, E.FX_GRIMOIRE)
            return []
        g = self.grimoire.pop()
        self.emit(E.EV_GRIMOIRE, me.seat, g, len(self.book.grimoire[g]))
        return [Revealed(fx, E.SRC_GRIMOIRE, g) for fx in self.book.grimoire[g]]

    def ghost_pet(self, me: Player) -> None:
        """Ghost Pet: from the centre; if none is left, steal one from another player of your choice."""
        if self.pets_centre > 0:
            self.pets_centre -= 1
            me.pets += 1
            self.emit(E.EV_PET, me.seat, -1)
            return
        holders = [q.seat for q in self.players if q.seat != me.seat and q.pets > 0]
        if not holders:
            self.emit(E.EV_LOST, me.seat, E.FX_PET)
            return
        victim = self.choose(S.choose_victim_nb, holders, candidates=holders)
        self.players[victim].pets -= 1
        me.pets += 1
        self.emit(E.EV_PET, me.seat, victim)

    def take_effect(self, me: Player, fx: int) -> list[Revealed]:
        """Building value 8 or less / Any Building: take a card of a value you choose (its bonus follows)."""
        highest = 8 if fx == E.FX_TAKE_8MINUS else 12
        values = [v for v in range(1, highest + 1) if self.town[v]]
        if not values:
            self.emit(E.EV_LOST, me.seat, fx)
            return []
        v = self.choose(S.choose_target_nb, values, S.TARGET_TAKE, candidates=values)
        return self.take_building(me, v, by_effect=True)

    def flip_effect(self, me: Player, fx: int) -> list[Revealed]:
        """Flip Building value 8 or less / 9 or more: flip your most recent card of a value you choose (or all of
        them, under flip_scope "building")."""
        span = range(1, 9) if fx == E.FX_FLIP_8MINUS else range(9, 13)
        values = [v for v in span if me.cards[v]]
        if not values:
            self.emit(E.EV_LOST, me.seat, fx)
            return []
        v = self.choose(S.choose_target_nb, values, S.TARGET_FLIP, candidates=values)
        n_flip = len(me.cards[v]) if self.rules.flip_scope == "building" else 1
        return self.flip_building(me, v, n_flip, by_effect=True)

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

    ``dice``, ``town`` and ``choices`` script the game as ``kernel.script_dice``, ``stack_town`` and
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
