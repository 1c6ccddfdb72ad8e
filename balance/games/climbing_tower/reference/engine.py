"""The Climbing Tower reference engine: the rules as plain, readable Python.

This is the executable rulebook of Climbing Tower. It plays exactly the games the Numba kernel plays (same scenario,
seed and game index give the same events, row for row, and the same final counts), but it is written from the
rulebook summary (``docs/sources/climbing_tower_rules_en.md``), the rules as simulated
(``docs/rules/climbing_tower.md``) and the event list (``docs/trace.md``), not from the kernel's flat state: the
tower is a list of places holding printed floors (slots) joined into floors, the players hold Python lists of card
ids, the decks are lists and sets, and each phase is a method named after its rulebook section.
``tests/games/climbing_tower/test_differential.py`` plays both engines on thousands of games; ``narrate.py`` tells
one game.

This module is the set-up, the rounds and the play phase; the build and next-round phases are in ``build.py``,
the pieces (places, slots, floors, players, snapshots, the result) in ``pieces.py``, and what a strategy sees and how
each decides in ``strategies.py``.

Shared with the kernel on purpose, and only these:

* randomness: ``balance.core.rng.PyStream`` keyed by (seed, game, purpose): the shuffle stream (set-up and the rounds'
  shuffles, ``rng.py_shuffled``, and the BOSS side) and one stream per seat for its strategy;
* the strategies' numbers (``strategies.RANDOM`` ...); the strategies themselves are re-written in this package's
  ``strategies.py`` (its docstring says why) and see only a :class:`~.strategies.View`.

Card ids are the scenario's card list order; tower cards are numbered as listed (001 = 0); floors count from 0 at
the bottom here and in the events (``narrate`` adds 1 for people).
"""
from __future__ import annotations

from math import perm
from typing import Sequence

import numpy as np

from ....core.rng import PURPOSE_SHUFFLE, PURPOSE_STRATEGY, PyStream, py_shuffled
from .. import enums
from .. import layout
from ..compile import MAX_LABELLED
from ..components import TOKENS, ClimbingTowerComponents, ClimbingTowerRules
from .build import BuildAndNextRound
from .pieces import (SIDES, Boss, Floor, Place, Player, ReferenceGame, Slot, Snapshot,
                               StandingView)
from .strategies import ChoiceScript, PlayCard, Strategy, View

MAX_SCRIPT = 512            # the kernel's script regions (``layout.CHOICE_SCRIPT``, ``layout.DEAL_SCRIPT``)
LEFT, RIGHT = enums.LEFT, enums.RIGHT


# --- the game --------------------------------------------------------------------------------------------------------

