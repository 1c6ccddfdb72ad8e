"""The Haunted Tower board: the Fighters' Academy map (Tower 1-3) read from a text file, checked, drawn and precomputed.

The poster map is not public, so the map is data: ``balance/data/haunted_tower/fighters_academy.map`` is a
reconstruction that a designer who owns the box replaces with the real one. This module reads such a file, checks it
against the rulebook (``docs/sources/haunted_tower_rulebook.txt``), and compiles it into a :class:`Board`: plain
Python facts plus int32/int16 C-contiguous numpy arrays for a Numba kernel (squares, neighbours and their movement
costs, encounter adjacency, the squares behind doors, rooms, start and front squares, chit-placement squares and
all-pairs movement costs under the four climbing restrictions).

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

import re
import string
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# --- Square kinds (Board.kind) -------------------------------------------------------------------------------
ROOM = 0
HALL = 1
STAIR = 2            # staircase square (a hallway square)
LANDING = 3          # landing of a staircase from the level below (a hallway square)
OUTSIDE = 4
KIND_NAMES = ("room", "hallway", "staircase", "landing", "outside")

# --- Edge kinds (Board.nbr_edge) -----------------------------------------------------------------------------
EDGE_STEP = 0        # a step within one area (room, hallway or the outside)
EDGE_DOOR = 1        # through a door or a double-door leaf
EDGE_UP = 2          # staircase top -> landing on the next level
EDGE_DOWN = 3        # landing -> staircase top on the level below
EDGE_NAMES = ("step", "door", "up", "down")

# --- Map characters ------------------------------------------------------------------------------------------
WALL = "#"
VOID = " "
ROOM_FLOOR = "."
HALL_FLOOR = ":"
DOOR = "+"
DOUBLE_DOOR = "="
OUTSIDE_SQUARE = "o"
COMMENT = ";"
STAIR_LETTERS = "".join(c for c in string.ascii_lowercase if c != OUTSIDE_SQUARE)
LANDING_LETTERS = STAIR_LETTERS.upper()
SQUARE_CHARS = ROOM_FLOOR + HALL_FLOOR + OUTSIDE_SQUARE + STAIR_LETTERS + LANDING_LETTERS
MAP_CHARS = WALL + VOID + DOOR + DOUBLE_DOOR + SQUARE_CHARS
ALLOWED_CHARS_TEXT = ("'#' wall, ' ' nothing, '.' room, ':' hallway, '+' door, '=' double-door leaf, 'o' outside, "
                      "a-z staircase, A-Z landing; not 'O'")

# --- Rules -----------------------------------------------------------------------------------------------------
LEVELS = (1, 2, 3)                  # Tower 1, 2, 3
N_LEVELS = len(LEVELS)
FIRST_LEVEL = LEVELS[0]
TOP_LEVEL = LEVELS[-1]
STEP_COST = 1
DOOR_EXTRA = 1                      # "an extra point of movement to move through a door"
STAIR_EXTRA = 1                     # "... or onto a staircase square"
CLIMB_COST = STEP_COST              # staircase top -> landing: a step onto a hallway square
# dist[t]: the levels a hero may climb up from under table t (Climbing to a New Level): 0 none, 1 Tower 1, 2 both,
# 3 Tower 2 only (a hero who climbed, then lost chits, on an emptied Tower 2).
CLIMB_FROM = ((), (1,), (1, 2), (2,))
N_CLIMB_TABLES = len(CLIMB_FROM)
UNREACHABLE = int(np.iinfo(np.int16).max)
NO_SQUARE = -1
BLUE_CHITS_PER_PLAYER = {3: 17, 4: 13, 5: 10, 6: 8}   # rulebook, Setting Up the Board
BLUE_CHITS_WORST_CASE = max(p * n for p, n in BLUE_CHITS_PER_PLAYER.items())  # 4 x 13 = 52
EMPTY_PER_BLUE = 2                  # "for every square occupied by a blue chit ... two empty squares"
PURPLE_PER_ROOM = 1
FRONT_DEPTH = 2                     # front squares: the two leaves' inside squares and one step further in
N_FRONT = 2 * FRONT_DEPTH

_ORTHO = ((-1, 0), (0, 1), (1, 0), (0, -1))
_DIAG = ((-1, 1), (1, 1), (1, -1), (-1, -1))
_HEADER = re.compile(r"^\[\s*level\s+(\S+)\s*\]$")
_OPTION = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(\S+)$")
_OPTIONS = {"diagonal": {"false": False, "true": True}}
_INF = 1 << 28

DEFAULT_MAP = Path(__file__).resolve().parents[3] / "data" / "haunted_tower" / "fighters_academy.map"

LEGEND = (
    "; legend: '#' wall  '.' room  ':' hallway  '+' door (+1)  '==' double door  'o' outside (start)",
    "; a-z staircase (+1 onto each square; its top leads up)  A-Z its landing on the next level",
)


class BoardError(Exception):
    """A map file that breaks the format or the rules: one line naming file, level, row, column, problem, allowed."""

    def __init__(self, name: str, what: str, allowed: str, level: int | None = None, row: int | None = None,
                 col: int | None = None, line: int | None = None):
        where = [name]
        if line is not None:
            where.append(f"line {line}")
        if level is not None:
            where.append(f"level {level}" + (f", row {row}, col {col}" if row is not None else ""))
        super().__init__(": ".join(where) + f": {what} (allowed: {allowed})")
        self.name, self.level, self.row, self.col, self.line = name, level, row, col, line


@dataclass(frozen=True, eq=False)
class Staircase:
    """One staircase: its letter, level, squares from the bottom (hallway end) to the top, top and landing."""

    letter: str
    level: int
    squares: tuple[int, ...]
    top: int
    landing: int


@dataclass(frozen=True, eq=False)
class Board:
    """A checked map. Squares are numbered 0..n-1 level by level, row by row; arrays are C-contiguous.

    Treat the arrays as read-only. Padded 2-D arrays use -1 (``NO_SQUARE``) after a square's entries.
    """

    name: str
    diagonal: bool
    walls: tuple[tuple[str, ...], ...]   # per level: the grid lines with every square blanked (walls, doors, voids)
    # per square (int16 unless noted)
    level: np.ndarray                    # 1..3
    row: np.ndarray                      # 1-based, as in the file
    col: np.ndarray                      # 1-based
    kind: np.ndarray                     # ROOM, HALL, STAIR, LANDING, OUTSIDE
    room: np.ndarray                     # room id (-1 outside rooms), rooms numbered level by level
    hall: np.ndarray                     # hallway area id (-1 off hallways)
    letter: np.ndarray                   # staircase / landing letter index 0..25 (a = 0), -1 for other squares
    nbr: np.ndarray                      # int32 [n, K]: movement neighbours
    nbr_cost: np.ndarray                 # int16 [n, K]: movement cost of the step sq -> nbr
    nbr_edge: np.ndarray                 # int16 [n, K]: EDGE_STEP, EDGE_DOOR, EDGE_UP, EDGE_DOWN
    adj: np.ndarray                      # int32 [n, A]: encounter adjacency (movement neighbours, no door edges)
    door_nbr: np.ndarray                 # int32 [n, D]: the squares across a door edge
    # rooms
    room_level: np.ndarray               # int16 [R]
    room_size: np.ndarray                # int16 [R]
    room_sq: np.ndarray                  # int32 [R, max size]: each room's squares
    room_squares: tuple[tuple[int, ...], ...]
    rooms_per_level: tuple[int, ...]
    # special squares
    outside: np.ndarray                  # int32: the outside start squares
    front: np.ndarray                    # int32 [4]: directly in front of the double doors: inside each leaf, then
    #                                      one step further in (same leaf order)
    front_door: tuple[tuple[int, int], ...]   # the front double door's two (outside square, room square) edges
    placeable: np.ndarray                # int32: squares where a chit may be placed (room squares, not front)
    staircases: tuple[Staircase, ...]
    # movement costs
    dist: np.ndarray                     # int16 [4, n, n]: dist[t, a, b], UNREACHABLE when it cannot be reached
    square_at: dict                      # (level, row, col) -> square

    @property
    def n_squares(self) -> int:
        return int(self.level.shape[0])

    @property
    def n_rooms(self) -> int:
        return int(self.room_size.shape[0])

    def blue_capacity(self) -> int:
        """Most blue chits the rooms can take at set-up (see the module function :func:`blue_capacity`)."""
        return blue_capacity(self)

    def describe(self) -> dict:
        """Summary for a designer: squares, rooms and sizes per level, hallway squares, chit capacity."""
        out = {"name": self.name, "diagonal": self.diagonal, "squares": self.n_squares, "levels": {}}
        for lv in LEVELS:
            on = self.level == lv
            rooms = [int(r) for r in np.flatnonzero(self.room_level == lv)]
            out["levels"][lv] = {
                "squares": int(on.sum()),
                "rooms": len(rooms),
                "room_sizes": [int(self.room_size[r]) for r in rooms],
                "hallway_squares": int((on & np.isin(self.kind, (HALL, STAIR, LANDING))).sum()),
                "outside_squares": int((on & (self.kind == OUTSIDE)).sum()),
                "staircases_up": "".join(s.letter for s in self.staircases if s.level == lv),
            }
        out.update(rooms=self.n_rooms, placeable_squares=int(self.placeable.shape[0]),
                   blue_capacity=self.blue_capacity(), blue_needed=BLUE_CHITS_WORST_CASE,
                   purple_chits=self.n_rooms * PURPLE_PER_ROOM)
        return out


def blue_capacity(board: Board) -> int:
    """Most blue chits the rooms can hold at set-up, with a square left in each room for its purple chit.

    A room of k squares (front squares included: they stay empty) holds b blue chits when b + 2b <= k ("for every
    square occupied by a blue chit in a room, the room must contain two empty squares"), the chits go on its e
    eligible squares (not the front squares) and one eligible square stays free for the purple chit placed after
    them: b = min(k // 3, e - 1). Rooms fill independently, so the sum is reachable in any placement order.
    """
    eligible = np.bincount(board.room[board.placeable], minlength=board.n_rooms)
    return int(sum(_room_blue_capacity(int(k), int(e)) for k, e in zip(board.room_size, eligible)))


def _room_blue_capacity(size: int, eligible: int) -> int:
    return max(0, min(size // (1 + EMPTY_PER_BLUE), eligible - PURPLE_PER_ROOM))


# --- Loading -----------------------------------------------------------------------------------------------------

def load_board(path: str | Path = DEFAULT_MAP, *, blue_needed: int = BLUE_CHITS_WORST_CASE) -> Board:
    """Read, check and compile a map file (default: the shipped reconstruction of the Fighters' Academy)."""
    path = Path(path)
    return parse_board(path.read_text(encoding="utf-8"), name=path.name, blue_needed=blue_needed)


def parse_board(text: str, name: str = "<map>", *, blue_needed: int = BLUE_CHITS_WORST_CASE) -> Board:
    """Check and compile map text; raises :class:`BoardError` on the first problem found.

    ``blue_needed``: blue chits the rooms must hold at set-up (default: the most any player count draws, 52);
    small test maps pass 0.
    """
    return _Builder(text, name, blue_needed).build()


class _Builder:
    def __init__(self, text: str, name: str, blue_needed: int = BLUE_CHITS_WORST_CASE):
        self.name = name
        self.blue_needed = blue_needed
        self.diagonal = False
        self.grids: list[list[str]] = []        # per level: rows padded to one width

        self._split(text)

    # -- errors --
    def fail(self, what: str, allowed: str, level: int | None = None, rc: tuple[int, int] | None = None,
             line: int | None = None):
        row, col = (rc[0] + 1, rc[1] + 1) if rc is not None else (None, None)
        raise BoardError(self.name, what, allowed, level=level, row=row, col=col, line=line)

    # -- text -> grids --
    def _split(self, text: str) -> None:
        blocks: list[list[str]] = []
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.rstrip()
            stripped = line.strip()
            if not stripped or stripped.startswith(COMMENT):
                continue
            head = _HEADER.match(stripped)
            if head or stripped.startswith("["):
                want = len(blocks) + 1
                if not head or head.group(1) != str(want) or want > TOP_LEVEL:
                    self.fail(f"header {stripped!r} where [level {want}] was expected" if want <= TOP_LEVEL
                              else f"header {stripped!r} after [level {TOP_LEVEL}]",
                              "exactly [level 1], [level 2], [level 3], in this order", line=lineno)
                blocks.append([])
                continue
            option = _OPTION.match(stripped)
            if not blocks:
                if not option:
                    self.fail(f"{stripped!r} before [level 1]",
                              "comments ';...', blank lines and options 'diagonal = false|true'", line=lineno)
                key, value = option.group(1).lower(), option.group(2).lower()
                if key not in _OPTIONS or value not in _OPTIONS[key]:
                    self.fail(f"unknown option {stripped!r}", "'diagonal = false' or 'diagonal = true'", line=lineno)
                self.diagonal = _OPTIONS[key][value]
                continue
            if option and option.group(1).lower() in _OPTIONS:
                self.fail(f"option {stripped!r} inside a level block", "options only before [level 1]",
                          line=lineno)
            blocks[-1].append(line)
        if len(blocks) < N_LEVELS:
            self.fail(f"[level {len(blocks) + 1}] is missing", "exactly [level 1], [level 2], [level 3], in this order")
        for lv, rows in zip(LEVELS, blocks):
            if not rows:
                self.fail("level has no grid lines", "each level header followed by its grid", level=lv)
            width = max(len(r) for r in rows)
            self.grids.append([r.ljust(width) for r in rows])

    # -- grid helpers --
    def ch(self, lv: int, r: int, c: int) -> str:
        g = self.grids[lv - 1]
        if 0 <= r < len(g) and 0 <= c < len(g[0]):
            return g[r][c]
        return VOID

    # -- the build --
    def build(self) -> Board:
        self._check_chars()
        self._number_squares()
        self._check_area_borders()
        self._find_areas()
        self._find_doors()
        self._find_front()
        self._find_staircases()
        self._check_tower1_landings()
        self._check_rooms_and_hallways()
        self._build_edges()
        dist = self._distances()
        self._check_reachable(dist)
        return self._board(dist)

    def _check_chars(self) -> None:
        for lv in LEVELS:
            for r, line in enumerate(self.grids[lv - 1]):
                for c, ch in enumerate(line):
                    if ch not in MAP_CHARS:
                        self.fail(f"unknown character {ch!r}", ALLOWED_CHARS_TEXT, lv, (r, c))
                    if ch == OUTSIDE_SQUARE and lv != FIRST_LEVEL:
                        self.fail("outside square 'o' above level 1", "outside squares 'o' on level 1 only", lv,
                                  (r, c))

    def _number_squares(self) -> None:
        self.sq_level, self.sq_r, self.sq_c, self.sq_kind, self.sq_letter = [], [], [], [], []
        self.at: dict[tuple[int, int, int], int] = {}
        for lv in LEVELS:
            for r, line in enumerate(self.grids[lv - 1]):
                for c, ch in enumerate(line):
                    if ch not in SQUARE_CHARS:
                        continue
                    self.at[(lv, r, c)] = len(self.sq_level)
                    self.sq_level.append(lv)
                    self.sq_r.append(r)
                    self.sq_c.append(c)
                    self.sq_kind.append(_kind_of(ch))
                    self.sq_letter.append(string.ascii_lowercase.index(ch.lower()) if ch.isalpha()
                                          and ch != OUTSIDE_SQUARE else -1)
        self.n = len(self.sq_level)
        for lv in LEVELS:
            if lv not in self.sq_level:
                self.fail("level has no floor squares", "each level holds rooms and hallways", lv)

    def sq(self, lv: int, r: int, c: int) -> int:
        return self.at.get((lv, r, c), NO_SQUARE)

    def _check_area_borders(self) -> None:
        for s in range(self.n):
            lv, r, c = self.sq_level[s], self.sq_r[s], self.sq_c[s]
            for dr, dc in ((0, 1), (1, 0)):
                t = self.sq(lv, r + dr, c + dc)
                if t != NO_SQUARE and _area_type(self.sq_kind[s]) != _area_type(self.sq_kind[t]):
                    self.fail(f"{KIND_NAMES[self.sq_kind[s]]} square {self.ch(lv, r, c)!r} touches "
                              f"{KIND_NAMES[self.sq_kind[t]]} square {self.ch(lv, r + dr, c + dc)!r} at row "
                              f"{r + dr + 1}, col {c + dc + 1} with no wall between",
                              "rooms, hallways and the outside meet only through '#' walls and doors", lv, (r, c))

    def _find_areas(self) -> None:
        """Rooms: 4-connected '.' squares; hallways: 4-connected hallway squares; outside: 'o' squares."""
        self.room_of = [NO_SQUARE] * self.n
        self.hall_of = [NO_SQUARE] * self.n
        self.rooms: list[list[int]] = []
        self.halls: list[list[int]] = []
        for s in range(self.n):
            kind = self.sq_kind[s]
            if kind == OUTSIDE:
                continue
            ids, areas = (self.room_of, self.rooms) if kind == ROOM else (self.hall_of, self.halls)
            if ids[s] != NO_SQUARE:
                continue
            area_id, members, todo = len(areas), [], deque([s])
            ids[s] = area_id
            while todo:
                u = todo.popleft()
                members.append(u)
                for v in self.ortho(u):
                    if ids[v] == NO_SQUARE and _area_type(self.sq_kind[v]) == _area_type(kind):
                        ids[v] = area_id
                        todo.append(v)
            areas.append(sorted(members))

    def ortho(self, s: int) -> list[int]:
        lv, r, c = self.sq_level[s], self.sq_r[s], self.sq_c[s]
        return [t for dr, dc in _ORTHO if (t := self.sq(lv, r + dr, c + dc)) != NO_SQUARE]

    def _find_doors(self) -> None:
        """Door edges (a, b, level, door cell, is a leaf) for every "+" and "=" cell; double doors as leaf pairs."""
        self.doors: list[tuple[int, int, int, tuple[int, int], bool]] = []   # a, b, level, (r, c), is_leaf
        allowed = "a door '+' or leaf '=' has floor squares on exactly two opposite sides and '#' on the other two"
        leaf_at: dict[tuple[int, int, int], tuple[int, int]] = {}
        for lv in LEVELS:
            for r, line in enumerate(self.grids[lv - 1]):
                for c, ch in enumerate(line):
                    if ch not in (DOOR, DOUBLE_DOOR):
                        continue
                    up, down = self.sq(lv, r - 1, c), self.sq(lv, r + 1, c)
                    left, right = self.sq(lv, r, c - 1), self.sq(lv, r, c + 1)
                    vertical = up != NO_SQUARE and down != NO_SQUARE
                    horizontal = left != NO_SQUARE and right != NO_SQUARE
                    around = (f"up {self.ch(lv, r - 1, c)!r}, down {self.ch(lv, r + 1, c)!r}, "
                              f"left {self.ch(lv, r, c - 1)!r}, right {self.ch(lv, r, c + 1)!r}")
                    if vertical == horizontal:
                        self.fail(f"door {ch!r} without floor squares on exactly two opposite sides ({around})",
                                  allowed, lv, (r, c))
                    a, b = (up, down) if vertical else (left, right)
                    wall_cells = ((r, c - 1), (r, c + 1)) if vertical else ((r - 1, c), (r + 1, c))
                    along = [self.ch(lv, rr, cc) for rr, cc in wall_cells]
                    if ch == DOOR and along != [WALL, WALL]:
                        self.fail(f"door '+' is not set in a wall ({around})", allowed, lv, (r, c))
                    if ch == DOUBLE_DOOR:
                        if along.count(DOUBLE_DOOR) != 1 or WALL not in along:
                            self.fail(f"double-door leaf '=' with {along.count(DOUBLE_DOOR)} '=' beside it along "
                                      f"the wall ({around})", "each '=' has exactly one '=' beside it along the "
                                      "wall and '#' on its other side (a double door is a pair of leaves)",
                                      lv, (r, c))
                        partner = wall_cells[along.index(DOUBLE_DOOR)]
                        leaf_at[(lv, r, c)] = partner
                    kinds = {KIND_NAMES[_area_type(self.sq_kind[t])] for t in (a, b)}
                    if "outside" in kinds and (ch == DOOR or kinds != {"outside", "room"}):
                        self.fail(f"door {ch!r} between {' and '.join(sorted(kinds))}",
                                  "the outside joins the tower only through the front double door '==' into a room",
                                  lv, (r, c))
                    self.doors.append((a, b, lv, (r, c), ch == DOUBLE_DOOR))
        # pairs of leaves (their far sides are next to each other, so both leaves join the same two areas)
        self.double_doors = [(lv, (r, c), partner) for (lv, r, c), partner in leaf_at.items() if (r, c) < partner]

    def _find_front(self) -> None:
        """The front double door (level 1, outside <-> room) and the four squares directly in front of it."""
        fronts = []
        for lv, leaf1, leaf2 in self.double_doors:
            a, b = self._leaf_sides(lv, leaf1)
            if OUTSIDE in (self.sq_kind[a], self.sq_kind[b]):
                fronts.append((lv, leaf1, leaf2))
        outside = [s for s in range(self.n) if self.sq_kind[s] == OUTSIDE]
        allowed = "exactly one front double door '==' on level 1 between outside squares 'o' and a room"
        if not outside:
            self.fail("no outside squares 'o'", "heroes start on outside squares 'o' before the front double door",
                      FIRST_LEVEL)
        if not fronts:
            s = outside[0]
            self.fail("no double door joins the outside squares to a room", allowed, FIRST_LEVEL,
                      (self.sq_r[s], self.sq_c[s]))
        if len(fronts) > 1:
            lv, leaf, _ = fronts[1]
            self.fail("a second front double door", allowed, lv, leaf)
        lv, leaf1, leaf2 = fronts[0]
        self.front_door, by_depth = [], {depth: [] for depth in range(1, FRONT_DEPTH + 1)}
        for leaf in (leaf1, leaf2):
            a, b = self._leaf_sides(lv, leaf)
            out_sq, in_sq = (a, b) if self.sq_kind[a] == OUTSIDE else (b, a)
            self.front_door.append((out_sq, in_sq))
            dr, dc = self.sq_r[in_sq] - leaf[0], self.sq_c[in_sq] - leaf[1]
            for depth in range(1, FRONT_DEPTH + 1):
                rc = (leaf[0] + depth * dr, leaf[1] + depth * dc)
                s = self.sq(lv, *rc)
                if s == NO_SQUARE or self.room_of[s] != self.room_of[in_sq]:
                    self.fail(f"the square {depth} step{'s' if depth > 1 else ''} inside the front double door is "
                              f"{self.ch(lv, *rc)!r}, not a square of the entrance room",
                              "the four squares directly in front of the double doors (two per leaf, two deep) "
                              "are squares of the room behind them", lv, rc)
                by_depth[depth].append(s)
        self.front = [s for depth in sorted(by_depth) for s in by_depth[depth]]

    def _leaf_sides(self, lv: int, rc: tuple[int, int]) -> tuple[int, int]:
        for a, b, dlv, drc, _ in self.doors:
            if dlv == lv and drc == rc:
                return a, b
        raise KeyError(rc)

    def _find_staircases(self) -> None:
        runs: dict[str, list[int]] = {}
        landings: dict[str, list[int]] = {}
        for s in range(self.n):
            if self.sq_kind[s] == STAIR:
                runs.setdefault(self.ch(self.sq_level[s], self.sq_r[s], self.sq_c[s]), []).append(s)
            elif self.sq_kind[s] == LANDING:
                landings.setdefault(self.ch(self.sq_level[s], self.sq_r[s], self.sq_c[s]).lower(), []).append(s)
        self.staircases: list[Staircase] = []
        for letter, squares in sorted(runs.items(), key=lambda kv: kv[1][0]):
            levels = sorted({self.sq_level[s] for s in squares})
            first = squares[0]
            lv, rc = self.sq_level[first], (self.sq_r[first], self.sq_c[first])
            if len(levels) > 1:
                s = next(s for s in squares if self.sq_level[s] == levels[1])
                self.fail(f"staircase {letter!r} appears on levels {levels[0]} and {levels[1]}",
                          "each staircase letter on one level only", levels[1], (self.sq_r[s], self.sq_c[s]))
            if lv == TOP_LEVEL:
                self.fail(f"staircase {letter!r} on level {TOP_LEVEL}, the top level",
                          f"staircases a-z on levels {FIRST_LEVEL}-{TOP_LEVEL - 1}; level {TOP_LEVEL} holds "
                          "only landings A-Z", lv, rc)
            ordered = self._straight_run(letter, lv, squares)
            top = self._run_top(letter, lv, ordered)
            bottom_first = tuple(ordered if top == ordered[-1] else ordered[::-1])
            found = landings.get(letter, [])
            on_next = [s for s in found if self.sq_level[s] == lv + 1]
            if not on_next:
                self.fail(f"staircase {letter!r} has no landing {letter.upper()!r} on level {lv + 1}",
                          "each staircase letter a-z on level N has its uppercase landing exactly once on "
                          "level N+1", lv, (self.sq_r[top], self.sq_c[top]))
            if len(on_next) > 1:
                s = on_next[1]
                self.fail(f"landing {letter.upper()!r} appears {len(on_next)} times on level {lv + 1}",
                          "each staircase letter a-z on level N has its uppercase landing exactly once on "
                          "level N+1", lv + 1, (self.sq_r[s], self.sq_c[s]))
            self.staircases.append(Staircase(letter, lv, bottom_first, top, on_next[0]))
        linked = {st.landing for st in self.staircases}
        for letter, found in sorted(landings.items()):
            for s in found:
                if s not in linked and self.sq_level[s] == FIRST_LEVEL:
                    self.fail(f"landing {letter.upper()!r} on level {FIRST_LEVEL}, the first level",
                              f"landings A-Z on levels {FIRST_LEVEL + 1}-{TOP_LEVEL} only, each the top of the "
                              "staircase a-z on the level below", FIRST_LEVEL, (self.sq_r[s], self.sq_c[s]))
                if s not in linked:
                    self.fail(f"landing {letter.upper()!r} has no staircase {letter!r} on level "
                              f"{self.sq_level[s] - 1}",
                              "each landing A-Z on level N+1 is the top of the staircase a-z on level N",
                              self.sq_level[s], (self.sq_r[s], self.sq_c[s]))

    def _straight_run(self, letter: str, lv: int, squares: list[int]) -> list[int]:
        rows = {self.sq_r[s] for s in squares}
        cols = {self.sq_c[s] for s in squares}
        if len(rows) == 1:
            ordered = sorted(squares, key=lambda s: self.sq_c[s])
            span = [self.sq_c[s] for s in ordered]
        elif len(cols) == 1:
            ordered = sorted(squares, key=lambda s: self.sq_r[s])
            span = [self.sq_r[s] for s in ordered]
        else:
            ordered, span = squares, []
        if not span or span != list(range(span[0], span[0] + len(span))):
            s = squares[-1]
            self.fail(f"staircase {letter!r} is not one straight unbroken run",
                      "a staircase is one square or a straight line of squares of its letter", lv,
                      (self.sq_r[s], self.sq_c[s]))
        return ordered

    def _run_top(self, letter: str, lv: int, ordered: list[int]) -> int:
        if len(ordered) == 1:
            return ordered[0]
        run = set(ordered)
        closed = [end for end in (ordered[0], ordered[-1]) if not any(t not in run for t in self.ortho(end))]
        if len(closed) != 1:
            s = ordered[0]
            self.fail(f"staircase {letter!r} has {'no end' if not closed else 'two ends'} away from the other "
                      "floor squares", "a staircase run has one top: exactly one end touches no floor square "
                      "outside the run", lv, (self.sq_r[s], self.sq_c[s]))
        return closed[0]

    def _check_tower1_landings(self) -> None:
        """Rulebook, Movement: the Tower 1 staircase's landing is right in front of the room with the double doors."""
        for st in self.staircases:
            if st.level != FIRST_LEVEL:
                continue
            s = st.landing
            lv, r, c = self.sq_level[s], self.sq_r[s], self.sq_c[s]
            ok = False
            for dr, dc in _ORTHO:
                beyond = self.sq(lv, r + 2 * dr, c + 2 * dc)
                if (self.ch(lv, r + dr, c + dc) == DOUBLE_DOOR and beyond != NO_SQUARE
                        and self.sq_kind[beyond] == ROOM):
                    ok = True
            if not ok:
                self.fail(f"landing {st.letter.upper()!r} of the Tower 1 staircase is not right in front of a "
                          "room's double door", "each level-1-to-2 landing is orthogonally next to a '=' leaf "
                          "with a room square on its other side (rulebook, Movement)", lv, (r, c))

    def _check_rooms_and_hallways(self) -> None:
        doors_of_room = [0] * len(self.rooms)
        hall_links: dict[int, set[int]] = {h: set() for h in range(len(self.halls))}
        for a, b, _lv, _rc, _leaf in self.doors:
            for s in (a, b):
                if self.sq_kind[s] == ROOM:
                    doors_of_room[self.room_of[s]] += 1
            if self.hall_of[a] != NO_SQUARE and self.hall_of[b] != NO_SQUARE:
                hall_links[self.hall_of[a]].add(self.hall_of[b])
                hall_links[self.hall_of[b]].add(self.hall_of[a])
        for room, count in enumerate(doors_of_room):
            if not count:
                s = self.rooms[room][0]
                self.fail("room without a door", "every room has at least one door '+' or '='",
                          self.sq_level[s], (self.sq_r[s], self.sq_c[s]))
        has_stairs = [any(self.sq_kind[s] in (STAIR, LANDING) for s in hall) for hall in self.halls]
        for h, hall in enumerate(self.halls):
            seen, todo = {h}, [h]
            while todo:
                for g in hall_links[todo.pop()]:
                    if g not in seen:
                        seen.add(g)
                        todo.append(g)
            if not any(has_stairs[g] for g in seen):
                s = hall[0]
                self.fail("hallway with no staircase or landing in it or joined to it by doors",
                          "'a hallway is any place on the board that has a stairway in it or is connected to "
                          "one' (rulebook, Setting Up the Board); use '.' for a room",
                          self.sq_level[s], (self.sq_r[s], self.sq_c[s]))

    def _build_edges(self) -> None:
        """Directed movement edges (a, b, cost, edge kind), in a fixed order: steps, doors, stair links."""
        self.out_edges: list[list[tuple[int, int, int]]] = [[] for _ in range(self.n)]
        steps = _ORTHO + (_DIAG if self.diagonal else ())
        for s in range(self.n):
            lv, r, c = self.sq_level[s], self.sq_r[s], self.sq_c[s]
            for dr, dc in steps:
                t = self.sq(lv, r + dr, c + dc)
                if t == NO_SQUARE:
                    continue
                if dr and dc and (self.sq(lv, r + dr, c) == NO_SQUARE or self.sq(lv, r, c + dc) == NO_SQUARE):
                    continue            # a diagonal step never cuts a wall corner or passes a door
                self.out_edges[s].append((t, self._onto(t), EDGE_STEP))
        for a, b, _lv, _rc, _leaf in self.doors:
            self.out_edges[a].append((b, self._onto(b) + DOOR_EXTRA, EDGE_DOOR))
            self.out_edges[b].append((a, self._onto(a) + DOOR_EXTRA, EDGE_DOOR))
        for st in self.staircases:
            self.out_edges[st.top].append((st.landing, CLIMB_COST, EDGE_UP))
            self.out_edges[st.landing].append((st.top, self._onto(st.top), EDGE_DOWN))

    def _onto(self, t: int) -> int:
        return STEP_COST + (STAIR_EXTRA if self.sq_kind[t] == STAIR else 0)

    def _distances(self) -> np.ndarray:
        """dist[t, a, b] for t = 0..3 (climbing up allowed from the levels CLIMB_FROM[t]).

        Each level's all-pairs costs come from a vectorised Bellman-Ford over its own squares; paths between or
        through levels go through the staircase tops and landings ("portals"), whose pairwise costs are closed with
        Floyd-Warshall, so the whole table costs a few numpy passes instead of one Dijkstra per square.
        """
        level_arr = np.array(self.sq_level)
        starts = {lv: int(np.searchsorted(level_arr, lv)) for lv in LEVELS}
        ends = {lv: int(np.searchsorted(level_arr, lv, side="right")) for lv in LEVELS}
        within = {lv: self._level_distances(starts[lv], ends[lv]) for lv in LEVELS}
        portals = sorted({st.top for st in self.staircases} | {st.landing for st in self.staircases})
        index = {p: i for i, p in enumerate(portals)}
        m = len(portals)
        dist = np.full((N_CLIMB_TABLES, self.n, self.n), UNREACHABLE, np.int16)
        for t in range(N_CLIMB_TABLES):
            pd = np.full((m, m), _INF, np.int64)
            for p in portals:
                for q in portals:
                    if self.sq_level[p] == self.sq_level[q]:
                        lv = self.sq_level[p]
                        pd[index[p], index[q]] = within[lv][p - starts[lv], q - starts[lv]]
            for st in self.staircases:
                if st.level in CLIMB_FROM[t]:
                    i, j = index[st.top], index[st.landing]
                    pd[i, j] = min(pd[i, j], CLIMB_COST)
                i, j = index[st.landing], index[st.top]
                pd[i, j] = min(pd[i, j], self._onto(st.top))
            for k in range(m):
                pd = np.minimum(pd, pd[:, k, None] + pd[None, k, :])
            for la in LEVELS:
                pa = [p for p in portals if self.sq_level[p] == la]
                for lb in LEVELS:
                    pb = [q for q in portals if self.sq_level[q] == lb]
                    block = within[la].copy() if la == lb else np.full((ends[la] - starts[la],
                                                                        ends[lb] - starts[lb]), _INF, np.int64)
                    if pa and pb:
                        to_p = within[la][:, [p - starts[la] for p in pa]]                  # [na, pa]
                        between = pd[np.ix_([index[p] for p in pa], [index[q] for q in pb])]  # [pa, pb]
                        from_q = within[lb][[q - starts[lb] for q in pb], :]               # [pb, nb]
                        to_q = (to_p[:, :, None] + between[None, :, :]).min(axis=1)           # [na, pb]
                        block = np.minimum(block, (to_q[:, :, None] + from_q[None, :, :]).min(axis=1))
                    dist[t, starts[la]:ends[la], starts[lb]:ends[lb]] = np.where(
                        block >= UNREACHABLE, UNREACHABLE, block)
        return dist

    def _level_distances(self, lo: int, hi: int) -> np.ndarray:
        """All-pairs movement costs within one level (squares lo..hi-1), int64, _INF when unreachable."""
        n = hi - lo
        incoming: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for a in range(lo, hi):
            for b, cost, edge in self.out_edges[a]:
                if edge in (EDGE_STEP, EDGE_DOOR):
                    incoming[b - lo].append((a - lo, cost))
        width = max(1, max(len(x) for x in incoming))
        src = np.full((n, width), n, np.int64)           # padding points at an always-_INF column
        cost = np.zeros((n, width), np.int64)
        for b, row in enumerate(incoming):
            for k, (a, w) in enumerate(row):
                src[b, k], cost[b, k] = a, w
        d = np.full((n, n + 1), _INF, np.int64)
        d[np.arange(n), np.arange(n)] = 0
        while True:
            relaxed = np.minimum(d[:, :n], (d[:, src] + cost[None, :, :]).min(axis=2))
            if np.array_equal(relaxed, d[:, :n]):
                return np.minimum(relaxed, _INF)
            d[:, :n] = relaxed

    def _check_reachable(self, dist: np.ndarray) -> None:
        outside = [s for s in range(self.n) if self.sq_kind[s] == OUTSIDE]
        best = dist[CLIMB_FROM.index((1, 2))][outside].min(axis=0)
        for s in np.flatnonzero(best >= UNREACHABLE):
            s = int(s)
            self.fail(f"{KIND_NAMES[self.sq_kind[s]]} square cannot be reached from the outside squares",
                      "every room and hallway square reachable from the outside through doors and staircases",
                      self.sq_level[s], (self.sq_r[s], self.sq_c[s]))

    def _board(self, dist: np.ndarray) -> Board:
        front = set(self.front)
        placeable = [s for s in range(self.n) if self.sq_kind[s] == ROOM and s not in front]
        rooms = tuple(tuple(r) for r in self.rooms)
        room_level = [self.sq_level[r[0]] for r in rooms]
        walls = tuple(tuple("".join(VOID if ch in SQUARE_CHARS else ch for ch in line) for line in grid)
                      for grid in self.grids)
        nbr_rows = [[(b, w, e) for b, w, e in out] for out in self.out_edges]
        adj_rows = [[b for b, _w, e in out if e != EDGE_DOOR] for out in self.out_edges]
        door_rows = [[b for b, _w, e in out if e == EDGE_DOOR] for out in self.out_edges]
        board = Board(
            name=self.name, diagonal=self.diagonal, walls=walls,
            level=_i16(self.sq_level), row=_i16([r + 1 for r in self.sq_r]), col=_i16([c + 1 for c in self.sq_c]),
            kind=_i16(self.sq_kind), room=_i16(self.room_of), hall=_i16(self.hall_of), letter=_i16(self.sq_letter),
            nbr=_padded([[b for b, _w, _e in row] for row in nbr_rows], np.int32),
            nbr_cost=_padded([[w for _b, w, _e in row] for row in nbr_rows], np.int16, fill=0),
            nbr_edge=_padded([[e for _b, _w, e in row] for row in nbr_rows], np.int16),
            adj=_padded(adj_rows, np.int32), door_nbr=_padded(door_rows, np.int32),
            room_level=_i16(room_level), room_size=_i16([len(r) for r in rooms]),
            room_sq=_padded([list(r) for r in rooms], np.int32), room_squares=rooms,
            rooms_per_level=tuple(room_level.count(lv) for lv in LEVELS),
            outside=_i32([s for s in range(self.n) if self.sq_kind[s] == OUTSIDE]),
            front=_i32(self.front), front_door=tuple(self.front_door), placeable=_i32(placeable),
            staircases=tuple(self.staircases), dist=np.ascontiguousarray(dist),
            square_at={(lv, r + 1, c + 1): s for (lv, r, c), s in self.at.items()},
        )
        capacity = blue_capacity(board)
        if capacity < self.blue_needed:
            sizes = "; ".join(f"level {lv}: " + ", ".join(str(len(r)) for r, rl in zip(rooms, room_level) if rl == lv)
                              for lv in LEVELS)
            raise BoardError(self.name, f"rooms hold only {capacity} blue chits at set-up, {self.blue_needed} "
                             f"needed ({len(placeable)} placeable squares; room sizes {sizes})",
                             f"sum over rooms of min(size // 3, placeable squares - 1) >= {self.blue_needed}: "
                             f"each blue chit needs {EMPTY_PER_BLUE} empty squares in its room, each room keeps a "
                             f"square for its purple chit; {BLUE_CHITS_WORST_CASE} = the most blue chits drawn "
                             "(4 players x 13; rulebook, Setting Up the Board)")
        return board


def _kind_of(ch: str) -> int:
    if ch == ROOM_FLOOR:
        return ROOM
    if ch == HALL_FLOOR:
        return HALL
    if ch == OUTSIDE_SQUARE:
        return OUTSIDE
    return STAIR if ch.islower() else LANDING


def _area_type(kind: int) -> int:
    return HALL if kind in (HALL, STAIR, LANDING) else kind


def _i16(values) -> np.ndarray:
    return np.ascontiguousarray(np.array(values, np.int16).reshape(-1))


def _i32(values) -> np.ndarray:
    return np.ascontiguousarray(np.array(values, np.int32).reshape(-1))


def _padded(rows: list[list[int]], dtype, fill: int = NO_SQUARE) -> np.ndarray:
    width = max([1] + [len(r) for r in rows])
    out = np.full((len(rows), width), fill, dtype)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return np.ascontiguousarray(out)


# --- Drawing -----------------------------------------------------------------------------------------------------

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
