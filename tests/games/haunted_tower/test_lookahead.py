"""The lookahead strategy (rules/lookahead.py): it never reads what its seat cannot know, its re-deal keeps what is
public and does not depend on where the hidden chits lie, it leaves the state as it found it, each parameter changes
its play, bad values are refused, a playout cut at its horizon is the game stopped there, and its games do not
depend on threads or chunks. The move and the encounter are searched: each has its twin, control and state tests.

Decision points are real mid-game positions of the shipped scenario: a game of its heuristics is played to a turn cap
set a few dozen turns in, the cap put back, and the next seat of the round rolls (``begin_turn_nb``); kept when it
moves and the search has more than one square to try. That seat searches (``layout.look_at``), its own heuristic
the base. A *twin* of a position changes only what the seat cannot know: which of the face-down chits that other
seats placed lies where (contents follow chit ids), where the Specter's chit lies among Tower 3's face-down purple
chits and the other purple chits among theirs and the set-aside ones, the bag's order (``CUP``), the other seats'
old hands, the dice to come. The reference engine's side (it runs the same search from its own view) is in
test_differential_options.py (the lookahead cases).
"""
from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from balance.games.haunted_tower import STRATEGIES, board_of, compile_scenario, run_chunk
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower import rules as K
from balance.games.haunted_tower import strategies as S
from balance.games.haunted_tower.rules.lookahead import (MOVE, candidates_nb, encounter_answers_nb, look_encounter_nb,
                                                         look_move_nb, look_seats_nb, playout_nb, redeal_nb)
from balance.games.haunted_tower.rules.movement import encounter_candidates_nb, move_to_nb
from balance.games.haunted_tower.rules.turn import ASK, begin_turn_nb
from balance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]
SC = load_scenario(ROOT / "scenarios" / "haunted_tower.toml")
COMPILED = compile_scenario(SC)
S0, F0, G, D = COMPILED[:4]
LEVEL = board_of(Path(SC.resources["map"])).level
N_CHITS = int(S0[L.N_CHITS])
SPECTER = N_CHITS - 1
PLAYERS = SC.players
LOOKAHEAD = STRATEGIES["lookahead"].kind


def seated(game):
    s, f = S0.copy(), F0.copy()
    slots, roles = np.zeros(PLAYERS, np.int64), np.zeros(PLAYERS, np.int64)
    K.seat_lineup_nb(s, f, COMPILED[4], COMPILED[5], COMPILED[6], True, True, game, slots, roles)
    return s, f


def positions(n, seed=5):
    """`n` rolled positions: (state, params, seat), the seat about to name its square with more than one to try."""
    out = []
    game = 0
    while len(out) < n:
        s, f = seated(game)
        cap = 12 + (game * 37) % 180
        s[L.TURN_CAP] = cap
        K.play_game_nb(s, f, G, D, np.uint64(seed), game)
        game += 1
        s[L.TURN_CAP] = SC.turn_cap
        k = (s[L.ACTIVE] - s[L.ROUND_STARTER]) % PLAYERS + 1
        if s[L.VICTORY] != E.WIN_NONE or s[L.TURN] != cap or k >= PLAYERS:
            continue
        p = int((s[L.ROUND_STARTER] + k) % PLAYERS)
        if s[L.hs_at(p, L.HS_OUT)] == 1:
            continue
        s[L.look_at(p, 0)], s[L.look_at(p, 1)] = 4, 3
        if begin_turn_nb(s, f, p) == 1 and candidates_nb(s.copy(), f.copy(), G, D, p, 3) > 1:
            out.append((s, f, p))
    return out


def decide(s, f, p, playouts=4, width=3, base=None, horizon=0):
    """The lookahead's square for seat p in a rolled position (base: its own heuristic unless given)."""
    s, f = s.copy(), f.copy()
    s[L.look_at(p, 0)], s[L.look_at(p, 1)], s[L.look_at(p, 2)] = playouts, width, horizon
    if base is not None:
        s[L.KINDS + p] = base
        f[L.param_at(p, 0):L.param_at(p, 0) + L.N_PARAMS] = f[L.F_BASE + base * L.N_PARAMS:
                                                               L.F_BASE + (base + 1) * L.N_PARAMS]
    return int(look_move_nb(s, f, G, D, p))


def blue(c):
    return (int(S0[L.CHIT_BLUE + (c >> 6)]) >> (c & 63)) & 1 == 1


