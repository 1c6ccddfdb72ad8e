"""The Haunted Tower reference engine, the pieces: chits, heroes, the snapshot taken after every hero turn and the
result of a game, as plain Python objects (``engine.py`` plays the game with them).

A chit's fixed facts (its back colour, what it holds) are attributes; where it is and what is known of it live in one
row per field of a per-chit state array that all the chits of a game share, so that the strategies' view
(``view.py``) copies the rows instead of walking the chits. Chits are numbered as the compiled scenario
numbers them: the blue pool as listed (each name repeated by its count), then the purple pool, then the Specter's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import enums
from ..components import HauntedTowerComponents, Hero as HeroCard


# --- chits and heroes -------------------------------------------------------------------------------------------------

# Where a chit is and what is known of it: one row per field of the table's per-chit state array (the rows the
# strategies' view copies as layout.CHIT_LOC, CHIT_SQ, CHIT_OWNER, CHIT_PLACER, CHIT_FACEUP, CHIT_USES).
CHIT_STATE = ("loc", "square", "owner", "placer", "face_up", "uses")
CHIT_START = (enums.LOC_CUP, -1, -1, -1, 0, 0)


def _chit_state(row: int, doc: str) -> property:
    def get(ch):
        return int(ch.state[row, ch.id])

    def put(ch, value):
        ch.state[row, ch.id] = value
    return property(get, put, doc=doc)


class Chit:
    """One chit: its back colour and what it holds (fixed), and where it is (kept in the table's state array)."""

    def __init__(self, id: int, colour: int, kind: int, index: int, state: np.ndarray):
        self.id = id
        self.colour = colour             # enums.BLUE, enums.PURPLE, enums.SPECTER_CHIT
        self.kind = kind                 # enums.CONTENT_MONSTER or enums.CONTENT_ITEM
        self.index = index               # monster or item index
        self.state = state

    loc = _chit_state(0, "enums.LOC_*")
    square = _chit_state(1, "square while it lies on the board (face down, the Specter, an item on the floor), -1")
    owner = _chit_state(2, "seat holding it (hand, carried, kept), -1")
    placer = _chit_state(3, "seat that drew and placed it knowing its content (blue chits), -1")
    face_up = _chit_state(4, "1 once revealed")
    uses = _chit_state(5, "uses left of a limited item (0: unlimited)")

    @property
    def is_monster(self) -> bool:
        return self.kind == enums.CONTENT_MONSTER

    @property
    def purple_backed(self) -> bool:
        return self.colour != enums.BLUE

    def __repr__(self) -> str:
        return f"Chit({self.id}, {', '.join(f'{k}={getattr(self, k)}' for k in CHIT_STATE)})"


@dataclass
class Hero:
    """A hero in play: its card, where it stands, its wounds and "-1" chits, what it carries and what it killed."""

    seat: int
    index: int                   # index into the components' hero list
    card: HeroCard
    square: int
    hp: int
    drains: int = 0              # green "-1" chits (energy drains and deaths)
    deaths: int = 0
    out: bool = False
    held: bool = False           # hit by a ghoul: does not move on its next turn
    items: list[int] = field(default_factory=list)      # item chits carried, in the order taken
    kept: list[int] = field(default_factory=list)       # killed monsters' chits, in the order killed
    hand: list[int] = field(default_factory=list)       # set-up: blue chits drawn, not yet placed
    standups: int = 0
    kills: int = 0
    bane_kills: int = 0          # the vampire killed with the stake
    specter_hits: int = 0        # Specter damage bonus earned (once a game, or once per encounter)
    specter_kill: int = 0
    hit_specter_now: bool = False
    encounters: int = 0
    runs: int = 0
    trade_ins: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    score: tuple[int, ...] = (0, 0, 0, 0, 0)   # points by scoring line, set at the end (layout.SCORE_LINES)
    fight_cap: int = 0           # 1 when the game ended at the fight cap in this hero's fight

    def ability(self, kind: int) -> int:
        """The value of the hero's special ability when it is of this kind (``enums.AB_*``), else 0."""
        return self.card.ability_value if enums.ABILITY_NAMES.index(self.card.ability) == kind else 0

    @property
    def has_magic(self) -> bool:
        return self.card.ability == "magic"

    @property
    def attack(self) -> int:
        """The attack number less one for each "-1" chit."""
        return self.card.attack - self.drains


@dataclass(frozen=True)
class HeroSnapshot:
    seat: int
    hero: int
    square: int                  # -1 once out of the game
    hp: int
    attack: int                  # attack number with the "-1" chits taken off
    drains: int                  # "-1" chits
    deaths: int
    out: bool
    held: bool
    items: tuple[int, ...]       # item chits carried, in the order taken
    kept: tuple[int, ...]        # monster chits kept
    standups: int
    points: int                  # points if the game ended now
    uses: tuple[int, ...] = ()   # uses left of each item carried, in the same order (0: an item without limit)


@dataclass(frozen=True)
class Snapshot:
    """The table after one hero turn."""

    turn: int
    round: int
    heroes: tuple[HeroSnapshot, ...]
    chits_left: tuple[int, int, int]     # chits lying on Tower 1, 2, 3 (face down, the Specter, items on the floor)
    board: tuple[tuple[int, int, bool], ...] = ()   # (chit, square, face up) of every chit lying on the board


@dataclass
class ReferenceGame:
    """One finished reference game: its events, a snapshot per hero turn and the final counts."""

    n_players: int
    kinds: tuple[int, ...]               # strategy kind per seat
    heroes: tuple[int, ...]              # hero index per seat
    seed: int
    game: int
    events: list[tuple[int, int, int, int, int]]
    snapshots: list[Snapshot]
    winner: int                          # first winning seat, -1 when unfinished
    win_mask: int                        # bit s for every winning seat
    victory: int                         # enums.WIN_*
    turns: int
    rounds: int
    final: np.ndarray                    # int64[P, N_FINAL], layout.FINAL_NAMES
    monsters: np.ndarray                 # int64[P, monsters, N_MC], layout.MONSTER_COUNTER_NAMES
    items: np.ndarray                    # int64[P, items, N_IC], layout.ITEM_COUNTER_NAMES
    draws: int                           # stream words drawn, all streams together
    scenario: object = field(default=None, repr=False, compare=False)   # the Scenario of play_scenario; None: pieces


def number_chits(c: HauntedTowerComponents) -> list[Chit]:
    """Every chit, numbered: the blue pool as listed (each name by its count), the purple pool, the Specter's; all
    in the cup, limited items with their uses."""
    monsters = [m.name for m in c.monsters]
    items = [i.name for i in c.items]
    contents = []
    for colour, pool in ((enums.BLUE, c.blue), (enums.PURPLE, c.purple)):
        for name, count in pool.items():
            content = ((enums.CONTENT_MONSTER, monsters.index(name)) if name in monsters
                       else (enums.CONTENT_ITEM, items.index(name)))
            contents += [(colour, *content)] * count
    contents.append((enums.SPECTER_CHIT, enums.CONTENT_MONSTER, monsters.index(c.specter)))
    state = np.array([CHIT_START] * len(contents), np.int64).T.copy()
    chits = [Chit(i, colour, kind, index, state) for i, (colour, kind, index) in enumerate(contents)]
    for ch in chits:
        if ch.kind == enums.CONTENT_ITEM:
            ch.uses = c.items[ch.index].uses
    return chits
