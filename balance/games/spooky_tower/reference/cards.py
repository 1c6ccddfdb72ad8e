"""Every Spooky Tower component, numbered as ``compile.compile_rules`` numbers the cards (by Building value
ascending, then in the listed order of Photos)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .. import enums
from ..components import SpookyTowerComponents

VALUES = range(1, enums.N_VALUES)        # Building values 1..12


def _effect_codes(effects: Sequence[str]) -> tuple[int, ...]:
    """Effect codes of one card; the empty circle ("none") is no effect at all on a card."""
    return tuple(enums.EFFECT_CODES[x] for x in effects if x != "none")


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
            grimoire_ghost_worth=c.grimoire_ghost_worth, dial=tuple(enums.EFFECT_CODES[x] for x in c.clock_dial),
            park=tuple(c.park_requirements), park_ghosts=c.park_ghosts, ghost_pets=c.ghost_pets,
            amulet_fragments=c.amulet_fragments, ghosts_to_win=c.ghosts_to_win,
            fragments_to_win=c.fragments_to_win)
