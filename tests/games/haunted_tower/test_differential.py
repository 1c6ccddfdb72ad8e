"""Differential tests for The Haunted Tower: the Numba kernel against the readable reference engine
(``balance/games/haunted_tower/reference/``), event for event, on thousands of games.

Here: every registered strategy at 3-6 players and mixed tables, both engines agreeing on every event and outcome
(the machinery and the one list of cases: ``haunted_differential.py``); the batch kernel (``run_chunk``) against
traced games; scripted games (dice and choices, illegal answers) against the kernel's test hooks; the reference's
own view (hidden contents blanked) and snapshots; the cases' total. The rule options at non-default values, hero and
seat rotation and the stress variants of the components (robber flies, rust monsters, carrion crawlers, ghouls,
basilisks, vampires and the stake, holy water, a weaker Specter within reach) run in
``test_differential_options.py``, with the check that they reach the rare branches.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from balance.games.haunted_tower import board_of, compile_scenario, run_chunk
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import rules as K
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower.reference import Table, play_reference, play_scenario, scenario_lineup
from balance.games.haunted_tower.narrate import kernel_disagreement
from balance.games.haunted_tower.reference import MAX_SCRIPT
from balance.games.haunted_tower.rules.setup import reset_nb

from haunted_differential import (CASES, GAMES_COVERED, SCRIPTED, TABLE_CASES, TRACE_ROWS, first_mismatch,
                                  kernel_outcome, mixed, outcome_mismatch, play_case, reference_outcome, scenario)


@pytest.mark.parametrize("case", CASES[:TABLE_CASES], ids=[c[0] for c in CASES[:TABLE_CASES]])
def test_kernel_and_reference_play_the_same_games(case):
    play_case(case)


# --- the batch kernel ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat_rotation", [False, True])
def test_batch_kernel_agrees_with_traced_games(seat_rotation):
    """run_chunk's per-game outcomes are those of the traced kernel and of the reference, game by game."""
    sc = scenario(5, mixed(5), turn_cap=80, seat_rotation=seat_rotation, seed=42)
    compiled = compile_scenario(sc)
    out = run_chunk(compiled, seed=sc.seed, rotate=sc.seat_rotation, game0=100, n_games=30, n_blocks=3)
    n_mon, n_items = len(sc.components.monsters), len(sc.components.items)
    for i, game in enumerate(out["game"]):
        game = int(game)
        kinds, _params, heroes = scenario_lineup(sc, game)
        slots = (np.arange(5) + game) % 5 if seat_rotation else np.arange(5)
        assert out["seat_strategy"][i].tolist() == slots.tolist()
        assert out["seat_role"][i].tolist() == heroes
        _events, s = K.trace_game(compiled, sc.seed, game, max_rows=TRACE_ROWS)
        ref = play_scenario(sc, game=game)
        batch = {"winner": int(out["winner"][i]), "win_mask": int(out["win_mask"][i]),
                 "victory": int(out["victory"][i]), "turns": int(out["turns"][i]), "rounds": int(out["rounds"][i]),
                 "final": out["final"][i], "monsters": out["counters"][i], "items": out["items"][i],
                 "draws": int(out["draws"][i])}
        for other in (kernel_outcome(s, 5, n_mon, n_items), reference_outcome(ref)):
            diff = outcome_mismatch(batch, other)
            assert diff is None, f"game {game}: batch vs traced: {diff}"


# --- scripted games: the test hooks agree -------------------------------------------------------------------------

def kernel_scripted(compiled, seed: int, game: int, dice=(), choices=()):
    """The kernel's scripted game as a rule test sets it up: seat, deal, script dice and choices, play."""
    s0, f0, g, d, kinds, params, heroes, rotate, hero_rotate = compiled
    s = np.zeros(s0.shape[0] + 5 * TRACE_ROWS, np.int64)
    s[:s0.shape[0]] = s0
    f = f0.copy()
    n = kinds.shape[0]
    K.seat_lineup_nb(s, f, kinds, params, heroes, rotate, hero_rotate, game, np.zeros(n, np.int64),
                     np.zeros(n, np.int64))
    reset_nb(s, g, np.uint64(seed), game)
    K.script_dice(s, dice)
    K.script_choices(s, choices)
    K.play_on_nb(s, f, g, d)
    rows = int(s[L.M_TRACE])
    return s[L.TRACE:L.TRACE + 5 * rows].reshape(rows, 5), s