def unknown(s, p, c):
    loc = s[L.CHIT_LOC + c]
    return loc == E.LOC_ASIDE or (loc == E.LOC_BOARD and s[L.CHIT_FACEUP + c] == 0 and s[L.CHIT_PLACER + c] != p)


def put(t, c, q, placer):
    """Chit c face down on square q (-1: set aside), placed by `placer`: every region and bit set that says so."""
    u = t.view(np.uint64)
    bit, w = np.uint64(1) << np.uint64(c & 63), c >> 6
    t[L.CHIT_SQ + c], t[L.CHIT_LOC + c], t[L.CHIT_PLACER + c] = q, E.LOC_BOARD if q >= 0 else E.LOC_ASIDE, placer
    u[L.CHIT_ON + w] = u[L.CHIT_ON + w] | bit if q >= 0 else u[L.CHIT_ON + w] & ~bit
    for seat in range(L.MAX_PLAYERS):
        i = int(L.placed_at(seat, w))
        u[i] = u[i] | bit if seat == placer else u[i] & ~bit
    for level in range(L.N_LEVELS + 1):
        i = int(L.level_bits_at(level, w))
        u[i] = u[i] | bit if q >= 0 and LEVEL[q] == level else u[i] & ~bit
    if q >= 0:
        t[L.SQ_CHIT + q] = c


def shuffled(t, chits, rng, specter_on=None):
    """The chits over their own places in a random order, each place keeping its placer; the Specter's chit (when
    among them) on one of the places `specter_on` allows."""
    places = [(int(t[L.CHIT_SQ + c]), int(t[L.CHIT_PLACER + c])) for c in chits]
    order = list(rng.permutation(len(chits)))
    if SPECTER in chits:
        ok = [i for i, (q, _) in enumerate(places) if specter_on(q)]
        first = ok[rng.integers(len(ok))]
        order.remove(first)
        order.insert(chits.index(SPECTER), first)
    for c, i in zip(chits, order):
        put(t, c, *places[i])


def twin(s, p, rng):
    """The position with what seat p cannot know changed (module docstring)."""
    t = s.copy()
    for colour in (True, False):
        chits = [c for c in range(N_CHITS) if blue(c) == colour and unknown(s, p, c)]
        shuffled(t, chits, rng, lambda q: q >= 0 and LEVEL[q] == L.N_LEVELS)
    t[L.CUP:L.CUP + N_CHITS] = rng.permutation(t[L.CUP:L.CUP + N_CHITS])
    for q in range(PLAYERS):
        if q != p:
            t[L.HAND + q * L.MAX_HAND:L.HAND + (q + 1) * L.MAX_HAND] = -1
    t[L.stream_at(0)] = rng.integers(1 << 62)
    return t


@pytest.fixture(scope="module")
def points():
    return positions(40)


def test_twin_positions_get_the_same_decision(points):
    rng = np.random.default_rng(3)
    changed = 0
    for s, f, p in points:
        t = twin(s, p, rng)
        changed += not np.array_equal(s[L.SQ_CHIT:L.SQ_HERO], t[L.SQ_CHIT:L.SQ_HERO])
        assert decide(s, f, p) == decide(t, f, p)
    assert changed == len(points)            # twins really differ in what is hidden


def test_a_seat_that_may_see_the_chits_decides_by_them(points):
    """The control: made the placer of every face-down blue chit (so it knows them), the same seat moves
    differently when they change places; the twin test above is not blind."""
    rng = np.random.default_rng(4)
    differ = 0
    for s, f, p in points:
        seen, other = told(s, p, rng)
        differ += decide(seen, f, p) != decide(other, f, p)
    assert differ >= 3


def told(s, p, rng):
    """The position with seat p made the placer of every face-down blue chit (so it knows them), and a copy of it
    with those chits changing places."""
    seen = s.copy()
    chits = [c for c in range(N_CHITS) if blue(c) and s[L.CHIT_LOC + c] == E.LOC_BOARD and s[L.CHIT_FACEUP + c] == 0]
    for c in chits:
        put(seen, c, int(s[L.CHIT_SQ + c]), p)
    other = seen.copy()
    shuffled(other, chits, rng)
    return seen, other


