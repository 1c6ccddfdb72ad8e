"""The Climbing Tower reference engine, the set-up (rulebook A and B): the tower (tower cards bottom to top, the BOSS
card on top on its side, printed floors of one colour touching across cards joined into floors), the skeleton tokens
placed on the cards the pawns reach, the common deck and the supply piles. A part of ``engine.Table`` (a mixin)."""
from __future__ import annotations

from math import perm

from ....core.rng import py_shuffled
from .. import enums
from ..compile import MAX_LABELLED
from .pieces import SIDES, Boss, Floor, Place, Player, Slot

LEFT, RIGHT = enums.LEFT, enums.RIGHT


class SetUp:
    """The set-up and the placing of skeleton tokens, for ``engine.Table``."""

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