class Table(BuildAndNextRound):
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

    # --- Set-up ----------------------------------------------------------------------------------------------------

    def set_up(self) -> None:
        """A. the tower; the skeletons on the bottom card, both pawns on its lowest floor; B. the common deck and
        the supply piles."""
        self.build_tower()
        first_side = LEFT if self.rules.first_player_side == "left" else RIGHT
        self.players = [Player(0, first_side), Player(1, 1 - first_side)]
        self.place_skeletons(self.places[0])
        self.make_decks()

    def build_tower(self) -> None:
        """Tower cards bottom to top (the first ``tower_cards`` of a shuffle of all of them, or the fixed list),
        the BOSS card on top (its side drawn, or fixed); printed floors of one colour touching across neighbouring
        cards are one floor."""
        names = [t.name for t in self.c.tower]
        height = self.rules.tower_cards
        if isinstance(self.rules.tower, list):
            order = [names.index(n) for n in self.rules.tower]
        else:
            order = py_shuffled(range(len(names)), self.shuffle_stream)[:height]
        if self.rules.boss_side == "random":
            side = self.shuffle_stream.below(2)
        else:
            side = "AB".index(self.rules.boss_side)
        b = self.c.boss[side]
        self.boss = Boss(b.name, side, b.hp, b.same_round, b.both_pawns)
        self.order = order
        self.tower_id = self.tower_label(order, side, len(names), height)
        printed = [(self.c.tower[t].name, t, enums.SKILL_KINDS.index(self.c.tower[t].skill), self.c.tower[t].floors)
                   for t in order] + [(f"BOSS {b.name}", -1, enums.SKILL_NONE, b.floors)]
        self.places, self.floors = [], []
        last_colour = None
        for pos, (name, t, skill, floors) in enumerate(printed):
            self.emit(enums.EV_TOWER, -1, pos, t, side)
            place = Place(pos, name, t, skill, [])
            for fl in floors:
                slot = Slot(pos, (fl.left, fl.right))
                if fl.colour != last_colour:
                    self.floors.append(Floor(len(self.floors), []))
                slot.floor = self.floors[-1].number
                self.floors[-1].slots.append(slot)
                place.slots.append(slot)
                last_colour = fl.colour
            self.places.append(place)
        self.boss_floor = len(self.floors) - 1

    @staticmethod
    def tower_label(order: list[int], side: int, n_cards: int, height: int) -> int:
        """The tower's index among every ordered choice of tower cards (lexicographic) times the BOSS sides, as
        ``compile.tower_labels`` lists them; -1 when there are too many to tabulate."""
        if perm(n_cards, height) * 2 > MAX_LABELLED:
            return -1
        rank = 0
        for i, t in enumerate(order):
            rank = rank * (n_cards - i) + t - sum(1 for u in order[:i] if u < t)
        return rank * 2 + side

    def place_skeletons(self, place: Place) -> None:
        """Skeleton tokens onto the skeletons drawn on a tower card, slot by slot, left before right, while tokens
        last."""
        placed = self.fill(place)
        place.placed = True
        self.emit(enums.EV_PLACE, -1, place.position, placed, place.missing())

    def top_up(self, place: Place) -> None:
        """Tokens from the supply onto the skeletons of a card placed short, as :meth:`place_skeletons` puts them;
        a ``place`` row when any token went on."""
        placed = self.fill(place)
        if placed:
            self.emit(enums.EV_PLACE, -1, place.position, placed, place.missing())

    def fill(self, place: Place) -> int:
        """A token from the supply onto each skeleton of the card that has none, slot by slot, left before right,
        while tokens last; the tokens put on."""
        placed = 0
        for slot in place.slots:
            for side in SIDES:
                n = min(slot.missing[side], self.supply_tokens)
                slot.standing[side] += n
                slot.missing[side] -= n
                self.supply_tokens -= n
                placed += n
        return placed

    def make_decks(self) -> None:
        """Every Level 1 card and the first ``starting_level2`` of the shuffled Level 2 cards are the common deck;
        the other Level 2 cards one pile (Hard) or a pile per colour (Easy), the Level 3 cards shuffled into theirs."""
        level2 = py_shuffled([k.id for k in self.cards if k.level == 2], self.shuffle_stream)
        level3 = py_shuffled([k.id for k in self.cards if k.level == 3], self.shuffle_stream)
        n_start = min(self.rules.starting_level2, len(level2))
        self.deck = {k.id for k in self.cards if k.level == 1} | set(level2[:n_start])
        colours = list(dict.fromkeys(k.colour for k in self.cards if k.level == 2))
        first_colour = colours[0] if colours else None
        easy = self.rules.supply == "easy"
        red = [c for c in level2[n_start:] if not easy or self.cards[c].colour == first_colour]
        blue = [c for c in level2[n_start:] if easy and self.cards[c].colour != first_colour]
        self.piles = [red, blue, level3]     # R from pile 0 (or 1 in Easy), Y from pile 2; the next card first
        other = colours[1] if len(colours) > 1 else "none"
        self.pile_names = (f"level2_{first_colour}", f"level2_{other}", "level3") if easy else \
            ("level2", "level2_none", "level3")
        for k, pile in enumerate(self.piles):
            for i, c in enumerate(pile):
                self.emit(enums.EV_SHUFFLE, -1, k, i, c)

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

    # --- 1. Play phase ---------------------------------------------------------------------------------------------

    def play_phase(self, start: int) -> bool:
        """Deal, then turns alternate from the start player until both hands are empty or a player holding cards
        cannot act. True when the BOSS falls."""
        for pl in self.players:
            pl.redraws_used, pl.offered, pl.face_down = 0, False, None
        self.top, self.free_play_used, self.blocked = None, False, None
        self.played, self.discard = [], []
        self.deal(start)
        seat = start
        while any(pl.hand for pl in self.players):
            me = self.players[seat]
            rows = self.legal_actions(me)
            if not rows:
                if me.hand:
                    self.block(me)
                    return False
                self.pass_turn(me)
            else:
                i = self.strategies[seat].turn(self.view(seat), rows, self.cards)
                if not 0 <= i < len(rows):
                    i = 0
                act, card = rows[i]
                if self.take_action(me, act, card):
                    self.take_snapshot()
                    return True
            self.take_snapshot()
            seat = 1 - seat
        return False

    def deal(self, start: int) -> None:
        """Shuffle the common deck (ascending ids, then the shuffle stream; or the deal script; a ``shuffle`` row
        per card, top first), ``hand_size`` cards to the start player, as many to the other; the rest is the draw
        pile."""
        ascending = sorted(self.deck)
        if self.deal_script:
            order = [self.deal_script.pop(0) if self.deal_script else c for c in ascending]
        else:
            order = py_shuffled(ascending, self.shuffle_stream)
        for i, c in enumerate(order):
            self.emit(enums.EV_SHUFFLE, -1, enums.STACK_DECK, i, c)
        dealt = 0
        for seat in (start, 1 - start):
            pl = self.players[seat]
            pl.hand = order[dealt:dealt + min(self.rules.hand_size, len(order) - dealt)]
            dealt += len(pl.hand)
            for c in pl.hand:
                self.card_count[c]["dealt"] += 1
                self.emit(enums.EV_DEAL, seat, c)
        self.draw_pile = order[dealt:]

    def legal_actions(self, me: Player) -> list[tuple[int, int]]:
        """(action, card) rows: plays in hand order (a free play for a card that matches nothing, with the
        free_play skill unused this round), then redraws, then offers."""
        rows = []
        free = enums.SKILL_FREE_PLAY in self.skills and not self.free_play_used
        for c in me.hand:
            if self.top is None or self.cards[c].follows(self.cards[self.top]):
                rows.append((enums.ACT_PLAY, c))
            elif free:
                rows.append((enums.ACT_FREE, c))
        redraws = self.rules.redraws + (enums.SKILL_EXTRA_REDRAW in self.skills)
        if me.redraws_used < redraws and self.draw_pile:
            rows += [(enums.ACT_REDRAW, c) for c in me.hand]
        if not me.offered:
            rows += [(enums.ACT_OFFER, c) for c in me.hand]
        return rows

    def take_action(self, me: Player, act: int, card: int) -> bool:
        """One turn's action; True when it defeats the BOSS."""
        self.turn += 1
        if act == enums.ACT_REDRAW:
            self.redraw(me, card)
        elif act == enums.ACT_OFFER:
            self.offer(me, card)
        else:
            return self.play_card(me, card, free=act == enums.ACT_FREE)
        return False

    def redraw(self, me: Player, card: int) -> None:
        """A. Discard a card face up, draw the draw pile's top card."""
        me.hand.remove(card)
        self.discard.append(card)
        drawn = self.draw_pile.pop(0)
        me.hand.append(drawn)
        me.redraws_used += 1
        if me.redraws_used > self.rules.redraws:
            self.skill_count[enums.SKILL_EXTRA_REDRAW]["used"] += 1
        me.count["redraws"] += 1
        self.emit(enums.EV_REDRAW, me.seat, card, drawn)

    def offer(self, me: Player, card: int) -> None:
        """B. A card face down; once both players have one down, each takes the other's."""
        me.hand.remove(card)
        me.face_down = card
        me.offered = True
        me.count["offers"] += 1
        self.emit(enums.EV_OFFER, me.seat, card)
        partner = self.players[1 - me.seat]
        if partner.face_down is not None:
            me.hand.append(partner.face_down)
            partner.hand.append(card)
            gets = {me.seat: partner.face_down, partner.seat: card}
            me.face_down = partner.face_down = None
            self.emit(enums.EV_EXCHANGE, -1, gets[0], gets[1])

    def play_card(self, me: Player, card: int, free: bool) -> bool:
        """C. Play a card onto the play area and resolve its icons, swords then arrows (or arrows first by
        ``icon_order``); True when the BOSS falls (any icons left are not resolved)."""
        me.hand.remove(card)
        self.played.append(card)
        self.emit(enums.EV_PLAY, me.seat, card, -1 if self.top is None else self.top, int(free))
        self.top = card
        if free:
            self.free_play_used = True
            self.skill_count[enums.SKILL_FREE_PLAY]["used"] += 1
        self.card_count[card]["played"] += 1
        me.count["cards_played"] += 1
        arrows_first = self.rules.icon_order == "arrows_first"
        if arrows_first:
            self.climb(me, self.cards[card].arrows)
        for _ in range(self.cards[card].swords):
            if self.sword(me):
                return True
        if not arrows_first:
            self.climb(me, self.cards[card].arrows)
        return False

    def sword(self, me: Player) -> bool:
        """One sword: on the BOSS floor a hit on the BOSS (with both pawns there, when its side needs it); elsewhere
        it "can defeat" a skeleton standing on the player's floor and own side: the player's strategy defeats it
        (the lowest printed floor's first) or spares it. True when the BOSS falls."""
        me.count["swords"] += 1
        if me.floor == self.boss_floor:
            if self.boss.both_pawns and self.players[1 - me.seat].floor != me.floor:
                return False
            self.boss.damage += 1
            me.count["boss_hits"] += 1
            self.emit(enums.EV_BOSS_HIT, me.seat, self.boss.damage, self.boss.hp)
            return self.boss.damage >= self.boss.hp
        floor = self.floors[me.floor]
        left = floor.standing(me.side)
        if left and self.strategies[me.seat].sword(self.view(me.seat)) == enums.SWORD_SPARE:
            self.emit(enums.EV_SPARE, me.seat, floor.number, me.side, left)
            return False
        for slot in floor.slots:
            if slot.standing[me.side] > 0:
                slot.standing[me.side] -= 1
                slot.fallen[me.side] += 1
                me.count["skeletons"] += 1
                self.emit(enums.EV_SWORD, me.seat, floor.number, me.side, floor.standing(me.side))
                return False
        return False

    def climb(self, me: Player, arrows: int) -> None:
        """Up arrows: exactly that many floors, stopping on the BOSS floor at most."""
        to = min(me.floor + arrows, self.boss_floor)
        if to != me.floor:
            me.count["climbed"] += to - me.floor
            self.emit(enums.EV_CLIMB, me.seat, me.floor, to)
            me.floor = to

    def pass_turn(self, me: Player) -> None:
        """An empty hand that can do nothing passes."""
        self.turn += 1
        me.count["passes"] += 1
        self.emit(enums.EV_PASS, me.seat)

    def block(self, me: Player) -> None:
        """A player holding cards with no legal action ends the round at once."""
        self.blocked = me.seat
        me.count["blocked"] += 1
        self.team["blocked_rounds"] += 1
        self.emit(enums.EV_BLOCKED, me.seat, len(me.hand))

    def end_play_phase(self) -> None:
        """Each side of a floor where skeletons fell pays a gold a skeleton when every skeleton drawn there has
        fallen (none stands, none lacks its token); otherwise the fallen stand again where they fell, for nothing.
        Then the empty-hand bonus (from the token supply) when both hands are empty, nothing is face down and the
        round was not blocked."""
        for floor in self.floors:
            for side in SIDES:
                fallen = floor.fallen(side)
                if fallen == 0:
                    continue
                if floor.standing(side) + floor.missing(side) == 0:
                    self.gold += fallen
                    self.team["gold"] += fallen
                    self.emit(enums.EV_GOLD, -1, floor.number, side, fallen)
                else:
                    for slot in floor.slots:
                        slot.standing[side] += slot.fallen[side]
                    self.emit(enums.EV_GOLD, -1, floor.number, side, 0)
                for slot in floor.slots:
                    slot.fallen[side] = 0
        if self.blocked is None and self.deck and all(not pl.hand and pl.face_down is None for pl in self.players):
            bonus = min(self.rules.empty_hand_bonus, self.supply_tokens)
            self.supply_tokens -= bonus
            self.gold += bonus
            self.team["bonus_gold"] += bonus
            self.emit(enums.EV_BONUS, -1, bonus, 0)

    def gather_cards(self) -> None:
        """Every card of the round goes back into the common deck (which never stopped holding them)."""
        for pl in self.players:
            pl.hand, pl.face_down = [], None
        self.draw_pile, self.played, self.discard = [], [], []

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
