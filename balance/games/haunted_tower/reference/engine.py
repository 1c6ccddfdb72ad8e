"""The Haunted Tower reference engine: the rulebook as plain, readable Python.

This is the executable rulebook of The Haunted Tower. It plays exactly the games the Numba kernel plays (same scenario,
seed and game index give the same events, row for row), but it is written from the rulebook
(``docs/sources/haunted_tower_rulebook.txt``), the rules as simulated (``docs/rules/haunted_tower.md``, sections 2 and
4) and the event list (``docs/trace.md``), not from the kernel: heroes are dataclasses and chits small objects, hands,
the cup and a hero's items are Python lists, the end of the game is an exception, and each rule is a method named after
its section. ``tests/games/haunted_tower/test_differential*.py`` play both engines on thousands of games.

The sections of the rulebook are the methods of :class:`Table` here (Setting Up the Board, The Order of Play,
Movement, Encountering a Chit, Magical Items, Experience, Ending the Game, Winning); the combat sections (Initiative,
Attacking, Running Away, Damage, Dying, the monsters' special abilities, the Specter) are in ``combat.py``, and
what a strategy is shown before each decision in ``view.py``.

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

from ....core.rng import PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, PyStream, py_shuffled
from ..board import CLIMB_FROM, EDGE_UP, LEVELS, N_LEVELS, TOP_LEVEL, Board
from .. import board_of
from .. import enums
from .. import layout
from .. import strategies
from ..components import HauntedTowerComponents, HauntedTowerRules, Item, Monster
from .combat import Combat, GameEnds
from .pieces import Chit, Hero, HeroSnapshot, ReferenceGame, Snapshot, number_chits
from .view import View

SLOT_LIMIT = {enums.SLOT_ARMOR: 1, enums.SLOT_WEAPON: 2, enums.SLOT_SHIELD: 1}   # "one kind of armor, two weapons, one
                                                                                 # shield"


# --- the game --------------------------------------------------------------------------------------------------------

class Table(Combat, View):
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

    # --- Setting Up the Board ----------------------------------------------------------------------------------------

    def setup(self) -> None:
        """Place the Blue Chits (draw, roll off, place), then Place the Purple Chits, level by level."""
        blue = [ch.id for ch in self.chits if ch.colour == enums.BLUE]
        pool = py_shuffled(blue, self.shuffle_stream)
        each = self.rules.blue_per_player[self.n_players - enums.MIN_PLAYERS]
        for h in self.heroes:
            h.hand = pool[h.seat * each:(h.seat + 1) * each]
            for c in h.hand:
                ch = self.chits[c]
                ch.loc, ch.owner, ch.placer = enums.LOC_HAND, h.seat, h.seat
                self.emit(enums.EV_DEAL, h.seat, c)
        for c in pool[self.n_players * each:]:
            self.chits[c].loc = enums.LOC_ASIDE
        self.first = self.rolloff(list(range(self.n_players)), 0)
        self.place_blue_chits()
        self.place_purple_chits()

    def rolloff(self, seats: list[int], why: int) -> int:
        """Everyone rolls 1d10 in seat order; the highest wins; tied highest seats roll again ("roll off ties")."""
        while True:
            rolls = []
            for p in seats:
                rolls.append(self.die(10))
                self.emit(enums.EV_ROLLOFF, p, rolls[-1], why)
            best = max(rolls)
            seats = [p for p, r in zip(seats, rolls) if r == best]
            if len(seats) == 1:
                return seats[0]

    def blue_square_ok(self, q: int) -> bool:
        """Chits go in rooms, not on the four squares in front of the double doors, not on another chit; a room
        keeps two empty squares for every blue chit in it, the new one included."""
        if not 0 <= q < self.board.n_squares or q not in self.placeable or self.chit_on[q] >= 0:
            return False
        r = int(self.board.room[q])
        empty_after = int(self.board.room_size[r]) - self.room_full[r] - 1
        return empty_after >= 2 * (self.room_blue[r] + 1)

    def place_blue_chits(self) -> None:
        """From the first player clockwise, one chit at a time, face down, until every hand is empty."""
        p = self.first
        while any(h.hand for h in self.heroes):
            h = self.heroes[p]
            if h.hand:
                self.active = p
                k, q = self.decide(strategies.place_blue_nb, p, self.tables, self.costs, p)
                k, q = int(k), int(q)
                if not 0 <= k < len(h.hand):
                    self.illegal(p, enums.DEC_PLACE_BLUE, k)      # the bad part of the answer is reported
                if not self.blue_square_ok(q):
                    self.illegal(p, enums.DEC_PLACE_BLUE, q)
                ch = self.chits[h.hand.pop(k)]
                self.put_chit(ch, q, enums.LOC_BOARD)
                r = int(self.board.room[q])
                self.room_blue[r] += 1
                self.room_full[r] += 1
                self.emit(enums.EV_PLACE, p, ch.id, q)
            p = (p + 1) % self.n_players

    def place_purple_chits(self) -> None:
        """The cup goes round clockwise from the first player: one purple chit, unseen, in each room of Tower 1, then
        Tower 2; then the Specter's chit joins the cup, the cup is shaken, and Tower 3 is filled the same way. The
        Specter is always placed: of what is left in the cup, Tower 3's rooms less one go back with it, and any
        surplus (a scenario with more purple chits than the rooms need) is set aside first."""
        purple = [ch.id for ch in self.chits if ch.colour == enums.PURPLE]
        self.cup = py_shuffled(purple, self.shuffle_stream)
        p = self.first
        for level in LEVELS:
            if level == TOP_LEVEL:
                keep = self.board.rooms_per_level[level - 1] - 1
                for c in self.cup[keep:]:
                    self.chits[c].loc = enums.LOC_ASIDE
                self.cup = py_shuffled(self.cup[:keep] + [self.specter.id], self.shuffle_stream)
            self.level_filled = level
            for _ in range(self.board.rooms_per_level[level - 1]):
                self.active = p
                q = int(self.decide(strategies.place_purple_nb, p, self.tables, self.costs, p, level))
                if not self.purple_square_ok(q, level):
                    self.illegal(p, enums.DEC_PLACE_PURPLE, q)
                ch = self.chits[self.cup.pop(0)]
                self.put_chit(ch, q, enums.LOC_BOARD)
                r = int(self.board.room[q])
                self.room_full[r] += 1
                self.room_purple[r] = 1
                self.emit(enums.EV_PLACE, p, ch.id, q)
                p = (p + 1) % self.n_players
        for c in self.cup:
            self.chits[c].loc = enums.LOC_ASIDE
        self.cup = []
        self.level_filled = 0

    def purple_square_ok(self, q: int, level: int) -> bool:
        """Any free square of a room (not in front of the double doors) on this level without a purple chit yet."""
        if not 0 <= q < self.board.n_squares or q not in self.placeable or self.chit_on[q] >= 0:
            return False
        r = int(self.board.room[q])
        return int(self.board.level[q]) == level and not self.room_purple[r]

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

    # --- Magical Items: potions ------------------------------------------------------------------------------------

    def item_of(self, c: int) -> Item:
        return self.item_table[self.chits[c].index]

    def potions(self, h: Hero) -> list[int]:
        return [c for c in h.items if self.item_of(c).heal > 0]

    def drink_at_start(self, h: Hero) -> None:
        """At the start of its turn the hero may drink one potion it carries."""
        potions = self.potions(h)
        if potions:
            c = self.choose(strategies.potion_nb, enums.DEC_POTION, [-1] + potions, h.seat, h.seat)
            if c >= 0:
                self.drink(h, c)

    def drink(self, h: Hero, c: int) -> None:
        """A potion heals its hit points, up to the hero's maximum."""
        h.hp = min(h.card.hp, h.hp + self.item_of(c).heal)
        self.emit(enums.EV_POTION, h.seat, c, h.hp)
        self.use_once(h, c)

    def use_once(self, h: Hero, c: int) -> None:
        """Limited Uses: a limited item loses a use; after its last it is removed from the game."""
        ch = self.chits[c]
        if self.item_of(c).uses == 0:
            return
        ch.uses -= 1
        if ch.uses <= 0:
            h.items.remove(c)
            ch.loc, ch.owner = enums.LOC_GONE, -1
            self.emit(enums.EV_USED_UP, h.seat, c)

    # --- Movement ------------------------------------------------------------------------------------------------

    def chit_count(self, h: Hero) -> int:
        """Climbing: blue chits plus two for each purple chit (the items it carries, the monster chits it kept)."""
        return sum(2 if self.chits[c].purple_backed else 1 for c in h.items + h.kept)

    def climbing_table(self, h: Hero) -> int:
        """The table of board.dist the hero moves under: leaving Tower 1 needs `climb_from_1` chits or an empty
        Tower 1, leaving Tower 2 `climb_from_2` chits or an empty Tower 2; going down is always allowed."""
        count = self.chit_count(h)
        up1 = count >= self.rules.climb_from_1 or self.gate_open(1)
        up2 = count >= self.rules.climb_from_2 or self.gate_open(2)
        return CLIMB_FROM.index(tuple(lv for lv, ok in ((1, up1), (2, up2)) if ok))

    def cost(self, a: int, b: int, table: int | None = None) -> int:
        return int(self.board.dist[self.climb if table is None else table, a, b])

    def move(self, h: Hero) -> None:
        """Speed + 1d6 (+ a movement bonus) points; the hero stops on any square it can reach that holds no other
        hero and no chit (staying put is legal). A hero held by a ghoul does not move this turn."""
        if h.held:
            h.held = False
            self.mp, self.climb = 0, self.climbing_table(h)
            self.emit(enums.EV_HELD, h.seat)
            return
        roll = self.die(6)
        self.mp = h.card.speed + roll + h.ability(enums.AB_MOVE_BONUS)
        self.climb = self.climbing_table(h)
        self.emit(enums.EV_MOVE_ROLL, h.seat, roll, self.mp)
        q = int(self.decide(strategies.move_nb, h.seat, self.tables, self.costs, h.seat))
        start = h.square
        if not (0 <= q < self.board.n_squares and self.cost(start, q) <= self.mp and self.chit_on[q] < 0
                and self.hero_on[q] in (-1, h.seat)):
            self.illegal(h.seat, enums.DEC_MOVE, q)
        spent = self.cost(start, q)
        self.path = self.shortest_path(start, q)
        self.left = self.mp - spent
        self.move_hero(h, q)
        self.emit(enums.EV_MOVE, h.seat, start, q, spent)
        for a, b in zip(self.path, self.path[1:]):
            self.emit(enums.EV_STEP, h.seat, b, self.cost(a, b))

    def shortest_path(self, a: int, b: int) -> list[int]:
        """The squares of the move, start first: a shortest path ("no doubling back"), each step the first
        neighbour in the map's order that stays on a shortest path."""
        board, t = self.board, self.climb
        path = [a]
        while path[-1] != b:
            here = path[-1]
            rest = self.cost(here, b)
            for k in range(board.nbr.shape[1]):
                nxt = int(board.nbr[here, k])
                if nxt < 0:
                    break
                if board.nbr_edge[here, k] == EDGE_UP and board.level[here] not in CLIMB_FROM[t]:
                    continue
                if int(board.nbr_cost[here, k]) + self.cost(nxt, b) == rest:
                    path.append(nxt)
                    break
        return path

    # --- Encountering a Chit ---------------------------------------------------------------------------------------

    def encounter_candidates(self, h: Hero) -> list[int]:
        """Chits on the squares adjacent to the hero, in the map's order; then, with a movement point left, chits
        directly behind a door; each chit once."""
        out: list[int] = []
        squares = self.adjacent(h.square)
        if self.left >= 1:
            squares += [int(x) for x in self.board.door_nbr[h.square] if x >= 0]
        for q in squares:
            c = self.chit_on[q]
            if c >= 0 and c not in out:
                out.append(c)
        return out

    def encounter(self, h: Hero) -> bool:
        """The hero may turn over one chit next to it: an item may be picked up, a monster attacks. Returns whether
        it encountered one."""
        candidates = self.encounter_candidates(h)
        if not candidates:
            return False
        i = int(self.decide(strategies.encounter_nb, h.seat, self.tables, self.costs, h.seat, cand=candidates))
        if not -1 <= i < len(candidates):
            self.illegal(h.seat, enums.DEC_ENCOUNTER, i)
        if i < 0:
            return False
        ch = self.chits[candidates[i]]
        h.encounters += 1
        if not ch.face_up:
            ch.face_up = True
            self.hidden_on[self.board.level[ch.square]] -= 1
            self.emit(enums.EV_REVEAL, h.seat, ch.id, ch.kind, ch.index)
        if ch.is_monster:
            self.fight(h, ch)
        else:
            self.offer_item(h, ch)
        return True

    # --- Magical Items ---------------------------------------------------------------------------------------------

    def usable(self, h: Hero, c: int) -> bool:
        """Heroes can't pick up magical items they can't use."""
        users = self.item_of(c).usable_by
        return not users or self.hero_names[h.index] in users

    def slot_of(self, c: int) -> int:
        return enums.SLOT_NAMES.index(self.item_of(c).slot)

    def slot_limit(self, h: Hero, slot: int) -> int | None:
        """How many items of a slot a hero may carry (None: any number); the dwarf's extra weapon slots."""
        if slot == enums.SLOT_OTHER:
            return None
        return SLOT_LIMIT[slot] + (h.ability(enums.AB_EXTRA_WEAPON) if slot == enums.SLOT_WEAPON else 0)

    def slot_has_room(self, h: Hero, slot: int, items: list[int] | None = None) -> bool:
        limit = self.slot_limit(h, slot)
        return limit is None or sum(1 for c in (h.items if items is None else items) if self.slot_of(c) == slot) \
            < limit

    def offer_item(self, h: Hero, ch: Chit) -> None:
        """Pick-up: leave the item, take it into a free slot, or take it and give up a carried item of that slot
        (which lies where the new one lay)."""
        if not self.usable(h, ch.id):
            self.put_chit(ch, ch.square, enums.LOC_FLOOR)
            self.emit(enums.EV_CANNOT_USE, h.seat, ch.id)
            return
        slot = self.slot_of(ch.id)
        options = [enums.TAKE_LEAVE]
        if self.slot_has_room(h, slot):
            options.append(enums.TAKE_FREE)
        else:
            options += [c for c in h.items if self.slot_of(c) == slot]
        choice = self.choose(strategies.take_nb, enums.DEC_TAKE, options, h.seat, h.seat, ch.id)
        if choice == enums.TAKE_LEAVE:
            self.put_chit(ch, ch.square, enums.LOC_FLOOR)
            self.emit(enums.EV_LEAVE, h.seat, ch.id)
            return
        square = ch.square
        self.lift_chit(ch, enums.LOC_HELD, h.seat)
        h.items.append(ch.id)
        self.icnt[h.seat, ch.index, layout.IC_TAKEN] += 1
        given = choice if choice >= 0 else -1
        self.emit(enums.EV_TAKE, h.seat, ch.id, given)
        if given >= 0:
            h.items.remove(given)
            self.put_chit(self.chits[given], square, enums.LOC_FLOOR)
            self.emit(enums.EV_DROP, h.seat, given, square)

    def drop(self, h: Hero) -> None:
        """Dropping a Chit: at the end of its movement the hero may drop one item on a free adjacent square."""
        squares = [q for q in self.adjacent(h.square) if self.free(q)]
        if not h.items or not squares:
            return
        c = self.choose(strategies.drop_nb, enums.DEC_DROP, [-1] + list(h.items), h.seat, self.tables, h.seat)
        if c < 0:
            return
        q = self.choose(strategies.drop_square_nb, enums.DEC_DROP_SQUARE, squares, h.seat, self.tables, h.seat, c)
        h.items.remove(c)
        self.put_chit(self.chits[c], q, enums.LOC_FLOOR)
        self.emit(enums.EV_DROP, h.seat, c, q)

    def offer_trade(self, h: Hero) -> None:
        """Trading (rule option): one of the hero's items for one of an adjacent hero's, if both may use what they
        get and neither ends with too many armour, weapon or shield chits; the other hero accepts or refuses."""
        rows = []
        for q in self.adjacent(h.square):
            partner = self.hero_on[q]
            if partner < 0:
                continue
            o = self.heroes[partner]
            for give in h.items:
                if not self.usable(o, give):
                    continue
                for get in o.items:
                    if self.usable(h, get) and self.trade_fits(h, give, get) and self.trade_fits(o, get, give):
                        rows.append((partner, give, get))
        if not rows:
            return
        i = int(self.decide(strategies.trade_offer_nb, h.seat, self.tables, h.seat,
                            cand=[x for row in rows for x in row], n_cand=len(rows)))
        if not -1 <= i < len(rows):
            self.illegal(h.seat, enums.DEC_TRADE_OFFER, i)
        if i < 0:
            return
        partner, give, get = rows[i]
        accepted = bool(self.decide(strategies.trade_accept_nb, partner, partner, h.seat, give, get))
        if accepted:                        # each receives its new item last; the gaps close
            o = self.heroes[partner]
            h.items.remove(give)
            o.items.remove(get)
            h.items.append(get)
            o.items.append(give)
            self.chits[give].owner, self.chits[get].owner = partner, h.seat
        self.emit(enums.EV_TRADE, h.seat, partner, give, get if accepted else -1)

    def trade_fits(self, h: Hero, give: int, get: int) -> bool:
        after = [c for c in h.items if c != give]
        return self.slot_has_room(h, self.slot_of(get), after)

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
