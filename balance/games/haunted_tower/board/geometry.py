"""The Haunted Tower board's geometry: square and edge kinds, the map characters, the movement costs the rulebook
sets, the checked :class:`Board` with its chit capacity, and the movement tables a checked map compiles to
(:class:`_Geometry`: its edges, the all-pairs costs under each climbing table, the reachability check, the Board
itself), which the loader (``loader.py``) runs once the map's text has passed its checks."""
from __future__ import annotations

import string
from dataclasses import dataclass

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
_INF = 1 << 28


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


class _Geometry:
    """The movement tables of a map whose squares, areas, doors, front squares and staircases the loader found (its
    attributes ``n``, ``sq_*``, ``at``, ``doors``, ``staircases``, ``rooms`` ... and its ``fail``): the edges, the
    costs, the reachability check and the :class:`Board`."""

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