def recorded_answers(sc, board, kinds, game: int, dice, seats) -> tuple[list[int], list[str], list]:
    """Every answer `seats` give in a reference game, in the order asked, as a choice script (a placement is two
    entries, a yes/no one); the decision of each entry; and the game's events."""
    answers: list[int] = []
    asked: list[str] = []

    class Recorder(Table):
        def decide(self, decision, seat, *args, **kw):
            answer = super().decide(decision, seat, *args, **kw)
            if seat in seats:
                parts = answer if isinstance(answer, tuple) else (answer,)
                answers.extend(int(a) for a in parts)
                asked.extend([decision.__name__] * len(parts))
            return answer

    _kinds, params, heroes = scenario_lineup(sc, game)
    table = Recorder(sc.components, sc.rules, board, sc.players, sc.turn_cap, kinds, params, heroes, sc.seed, game,
                     dice=dice)
    table.play()
    return answers, asked, table.events


def test_scripted_games_agree():
    """Scripted dice and choices drive both engines alike. The choices are those two random seats gave in a
    reference game: replayed by scripted seats they play the same game; with a few answers changed (often out of
    range: an illegal answer stops the game), the two engines still agree."""
    sc = scenario(3, turn_cap=30, seed=9)
    compiled = list(compile_scenario(sc))
    scripted = compiled[4] = np.array([SCRIPTED, SCRIPTED, 0], np.int64)     # two scripted seats, one random
    compiled = tuple(compiled)
    board = board_of(Path(sc.resources["map"]))
    rng = np.random.default_rng(5)
    seen = Counter()
    for game in range(60):
        dice = rng.integers(1, 7, size=int(rng.integers(0, 60))).tolist()
        choices, asked, random_events = recorded_answers(sc, board, compile_scenario(sc)[4], game, dice, (0, 1))
        assert len(choices) <= MAX_SCRIPT
        in_play = [i for i, name in enumerate(asked) if not name.startswith("place_")]
        if game % 4 and in_play:
            for i in rng.choice(in_play, size=min(len(in_play), int(rng.integers(1, 4))), replace=False):
                choices[i] = int(rng.integers(-2, 6))
        events, _s = kernel_scripted(compiled, sc.seed, game, dice, choices)
        _kinds, params, heroes = scenario_lineup(sc, game)
        ref = play_reference(sc.components, sc.rules, board, 3, sc.turn_cap, scripted, params, heroes, sc.seed,
                             game, dice=dice, choices=choices)
        diff = first_mismatch(events, ref.events)
        assert diff is None, f"scripted game {game} (dice {dice}, choices {choices}): {diff}"
        if game % 4 == 0:
            assert ref.events == random_events, f"game {game}: the replayed script plays another game"
        seen.update(e[0] for e in ref.events)
    assert seen[E.EV_ILLEGAL] and seen[E.EV_CAP]


def test_mismatch_message_names_the_first_differing_event():
    sc = scenario(3, seed=3)
    compiled = compile_scenario(sc)
    events, _s = K.trace_game(compiled, sc.seed, 0, max_rows=TRACE_ROWS)
    ref = play_scenario(sc, game=0)
    assert first_mismatch(events, ref.events) is None
    i = next(i for i, e in enumerate(ref.events) if e[0] == E.EV_MOVE_ROLL)
    bad = events.copy()
    bad[i, 2] = 7 - bad[i, 2]
    msg = first_mismatch(bad, ref.events)
    assert msg is not None and f"event {i}:" in msg and "move_roll(player=" in msg and "d6=" in msg
    assert "only the reference goes on" in first_mismatch(events[:-1], ref.events)


