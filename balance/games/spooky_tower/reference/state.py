"""The reference engine's table pieces: a House, a revealed effect, the snapshots, the finished game, the win."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import enums
from .cards import CardBook


class GameOver(Exception):
    """A player reached a victory condition: the game ends at once (rulebook, End of the Game)."""

    def __init__(self, winner: int, victory: int):
        super().__init__(f"seat {winner} wins ({enums.VICTORY_NAMES[victory]})")
        self.winner = winner
        self.victory = victory


@dataclass
class Player:
    """One House: Building cards held (by value, in the order taken), captures, clues and the Reroll token."""

    seat: int
    cards: list[list[int]] = field(default_factory=lambda: [[] for _ in range(enums.N_VALUES)])
    ghosts: int = 0          # ghost Photos (by their worth), Grimoire ghosts and Park cards
    pets: int = 0            # Ghost Pets; each counts as a ghost
    fragments: int = 0
    clues: int = 0
    token: bool = True       # Reroll token on its available side

    @property
    def held(self) -> int:
        return sum(len(cards) for cards in self.cards)

    def counters(self) -> list[int]:
        """The per-player counters in ``enums.PL_*`` order."""
        return [self.ghosts, self.pets, self.fragments, self.clues, int(self.token), self.held]


@dataclass(frozen=True)
class Revealed:
    """One effect waiting to resolve, and where it came from (``enums.SRC_*`` and the card, step or index)."""

    effect: int
    source: int
    source_id: int


@dataclass(frozen=True)
class SeatSnapshot:
    cards: tuple[tuple[int, ...], ...]   # card ids held per value (index 0 unused), in the order taken
    ghosts: int
    pets: int
    fragments: int
    clues: int
    token: bool


@dataclass(frozen=True)
class Snapshot:
    """The table at the end of one turn."""

    turn: int
    seats: tuple[SeatSnapshot, ...]
    town: tuple[int, ...]                # cards left per Town stack, index = value (index 0 unused)
    clock: int
    grimoire_left: int
    park_left: int
    pets_left: int
    fragments_left: int


@dataclass
class ReferenceGame:
    """One finished reference game: its events, a snapshot per turn and the final counts."""

    n_players: int
    kinds: tuple[int, ...]
    seed: int
    game: int
    book: CardBook
    events: list[tuple[int, int, int, int, int]]
    snapshots: list[Snapshot]
    winner: int                          # -1: unfinished at the turn cap
    victory: int                         # enums.WIN_*
    turns: int
    rounds: int
    final: np.ndarray                    # int64[P, N_PL], enums.PL_*
    scalars: np.ndarray                  # int64[N_SC], enums.SC_*
    counters: np.ndarray                 # int64[P, N_VALUES, N_CNT], enums.CNT_*
    town: list[list[int]]                # final Town stacks by value (index 0 unused), bottom to top
    draws: int                           # random numbers drawn, all streams together (dice, shuffles, seats)
    scenario: object = field(default=None, repr=False, compare=False)   # the Scenario of play_scenario; None: pieces
