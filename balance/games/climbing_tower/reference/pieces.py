"""The Climbing Tower reference engine, the pieces: the tower's places, printed floors (slots) and floors, the BOSS,
the players, the per-turn snapshot and a finished game (``reference.py`` plays with them)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import enums
from .. import layout

LEFT, RIGHT = enums.LEFT, enums.RIGHT
SIDES = (LEFT, RIGHT)


# --- the pieces ------------------------------------------------------------------------------------------------------

@dataclass
class Slot:
    """One printed floor of a tower card: the skeletons drawn on it, the tokens standing there, those fallen this
    round, and the skeletons drawn there that have no token (by side)."""

    place: int                      # position of its tower card in the column (0 bottom)
    printed: tuple[int, int]
    floor: int = -1                 # the (joined) floor it belongs to
    standing: list[int] = field(default_factory=lambda: [0, 0])
    fallen: list[int] = field(default_factory=lambda: [0, 0])
    missing: list[int] = field(default_factory=lambda: [0, 0])   # no token: the card not reached, or none left

    def __post_init__(self):
        self.missing = list(self.printed)           # no token on any skeleton until the card's are placed


@dataclass
class Floor:
    """A floor: one slot, or slots of one colour touching across neighbouring tower cards (bottom first)."""

    number: int
    slots: list[Slot]

    def standing(self, side: int) -> int:
        return sum(slot.standing[side] for slot in self.slots)

    def fallen(self, side: int) -> int:
        return sum(slot.fallen[side] for slot in self.slots)

    def missing(self, side: int) -> int:
        return sum(slot.missing[side] for slot in self.slots)

    @property
    def lowest_place(self) -> int:
        return self.slots[0].place

    @property
    def highest_place(self) -> int:
        return self.slots[-1].place


@dataclass
class Place:
    """A tower card at its position: its printed floors, its skill, whether its tokens are on it and whether it has
    been dealt with (1 cleared and flipped, 2 left behind with skeletons standing)."""

    position: int
    name: str
    tower_card: int                 # index in the scenario's tower list, -1 for the BOSS card
    skill: int                      # enums.SKILL_*, SKILL_NONE for the BOSS card
    slots: list[Slot]
    placed: bool = False
    flipped: int = 0

    def standing(self) -> int:
        return sum(slot.standing[LEFT] + slot.standing[RIGHT] for slot in self.slots)

    def missing(self) -> int:
        return sum(slot.missing[LEFT] + slot.missing[RIGHT] for slot in self.slots)


@dataclass
class Boss:
    name: str
    side: int
    hp: int
    same_round: bool
    both_pawns: bool
    damage: int = 0


@dataclass
class Player:
    """A player: the side in charge, the pawn's floor, the hand (in the order received), this round's redraws and
    offer, the card face down, and the per-player counts (``layout.FINAL_NAMES``)."""

    seat: int
    side: int
    floor: int = 0
    hand: list[int] = field(default_factory=list)
    redraws_used: int = 0
    offered: bool = False
    face_down: int | None = None
    count: dict[str, int] = field(default_factory=lambda: dict.fromkeys(layout.FINAL_NAMES, 0))


@dataclass(frozen=True)
class Snapshot:
    """The table after one turn."""

    round: int
    turn: int
    events: int                               # events recorded so far (this snapshot follows events[:events])
    start: int                                # the round's start player
    floors: tuple[int, int]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    face_down: tuple[int, int]                # -1: none
    top: int                                  # the play area's top card, -1 none
    draw_pile: int
    standing: tuple[tuple[int, int], ...]     # per floor, (left, right)
    fallen: tuple[tuple[int, int], ...]       # per floor, (left, right): fallen this round, not yet paid
    missing: tuple[tuple[int, int], ...]      # per floor, (left, right): skeletons drawn there without a token
    gold: int
    supply_tokens: int
    boss_damage: int
    skills: tuple[int, ...]                   # enums.SKILL_* gained, in code order
    deck_size: int                            # the common deck (every card in the game)


@dataclass
class ReferenceGame:
    """One finished reference game: its events, a snapshot per turn and the final counts (as the kernel's)."""

    seed: int
    game: int
    kinds: tuple[int, int]
    card_names: tuple[str, ...]
    card_icons: tuple[tuple[int, int], ...]   # (swords, arrows) per card
    tower_list: tuple[str, ...]               # every tower card of the scenario, by index ("001" ...)
    pile_names: tuple[str, str, str]          # the supply piles ("level2", or "level2_red" and "level2_blue" in Easy;
                                              # "level3"), by enums.STACK_* number
    boss_names: tuple[str, str]               # the BOSS card's sides
    tower_names: tuple[str, ...]              # this game's tower bottom to top, the BOSS card last ("BOSS A")
    sides: tuple[int, int]                    # the side each seat is in charge of
    floor_count: int
    boss_hp: int
    events: list[tuple[int, int, int, int, int]]
    snapshots: list[Snapshot]
    winner: int                               # 0 when the team won, -1 otherwise
    victory: int                              # enums.WIN_* / LOST_*
    turns: int
    rounds: int
    final: np.ndarray                         # int64[2, N_FINAL]
    cards: np.ndarray                         # int64[n_cards, N_CC]
    skills: np.ndarray                        # int64[N_SKILLS, N_SK]
    team: np.ndarray                          # int64[N_TEAM]
    tower: int                                # the tower's label index (compile.tower_labels), -1
    boss_side: int
    draws: int                                # random numbers drawn, every stream together
    scenario: object = field(default=None, repr=False, compare=False)   # the Scenario of play_scenario; None: pieces


class StandingView:
    """Skeletons standing per floor, (left, right), read on demand (public information)."""

    __slots__ = ("floors",)

    def __init__(self, floors: list[Floor]):
        self.floors = floors

    def __getitem__(self, floor: int) -> tuple[int, int]:
        f = self.floors[floor]
        return f.standing(LEFT), f.standing(RIGHT)

    def __len__(self) -> int:
        return len(self.floors)