def test_the_redeal_ignores_where_the_hidden_chits_lie_and_keeps_what_is_public(points):
    rng = np.random.default_rng(5)
    specter_squares = set()
    for s, f, p in points:
        t = twin(s, p, rng)
        a, b = s.copy(), t.copy()
        for x in (a, b):
            x[L.stream_at(1)] = 1234567
            x[L.stream_at(1) + 1] = 0
            redeal_nb(x, G, p)
        live = np.r_[L.HS:L.HAND, L.CHIT_LOC:L.CUP]
        assert np.array_equal(a[live], b[live])          # the same deal, whatever the layout it started from
        for c in range(N_CHITS):
            if not unknown(s, p, c):
                assert a[L.CHIT_SQ + c] == s[L.CHIT_SQ + c] and a[L.CHIT_LOC + c] == s[L.CHIT_LOC + c]
        for q in range(int(G[L.G_N])):
            was, now = s[L.SQ_CHIT + q], a[L.SQ_CHIT + q]
            assert (was < 0) == (now < 0)
            if was >= 0:
                assert blue(int(was)) == blue(int(now)) and s[L.CHIT_PLACER + was] == a[L.CHIT_PLACER + now]
        assert sorted(a[L.SQ_CHIT:L.SQ_CHIT + int(G[L.G_N])]) == sorted(s[L.SQ_CHIT:L.SQ_CHIT + int(G[L.G_N])])
        if s[L.CHIT_FACEUP + SPECTER] == 0:
            assert LEVEL[a[L.CHIT_SQ + SPECTER]] == L.N_LEVELS
            specter_squares.add((int(s[L.CHIT_SQ + SPECTER]), int(a[L.CHIT_SQ + SPECTER])))
    assert any(x != y for x, y in specter_squares)      # the Specter's chit does move


def test_the_search_leaves_the_state_as_it_was_but_one_stream_word(points):
    for s, f, p in points[:10]:
        before, fbefore = s.copy(), f.copy()
        candidates_nb(before, fbefore, G, D, p, 3)          # what the base's own move looks at (its slot memo)
        a, fa = before.copy(), fbefore.copy()
        look_move_nb(a, fa, G, D, p)
        counter = int(L.stream_at(2 + p)) + 1
        assert a[counter] == before[counter] + 1
        a[counter:counter + 2] = before[counter:counter + 2]
        assert a[L.M_SEARCHED] == before[L.M_SEARCHED] + 1      # the searched moves' count (balance bench)
        a[L.M_SEARCHED] = before[L.M_SEARCHED]
        live = np.r_[L.SC:L.DICE_SCRIPT, L.KINDS:L.STATE_END, L.OPT:L.BASE_SIZE]
        assert np.array_equal(a[live], before[live])
        assert np.array_equal(fa[:L.F_SAVE], fbefore[:L.F_SAVE])


def test_each_parameter_changes_decisions(points):
    base_square = [int(look_move_nb(*_searching(s, f, p, 0), G, D, p)) for s, f, p in points]   # no search
    narrow = [decide(s, f, p, width=1) for s, f, p in points]
    assert narrow == base_square                        # width 1: the base's own square, nothing searched
    default = [decide(s, f, p) for s, f, p in points]
    assert default != base_square
    assert [decide(s, f, p, width=2) for s, f, p in points] != [decide(s, f, p, width=3) for s, f, p in points]
    assert [decide(s, f, p, playouts=1) for s, f, p in points] != [decide(s, f, p, playouts=16) for s, f, p in points]
    assert [decide(s, f, p, base=1) for s, f, p in points] != [decide(s, f, p, base=3) for s, f, p in points]
    assert default != [decide(s, f, p, horizon=2) for s, f, p in points]
    s, f, p = points[0]
    assert decide(s, f, p, playouts=256, width=8) >= 0       # the largest values run


def _searching(s, f, p, playouts):
    s = s.copy()
    s[L.look_at(p, 0)] = playouts
    return s, f.copy()


@pytest.mark.parametrize("given, playouts, base, width, horizon", [
    ((8, 1, 3, 0), 8, 1, 3, 0), ((0.6, 0.6, 0.6, 0.6), 1, 1, 1, 1), ((256.4, 3.4, 8.4, 100.4), 256, 3, 8, 100),
    ((-5, 0, 99, -3), 1, 1, 8, 0), ((2.5, 2.5, 2.5, 2.5), 3, 3, 3, 3), ((32, 1, 3, 0.4), 32, 1, 3, 0)])
