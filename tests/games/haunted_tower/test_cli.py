"""The Haunted Tower through the command line and the shared layers: `run` and `report` print and write the tables
and plots a points game with heroes has (heroes, points, scoring lines, monsters, items), `show-map` draws the map,
`replay` narrates a game checked against the kernel, and the statistics agree with the per-game rows they come from.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import balance
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = str(ROOT / "scenarios" / "haunted_tower.toml")


@pytest.fixture(scope="module")
def results():
    return balance.simulate(SCENARIO, games=3000, seed=4, keep_games=3000)


def test_run_prints_the_haunted_tower_tables(cli):
    res = cli("run", SCENARIO, "-n", 800, "--seed", 2)
    assert res.exit_code == 0, res.output
    for needle in ("The Haunted Tower, reconstructed components: 800 games of The Haunted Tower", "Findings",
                   "The fighter wins", "Games worth watching", "the most lopsided win", "Seats", "mean points", "Heroes", "magic_user", "Strategies",
                   "monster_hunter", "Victory kinds", "specter", "all_out", "Points by scoring line",
                   "pts_specter_kill", "Per hero (means per game)", "Per monster", "basilisk", "kills/encounters",
                   "Per item", "ring_of_protection", "held_at_end", "games/s"):
        assert needle in res.output, needle


@pytest.mark.parametrize("players, note", [
    (6, "Note: seats cycled from the 4 listed to 6 (players = 6): seat i plays listed seat i mod 4"),
    (3, "Note: seats: the first 3 of the 4 listed, for players = 3"),
])
def test_run_with_another_number_of_players_cycles_the_listed_seats_and_says_so(cli, players, note):
    res = cli("run", SCENARIO, "-n", 60, "--players", players, "--threads", 1, "--no-contrasts")
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[2] == note         # stdout: a first run's compile notice goes to stderr
    res = cli("run", SCENARIO, "-n", 60, "--players", 4, "--threads", 1, "--no-contrasts")
    assert res.exit_code == 0 and "Note:" not in res.output       # the listed number: as before


def test_show_map_draws_every_level_and_one(cli):
    res = cli("show-map", SCENARIO)
    assert res.exit_code == 0
    assert res.output.count("[level ") == 3 and "27 rooms" in res.output and "==" in res.output
    one = cli("show-map", SCENARIO, "--level", 2)
    assert one.exit_code == 0 and one.output.count("[level ") == 1 and "[level 2]" in one.output


def test_show_map_refuses_a_game_without_a_map_and_a_missing_level(cli):
    res = cli("show-map")
    assert res.exit_code == 2 and "not played on a map" in res.output and "Traceback" not in res.output
    res = cli("show-map", SCENARIO, "--level", 4)
    assert res.exit_code == 2 and "no level 4" in res.output


def test_a_broken_map_is_one_line_naming_the_scenario_key_and_the_map(cli, tmp_path):
    bad = tmp_path / "broken.map"
    bad.write_text("[level 1]\n####\n#..#\n####\n")
    sc = tmp_path / "s.toml"
    sc.write_text(f'extends = "{SCENARIO}"\n[components]\nmap = "broken.map"\n')
    res = cli("run", sc, "-n", 10)
    assert res.exit_code == 2
    line = res.output.strip()
    assert "\n" not in line and str(sc) in line and "components.map" in line and "broken.map" in line


def test_replay_narrates_a_game_with_the_map(cli):
    res = cli("replay", SCENARIO, "--seed", 3)
    assert res.exit_code == 0
    out = res.stdout
    assert out.startswith("The Haunted Tower, seed 3, game 0: fighter (seat 0) plays monster_hunter")
    for needle in ("Round 1:", "Turn 1:", "movement points", "turns over a ", " chit: ", "  = ",
                   "chits left: Tower 1", "[level 1]", "The game ends"):
        assert needle in out, needle


def test_replay_jsonl_has_a_snapshot_after_every_hero_turn(cli):
    res = cli("replay", SCENARIO, "--seed", 3, "--format", "jsonl")
    assert res.exit_code == 0
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert rows[0]["type"] == "game" and rows[0]["heroes"] == ["fighter", "dwarf", "elf", "magic_user"]
    turns = [r["turn"] for r in rows if r["type"] == "turn"]
    snaps = [r for r in rows if r["type"] == "snapshot"]
    assert [s["turn"] for s in snaps] == turns
    for s in snaps:
        assert len(s["heroes"]) == 4 and set(s["chits_left"]) == {"1", "2", "3"}
        for h in s["heroes"]:
            assert {"square", "hp", "attack", "drains", "items", "points"} <= set(h)
    # every event row of the trace, in order, between the header and the snapshots
    assert sum(r["type"] not in ("game", "snapshot") for r in rows) == len(balance.games.get_game(
        "haunted_tower").replay(balance.load_scenario(SCENARIO), 3, 0).game.events)


def test_report_writes_the_haunted_tower_figures(cli, tmp_path):
    out = tmp_path / "rep"
    res = cli("report", SCENARIO, "-n", 500, "-o", out)
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in out.iterdir())
    for png in ("seats.png", "roles.png", "score_lines.png", "cards.png", "group_item.png", "lengths.png"):
        assert png in names, png
    html = (out / "index.html").read_text()
    assert "Heroes" in html and "Per monster" in html and "Per item" in html and "Points by scoring line" in html
    again = cli("report", SCENARIO, "-n", 200, "-o", out)             # an earlier report of its own is replaced
    assert again.exit_code == 0, again.output


def test_games_lists_both_games(cli):
    res = cli("games")
    assert "spooky_tower" in res.output and "haunted_tower" in res.output and "specter_rusher" in res.output


def test_tables_agree_with_the_kept_games(results):
    """The streaming tallies against the per-game rows: wins by seat and hero (a tie counts for every tied seat),
    mean points by seat with its t interval, victory kinds, lengths."""
    g = results.games
    assert len(g) == 3000
    P = 4
    won = np.stack([(g.win_mask.to_numpy() >> s) & 1 for s in range(P)], axis=1)
    assert results.seats.wins.tolist() == won.sum(axis=0).tolist()
    hero = np.stack([g[f"seat{s}_hero"].to_numpy() for s in range(P)], axis=1)
    for _, row in results.roles.iterrows():
        mask = hero == row["hero"]
        assert row.games == mask.sum() and row.wins == (won * mask).sum()
        pts = np.stack([g[f"seat{s}_points"] for s in range(P)], axis=1)[mask]
        assert row.points_mean == pytest.approx(pts.mean())
    for s in range(P):
        pts = g[f"seat{s}_points"]
        assert results.seats.points_mean[s] == pytest.approx(pts.mean())
    vic = g.victory.value_counts()
    for _, row in results.victories.iterrows():
        assert row.games == vic.get(row.kind, 0)
    assert results.tallies.tied_games == int((won.sum(axis=1) > 1).sum())
    assert results.lengths.set_index("measure").loc["turns", "mean"] == pytest.approx(g.turns.mean())


def test_score_lines_add_up_to_the_points(results):
    lines = results.score_lines
    assert lines.line.tolist() == list(L.SCORE_LINES)
    assert lines.share_of_points.sum() == pytest.approx(1.0)
    per_seat_game = results.seat_means[[f"{n}_mean" for n in L.SCORE_LINES]].sum(axis=1)
    assert np.allclose(per_seat_game, results.seat_means.points_mean)


def test_groups_are_the_scenarios_monsters_and_items(results):
    monsters = results.group("monster")
    items = results.group("item")
    assert monsters.monster.tolist()[:3] == ["basilisk", "black_widow_spider", "bone_golem"]
    assert "specter" in monsters.monster.tolist() and "stake" in items["item"].tolist()
    specter = monsters.set_index("monster").loc["specter"]
    kills = results.seat_means.specter_kill_mean.sum() * results.tallies.games
    assert specter.kills_per_game * results.tallies.games == pytest.approx(kills)
    with pytest.raises(KeyError, match="no counter group"):
        results.group("value")


def test_results_round_trip_through_save_and_load(results, tmp_path):
    results.save(tmp_path / "run")
    back = balance.stats.results.Results.load(tmp_path / "run")
    for name in ("seats", "roles", "strategies", "victories", "lengths", "score_lines", "seat_means"):
        pd.testing.assert_frame_equal(getattr(back, name), getattr(results, name), obj=name)
    pd.testing.assert_frame_equal(back.group("item"), results.group("item"))


def test_victory_kinds_are_the_haunted_towers(results):
    assert results.victories.kind.tolist() == list(E.VICTORY_NAMES)


def test_a_lineup_of_another_size_than_the_files_seats_plays_and_names_no_wrong_replay():
    """The file lists four seats: a run with three players and three seats given plays, and its games worth
    watching do not claim that `--players 3` on the file replays them (the file alone refuses three players)."""
    seats = [{"name": "monster_hunter"}, {"name": "cautious_looter"}, {"name": "specter_rusher"}]
    r = balance.simulate(SCENARIO, players=3, seats=seats, games=300, seed=2, progress=False)
    assert r.seats.games.tolist() == [300] * 3
    assert r.meta["replay_args"] is None
    assert not any("--players" in line for line in r.watch_lines())
