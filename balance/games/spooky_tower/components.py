"""Spooky Tower components as validated settings (``compile`` turns them into the arrays the kernel reads).

Defaults are the public card list (``docs/sources/spooky_tower_components.md``). Every number is a setting: a designer
who owns the real cards types them into the scenario's ``[components]`` table. Rule points the rulebook leaves open
are in :class:`SpookyTowerRules` (see ``docs/rules/spooky_tower.md``).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import enums

Effect = Literal[
    "none", "ghost", "clue", "clock", "grimoire", "pet", "reroll", "fragment",
    "take_8minus", "take_any", "flip_8minus", "flip_9plus", "extra_turn",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def _check_card(effects: list[str]) -> list[str]:
    n = len([x for x in effects if x != "none"])
    if n > enums.MAX_FX:
        raise ValueError(f"a card with {n} effects (allowed: at most {enums.MAX_FX} effects on a card)")
    return effects


def _check_cards(cards: list[list[str]], limit: int, what: str) -> list[list[str]]:
    """At most `limit` cards, each within the effects a card may hold (the kernel's fixed array sizes)."""
    if len(cards) > limit:
        raise ValueError(f"{len(cards)} {what} (allowed: at most {limit} {what})")
    for card in cards:
        _check_card(card)
    return cards


class Building(_Strict):
    """One Building (all cards of one value)."""

    value: int = Field(ge=1, le=12, description="Building value, 1-12 (a single die or the sum of two).")
    bonus: list[Effect] = Field(default_factory=list, description="Building-side bonus, applied when a card is taken.")
    ghost_worth: int = Field(default=1, ge=0, le=10, description="Ghosts captured by one ghost Photo of this Building.")
    photos: list[list[Effect]] = Field(description="Photo effects, one list per card (an empty list: no effect).")

    @field_validator("photos")
    @classmethod
    def _photos(cls, v):
        return _check_cards(v, enums.MAX_PER_VALUE, "cards in a Building")

    @field_validator("bonus")
    @classmethod
    def _bonus_size(cls, v):
        return _check_card(v)


def _b(value, photos, bonus=(), ghost_worth=1):
    return Building(value=value, bonus=list(bonus), ghost_worth=ghost_worth, photos=[list(p) for p in photos])


def card_list_buildings() -> list[Building]:
    """The public card list (Board Game Arena data), the default."""
    return [
        _b(1, [["ghost", "flip_9plus"], ["flip_9plus"], ["flip_9plus"], ["flip_9plus"], ["flip_9plus"]], ["reroll"]),
        _b(2, [["clock", "clock"], ["clock"], ["clock"], ["clock"], ["clock"]], ["reroll"]),
        _b(3, [["grimoire", "clue"], ["grimoire"], ["grimoire"], ["grimoire"], ["grimoire"]], ["reroll"]),
        _b(4, [["pet"], ["pet"], ["pet"], ["pet"], ["clock"]], ["reroll"]),
        _b(5, [["flip_8minus", "clue"]] * 3 + [["flip_8minus"]] * 2),
        _b(6, [["take_8minus", "clue"]] * 2 + [["take_8minus", "clock"]] + [["take_8minus"]] * 2),
        _b(7, [["ghost"], ["clock", "clock"], ["clock"], ["clue"], ["clue"]]),
        _b(8, [["ghost"], ["ghost"], ["pet"], ["pet"], ["extra_turn"]]),
        _b(9, [["ghost"], ["ghost"], ["pet"], ["pet"], ["clue"]], ["clock"]),
        _b(10, [["ghost"]] * 5),
        _b(11, [["grimoire", "ghost"]] * 4 + [["grimoire", "pet"]]),
        _b(12, [["ghost"]] * 3, ghost_worth=2),
    ]


def rulebook_buildings() -> list[Building]:
    """The rulebook's example reading: value 1 carries Grimoire on every Photo and one hidden ghost.

    Only value 1 changes; value 3 keeps the card list's Photos (Grimoire on all, one with a clue), since the rulebook
    says nothing about it.
    """
    out = card_list_buildings()
    out[0] = _b(1, [["grimoire", "ghost"], ["grimoire"], ["grimoire"], ["grimoire"], ["grimoire"]], ["reroll"])
    return out


class SpookyTowerComponents(_Strict):
    """Every component number of Spooky Tower."""

    buildings: list[Building] = Field(default_factory=card_list_buildings, description="The Town, one entry a value.")
    grimoire: list[list[Effect]] = Field(
        default_factory=lambda: [["ghost"], ["clue"], ["clue"], ["take_any"], ["extra_turn"], ["clock", "clock"],
                                 ["clock"], ["pet"], ["pet"], ["pet"]],
        description="The Grimoire deck, one list of effects a card ('clock x2' is [\"clock\", \"clock\"]).")
    grimoire_ghost_worth: int = Field(default=1, ge=0, le=10, description="Ghosts captured by a Grimoire ghost.")
    clock_dial: list[Effect] = Field(
        default_factory=lambda: ["pet", "reroll", "fragment", "pet", "reroll", "fragment"],
        description="Dial effects for steps 1..N; step N is midnight, where the hand starts.")
    park_requirements: list[int] = Field(default_factory=lambda: [1, 2, 2, 2, 3],
                                         description="Clues needed by each Park card, top of the stack first.")
    park_ghosts: int = Field(default=1, ge=0, le=10, description="Ghosts on each Park card.")
    ghost_pets: int = Field(default=3, ge=0, le=20, description="Ghost Pet cards in the centre at the start.")
    amulet_fragments: int = Field(default=9, ge=0, le=60, description="Amulet fragments in the reserve.")
    ghosts_to_win: int = Field(default=5, ge=1, le=100, description="Ghosts (pets and Park cards count) that win.")
    fragments_to_win: int = Field(default=3, ge=1, le=60, description="Amulet fragments that win.")

    @field_validator("clock_dial")
    @classmethod
    def _dial(cls, v):
        allowed = f"(allowed: 1 to {enums.MAX_DIAL} effects, none of them 'clock')"
        if not 1 <= len(v) <= enums.MAX_DIAL:
            raise ValueError(f"a dial of {len(v)} steps {allowed}")
        if "clock" in v:
            raise ValueError(f"a dial step cannot move the clock again, it would never stop {allowed}")
        return v

    @field_validator("park_requirements")
    @classmethod
    def _park(cls, v):
        if len(v) > enums.MAX_PARK or any(r < 1 or r > 50 for r in v):
            problem = (f"{len(v)} Park cards" if len(v) > enums.MAX_PARK
                       else "a Park card needing fewer than 1 or more than 50 clues")
            raise ValueError(f"{problem} (allowed: at most {enums.MAX_PARK} Park cards, each needing 1 to 50 clues)")
        return v

    @field_validator("grimoire")
    @classmethod
    def _grimoire(cls, v):
        return _check_cards(v, enums.MAX_GRIMOIRE, "Grimoire cards")

    @model_validator(mode="after")
    def _town_and_thresholds(self):
        values = [b.value for b in self.buildings]
        for i, v in enumerate(values):
            if v in values[:i]:
                raise ValueError(f"buildings[{i}].value={v}: a second Building of value {v} (allowed: each value "
                                 "1 to 12 at most once)")
        supply = self.ghost_pets + self.park_ghosts * len(self.park_requirements)
        supply += sum(b.ghost_worth * sum(p.count("ghost") for p in b.photos) for b in self.buildings)
        supply += self.grimoire_ghost_worth * sum(c.count("ghost") for c in self.grimoire)
        if self.ghosts_to_win > supply:
            raise ValueError(f"ghosts_to_win={self.ghosts_to_win}: cannot be reached, the components hold "
                             f"{supply} ghosts in all (allowed: an integer from 1 to {supply}, with these components)")
        if self.fragments_to_win > self.amulet_fragments:
            n = self.amulet_fragments
            raise ValueError(f"fragments_to_win={self.fragments_to_win}: cannot be reached, the reserve holds "
                             f"{n} fragment{'' if n == 1 else 's'} (allowed: an integer from 1 to {n}, with this "
                             "reserve)")
        return self


class SpookyTowerRules(_Strict):
    """Points the rulebook leaves open; each is documented in docs/rules/spooky_tower.md."""

    effect_order: Literal["printed", "takes_first"] = Field(
        default="printed", description="Order in which several revealed effects resolve.")
    flip_scope: Literal["card", "building"] = Field(
        default="card", description="'Flip one of your cards' flips one card, or every card of the chosen value.")
    stuck_with_token: Literal["pass", "clock", "reroll"] = Field(
        default="pass", description="A player with no legal action who holds an available token and declines to "
                                    "reroll: the turn ends, the clock moves, or the reroll is forced.")
    extra_turns: Literal["one", "stack"] = Field(
        default="one", description="Several extra-turn effects in one turn give one extra turn, or one each.")