def test_parameters_are_rounded_and_held_to_their_ranges(given, playouts, base, width, horizon):
    s, f = S0.copy(), F0.copy()
    s[L.KINDS:L.KINDS + PLAYERS] = [LOOKAHEAD, 1, 2, 3]
    f[L.param_at(0, 0):L.param_at(0, 0) + 4] = given
    look_seats_nb(s, f)
    assert (s[L.look_at(0, 0)], s[L.KINDS], s[L.look_at(0, 1)], s[L.look_at(0, 2)]) == (playouts, base, width,
                                                                                          horizon)
    assert list(f[L.param_at(0, 0):L.param_at(0, 0) + 3]) == STRATEGIES[
        next(n for n, x in STRATEGIES.items() if x.kind == base)].vector({})
    assert [s[L.look_at(q, 0)] for q in (1, 2, 3)] == [0, 0, 0] and list(s[L.KINDS + 1:L.KINDS + 4]) == [1, 2, 3]
    assert [s[L.look_at(q, 2)] for q in (1, 2, 3)] == [0, 0, 0]


@pytest.mark.parametrize("key, value, allowed", [("playouts", 0, "a number from 1 to 256"),
                                                 ("base", 0, "a number from 1 to 3"),
                                                 ("width", 9, "a number from 1 to 8"),
                                                 ("horizon", 101, "a number from 0 to 100"),
                                                 ("horizon", -1, "a number from 0 to 100")])
def test_bad_parameter_values_are_refused_in_one_line(cli, tmp_path, key, value, allowed):
    path = tmp_path / "look.toml"
    path.write_text(f'extends = "{ROOT / "scenarios" / "haunted_tower.toml"}"\n'
                    f'[[seats]]\nname = "lookahead"\n{key} = {value}\n'
                    + "".join(f'[[seats]]\nname = "{n}"\n' for n in ("cautious_looter", "specter_rusher",
                                                                       "monster_hunter")))
    res = cli("run", path, "-n", 10)
    lines = res.output.strip().splitlines()
    assert res.exit_code == 2 and len(lines) == 1 and "Traceback" not in res.output
    assert lines[0] == f"error: {path}: seats[0].{key}: out of range (got {value}; allowed: {allowed})"


def lookahead_compiled(playouts=2, width=3, base=2):
    kinds, params = COMPILED[4].copy(), COMPILED[5].copy()
    kinds[0] = LOOKAHEAD
    params[0, :3] = playouts, base, width
    return COMPILED[:4] + (kinds, params) + COMPILED[6:]


def test_games_are_the_same_on_any_thread_count_and_chunking():
    c = lookahead_compiled()
    whole = {k: v.copy() for k, v in run_chunk(c, seed=9, rotate=True, game0=0, n_games=16, n_blocks=1).items()}
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        split = {k: v.copy() for k, v in run_chunk(c, seed=9, rotate=True, game0=0, n_games=16, n_blocks=5).items()}
        numba.set_num_threads(1)
        halves = [run_chunk(c, seed=9, rotate=True, game0=g0, n_games=8, n_blocks=3) for g0 in (0, 8)]
    finally:
        numba.set_num_threads(threads)
    for k in whole:
        assert np.array_equal(whole[k], split[k]), k
        assert np.array_equal(whole[k], np.concatenate([h[k] for h in halves])), k
    plain = run_chunk(COMPILED, seed=9, rotate=True, game0=0, n_games=16, n_blocks=1)
    assert not np.array_equal(whole["final"], plain["final"])      # the search played: other games


# --- the encounter: which chit (or none) the hero turns over, searched once it stands where it stops --------------

def met(points):
    """From rolled positions: the seat moved to its base's square, with at least one chit it may encounter."""
    out = []
    for s, f, p in points:
        s, f = s.copy(), f.copy()
        if move_to_nb(s, G, D, p, S.move_nb(s, f, G, D, p)) and encounter_candidates_nb(s, G, p) > 0:
            out.append((s, f, p))
    return out


@pytest.fixture(scope="module")
def meeting(points):
    out = met(points)
    assert len(out) >= 15
    return out


def encounter(s, f, p, playouts=4, horizon=0):
    """The lookahead's encounter answer for seat p in a moved position (an index into CAND, -1 none)."""
    s, f = s.copy(), f.copy()
    s[L.look_at(p, 0)], s[L.look_at(p, 2)] = playouts, horizon
    return int(look_encounter_nb(s, f, G, D, p))


