"""The Haunted Tower board: the map file format, its checks, movement costs, climbing tables and drawing.

The default map is the shipped reconstruction (``balance/data/haunted_tower/fighters_academy.map``); the small map
``TINY`` below is the least board that passes every check but the chit capacity, and each broken variant of it breaks
exactly one rule (one test per check).
"""
from __future__ import annotations

import heapq
import re

import numpy as np
import pytest

from balance.games.haunted_tower import board as B

TINY_L1 = """\
#########
#...+:aa#
#...#####
#...#
#...#
##==#
  oo"""
TINY_L2 = """\
#######
#....##
#....##
##==###
#:A:bb#
#######"""
TINY_L3 = """\
#####
#B+.#
#####"""


def tiny(l1: str = TINY_L1, l2: str = TINY_L2, l3: str = TINY_L3, head: str = "") -> str:
    return f"{head}[level 1]\n{l1}\n\n[level 2]\n{l2}\n\n[level 3]\n{l3}\n"


def parse(text: str, **kw) -> B.Board:
    kw.setdefault("blue_needed", 0)
    return B.parse_board(text, "tiny.map", **kw)


@pytest.fixture(scope="module")
def default():
    return B.load_board()


def sq(board: B.Board, level: int, row: int, col: int) -> int:
    return board.square_at[(level, row, col)]


def edge(board: B.Board, a: int, b: int) -> tuple[int, int]:
    """(cost, edge kind) of the movement edge a -> b."""
    k = list(board.nbr[a]).index(b)
    return int(board.nbr_cost[a, k]), int(board.nbr_edge[a, k])


