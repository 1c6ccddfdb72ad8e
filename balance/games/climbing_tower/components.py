"""Climbing Tower components and open rule points as validated settings.

The rulebook (``docs/sources/climbing_tower_rulebook_ja.txt``; English summary ``docs/sources/climbing_tower_rules_
en.md``) gives the counts: 24 play cards (Level 1 x6, Level 2 x12 in red and blue, Level 3 x6), tower cards 001-007
and a two-sided BOSS card of five floors each, 12 skeleton tokens, a round card. It prints no card face. Every face
here (colours, numbers, icons, floor colours, skeletons, skills, the BOSS's rule) is reconstructed and ``ASSUMED``;
``docs/rules/climbing_tower.md`` section 1 gives the reasoning, and each is a scenario setting, so a designer who owns
the box types in the real ones. ``compile.py`` compiles these settings into the kernel's arrays.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


SkillKind = Literal["extra_redraw", "free_play", "bonus_gold"]
MAX_CARDS = 48
MAX_TOWER_CARDS = 12
MAX_FLOORS = 8          # floors on one tower card (the box's have 5)
TOKENS = 12             # skeleton tokens in the box (rulebook)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Card(_Strict):
    """A play card: its level, colour (the illustration), number and icons."""

    name: str = Field(min_length=1, description="The card's name, as the scenario refers to it (\"purple_3\").")
    level: Literal[1, 2, 3] = Field(description="1: in the starting deck; 2: red or blue, bought with R; 3: "
                                                "bought with Y.")
    colour: str = Field(min_length=1, description="The colour (illustration) a later card may match.")
    number: int = Field(ge=0, le=99, description="The number a later card may match.")
    swords: int = Field(default=0, ge=0, le=6, description="Sword icons: each defeats one skeleton on the "
                                                           "player's floor and side (or hits the BOSS).")
    arrows: int = Field(default=0, ge=0, le=6, description="Up-arrow icons: the pawn climbs exactly this many "
                                                           "floors.")


class Floor(_Strict):
    """One of a tower card's floors: its colour and the skeletons drawn on each side."""

    colour: str = Field(min_length=1, description="Floors of one colour touching across neighbouring cards are one "
                                                  "floor.")
    left: int = Field(default=0, ge=0, le=TOKENS, description="Skeletons on the left side.")
    right: int = Field(default=0, ge=0, le=TOKENS, description="Skeletons on the right side.")


def _floors_ok(floors: list[Floor], what: str) -> list[Floor]:
    for i in range(1, len(floors)):
        if floors[i].colour == floors[i - 1].colour:
            raise ValueError(f"{what}: floors {i} and {i + 1} are both {floors[i].colour!r} (allowed: neighbouring "
                             "floors of one card in different colours; only floors across cards join)")
    if sum(f.left + f.right for f in floors) > TOKENS:
        raise ValueError(f"{what}: {sum(f.left + f.right for f in floors)} skeletons (allowed: at most the "
                         f"{TOKENS} tokens)")
    return floors


class TowerCard(_Strict):
    """A tower card (001-007): five floors bottom to top, and the skill printed on its back."""

    name: str = Field(min_length=1, description="Its number as printed (\"001\").")
    floors: list[Floor] = Field(min_length=1, max_length=MAX_FLOORS, description="Bottom to top.")
    skill: SkillKind = Field(description="The skill on its back, gained when it is cleared and left behind.")

    @model_validator(mode="after")
    def _check(self):
        _floors_ok(self.floors, f"tower card {self.name}")
        return self


class BossSide(_Strict):
    """One side of the BOSS card: its floors (the top one is the BOSS floor) and how the BOSS is defeated."""

    name: str = Field(min_length=1, description="The side's name (\"A\", \"B\").")
    floors: list[Floor] = Field(min_length=1, max_length=MAX_FLOORS, description="Bottom to top; the top floor is "
                                                                                "the BOSS floor, with no skeletons.")
    hp: int = Field(ge=1, le=30, description="Sword hits that defeat the BOSS.")
    same_round: bool = Field(description="The hits must all come within one round (they reset at its end).")
    both_pawns: bool = Field(description="A hit counts only while both pawns stand on the BOSS floor.")

    @model_validator(mode="after")
    def _check(self):
        _floors_ok(self.floors, f"BOSS side {self.name}")
        top = self.floors[-1]
        if top.left or top.right:
            raise ValueError(f"BOSS side {self.name}: skeletons on the BOSS floor (allowed: none; swords there hit "
                             "the BOSS)")
        return self


def _card(name, level, colour, number, swords=0, arrows=0):
    return Card(name=name, level=level, colour=colour, number=number, swords=swords, arrows=arrows)


def _f(colour, left=0, right=0):
    return Floor(colour=colour, left=left, right=right)