def test_the_encounter_answers_are_the_base_s_then_none_and_each_chit(meeting):
    for s, f, p in meeting:
        a = s.copy()
        n = encounter_candidates_nb(a, G, p)
        k = encounter_answers_nb(a, f.copy(), G, D, p)
        tried = list(a[L.LOOK_SQ:L.LOOK_SQ + k])
        assert tried[0] == S.encounter_nb(s.copy(), f.copy(), G, D, p)
        assert sorted(tried) == list(range(-1, n))[:L.MAX_WIDTH] and k == min(n + 1, L.MAX_WIDTH)


def test_twin_positions_get_the_same_encounter(meeting):
    rng = np.random.default_rng(7)
    answers = set()
    for s, f, p in meeting:
        a = encounter(s, f, p)
        assert a == encounter(twin(s, p, rng), f, p)
        answers.add(a)
    assert len(answers) > 1                       # not one fixed answer


def test_a_seat_that_may_see_the_chits_encounters_by_them(meeting):
    """The control of the twin test: a seat told every face-down blue chit answers differently, in some positions,
    when they change places."""
    rng = np.random.default_rng(8)
    differ = 0
    for s, f, p in meeting:
        seen, other = told(s, p, rng)
        differ += encounter(seen, f, p, playouts=8) != encounter(other, f, p, playouts=8)
    assert differ >= 2


def test_the_encounter_search_leaves_the_state_as_it_was_but_one_stream_word(meeting):
    for s, f, p in meeting[:10]:
        before, fbefore = s.copy(), f.copy()
        encounter_answers_nb(before, fbefore, G, D, p)      # what the base's own answer looks at (its memo)
        before[L.look_at(p, 0)] = 4
        a, fa = before.copy(), fbefore.copy()
        look_encounter_nb(a, fa, G, D, p)
        counter = int(L.stream_at(2 + p)) + 1
        assert a[counter] == before[counter] + 1
        a[counter:counter + 2] = before[counter:counter + 2]
        assert a[L.M_SEARCHED] == before[L.M_SEARCHED] + 1
        a[L.M_SEARCHED] = before[L.M_SEARCHED]
        live = np.r_[L.SC:L.DICE_SCRIPT, L.KINDS:L.STATE_END, L.OPT:L.BASE_SIZE]
        assert np.array_equal(a[live], before[live])
        assert np.array_equal(fa[:L.F_SAVE], fbefore[:L.F_SAVE])


def test_a_seat_that_does_not_search_is_asked_as_ever(meeting):
    s, f, p = meeting[0]
    assert encounter(s, f, p, playouts=0) == ASK


def test_the_encounter_search_changes_answers_and_each_answer_is_played(meeting):
    """Searched answers differ from the base's in some positions, and every answer index tried is a legal one."""
    base = [int(S.encounter_nb(s.copy(), f.copy(), G, D, p)) for s, f, p in meeting]
    searched = [encounter(s, f, p, playouts=16, horizon=3) for s, f, p in meeting]
    assert base != searched
    for (s, f, p), a in zip(meeting, searched):
        assert -1 <= a < encounter_candidates_nb(s.copy(), G, p)


# --- the horizon: a playout stops as the turn cap stops a game, that many rounds on -----------------------------

def test_a_horizon_playout_is_the_game_capped_that_many_rounds_on(points):
    stopped_early = 0
    for s, f, p in points[:12]:
        square = S.move_nb(s.copy(), f.copy(), G, D, p)
        base = int(s[L.KINDS + p])
        s = s.copy()
        s[L.look_at(p, 2)] = 2
        a, fa = s.copy(), f.copy()
        got = playout_nb(a, fa, G, D, p, MOVE, square, 99, 3, base)
        assert a[L.TURN_CAP] == SC.turn_cap                       # the cap is put back
        capped = s.copy()
        capped[L.look_at(p, 2)] = 0
        capped[L.TURN_CAP] = s[L.TURN] + 2 * s[L.HEROES_IN]
        assert got == playout_nb(capped, f.copy(), G, D, p, MOVE, square, 99, 3, base)
        whole = s.copy()
        whole[L.look_at(p, 2)] = 0
        stopped_early += got != playout_nb(whole, f.copy(), G, D, p, MOVE, square, 99, 3, base)
    assert stopped_early >= 6
