"""Spooky Tower components as validated settings, compiled to the arrays the kernel reads.

Defaults are the public card list (``docs/sources/spooky_tower_components.md``). Every number is a setting: a designer
who owns the real cards types them into the scenario's ``[components]`` table. Rule points the rulebook leaves open
are in :class:`SpookyTowerRules` (see ``docs/rules/spooky_tower.md``).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import enums as E

Effect = Literal[
    "none", "ghost", "clue", "clock", "grimoire", "pet", "reroll", "fragment",
    "take_8minus", "take_any", "flip_8minus", "flip_9plus", "extra_turn",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def _check_card(effects: list[str]) -> list[str]:
    n = len([x for x in effects if x != "none"])
    if n > E.MAX_FX:
        raise ValueError(f"a card with {n} effects (allowed: at most {E.MAX_FX} effects on a card)")
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
        return _check_cards(v, E.MAX_PER_VALUE, "cards in a Building")

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
        allowed = f"(allowed: 1 to {E.MAX_DIAL} effects, none of them 'clock')"
        if not 1 <= len(v) <= E.MAX_DIAL:
            raise ValueError(f"a dial of {len(v)} steps {allowed}")
        if "clock" in v:
            raise ValueError(f"a dial step cannot move the clock again, it would never stop {allowed}")
        return v

    @field_validator("park_requirements")
    @classmethod
    def _park(cls, v):
        if len(v) > E.MAX_PARK or any(r < 1 or r > 50 for r in v):
            problem = (f"{len(v)} Park cards" if len(v) > E.MAX_PARK
                       else "a Park card needing fewer than 1 or more than 50 clues")
            raise ValueError(f"{problem} (allowed: at most {E.MAX_PARK} Park cards, each needing 1 to 50 clues)")
        return v

    @field_validator("grimoire")
    @classmethod
    def _grimoire(cls, v):
        return _check_cards(v, E.MAX_GRIMOIRE, "Grimoire cards")

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


def _codes(effects: list[str]) -> list[int]:
    return [E.EFFECT_CODES[x] for x in effects if x != "none"]


def public_features(components: SpookyTowerComponents) -> np.ndarray:
    """Expected Photo effects per card of each value, float64[13, N_EFFECTS] (ghosts weighted by their worth).

    This is what the Building side shows every player, so strategies may use it.
    """
    import numpy as np
    from . import layout as L       # Numba's: loaded by what plays a game, never by a scenario's checks
    feat = np.zeros((L.NV, E.N_EFFECTS), np.float64)
    for b in components.buildings:
        for photo in b.photos:
            for x in photo:
                feat[b.value, E.EFFECT_CODES[x]] += (b.ghost_worth if x == "ghost" else 1) / len(b.photos)
    return feat


def compile_rules(components: SpookyTowerComponents, rules: SpookyTowerRules, n_players: int,
                  max_turns: int) -> tuple[np.ndarray, np.ndarray]:
    """Compile validated settings into the kernel's flat arrays ``(s0, f0)`` (see ``layout``).

    ``s0`` holds the rules region filled in and a zeroed state region; ``f0`` the public card statistics.
    Cards get ids by value, then in the order listed, so the cards of one value are contiguous.
    """
    import numpy as np
    from . import layout as L
    from .strategies import fill_ghost_values_nb
    s = np.zeros(L.BASE_SIZE, np.int64)
    by_value = {b.value: b for b in components.buildings}
    card = 0
    for v in range(1, L.NV):
        s[L.VALUE_FIRST + v] = card
        b = by_value.get(v)
        if b is None:
            continue
        s[L.VALUE_COUNT + v] = len(b.photos)
        s[L.GHOST_WORTH + v] = b.ghost_worth
        bonus = _codes(b.bonus)
        s[L.BONUS_NFX + v] = len(bonus)
        s[L.BONUS_FX + v * L.MAX_FX:L.BONUS_FX + v * L.MAX_FX + len(bonus)] = bonus
        for code in bonus:
            s[L.BONUS_COUNT + v * E.N_EFFECTS + code] += 1
        for photo in b.photos:
            codes = _codes(photo)
            s[L.CARD_VALUE + card] = v
            s[L.CARD_NFX + card] = len(codes)
            s[L.CARD_FX + card * L.MAX_FX:L.CARD_FX + card * L.MAX_FX + len(codes)] = codes
            card += 1
    for g, effects in enumerate(components.grimoire):
        codes = _codes(effects)
        s[L.GRIM_NFX + g] = len(codes)
        s[L.GRIM_FX + g * L.MAX_FX:L.GRIM_FX + g * L.MAX_FX + len(codes)] = codes
    s[L.DIAL:L.DIAL + len(components.clock_dial)] = [E.EFFECT_CODES[x] for x in components.clock_dial]
    s[L.PARK_REQ:L.PARK_REQ + len(components.park_requirements)] = components.park_requirements
    prio = np.ones(E.N_EFFECTS, np.int64)
    if rules.effect_order == "takes_first":
        prio[[E.FX_TAKE_8MINUS, E.FX_TAKE_ANY]] = 0
        prio[[E.FX_FLIP_8MINUS, E.FX_FLIP_9PLUS]] = 2
    s[L.PRIORITY:L.PRIORITY + E.N_EFFECTS] = prio
    opt = {
        E.OPT_PETS: components.ghost_pets, E.OPT_FRAGMENTS: components.amulet_fragments,
        E.OPT_GHOSTS_TO_WIN: components.ghosts_to_win, E.OPT_FRAGMENTS_TO_WIN: components.fragments_to_win,
        E.OPT_EFFECT_ORDER: E.EFFECT_ORDER_NAMES.index(rules.effect_order),
        E.OPT_FLIP_SCOPE: E.FLIP_SCOPE_NAMES.index(rules.flip_scope),
        E.OPT_STUCK: E.STUCK_NAMES.index(rules.stuck_with_token),
        E.OPT_EXTRA_TURNS: E.EXTRA_TURN_NAMES.index(rules.extra_turns),
        E.OPT_MAX_TURNS: max_turns, E.OPT_GRIMOIRE_GHOST: components.grimoire_ghost_worth,
        E.OPT_N_PLAYERS: n_players, E.OPT_N_GRIMOIRE: len(components.grimoire),
        E.OPT_N_PARK: len(components.park_requirements), E.OPT_PARK_GHOSTS: components.park_ghosts,
        E.OPT_N_DIAL: len(components.clock_dial),
    }
    for k, val in opt.items():
        s[L.OPT + k] = val
    f = np.zeros(L.F_SIZE, np.float64)
    f[L.F_FEAT:L.F_FEAT + L.NV * E.N_EFFECTS] = public_features(components).ravel()
    fill_ghost_values_nb(f)
    return s, f
