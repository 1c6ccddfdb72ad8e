"""`balance bench` says, for every game, what a whole run leaves of its kernel's speed and how long a report takes
beyond its games. Speed itself is measured, never asserted: these tests hold the lines and what they are made of."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize("scenario, contrasts, lookahead", [(None, 0, "random, random"),
                                                             ("haunted_tower.toml", 0, "cautious_looter, "
                                                              "specter_rusher, monster_hunter"),
                                                             ("climbing_tower.toml", 2, "skeleton_farmer")])
def test_bench_reports_the_run_against_its_kernel_and_a_reports_time(cli, scenario, contrasts, lookahead):
    args = [SCENARIOS / scenario] if scenario else []
    res = cli("bench", *args, "-n", 2000, "--reference-games", 10, "--threads", 1, "--no-cold",
              "--report-games", 300, "--lookahead-games", 2)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    searched = [line for line in lines if line.startswith("lookahead ")]
    if lookahead is None:                       # a game whose spec cannot count a lookahead's decisions: no line
        assert searched == [] and get_game(load(scenario).game).lookahead_searched is None
    else:                                       # seat 0 plays the lookahead, the others as the scenario has them
        assert len(searched) == 1, res.output
        got = re.match(r"lookahead +([\d,]+) decisions/s +\(lookahead at its defaults, lineup lookahead, (.+): "
                       r"([\d,]+) decisions searched in 2 games, 1 thread, best of 3\)$", searched[0])
        assert got and got[2] == lookahead, searched[0]
        assert int(got[1].replace(",", "")) > 0 and int(got[3].replace(",", "")) > 0
    run = next(line for line in lines if line.startswith("run  "))
    assert re.search(r"run +[\d,]+ games/s +\(marginal: a whole run of 1,000 games against 100, best of 3\)", run)
    ratio = next(line for line in lines if line.startswith("run / kernel = "))
    got = re.match(r"run / kernel = (\d+\.\d\d) .*median of the repeats (\d+\.\d\d), (\d+\.\d\d), (\d+\.\d\d); "
                   r"in CPU time (\d+\.\d\d); the kernel's share of the run's loop (\d\.\d\d\d)\)", ratio)
    assert got, ratio
    assert float(got[1]) == sorted(float(x) for x in got.groups()[1:4])[1] and float(got[5]) > 0
    assert 0 < float(got[6]) <= 1
    with_contrasts = [line for line in lines if "contrast variant" in line]
    assert len(with_contrasts) == (1 if contrasts else 0)
    if contrasts:
        assert f"with its {contrasts} contrast variants, as many games each: " in with_contrasts[0]
    startup = next(line for line in lines if line.startswith("start-up "))
    assert re.search(r"start-up +\d+\.\d\d s --help, \d+\.\d\d s a bad scenario file's one-line error \(new "
                     r"processes, best of 3\)", startup), startup
    report = next(line for line in lines if line.startswith("report "))
    assert re.search(r"report +\d+\.\d s games \(300\) \+ \d+\.\d s tables, figures and files \((\d+) figures, "
                     r"\d+\.\d s; slowest \w+ \d+\.\d s\)", report), report


def load(scenario):
    from balance.scenario import load_scenario
    return load_scenario(SCENARIOS / scenario)


def get_game(name):
    from balance.games import get_game
    return get_game(name)


def test_a_game_without_a_lookahead_gets_no_lookahead_measurement():
    """``lookahead_speed`` answers None for a spec that cannot count a lookahead's decisions
    (``lookahead_searched``; and for no games), and then the bench's text has no lookahead line; a seat that plays
    the lookahead already keeps its place and parameters."""
    from balance.cli.bench import BenchResult
    from balance.cli.bench_lookahead import LookaheadSpeed, lookahead_lineup, lookahead_speed
    from dataclasses import replace
    from unittest import mock
    spooky = load("spooky_tower.toml")
    with mock.patch.object(type(spooky), "spec", lambda self: replace(get_game("spooky_tower"),
                                                                      lookahead_searched=None)):
        assert lookahead_speed(spooky, 5) is None
    assert lookahead_speed(load("spooky_tower.toml"), 0) is None
    result = BenchResult("s", 2, ["a", "b"], 1, 1000, 1.0, 1.0, 1.0, 10, 1.0, "machine")
    assert not any(line.startswith("lookahead") for line in result.to_text().splitlines())
    result.lookahead = LookaheadSpeed("lookahead", ["lookahead", "b"], 2, 30, 0.5)
    assert "lookahead              60 decisions/s  (lookahead at its defaults, lineup lookahead, b: 30 decisions " \
           "searched in 2 games, 1 thread, best of 3)" in result.to_text().splitlines()
    from balance.scenario import load_scenario
    seated = load_scenario({"game": "climbing_tower", "seats": [{"name": "climber"},
                                                                {"name": "lookahead", "playouts": 8}]})
    again = lookahead_lineup(seated, "lookahead")
    assert [(s.strategy, s.params) for s in again.seats] == [(s.strategy, s.params) for s in seated.seats]


def test_report_speed_times_every_figure_the_report_writes():
    from balance.cli.bench import report_speed
    from balance.run.runner import RunOptions, run
    from balance.scenario import load_scenario
    sc = load_scenario(SCENARIOS / "climbing_tower.toml", games=200)
    got = report_speed(sc, games=200, threads=1)
    assert got.games == 200 and got.play_s > 0 and got.write_s >= sum(got.figures.values()) > 0
    assert list(got.figures) == run(sc, RunOptions(threads=1, progress=False)).plot.available()


def test_a_runs_speed_line_counts_the_games_its_contrast_variants_played(cli):
    """A Climbing Tower run plays its two contrast variants, as many games each, after its own: its speed line
    (the scenario's games and simulation time) says so, so its games/s is not read as the whole command's."""
    res = cli("run", SCENARIOS / "climbing_tower.toml", "-n", 500, "--threads", 1)
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if x.startswith("Played 500 games"))
    assert re.search(r"; then 1,000 games of 2 contrast variants in \d+\.\d\d s$", line), line
    res = cli("run", SCENARIOS / "climbing_tower.toml", "-n", 500, "--threads", 1, "--no-contrasts")
    assert "contrast" not in next(x for x in res.output.splitlines() if x.startswith("Played 500 games"))