def test_kernel_disagreement_names_the_first_difference_then_the_final_counts_and_the_outcome():
    """What ``balance replay`` reports when the engines part (``narrate.kernel_disagreement``, called by
    ``balance.games.driver.replay``): the first differing or missing event, told with the scenario's names, else the
    first final count or outcome that differs."""
    sc = scenario(3, seed=3)
    events, state = K.trace_game(compile_scenario(sc), sc.seed, 0, max_rows=TRACE_ROWS)
    ref = play_scenario(sc, game=0)
    assert kernel_disagreement(ref, events, state) is None
    i = next(i for i, e in enumerate(ref.events) if e[0] == E.EV_FIGHT)
    monsters = [m.name for m in sc.components.monsters]
    fought = ref.events[i][3]
    bad = events.copy()
    bad[i, 3] = (fought + 1) % len(monsters)
    said = kernel_disagreement(ref, bad, state)
    seat, chit = ref.events[i][1], ref.events[i][2]
    assert said == (f"event {i} differs: kernel fight(player={seat}, chit={chit}, monster={bad[i, 3]}, "
                    f"name={monsters[bad[i, 3]]}), reference fight(player={seat}, chit={chit}, monster={fought}, "
                    f"name={monsters[fought]})"), said
    said = kernel_disagreement(ref, events[:-1], state)
    assert said.startswith(f"event counts differ: kernel {len(events) - 1}, reference {len(events)}; event "
                           f"{len(events) - 1} only in the reference: "), said
    points = state.copy()
    points[L.hs_at(1, L.HS_POINTS)] += 1
    assert kernel_disagreement(ref, events, points).startswith("final counts differ: kernel ")
    outcome = state.copy()
    outcome[L.SC + L.SC_VICTORY] += 1
    assert kernel_disagreement(ref, events, outcome) == "outcome differs"


# --- the reference's own pieces: the strategies' view, the snapshots ----------------------------------------------

def reference_table(sc, game: int) -> Table:
    kinds, params, heroes = scenario_lineup(sc, game)
    return Table(sc.components, sc.rules, board_of(Path(sc.resources["map"])), sc.players, sc.turn_cap, kinds, params,
                 heroes, sc.seed, game)


def test_view_hides_what_the_seat_does_not_know():
    """In the view a seat's strategy reads, a chit's content is shown only when face up or drawn and placed by that
    seat (the kernel's strategies may only learn it through known_content_nb: a peek would play differently here);
    the cup's order is not written."""
    sc = scenario(4, turn_cap=40, seed=3)
    table = reference_table(sc, 0)
    table.play()
    assert any(ch.face_up for ch in table.chits) and any(not ch.face_up for ch in table.chits)
    s = table._state
    for seat in range(4):
        table.write_view(seat, (), 0, ())
        shown = [(int(s[L.CHIT_KIND + ch.id]), int(s[L.CHIT_INDEX + ch.id])) for ch in table.chits]
        known = [ch.face_up or ch.placer == seat for ch in table.chits]
        assert shown == [(ch.kind, ch.index) if k else (-1, -1) for ch, k in zip(table.chits, known)]
        own = sum(1 for ch in table.chits if ch.placer == seat)
        assert own == sc.rules.blue_per_player[4 - E.MIN_PLAYERS]
        assert not s[L.CUP:L.CUP + L.MAX_CHITS].any()
        assert [int(s[L.HS + p * L.N_HS + L.HS_SQ]) for p in range(4)] == [h.square for h in table.heroes]


def test_snapshots_follow_the_game():
    """One snapshot after every hero turn; the last one agrees with the final counts."""
    sc = scenario(5, mixed(5), turn_cap=60, seed=4)
    for game in range(5):
        ref = play_scenario(sc, game=game)
        assert [snap.turn for snap in ref.snapshots] == list(range(1, ref.turns + 1))
        last = ref.snapshots[-1]
        final = {name: ref.final[:, j] for j, name in enumerate(L.FINAL_NAMES)}
        assert [len(h.items) for h in last.heroes] == final["items"].tolist()
        assert [h.points for h in last.heroes] == final["points"].tolist()
        assert [h.drains for h in last.heroes] == final["drains"].tolist()
        assert [h.out for h in last.heroes] == final["out"].astype(bool).tolist()
        table = reference_table(sc, game)
        table.play()
        assert table.events == ref.events
        lying = [sum(1 for ch in table.chits if ch.square >= 0 and table.board.level[ch.square] == lv)
                 for lv in (1, 2, 3)]
        assert list(last.chits_left) == lying
        assert [h.square for h in last.heroes] == [h.square for h in table.heroes]


def test_suite_size():
    """The differential cases together cover thousands of games (`make agreement` adds 10,000 games of the shipped
    scenario, outside the suite)."""
    assert GAMES_COVERED >= 2500
