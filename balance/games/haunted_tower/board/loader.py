"""Reading a Haunted Tower map file (the format: the ``board`` package's docstring): the text split into levels,
then every character, area, door, front square and staircase checked against the rulebook, then the movement tables
built (``geometry._Geometry``)."""
from __future__ import annotations

import re
import string
from collections import deque
from pathlib import Path

from .geometry import (ALLOWED_CHARS_TEXT, BLUE_CHITS_WORST_CASE, COMMENT, DOOR, DOUBLE_DOOR, FIRST_LEVEL, FRONT_DEPTH,
                       HALL, HALL_FLOOR, KIND_NAMES, LANDING, LEVELS, MAP_CHARS, NO_SQUARE, N_LEVELS, _ORTHO, OUTSIDE,
                       OUTSIDE_SQUARE, ROOM, ROOM_FLOOR, SQUARE_CHARS, STAIR, TOP_LEVEL, VOID, WALL, Board, BoardError,
                       _Geometry, Staircase)

DEFAULT_MAP = Path(__file__).resolve().parents[3] / "data" / "haunted_tower" / "fighters_academy.map"
_HEADER = re.compile(r"^\[\s*level\s+(\S+)\s*\]$")
_OPTION = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(\S+)$")
_OPTIONS = {"diagonal": {"false": False, "true": True}}


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


class _Builder(_Geometry):
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