# ASSUMED (docs/rules/climbing_tower.md 1.1): Level 1 purple 1-6 with one icon each; Level 2 red 1-6 (swords first)
# and blue 1-6 (arrows first) with two or three icons; Level 3 gold 1-6 with three or four.
DEFAULT_CARDS = (
    [_card(f"purple_{n}", 1, "purple", n, swords=n % 2, arrows=1 - n % 2) for n in range(1, 7)]
    + [_card(f"red_{n}", 2, "red", n, *{1: (2, 0), 2: (1, 1), 3: (2, 0), 4: (1, 1), 5: (2, 0), 6: (3, 0)}[n])
       for n in range(1, 7)]
    + [_card(f"blue_{n}", 2, "blue", n, *{1: (0, 2), 2: (1, 1), 3: (0, 2), 4: (1, 1), 5: (0, 2), 6: (0, 3)}[n])
       for n in range(1, 7)]
    + [_card(f"gold_{n}", 3, "gold", n, *{1: (2, 1), 2: (1, 2), 3: (3, 0), 4: (0, 3), 5: (3, 1), 6: (1, 3)}[n])
       for n in range(1, 7)])

# ASSUMED (1.2): floor colours from four stones, four to six skeletons a card, some in groups of two; the skills
# spread three, two and two over the seven cards.
DEFAULT_TOWER = [
    TowerCard(name="001", skill="extra_redraw", floors=[_f("stone"), _f("brick", 1), _f("moss", 0, 1),
                                                         _f("brick", 1, 1), _f("stone")]),
    TowerCard(name="002", skill="free_play", floors=[_f("moss"), _f("stone", 1, 1), _f("brick"), _f("moss", 2),
                                                      _f("stone", 0, 1)]),
    TowerCard(name="003", skill="bonus_gold", floors=[_f("brick"), _f("moss", 0, 1), _f("stone", 1),
                                                       _f("moss", 0, 2), _f("brick")]),
    TowerCard(name="004", skill="extra_redraw", floors=[_f("stone", 1), _f("moss", 0, 1), _f("ash", 1, 1),
                                                         _f("moss"), _f("brick", 1)]),
    TowerCard(name="005", skill="free_play", floors=[_f("moss", 0, 1), _f("brick", 1), _f("stone", 2, 2),
                                                      _f("brick"), _f("moss")]),
    TowerCard(name="006", skill="bonus_gold", floors=[_f("brick"), _f("ash", 1, 1), _f("moss"), _f("ash", 1, 1),
                                                       _f("stone")]),
    TowerCard(name="007", skill="extra_redraw", floors=[_f("stone"), _f("ash", 2), _f("brick", 0, 2), _f("ash"),
                                                         _f("moss", 1, 1)]),
]

# ASSUMED (1.3): side A, a knight beaten by four hits in one round; side B, a dragon that keeps its wounds but is
# hurt only while both pawns stand before it.
DEFAULT_BOSS = [
    BossSide(name="A", hp=4, same_round=True, both_pawns=False,
             floors=[_f("stone", 1), _f("moss", 0, 1), _f("brick", 1, 1), _f("ash"), _f("throne")]),
    BossSide(name="B", hp=6, same_round=False, both_pawns=True,
             floors=[_f("moss", 0, 1), _f("ash", 1), _f("stone", 1, 1), _f("brick"), _f("throne")]),
]


def _distinct(items: list, what: str, one: str, most: int, plural: str) -> list:
    """A list of named components: each name once, at most `most` of them."""
    names = [x.name for x in items]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"{what} {dup[0]!r} listed twice (allowed: one entry a {one})")
    if len(items) > most:
        raise ValueError(f"{len(items)} {plural} (allowed: at most {most})")
    return items


class ClimbingTowerComponents(_Strict):
    """Every component face: the play cards, the tower cards and the BOSS card (all ASSUMED reconstructions)."""

    cards: list[Card] = Field(default_factory=lambda: [c.model_copy() for c in DEFAULT_CARDS],
                              description="ASSUMED: the 24 play cards.")
    tower: list[TowerCard] = Field(default_factory=lambda: [t.model_copy(deep=True) for t in DEFAULT_TOWER],
                                   description="ASSUMED: tower cards 001-007.")
    boss: list[BossSide] = Field(default_factory=lambda: [b.model_copy(deep=True) for b in DEFAULT_BOSS],
                                 min_length=2, max_length=2, description="ASSUMED: the BOSS card's two sides.")

    @field_validator("cards")
    @classmethod
    def _cards(cls, v):
        return _distinct(v, "card", "card name", MAX_CARDS, "cards")

    @field_validator("tower")
    @classmethod
    def _tower(cls, v):
        return _distinct(v, "tower card", "tower card", MAX_TOWER_CARDS, "tower cards")

    def level(self, n: int) -> list[Card]:
        return [c for c in self.cards if c.level == n]