def dijkstra(board: B.Board, src: int, t: int) -> np.ndarray:
    """Reference: one-source costs over the nbr arrays, climbing up only from the levels B.CLIMB_FROM[t] (written
    out here: none, Tower 1, Towers 1 and 2, Tower 2)."""
    climb_from = {0: (), 1: (1,), 2: (1, 2), 3: (2,)}[t]
    best = np.full(board.n_squares, B.UNREACHABLE, np.int64)
    best[src] = 0
    heap = [(0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > best[u]:
            continue
        for v, w, e in zip(board.nbr[u], board.nbr_cost[u], board.nbr_edge[u]):
            if v < 0 or (e == B.EDGE_UP and board.level[u] not in climb_from):
                continue
            if d + w < best[v]:
                best[v] = d + w
                heapq.heappush(heap, (d + int(w), int(v)))
    return best


# --- The default map -------------------------------------------------------------------------------------------

def test_default_map_loads_with_three_levels_and_its_summary(default):
    info = default.describe()
    assert default.name == "fighters_academy.map" and not default.diagonal
    assert set(np.unique(default.level)) == {1, 2, 3}
    assert info["blue_needed"] == 52 == B.BLUE_CHITS_WORST_CASE             # 4 players x 13 beats 3 x 17
    for lv in B.LEVELS:
        level = info["levels"][lv]
        assert 6 <= level["rooms"] <= 9
        assert all(6 <= k <= 30 for k in level["room_sizes"])
        assert level["squares"] == int((default.level == lv).sum())
    assert default.rooms_per_level == tuple(info["levels"][lv]["rooms"] for lv in B.LEVELS)
    assert info["purple_chits"] == default.n_rooms == sum(default.rooms_per_level)


def test_default_map_arrays_are_contiguous_kernel_types(default):
    n = default.n_squares
    for name in ("level", "row", "col", "kind", "room", "hall", "letter", "nbr_cost", "nbr_edge", "room_level",
                 "room_size"):
        assert getattr(default, name).dtype == np.int16, name
    for name in ("nbr", "adj", "door_nbr", "room_sq", "outside", "front", "placeable"):
        assert getattr(default, name).dtype == np.int32, name
    assert default.dist.dtype == np.int16 and default.dist.shape == (4, n, n)
    for name, value in vars(default).items():
        if isinstance(value, np.ndarray):
            assert value.flags.c_contiguous, name
    assert default.nbr.shape == default.nbr_cost.shape == default.nbr_edge.shape
    assert default.nbr.shape[0] == default.adj.shape[0] == default.door_nbr.shape[0] == n


def test_default_outside_squares_lie_before_the_front_double_door_on_level_1(default):
    out = default.outside
    assert 4 <= len(out) <= 8
    assert np.all(default.kind[out] == B.OUTSIDE) and np.all(default.level[out] == 1)
    assert set(np.flatnonzero(default.kind == B.OUTSIDE)) == set(out)
    inside = {b for a, b in default.front_door}
    assert len(default.front_door) == 2 and len({default.room[b] for b in inside}) == 1
    for a, b in default.front_door:
        assert default.kind[a] == B.OUTSIDE and default.kind[b] == B.ROOM
        assert edge(default, a, b) == (2, B.EDGE_DOOR)


def test_default_front_squares_are_the_four_room_squares_inside_the_double_doors(default):
    front = [int(s) for s in default.front]
    assert len(set(front)) == B.N_FRONT == 4
    entrance = {default.room[b] for _a, b in default.front_door}
    assert {default.room[s] for s in front} == entrance
    assert set(front[:2]) == {b for _a, b in default.front_door}          # just inside the two leaves ...
    for inner, outer in zip(front[:2], front[2:]):                          # ... and one step further in
        assert outer in default.adj[inner]
        assert abs(int(default.row[outer]) - int(default.row[inner])) + abs(
            int(default.col[outer]) - int(default.col[inner])) == 1
    assert not set(front) & set(default.placeable.tolist())


def test_default_placeable_squares_are_the_room_squares_but_the_front(default):
    rooms = set(np.flatnonzero(default.kind == B.ROOM).tolist())
    assert set(default.placeable.tolist()) == rooms - set(default.front.tolist())
    assert np.all(default.room[list(rooms)] >= 0) and np.all(default.room[default.kind != B.ROOM] == -1)


def test_default_rooms_are_numbered_level_by_level_and_each_has_a_door(default):
    assert list(default.room_level) == sorted(default.room_level)
    for r, squares in enumerate(default.room_squares):
        assert default.room_size[r] == len(squares)
        assert list(default.room_sq[r, :len(squares)]) == list(squares)
        assert np.all(default.room_sq[r, len(squares):] == -1)
        assert np.all(default.room[list(squares)] == r)
        assert any((default.door_nbr[s] >= 0).any() for s in squares)


def test_default_staircases_link_levels_1_2_and_2_3(default):
    assert [(s.letter, s.level) for s in default.staircases] == [("a", 1), ("b", 2)]
    for st in default.staircases:
        assert default.kind[st.landing] == B.LANDING and default.level[st.landing] == st.level + 1
        assert all(default.kind[s] == B.STAIR for s in st.squares) and st.squares[-1] == st.top
        assert edge(default, st.top, st.landing) == (1, B.EDGE_UP)
        assert edge(default, st.landing, st.top) == (2, B.EDGE_DOWN)
    assert not np.any((default.level == 3) & (default.kind == B.STAIR))


def test_default_tower1_landing_is_right_in_front_of_the_double_doors_of_a_level2_room(default):
    st = default.staircases[0]
    lv, r, c = 2, int(default.row[st.landing]) - 1, int(default.col[st.landing]) - 1
    grid = default.walls[lv - 1]
    found = False
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if grid[r + dr][c + dc] == "=":
            beyond = default.square_at.get((lv, r + 2 * dr + 1, c + 2 * dc + 1))
            found |= beyond is not None and default.kind[beyond] == B.ROOM
    assert found


def test_default_every_hallway_holds_or_joins_a_staircase(default):
    for h in np.unique(default.hall[default.hall >= 0]):
        squares = np.flatnonzero(default.hall == h)
        assert np.isin(default.kind[squares], (B.STAIR, B.LANDING)).any()


def test_default_every_square_is_reachable_from_outside_when_climbing_is_free(default):
    assert default.dist[2][default.outside].min(axis=0).max() < B.UNREACHABLE


def test_default_blue_capacity_holds_the_worst_set_up_with_a_square_left_for_each_purple(default):
    cap = default.blue_capacity()
    assert cap == default.describe()["blue_capacity"] >= 70
    eligible = np.bincount(default.room[default.placeable], minlength=default.n_rooms)
    manual = sum(min(k // 3, e - 1) for k, e in zip(default.room_size.tolist(), eligible.tolist()))
    assert cap == manual



def test_stepping_onto_a_staircase_square_costs_two_and_off_it_one():
    """Every step onto a staircase square costs 2, up or down the run; stepping off onto the hallway costs 1."""
    b = parse(tiny())
    hall, low, top = sq(b, 1, 2, 6), sq(b, 1, 2, 7), sq(b, 1, 2, 8)
    assert edge(b, hall, low) == (2, B.EDGE_STEP) and edge(b, low, top) == (2, B.EDGE_STEP)
    assert edge(b, low, hall) == (1, B.EDGE_STEP) and edge(b, top, low) == (2, B.EDGE_STEP)
    assert b.kind[low] == b.kind[top] == B.STAIR and b.dist[0, hall, top] == 4


def test_stair_top_to_landing_costs_one_and_landing_to_top_two():
    b = parse(tiny())
    top, landing = sq(b, 1, 2, 8), sq(b, 2, 5, 3)
    st = b.staircases[0]
    assert (st.letter, st.top, st.landing, st.squares) == ("a", top, landing, (sq(b, 1, 2, 7), top))
    assert edge(b, top, landing) == (1, B.EDGE_UP) and edge(b, landing, top) == (2, B.EDGE_DOWN)
    assert b.dist[1, top, landing] == 1 and b.dist[0, landing, top] == 2


def test_a_plain_step_costs_one():
    b = parse(tiny())
    assert edge(b, sq(b, 1, 2, 2), sq(b, 1, 2, 3)) == (1, B.EDGE_STEP)
    assert edge(b, sq(b, 1, 7, 3), sq(b, 1, 7, 4)) == (1, B.EDGE_STEP)       # outside squares link each other


def test_encounter_adjacency_leaves_out_door_edges_and_door_nbr_holds_them():
    b = parse(tiny())
    room, hall = sq(b, 1, 2, 4), sq(b, 1, 2, 6)
    assert hall not in b.adj[room] and hall in b.door_nbr[room] and room in b.door_nbr[hall]
    for s in range(b.n_squares):
        doors = {int(t) for t, e in zip(b.nbr[s], b.nbr_edge[s]) if t >= 0 and e == B.EDGE_DOOR}
        others = {int(t) for t, e in zip(b.nbr[s], b.nbr_edge[s]) if t >= 0 and e != B.EDGE_DOOR}
        assert set(b.door_nbr[s][b.door_nbr[s] >= 0].tolist()) == doors
        assert set(b.adj[s][b.adj[s] >= 0].tolist()) == others


def test_diagonal_steps_never_cut_a_wall_corner_or_pass_a_door():
    text = tiny(l1="""\
#########
#...+:aa#
#...#####
#...#
#...#
##==#
  oo""", head="diagonal = true\n")
    b = parse(text)
    assert b.diagonal
    assert sq(b, 1, 3, 3) in b.nbr[sq(b, 1, 2, 2)]                          # open room: diagonal step
    assert edge(b, sq(b, 1, 2, 2), sq(b, 1, 3, 3)) == (1, B.EDGE_STEP)
    assert sq(b, 1, 3, 4) not in b.nbr[sq(b, 1, 2, 6)]                      # across the door's wall corner
    assert sq(b, 1, 7, 3) not in b.nbr[sq(b, 1, 5, 2)]
    plain = parse(tiny())
    assert sq(plain, 1, 3, 3) not in plain.nbr[sq(plain, 1, 2, 2)]
    assert b.dist[2, sq(b, 1, 2, 2), sq(b, 1, 5, 4)] == 3 and plain.dist[2, sq(plain, 1, 2, 2), sq(plain, 1, 5, 4)] == 5


# --- Climbing restriction --------------------------------------------------------------------------------------

def test_dist_t0_cannot_climb_at_all(default):
    d = default.dist[0][default.outside].min(axis=0)
    assert np.all(d[default.level == 1] < B.UNREACHABLE)
    assert np.all(d[default.level >= 2] == B.UNREACHABLE)


def test_dist_t1_climbs_to_level_2_but_not_3(default):
    d = default.dist[1][default.outside].min(axis=0)
    assert np.all(d[default.level <= 2] < B.UNREACHABLE)
    assert np.all(d[default.level == 3] == B.UNREACHABLE)


def test_dist_t2_reaches_everything_and_going_down_is_always_allowed(default):
    assert np.all(default.dist[2][default.outside].min(axis=0) < B.UNREACHABLE)
    top_landing = default.staircases[-1].landing
    assert np.all(default.dist[0, top_landing] < B.UNREACHABLE)             # from Tower 3 down to everything


def test_dist_equals_dijkstra_over_the_neighbour_arrays(default):
    rng = np.random.default_rng(7)
    for t in range(4):
        for s in rng.choice(default.n_squares, 12, replace=False):
            assert np.array_equal(default.dist[t, s], dijkstra(default, int(s), t)), (t, s)
    b = parse(tiny(head="diagonal = true\n"))
    for t in range(4):
        for s in range(b.n_squares):
            assert np.array_equal(b.dist[t, s], dijkstra(b, s, t))
    diagonal = B.parse_board("diagonal = true\n" + B.DEFAULT_MAP.read_text(encoding="utf-8"))
    assert diagonal.nbr.shape[1] > default.nbr.shape[1]
    for s in rng.choice(diagonal.n_squares, 12, replace=False):
        assert np.array_equal(diagonal.dist[2, s], dijkstra(diagonal, int(s), 2)), s


def test_tiny_dist_tables_honour_the_climbing_restriction():
    b = parse(tiny())
    start = b.outside[0]
    by_level = {t: {lv: bool(np.all(b.dist[t, start, b.level == lv] < B.UNREACHABLE)) for lv in B.LEVELS}
                for t in range(4)}
    assert by_level == {0: {1: True, 2: False, 3: False}, 1: {1: True, 2: True, 3: False},
                        2: {1: True, 2: True, 3: True}, 3: {1: True, 2: False, 3: False}}
    landing = b.staircases[0].landing                  # on Tower 2: t = 3 climbs on to Tower 3, t = 1 does not
    assert np.all(b.dist[3, landing, b.level == 3] < B.UNREACHABLE)
    assert np.all(b.dist[1, landing, b.level == 3] == B.UNREACHABLE)


# --- Drawing ---------------------------------------------------------------------------------------------------

def _grid_lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith(";") and not re.match(r"^\s*diagonal\s*=", line)]


def test_render_round_trips_the_default_map_file(default):
    text = B.DEFAULT_MAP.read_text(encoding="utf-8")
    assert _grid_lines(B.render(default)) == _grid_lines(text)
    again = B.parse_board(B.render(default, legend=True))
    assert np.array_equal(again.dist, default.dist) and np.array_equal(again.nbr, default.nbr)


def test_render_overlays_marks_and_draws_one_level(default):
    hero, chit = int(default.outside[0]), int(default.placeable[0])
    text = B.render(default, marks={hero: "1", chit: "?"}, level=1)
    lines = text.splitlines()
    assert lines[0] == "[level 1]" and "[level 2]" not in text
    assert lines[default.row[hero]][default.col[hero] - 1] == "1"
    assert lines[default.row[chit]][default.col[chit] - 1] == "?"
    assert B.render(default, legend=True).rstrip().splitlines()[-len(B.LEGEND):] == list(B.LEGEND)


def test_render_keeps_the_diagonal_option():
    b = parse(tiny(head="diagonal = true\n"))
    assert B.render(b).startswith("diagonal = true\n") and parse(B.render(b)).diagonal


# --- Checks: each broken map gives one BoardError line naming where and what -----------------------------------

def expect(text: str, where: str, *what: str, **kw) -> str:
    with pytest.raises(B.BoardError) as info:
        parse(text, **kw)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("tiny.map: ") and "(allowed: " in msg, msg
    assert where in msg, msg
    for w in what:
        assert w in msg, msg
    return msg


def test_tiny_map_is_valid():
    b = parse(tiny())
    assert b.rooms_per_level == (1, 1, 1) and len(b.outside) == 2


def test_check_missing_level():
    expect("[level 1]\n" + TINY_L1 + "\n[level 2]\n" + TINY_L2 + "\n", "tiny.map: [level 3] is missing")


def test_check_levels_out_of_order():
    text = tiny().replace("[level 1]", "[level 9]", 1)
    expect(text, "line 1", "header '[level 9]' where [level 1] was expected")


def test_check_extra_level():
    expect(tiny() + "[level 4]\n#\n", "line ", "after [level 3]")


def test_check_unknown_option():
    expect(tiny(head="speed = 3\n"), "line 1", "unknown option 'speed = 3'")


def test_check_text_before_the_first_level():
    expect(tiny(head="Tower\n"), "line 1", "'Tower' before [level 1]")


def test_check_option_inside_a_level_block():
    expect(tiny(l3=TINY_L3 + "\ndiagonal = true"), "line ", "inside a level block")


def test_check_level_without_floor_squares():
    expect(tiny(l3="###"), "level 3: level has no floor squares")


def test_check_unknown_character():
    expect(tiny(l2=TINY_L2.replace("#:A", "#*A")), "level 2, row 5, col 2", "unknown character '*'")


def test_check_outside_square_above_level_1():
    expect(tiny(l2=TINY_L2.replace("#:A", "#oA")), "level 2, row 5, col 2", "outside square 'o' above level 1")


def test_check_room_touching_a_hallway_without_a_wall():
    expect(tiny(l1=TINY_L1.replace("#...+:aa#", "#...::aa#")), "level 1, row 2, col 4",
           "room square '.' touches hallway square ':' at row 2, col 5")


def test_check_door_without_floor_on_two_opposite_sides():
    expect(tiny(l1=TINY_L1.replace("#...#####", "#...#+###")), "level 1, row 3, col 6",
           "door '+' without floor squares on exactly two opposite sides")


def test_check_door_not_set_in_a_wall():
    expect(tiny(l3="## ##\n#B+.#\n#####"), "level 3, row 2, col 3", "door '+' is not set in a wall")


def test_check_double_door_leaf_without_a_partner():
    l1 = TINY_L1.replace("##==#", "##=##").replace("  oo", "  o")
    expect(tiny(l1=l1), "level 1, row 6, col 3", "double-door leaf '=' with 0 '=' beside it")


def test_check_three_double_door_leaves_in_a_row():
    l1 = TINY_L1.replace("##==#", "#===#").replace("  oo", " ooo")
    expect(tiny(l1=l1), "level 1, row 6, col 3", "double-door leaf '=' with 2 '=' beside it")


def test_check_single_door_to_the_outside():
    l1 = TINY_L1.replace("##==#", "##+##").replace("  oo", "  o")
    expect(tiny(l1=l1), "level 1, row 6, col 3", "door '+' between outside and room")


def test_check_no_outside_squares():
    expect(tiny(l1=TINY_L1.replace("##==#\n  oo", "#####")), "level 1: no outside squares")


def test_check_no_front_double_door():
    expect(tiny(l1=TINY_L1.replace("##==#", "#####")), "level 1, row 7, col 3",
           "no double door joins the outside squares to a room")


def test_check_second_front_double_door():
    l1 = """\
##########
#...+:aa##
#...######
#...#..#
#...#..#
##==#==##
  ooooo"""
    expect(tiny(l1=l1), "level 1, row 6, col 6", "a second front double door")


def test_check_front_squares_must_be_room_squares_two_deep():
    l1 = "#########\n#...+:aa#\n##==#####\n  oo"
    expect(tiny(l1=l1), "level 1, row 1, col 3", "the square 2 steps inside the front double door is '#'")


def test_check_staircase_without_landing():
    expect(tiny(l3=TINY_L3.replace("B", ":")), "level 2, row 5, col 6",
           "staircase 'b' has no landing 'B' on level 3")


def test_check_landing_twice():
    expect(tiny(l3="######\n#BB+.#\n######"), "level 3, row 2, col 3", "landing 'B' appears 2 times on level 3")


def test_check_landing_without_staircase():
    expect(tiny(l3="######\n#BC+.#\n######"), "level 3, row 2, col 3", "landing 'C' has no staircase 'c' on level 2")


def test_check_landing_on_level_1():
    expect(tiny(l1=TINY_L1.replace("+:aa#", "+Zaa#")), "level 1, row 2, col 6", "landing 'Z' on level 1")


def test_check_staircase_on_the_top_level():
    expect(tiny(l3="######\n#Bc+.#\n######"), "level 3, row 2, col 3", "staircase 'c' on level 3, the top level")


def test_check_staircase_letter_on_two_levels():
    expect(tiny(l2=TINY_L2.replace("#:A", "#aA")), "level 2, row 5, col 2", "staircase 'a' appears on levels 1 and 2")


def test_check_staircase_not_a_straight_run():
    expect(tiny(l1=TINY_L1.replace("+:aa#", "+a:a#")), "level 1, row 2, col 8",
           "staircase 'a' is not one straight unbroken run")


def test_check_staircase_without_a_single_top():
    l1 = TINY_L1.replace("#########\n#...+:aa#\n#...#####", "##########\n#...+:aa:#\n#...######")
    expect(tiny(l1=l1), "level 1, row 2, col 7", "staircase 'a' has no end away from the other floor squares")


def test_check_tower1_landing_in_front_of_a_double_door():
    expect(tiny(l2=TINY_L2.replace("#:A:bb#", "#A::bb#")), "level 2, row 5, col 2",
           "landing 'A' of the Tower 1 staircase is not right in front of a room's double door")


def test_check_room_without_door():
    expect(tiny(l3=TINY_L3 + "\n#..#\n####"), "level 3, row 4, col 2", "room without a door")


def test_check_hallway_without_staircase():
    expect(tiny(l3="#######\n#B+.+:#\n#######"), "level 3, row 2, col 6",
           "hallway with no staircase or landing in it or joined to it by doors")


def test_check_square_unreachable_from_outside():
    expect(tiny(l3=TINY_L3 + "\n#.+.#\n#####"), "level 3, row 4, col 2",
           "room square cannot be reached from the outside squares")


def test_check_blue_chit_capacity():
    msg = expect(tiny(), "tiny.map: rooms hold only 6 blue chits at set-up, 52 needed",
                 "room sizes level 1: 12; level 2: 8; level 3: 1", blue_needed=B.BLUE_CHITS_WORST_CASE)
    assert "min(size // 3, placeable squares - 1) >= 52" in msg


def test_board_error_names_level_row_and_column():
    with pytest.raises(B.BoardError) as info:
        parse(tiny(l2=TINY_L2.replace("#:A", "#*A")))
    assert (info.value.level, info.value.row, info.value.col) == (2, 5, 2)


def test_load_board_names_the_file(tmp_path):
    path = tmp_path / "broken.map"
    path.write_text(tiny(l3="###"), encoding="utf-8")
    with pytest.raises(B.BoardError, match=r"^broken\.map: level 3: level has no floor squares"):
        B.load_board(path, blue_needed=0)


# --- Scenario cross-checks against the map ----------------------------------------------------------------------

def _scenario_error(data: dict) -> str:
    from balance.scenario import ScenarioError, load_scenario
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    return str(err.value)


def test_a_map_with_fewer_outside_squares_than_players_is_refused(tmp_path):
    text = B.DEFAULT_MAP.read_text(encoding="utf-8").replace("        oooo\n        oooo\n", "        oooo\n\n", 1)
    (tmp_path / "four_out.map").write_text(text, encoding="utf-8")
    base = {"game": "haunted_tower", "components": {"map": str(tmp_path / "four_out.map")}}
    from balance.scenario import load_scenario
    assert load_scenario({**base, "players": 4}).players == 4
    msg = _scenario_error({**base, "players": 5})
    assert msg == ("<dict>: components.map: 4 outside squares for 5 players (got "
                   f"'{tmp_path / 'four_out.map'}'; allowed: a map with at least one outside start square a player)")


def test_a_blue_draw_the_rooms_cannot_take_is_refused(default):
    cap = default.blue_capacity()
    per = cap // 3 + 1
    msg = _scenario_error({"game": "haunted_tower", "players": 3, "rules": {"blue_per_player": [per, 13, 10, 8]},
                           "components": {"blue": {"potion_of_healing": 150, "holy_water": 3 * per - 150}}})
    assert f"3 players place {3 * per} blue chits but the rooms of map 'fighters_academy.map' take at most {cap}" \
        in msg and msg.startswith("<dict>: rules.blue_per_player: ")
    from balance.scenario import load_scenario
    ok = load_scenario({"game": "haunted_tower", "players": 3, "rules": {"blue_per_player": [per - 1, 13, 10, 8]},
                        "components": {"blue": {"potion_of_healing": 150, "holy_water": 3 * per - 150}}})
    assert ok.rules.blue_per_player[0] == per - 1


def test_too_many_chits_of_a_monster_names_both_pools():
    msg = _scenario_error({"game": "haunted_tower", "components": {"blue": {"wight": 2, "potion_of_healing": 60},
                                                                  "purple": {"wight": 2, "sword_plus_2": 26}}})
    assert msg.startswith("<dict>: components.blue.wight: 4 chits of wight (blue 2 + purple 2) but 3 stand-ups ")


def test_a_haunted_tower_scenario_without_a_turn_cap_gets_the_games_own():
    from balance.scenario import load_scenario
    assert load_scenario({"game": "haunted_tower"}).turn_cap == 2000
    assert load_scenario({"game": "spooky_tower"}).turn_cap == 1000


def test_a_map_named_in_a_dict_is_found_in_the_working_folder(tmp_path, monkeypatch):
    from balance.scenario import load_scenario
    (tmp_path / "mine.map").write_text(B.DEFAULT_MAP.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    s = load_scenario({"game": "haunted_tower", "components": {"map": "mine.map"}})
    assert s.resources["map"] == str(tmp_path / "mine.map")
    assert load_scenario({"game": "haunted_tower"}).resources["map"] == str(B.DEFAULT_MAP.resolve())


def test_the_specter_chit_is_compiled_purple_backed_so_no_strategy_can_tell_it_from_a_purple_chit():
    from balance.games.haunted_tower import enums as E
    from balance.games.haunted_tower import layout as L
    from balance.scenario import load_scenario
    s = load_scenario("scenarios/haunted_tower.toml")
    s0 = s.spec().compile_scenario(s)[0]
    n = int(s0[L.OPT + L.OPT_N_CHITS])
    colour = s0[L.CHIT_COLOUR:L.CHIT_COLOUR + n]
    kind, index = s0[L.CHIT_KIND:L.CHIT_KIND + n], s0[L.CHIT_INDEX:L.CHIT_INDEX + n]
    specter = [m.name for m in s.components.monsters].index(s.components.specter)
    at = [k for k in range(n) if kind[k] == E.CONTENT_MONSTER and index[k] == specter]
    assert len(at) == 1 and colour[at[0]] == E.PURPLE
    assert set(colour.tolist()) == {E.BLUE, E.PURPLE}
    assert int((colour == E.PURPLE).sum()) == sum(s.components.purple.values()) + 1
