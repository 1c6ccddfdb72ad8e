"""The Haunted Tower board drawn back as map text (:func:`render`), with a mark for a hero or a chit on a square."""
from __future__ import annotations

import string

import numpy as np

from .geometry import (HALL, HALL_FLOOR, LANDING, LEVELS, OUTSIDE, OUTSIDE_SQUARE, ROOM, ROOM_FLOOR, STAIR, Board)

LEGEND = (
    "; legend: '#' wall  '.' room  ':' hallway  '+' door (+1)  '==' double door  'o' outside (start)",
    "; a-z staircase (+1 onto each square; its top leads up)  A-Z its landing on the next level",
)


def square_char(board: Board, s: int) -> str:
    """The map character of square ``s``."""
    kind = int(board.kind[s])
    if kind in (STAIR, LANDING):
        letter = string.ascii_lowercase[int(board.letter[s])]
        return letter if kind == STAIR else letter.upper()
    return {ROOM: ROOM_FLOOR, HALL: HALL_FLOOR, OUTSIDE: OUTSIDE_SQUARE}[kind]


def render(board: Board, marks: dict[int, str] | None = None, level: int | None = None,
           legend: bool = False) -> str:
    """The map drawn back as map text: ``[level N]`` header and grid per level, squares drawn from the board's arrays.

    ``marks`` overlays one character per square (heroes '1'-'6', chits '?' ...); ``level`` draws one level only;
    ``legend`` appends the legend as ';' comment lines. Without marks the result is a loadable map file.
    """
    marks = marks or {}
    blocks = []
    if board.diagonal and level is None:
        blocks.append(["diagonal = true"])
    for lv in LEVELS if level is None else (level,):
        grid = [list(line) for line in board.walls[lv - 1]]
        for s in np.flatnonzero(board.level == lv):
            s = int(s)
            ch = marks.get(s, square_char(board, s))
            if len(ch) != 1:
                raise ValueError(f"mark {ch!r} for square {s}: one character per square")
            grid[board.row[s] - 1][board.col[s] - 1] = ch
        blocks.append([f"[level {lv}]"] + ["".join(line).rstrip() for line in grid])
    if legend:
        blocks.append(list(LEGEND))
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"