class ClimbingTowerRules(_Strict):
    """The rule points the rulebook leaves open, each a setting with its default and reason
    (docs/rules/climbing_tower.md, section 3)."""

    supply: Literal["easy", "hard"] = Field(
        default="hard", description="Level 2 supply: easy = red and blue in two piles, the buyer picks the pile; "
                                    "hard = one mixed pile (the rulebook's two options; hard is the plain game).")
    tower: list[str] | Literal["random"] = Field(
        default="random", description="The tower cards bottom to top, or random (the rulebook's set-up); the "
                                      "first game's tower is [\"001\", \"003\", \"006\"].")
    boss_side: Literal["random", "A", "B"] = Field(
        default="random", description="The BOSS card's side up: random (the rulebook's set-up) or a fixed one.")
    tower_cards: int = Field(default=3, ge=1, le=6, description="Tower cards under the BOSS card (rulebook: 3).")
    round_limit: int = Field(default=12, ge=1, le=60, description="Rounds the team has: the round card flips from "
                                                                 "round 7, so most likely 12 (a reading, not a "
                                                                 "fact).")
    communication: Literal["same_floor", "always", "never"] = Field(
        default="same_floor", description="When the players may see each other's hands and plan jointly: only "
                                          "while both pawns stand on one floor (publisher), or always / never to "
                                          "measure what the limit costs.")
    start_player: Literal["alternate", "first"] = Field(
        default="alternate", description="The round card's start player: the players take turns starting rounds "
                                         "(assumed), or the first player always starts.")
    first_player_side: Literal["left", "right"] = Field(
        default="left", description="The side of the tower the first player is in charge of; the other player "
                                    "takes the other side.")
    icon_order: Literal["swords_first", "arrows_first"] = Field(
        default="swords_first", description="A card with swords and arrows: fight where the pawn stands, then "
                                            "climb (assumed), or climb first.")
    hand_size: int = Field(default=3, ge=1, le=8, description="Cards dealt to each player a round (rulebook: 3).")
    starting_level2: int = Field(default=2, ge=0, le=12, description="Random Level 2 cards in the starting deck "
                                                                     "(rulebook: 2).")
    redraws: int = Field(default=1, ge=0, le=5, description="Redraws a player may make a round (rulebook: 1; the "
                                                            "extra_redraw skill adds one).")
    min_deck: int = Field(default=6, ge=0, le=40, description="U may not shrink the common deck below this many "
                                                              "cards (assumed: a deal needs 2 x hand_size).")
    empty_hand_bonus: int = Field(default=1, ge=0, le=5, description="Gold when both players empty their hands "
                                                                     "(rulebook: 1).")
    skill_gold: int = Field(default=1, ge=0, le=5, description="Gold the bonus_gold skill adds to each build phase "
                                                               "(assumed).")
    left_behind: Literal["return", "stay"] = Field(
        default="return", description="Skeleton tokens on a card both pawns have left: back to the supply "
                                      "(assumed: no one can reach them) or left standing.")
    top_up: Literal["next_round", "never"] = Field(
        default="next_round", description="Skeletons drawn on a card in play that got no token (the 12 tokens ran "
                                          "short): tokens from the supply go onto them in each next-round phase "
                                          "(assumed), or never (the card stays short; its skill cannot be "
                                          "gained).")

    @field_validator("tower")
    @classmethod
    def _tower(cls, v):
        if isinstance(v, list) and len(set(v)) != len(v):
            raise ValueError(f"tower={v}: a tower card used twice (allowed: distinct tower cards, or \"random\")")
        return v


def check_tower(c: ClimbingTowerComponents, r: ClimbingTowerRules) -> None:
    """Cross-checks of components and rules (ValueError "key=value: problem (allowed: ...)")."""
    names = [t.name for t in c.tower]
    if isinstance(r.tower, list):
        for n in r.tower:
            if n not in names:
                raise ValueError(f"rules.tower={r.tower}: no tower card {n!r} (allowed: {', '.join(names)})")
        if len(r.tower) != r.tower_cards:
            raise ValueError(f"rules.tower={r.tower}: {len(r.tower)} cards but tower_cards={r.tower_cards} (allowed: "
                             f"exactly {r.tower_cards} names)")
    elif len(names) < r.tower_cards:
        raise ValueError(f"rules.tower_cards={r.tower_cards}: only {len(names)} tower cards (allowed: at most "
                         f"{len(names)})")
    n1, n2, n3 = (len(c.level(n)) for n in (1, 2, 3))
    if n2 < r.starting_level2:
        raise ValueError(f"rules.starting_level2={r.starting_level2}: only {n2} Level 2 cards (allowed: at most {n2})")
    if n1 + r.starting_level2 < 2 * r.hand_size:
        raise ValueError(f"rules.hand_size={r.hand_size}: the starting deck holds {n1 + r.starting_level2} cards "
                         f"(allowed: a hand size the starting deck can deal twice, at most "
                         f"{(n1 + r.starting_level2) // 2})")
    if r.supply == "easy":
        other = {c.colour for c in c.level(2)}
        if len(other) > 2:
            raise ValueError(f"rules.supply='easy': Level 2 cards in {len(other)} colours {sorted(other)} (allowed: at "
                             "most two colours, one pile each)")
