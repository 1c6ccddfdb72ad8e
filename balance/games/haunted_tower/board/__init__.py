"""The Haunted Tower board: the Fighters' Academy map (Tower 1-3) read from a text file, checked, drawn and precomputed.

The poster map is not public, so the map is data: ``balance/data/haunted_tower/fighters_academy.map`` is a
reconstruction that a designer who owns the box replaces with the real one. This package reads such a file, checks
it against the rulebook (``docs/sources/haunted_tower_rulebook.txt``), and compiles it into a :class:`Board`: plain
Python facts plus int32/int16 C-contiguous numpy arrays for a Numba kernel (squares, neighbours and their movement
costs, encounter adjacency, the squares behind doors, rooms, start and front squares, chit-placement squares and
all-pairs movement costs under the four climbing restrictions). ``loader`` reads and checks the text, ``geometry``
holds the kinds, the costs, the :class:`Board` and the tables built from it, ``drawing`` draws a board back as map
text; what other modules use is re-exported here.

Map file format
---------------
* A line whose first non-space character is ``;`` is a comment. Blank lines are ignored everywhere.
* Optional option lines before the first level: ``diagonal = false`` (default) or ``diagonal = true``: whether
  movement and adjacency include diagonal steps. A diagonal step needs both squares it passes between to be floor
  squares of the same area, so it never cuts a wall corner or passes a door.
* ``[level 1]``, ``[level 2]``, ``[level 3]`` (Tower 1, 2, 3), exactly these, in this order, each followed by the grid
  lines of that level. Row 1 / column 1 is the first grid line / character after the header; leading spaces count,
  trailing spaces do not.
* Grid characters:

  ====== ======================================================================================================
  ``#``  wall
  space  nothing (off the map)
  ``.``  room floor square; rooms are the 4-connected sets of ``.`` (doors do not join rooms)
  ``:``  hallway floor square; hallways are the 4-connected sets of ``:``, staircase and landing squares
  ``+``  single door: a wall cell (not a square) with floor squares on two opposite sides and ``#`` on the other
         two; it links those two squares (a door edge, movement cost 2)
  ``=``  one leaf of a double door: two orthogonally adjacent ``=`` in a wall line; each leaf links the squares on
         its two sides like ``+``
  ``o``  outside square (level 1 only): heroes start there and re-enter there after dying
  a-z    staircase square (a hallway square; ``o`` excluded); a staircase is one straight run of its letter; its
         top is the end of the run away from the level's other floor squares
  A-Z    landing (a hallway square; ``O`` excluded) of the staircase with the lowercase letter, on the next level
  ====== ======================================================================================================

* Rooms, hallways and the outside touch only through doors: a room square may not be orthogonally next to a
  hallway or outside square, nor a hallway square next to an outside square.
* Each staircase letter is used on one level only.

Movement (rulebook, Movement): a step costs 1; "an extra point of movement to move through a door or onto a
staircase square" makes a door crossing cost 2 and a step onto a staircase square cost 2 (both: 3). The staircases
overlap the next floor: the top of a staircase and its landing are linked, top -> landing costs 1 (a step onto a
hallway square), landing -> top costs 2 (onto a staircase square). Outside squares link to each other and, through
the front double door, to the room inside (rulebook, Setting Up the Board; Dying).

Adjacency for encounters (rulebook, Encountering a Chit) is the movement neighbours without door edges; the squares
across a door edge are kept apart in ``door_nbr``, because "chits that lie directly behind a door are adjacent to a
hero as long as the hero stopped moving with at least one point of movement remaining" (rulebook, Movement).

Climbing (rulebook, Climbing to a New Level): ``dist[t]`` allows going up only from the levels ``CLIMB_FROM[t]``
(t = 0: never up; t = 1: from Tower 1 to Tower 2 only; t = 2: free; t = 3: from Tower 2 only, for a hero who lost
chits after climbing and finds Tower 2 emptied while Tower 1 is not). Going down is always allowed.

Checks (each failure is one :class:`BoardError` line naming file, level, row, column, the problem and what is
allowed): the level headers; unknown characters; outside squares only on level 1; doors sit in walls between two
floor squares, double-door leaves in pairs; exactly one front double door on level 1 joining the outside to a room,
with the four squares "directly in front of the double doors" (rulebook, Setting Up the Board: the two room squares
just inside the two leaves and the two one step further in) all squares of that room; staircases and landings match
one to one between consecutive levels, each staircase a straight run with one top; every landing of a Tower 1
staircase is "the space on the second floor that is right in front of the room with the double doors" (rulebook,
Movement): next to a ``=`` leaf of a level-2 room, on the hallway side; every room has a door; every hallway holds
or is joined by doors to a staircase or landing ("a hallway is any place on the board that has a stairway in it or
is connected to one", rulebook, Setting Up the Board); every square is reachable from the outside; and the rooms
hold the worst-case blue-chit set-up (see :func:`blue_capacity`).
"""
from __future__ import annotations

from .drawing import LEGEND, render, square_char
from .geometry import (ALLOWED_CHARS_TEXT, BLUE_CHITS_PER_PLAYER, BLUE_CHITS_WORST_CASE, CLIMB_COST, CLIMB_FROM,
                       COMMENT, DOOR, DOOR_EXTRA, DOUBLE_DOOR, EDGE_DOOR, EDGE_DOWN, EDGE_NAMES, EDGE_STEP, EDGE_UP,
                       EMPTY_PER_BLUE, FIRST_LEVEL, FRONT_DEPTH, HALL, HALL_FLOOR, KIND_NAMES, LANDING, LANDING_LETTERS,
                       LEVELS, MAP_CHARS, NO_SQUARE, N_CLIMB_TABLES, N_FRONT, N_LEVELS, OUTSIDE, OUTSIDE_SQUARE,
                       PURPLE_PER_ROOM, ROOM, ROOM_FLOOR, SQUARE_CHARS, STAIR, STAIR_EXTRA, STAIR_LETTERS, STEP_COST,
                       TOP_LEVEL, UNREACHABLE, VOID, WALL, Board, BoardError, Staircase, blue_capacity)
from .loader import DEFAULT_MAP, load_board, parse_board

__all__ = ["ALLOWED_CHARS_TEXT", "BLUE_CHITS_PER_PLAYER", "BLUE_CHITS_WORST_CASE", "Board", "BoardError", "CLIMB_COST",
           "CLIMB_FROM", "COMMENT", "DEFAULT_MAP", "DOOR", "DOOR_EXTRA", "DOUBLE_DOOR", "EDGE_DOOR", "EDGE_DOWN",
           "EDGE_NAMES", "EDGE_STEP", "EDGE_UP", "EMPTY_PER_BLUE", "FIRST_LEVEL", "FRONT_DEPTH", "HALL", "HALL_FLOOR",
           "KIND_NAMES", "LANDING", "LANDING_LETTERS", "LEGEND", "LEVELS", "MAP_CHARS", "NO_SQUARE", "N_CLIMB_TABLES",
           "N_FRONT", "N_LEVELS", "OUTSIDE", "OUTSIDE_SQUARE", "PURPLE_PER_ROOM", "ROOM", "ROOM_FLOOR", "SQUARE_CHARS",
           "STAIR", "STAIR_EXTRA", "STAIR_LETTERS", "STEP_COST", "Staircase", "TOP_LEVEL", "UNREACHABLE", "VOID",
           "WALL", "blue_capacity", "load_board", "parse_board", "render", "square_char"]
