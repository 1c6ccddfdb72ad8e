"""The Climbing Tower reference engine, the players' side: what a seat sees, and how each strategy decides.

This engine has strategies of its own, where the other games' reference engines call the jitted ``strategies``
functions on a flat array they fill: these are a plain-Python twin of ``strategies/``, written from its docstrings
(``docs/strategies.md``), so the differential tests check the heuristics themselves (a kernel strategy that does
other than its docstring says disagrees with this one), and a strategy here reads only a :class:`View` built from the
reference's own pieces, so what the kernel's ``fill_view_nb`` lets a seat see is checked as well. The ``strategy``
mutations of ``mutants/climbing_tower.toml`` edit both twins. Read against the kernel for the details that decide
games (the order of the legal rows, the tie-breaking, the arithmetic of a card's worth, which is done in floats in the
same order so the same ties fall the same way).

:class:`View` is everything one decision may read. The table builds it before every decision as the kernel's
``fill_view_nb`` fills its view: public information (the tower and its skeletons, both pawns, the BOSS, the deck's
size, the supply piles' contents, whether the partner has a card face down) and the seat's own hand; the partner's
hand only while the players may communicate (``communication``: both pawns on one floor, always, or never). A
strategy that used the partner's hand when it may not would play differently from the kernel, and the differential
tests would say so.

Random draws come from the seat's own strategy stream (``PyStream(seed, game, PURPOSE_STRATEGY + seat)``), one
``below(n)`` per decision of the ``random`` strategy; the ``scripted`` strategy (tests only) answers from the choice
script shared by both seats, turns and build decisions alike, 0 once it is used up.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ....core.rng import PyStream
from .. import enums
from ..strategies import CLIMBER, FARMER, RANDOM, SCRIPTED, SPARE_SCALE, THINNER  # noqa: F401  (the kind numbers)


@dataclass(frozen=True)
class PlayCard:
    """A play card, numbered as the scenario lists it."""

    id: int
    name: str
    level: int
    colour: str
    number: int
    swords: int
    arrows: int

    @property
    def icons(self) -> int:
        return self.swords + self.arrows

    def follows(self, top: "PlayCard") -> bool:
        """May this card be played on `top` (same colour or same number)?"""
        return self.colour == top.colour or self.number == top.number


@dataclass(frozen=True)
class View:
    """What seat `seat` may read when it decides (``strategies.fill_view_nb``)."""

    seat: int
    hand: tuple[PlayCard, ...]
    partner_hand: tuple[PlayCard, ...] | None      # None unless the players may communicate now
    partner_card_down: bool                        # the partner has offered an exchange that is not completed
    pawn_floors: tuple[int, int]
    pawn_sides: tuple[int, int]
    boss_floor: int
    boss_hp: int
    boss_damage: int
    boss_needs_both: bool
    standing: Sequence[tuple[int, int]]            # skeletons standing per floor: (left, right)
    deck_size: int
    piles: tuple[tuple[PlayCard, ...], ...]        # what is left in supply piles 0, 1 (Level 2) and 2 (Level 3)

    @property
    def talk(self) -> bool:
        return self.partner_hand is not None

    def hits_open(self, who: int) -> int:
        """BOSS hits `who`'s swords could land now (0 off the BOSS floor, or when a hit would not count)."""
        floor = self.pawn_floors[who]
        if floor != self.boss_floor:
            return 0
        if self.boss_needs_both and self.pawn_floors[1 - who] != self.boss_floor:
            return 0
        return self.boss_hp - self.boss_damage


@dataclass(frozen=True)
class Weights:
    """A heuristic's parameters (``STRATEGIES`` in ``__init__.py``)."""

    arrow: float
    sword: float
    team: float
    spare: float
    keep: float


class ChoiceScript:
    """The scripted strategy's answers, shared by both seats (``rules.script_choices``)."""

    def __init__(self, choices: Sequence[int]):
        self.choices = [int(c) for c in choices]
        self.used = 0

    def next(self) -> int:
        if self.used < len(self.choices):
            self.used += 1
            return self.choices[self.used - 1]
        return 0


class Strategy:
    """One seat's strategy: its kind, weights, random stream and the shared choice script."""

    def __init__(self, kind: int, params: Sequence[float], stream: PyStream, script: ChoiceScript):
        self.kind = int(kind)
        p = [float(x) for x in params] + [0.0] * 5
        self.w = Weights(*p[:5])
        self.stream = stream
        self.script = script

    # --- a turn ------------------------------------------------------------------------------------------------

    def turn(self, view: View, rows: list[tuple[int, int]], cards: Sequence[PlayCard]) -> int:
        """The index of the chosen (action, card) row."""
        if self.kind == SCRIPTED:
            return self.script.next()
        if self.kind == RANDOM:
            return self.stream.below(len(rows))
        return self.heuristic_turn(view, rows, cards)

    def sword(self, view: View) -> int:
        """A sword that could defeat a skeleton where the seat stands: ``SWORD_DEFEAT`` (row 0) or ``SWORD_SPARE``
        (row 1). A heuristic spares when a draw from its stream falls below ``spare`` (no draw at 0 or 1)."""
        if self.kind == SCRIPTED:
            return self.script.next()
        if self.kind == RANDOM:
            return self.stream.below(2)
        if self.w.spare <= 0.0:
            return enums.SWORD_DEFEAT
        if self.w.spare >= 1.0:
            return enums.SWORD_SPARE
        return enums.SWORD_SPARE if self.stream.below(SPARE_SCALE) < self.w.spare * SPARE_SCALE else enums.SWORD_DEFEAT

    def worth(self, view: View, who: int, card: PlayCard) -> float:
        """arrow_weight x floors the arrows would climb + sword_weight x skeletons (or BOSS hits) the swords would
        take, for the pawn of `who` where it stands."""
        floor = view.pawn_floors[who]
        climb = min(card.arrows, view.boss_floor - floor)
        if floor == view.boss_floor:
            targets = view.hits_open(who)
        else:
            targets = view.standing[floor][view.pawn_sides[who]]
        swords = min(card.swords, targets)
        return self.w.arrow * climb + self.w.sword * swords

    def team_bonus(self, view: View, card: PlayCard) -> float:
        """team_weight when the partner's hand is visible and holds a card that could follow this one."""
        if not view.talk:
            return 0.0
        if any(other.follows(card) for other in view.partner_hand):
            return self.w.team
        return 0.0

    def heuristic_turn(self, view: View, rows: list[tuple[int, int]], cards: Sequence[PlayCard]) -> int:
        """Best play (worth + team bonus); a free play only when nothing matches; with nothing worth playing:
        answer the partner's offer, else redraw the least worth card, else play anyway, else offer. Ties go to
        the first row."""
        me, partner = view.seat, 1 - view.seat
        best_play, best_play_v = -1, -1.0
        best_free, best_free_v = -1, -1.0
        worst_redraw, worst_redraw_v = -1, 0.0
        worst_offer, worst_offer_v = -1, 0.0
        gift, gift_v = -1, -1.0              # the offer that helps the partner most against what it costs me
        for i, (act, c) in enumerate(rows):
            card = cards[c]
            v = self.worth(view, me, card)
            if act in (enums.ACT_PLAY, enums.ACT_FREE):
                v += self.team_bonus(view, card)
                if act == enums.ACT_PLAY:
                    if v > best_play_v:
                        best_play, best_play_v = i, v
                elif v > best_free_v:
                    best_free, best_free_v = i, v
            elif act == enums.ACT_REDRAW:
                if worst_redraw < 0 or v < worst_redraw_v:
                    worst_redraw, worst_redraw_v = i, v
            else:
                if worst_offer < 0 or v < worst_offer_v:
                    worst_offer, worst_offer_v = i, v
                if view.talk:
                    w = self.worth(view, partner, card) - v
                    if w > gift_v:
                        gift, gift_v = i, w
        if best_play < 0 and best_free >= 0:
            best_play, best_play_v = best_free, best_free_v
        if best_play >= 0 and best_play_v > 0.0:
            return best_play
        if worst_offer >= 0 and view.partner_card_down:
            return gift if gift >= 0 else worst_offer
        if worst_redraw >= 0:
            return worst_redraw
        if best_play >= 0:
            return best_play
        return gift if gift >= 0 else worst_offer

    # --- the build phase ---------------------------------------------------------------------------------------

    def build(self, view: View, rows: list[tuple[int, int]], cards: Sequence[PlayCard]) -> int:
        """The index of the chosen (build action, argument) row; 0 (or anything out of range) stops."""
        if self.kind == SCRIPTED:
            return self.script.next()
        if self.kind == RANDOM:
            return self.stream.below(len(rows))
        if self.kind == THINNER and view.deck_size > self.w.keep:
            removals = [i for i, (act, _) in enumerate(rows) if act == enums.BUILD_U]
            if removals:
                def weakness(i):
                    card = cards[rows[i][1]]
                    return card.icons, card.level, card.id
                return min(removals, key=weakness)
        best, best_v = 0, -1.0
        for i, (act, arg) in enumerate(rows):
            if act == enums.BUILD_Y:
                return i
            if act == enums.BUILD_R:
                v = self.pile_worth(view.piles[arg])
                if v > best_v:
                    best, best_v = i, v
        return best

    def pile_worth(self, pile: Sequence[PlayCard]) -> float:
        """Mean worth (by the weights, wherever the pawn stands) of the cards left in a supply pile."""
        if not pile:
            return -1.0
        total = 0.0
        for card in pile:
            total += self.w.arrow * card.arrows + self.w.sword * card.swords
        return total / len(pile)
