"""Balance studies on real games: compare (A/A exactly zero, reproducible on any split, the pairing's gain, the
sequential mode), sweep, cards (causal per-card values) and their command lines."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import balance
from balance import load_scenario
from balance.games import registry
from balance.scenario import ScenarioError
from balance.analysis.studies import cards, compare, sweep

GHOST_1 = {"components.buildings.12.ghost_worth": 1}


def _a_figure_of_its_own(draw) -> bool:
    """A plot method returns a Figure that pyplot does not hold: a notebook shows a pyplot figure a cell returns
    twice (as the cell's value, and again with the figures the cell leaves open), and a loop leaves them open."""
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
    before = plt.get_fignums()
    return isinstance(draw(), Figure) and plt.get_fignums() == before


def test_a_against_a_gives_exactly_zero_differences():
    c = compare(None, None, {"rules.flip_scope": "card"}, games=3_000, seed=4)      # the default: the same game
    assert (c.table["diff"] == 0).all() and (c.table["diff_sd"] == 0).all()
    plain = c.table[c.table["metric"] != "seat_spread"]
    assert (plain["diff_lo"] == 0).all() and (plain["diff_hi"] == 0).all()
    spread = c.table.set_index("metric").loc["seat_spread"]     # bounded over every pair of seats: contains 0
    assert spread["diff_lo"] <= 0 == spread["diff_hi"]
    assert "exactly the same games" in " ".join(c.findings["text"])


def test_a_against_a_for_a_cooperative_game():
    sc = load_scenario(None, game="climbing_tower", games=400)
    c = compare(sc, sc, games=400)
    assert list(c.core["metric"][:1]) == ["win_rate"] and "seat_spread" not in set(c.table["metric"])
    assert (c.table["diff"] == 0).all()


def test_compare_is_the_same_on_any_chunk_size_and_thread_count():
    a = compare(None, sets=GHOST_1, games=4_000, chunk_size=4_000, threads=2).table
    b = compare(None, sets=GHOST_1, games=4_000, chunk_size=777, threads=1).table
    pd.testing.assert_frame_equal(a, b)


def test_pairing_gain_is_measured_and_large_for_a_small_change():
    c = compare(None, sets=GHOST_1, games=5_000, seed=3)
    t = c.table.set_index("metric")
    seats = t[t["kind"] == "seat"]
    assert (seats["pairing_gain"] > 2).all()            # the same dice make most games identical
    # the unpaired variance over the paired one, recomputed from the columns
    assert seats["pairing_gain"].to_numpy() == pytest.approx(
        ((seats["a_sd"] ** 2 + seats["b_sd"] ** 2) / seats["diff_sd"] ** 2).to_numpy())
    g12 = t.loc["ghosts[value 12]"]
    assert g12["diff_hi"] < 0 and g12["b"] == pytest.approx(g12["a"] / 2, rel=0.2)
    assert _a_figure_of_its_own(c.plot.differences)


def test_until_decided_answers_a_real_change_and_states_its_guarantee():
    c = compare(None, sets=GHOST_1, seed=2, until_decided=True, max_games=60_000,
                question="share[amulet](B) > share[amulet](A)")
    d = c.decision
    assert d["answer"] == "yes" and d["lo"] > 0 and d["games"] < 60_000
    assert "probability at most 0.05" in d["guarantee"] and d["guarantee"].startswith("An anytime-valid")
    assert [look["games"] for look in c.looks] == sorted(look["games"] for look in c.looks)


def test_until_decided_on_a_against_a_is_not_decided_at_the_cap():
    c = compare(None, sets={"rules.flip_scope": "card"}, until_decided=True, max_games=3_000,
                question="seat_spread(B) < seat_spread(A)")
    assert c.decision["answer"] == "inconclusive" and c.decision["games"] == 3_000


def test_sweep_is_tidy_and_shares_random_numbers_across_cells():
    s = sweep(None, {"components.buildings.12.ghost_worth": [2, 1], "players": [2, 3]}, games=1_500)
    t = s.table
    assert t["cell"].nunique() == 4 and {"components.buildings.12.ghost_worth", "players", "metric", "value",
                                         "value_lo", "value_hi", "diff", "diff_lo", "diff_hi"} <= set(t.columns)
    first = t[t["cell"] == 0]
    assert (first["diff"] == 0).all()                    # the first cell against itself
    three = t[(t["players"] == "3") & (t["metric"] == "win_rate[2]")]
    assert len(three) == 2 and not (t[t["players"] == "2"]["metric"] == "win_rate[2]").any()
    assert _a_figure_of_its_own(s.plot.heatmap) and _a_figure_of_its_own(s.plot.lines)


SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize("game", sorted(registry()))
def test_a_sweep_over_players_works_for_every_game(cli, game):
    """Every number of players the game allows, from its shipped scenario: the listed seats cycle to each (and the
    sweep says so); a game for one number of players refuses another with one line."""
    spec = registry()[game]
    path = SCENARIOS / f"{game}.toml"
    counts = list(range(spec.min_players, spec.max_players + 1))
    if len(counts) == 1:
        with pytest.raises(ScenarioError, match=f"played by {counts[0]} players only"):
            sweep(path, {"players": [counts[0], counts[0] + 1]}, games=50)
        res = cli("sweep", path, "--set", f"players={counts[0]},{counts[0] + 1}", "-n", 50)
        assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
        assert f"played by {counts[0]} players only" in res.output
        return
    s = sweep(path, {"players": counts}, games=60, threads=1)
    assert [int(x) for x in s.table.drop_duplicates("cell")["players"]] == counts
    if spec.cooperative:
        assert set(s.table["metric"]) >= {"win_rate"}
    else:
        for p in counts:
            cell = s.table[s.table["players"] == str(p)]
            assert {f"win_rate[{i}]" for i in range(p)} <= set(cell["metric"])
            assert f"win_rate[{p}]" not in set(cell["metric"])
    listed = len(load_scenario(path).seats)
    cycled = [p for p in counts if p != listed] if "seats" in tomllib.loads(path.read_text()) else []
    assert len(s.meta.get("notes", [])) == len(cycled)
    assert all("Note: cell" in line for line in s.summary().splitlines()[2:2 + len(cycled)])


def test_a_sweep_plays_its_first_cell_once_and_gets_the_same_numbers_as_cell_by_cell(monkeypatch):
    """With a fixed number of games the cells play in one pass beside the first cell (played once, not once per
    cell); with target_ci they play one at a time. The numbers of a cell do not depend on which."""
    from balance.analysis.studies import paired
    real, calls = paired.play_chunk, []

    def counting(spec, comp, sc, game0, n, threads, out=None):
        calls.append(n)
        return real(spec, comp, sc, game0, n, threads, out)
    monkeypatch.setattr(paired, "play_chunk", counting)
    grid = {"components.buildings.12.ghost_worth": [2, 1, 0]}
    one_pass = sweep(None, grid, games=1_200, chunk_size=400)
    assert sorted(calls) == [1] * 4 + [400] * 12          # 4 kernels loaded; 3 chunks of the first cell and 3 cells
    assert one_pass.meta["games"] == 3 * 1_200
    calls.clear()
    cell_by_cell = sweep(None, grid, chunk_size=400, target_ci=1.0)   # any width: stops at its first look, 1,000
    assert sorted(calls) == [1] * 6 + [200] * 6 + [400] * 12       # each cell beside its own first cell
    cols = ["cell", "metric", "value", "diff"]
    first = one_pass.table[cols]
    again = sweep(None, grid, games=1_000, chunk_size=400).table[cols]
    pd.testing.assert_frame_equal(cell_by_cell.table[cols], again)
    assert (first["diff"][first["cell"] == 0] == 0).all()


def test_cards_removing_a_building_empties_its_ghosts():
    v = cards(None, games=1_500)
    t = v.table
    assert t["card"].nunique() == 12
    own = t[(t["card"] == "value 12") & (t["metric"] == "ghosts[value 12]")].iloc[0]
    assert own["b"] == 0 and own["a"] > 0 and own["diff_hi"] < 0
    assert "Causal" in v.findings["text"][0]
    assert _a_figure_of_its_own(v.plot.cards)


def test_cards_for_a_cooperative_game_and_the_haunted_tower():
    climbing = cards(load_scenario(None, game="climbing_tower"), games=300)
    assert climbing.item == "card" and "win_rate" in set(climbing.table["metric"])
    haunted = cards(load_scenario(None, game="haunted_tower"), games=60)
    assert haunted.item == "item" and haunted.table["card"].nunique() == len(
        load_scenario(None, game="haunted_tower").components.items)


def test_cli_compare_json_and_report(cli, tmp_path):
    res = cli("compare", "--set", "components.buildings.12.ghost_worth=1", "-n", 2_000, "--json",
              "-o", tmp_path / "rep")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["kind"] == "compare" and data["meta"]["games"] == 2_000
    files = {p.name for p in (tmp_path / "rep").iterdir()}
    assert {"index.html", "summary.md", "differences.png", "compare.csv", "compare.parquet"} <= files
    assert "Findings" in (tmp_path / "rep" / "summary.md").read_text()


def test_cli_sweep_and_cards_print_findings_first(cli, tmp_path):
    res = cli("sweep", "--set", "components.buildings.12.ghost_worth=0,1,2", "-n", 1_000, "-o", tmp_path / "sw")
    assert res.exit_code == 0, res.output
    assert res.output.index("Findings") < res.output.index("Cells")
    assert pd.read_parquet(tmp_path / "sw" / "sweep.parquet")["cell"].nunique() == 3
    res = cli("cards", "-n", 1_000, "--players", 2)
    assert res.exit_code == 0, res.output
    assert "Causal" in res.output and "value 12" in res.output


def test_cli_sweep_takes_list_values_split_outside_brackets(cli, tmp_path):
    res = cli("sweep", "--set", 'components.buildings.1.bonus=["reroll", "clock"],[],["clock"]', "-n", 300, "-o",
              tmp_path / "sw")
    assert res.exit_code == 0, res.output
    assert pd.read_parquet(tmp_path / "sw" / "sweep.parquet")["cell"].nunique() == 3


@pytest.mark.parametrize("args, says", [
    (["compare"], "give a second scenario"),
    (["compare", "--set", "rules.flip_scope=building", "--until-decided"], "needs --question"),
    (["compare", "--set", "rules.flip_scope=building", "--question", "win_rate(B) > 0"], "give a seat"),
    (["compare", "--set", "rules.flip_scope=building", "--question", "spread"], "no comparison"),
    (["compare", "--set", "rules.nope=1"], "nope"),
    (["sweep"], "at least one --set"),
    (["sweep", "--set", "players"], "KEY=V1,V2"),
    (["sweep", "--set", "seed=1,2"], "every cell plays the same games on the same seed"),
    (["sweep", "--set", "players=2,abc"], "(--set players): players: must be an integer (got 'abc'; allowed: an "
                                          "integer from 2 to 4)"),
    (["compare", "--set", "strategy=colector"], "(--set strategy): strategy.name: unknown strategy (did you mean "
                                                "'collector'?)"),
    (["cards", "--players", "9"], "players"),
])
def test_bad_input_is_one_line_and_exit_2(cli, args, says):
    res = cli(*args, "-n", 1_000) if args[0] != "compare" or "--until-decided" not in args else cli(*args)
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and says in lines[0], res.output


def test_both_set_changes_a_and_b_and_set_changes_b_alone(cli, tmp_path):
    """"With three collectors, what does the 12's worth change?" with no files: --both-set lays its keys under both
    sides, --set over B alone."""
    both = {"players": 3, "strategy": "collector"}
    c = compare(None, sets=GHOST_1, both=both, games=500, threads=1)
    assert c.meta["a_hash"] == load_scenario(None, games=500, **both).hash()
    assert c.meta["b_hash"] == load_scenario(None, games=500, **both, **GHOST_1).hash()
    assert c.meta["a"].endswith("with players=3, strategy=collector")
    two = compare(SCENARIOS / "spooky_tower.toml", SCENARIOS / "spooky_tower_rulebook.toml", both=both, games=200,
                  threads=1)
    assert two.meta["b_hash"] == load_scenario(SCENARIOS / "spooky_tower_rulebook.toml", games=200, **both).hash()
    res = cli("compare", "--both-set", "players=3", "--both-set", "strategy=collector", "--set",
              "components.buildings.12.ghost_worth=1", "-n", 500, "--threads", 1, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["meta"]["b_hash"] == c.meta["b_hash"]
    res = cli("compare", "--both-set", "players", "--set", "players=2", "-n", 500)
    assert res.exit_code == 2 and res.output.startswith("error: --both-set 'players': not KEY=VALUE"), res.output


GROUP_GAMES = [g for g in sorted(registry()) if registry()[g].role_name or registry()[g].categories]


def _run_groups(results) -> dict[tuple[str, str, str], float]:
    """What `balance run` reports per group: {(group, label, measure): value}, for every label played."""
    t, out = results.tallies, {}
    if t.role_name is not None:
        for _, row in results.roles.iterrows():
            if row["games"]:
                out[(t.role_name, row[t.role_name], "win_rate")] = row["win_rate"]
                out.update({(t.role_name, row[t.role_name], c): row[f"{c}_mean"]
                            for c in results.tallies.player_counter_names if f"{c}_mean" in row})
    for name, df in results.categories.items():
        for _, row in df[df["games"] > 0].iterrows():
            out[(name, row[name], "win_rate")] = row["win_rate"]
            out[(name, row[name], "rounds")] = row["mean_rounds"]
    return out


@pytest.mark.parametrize("game", GROUP_GAMES)
def test_every_group_run_reports_is_in_compare_and_sweep(game):
    """Per hero, per tower, per BOSS side: each label's win rate and means in compare (A, and B against A with
    paired intervals) and in sweep (each cell) are exactly the run's numbers for the same games."""
    path = SCENARIOS / f"{game}.toml"
    games = 400 if game == "haunted_tower" else 3000
    run = _run_groups(balance.simulate(path, games=games, threads=1, contrasts=False))
    assert run
    key = {"haunted_tower": {"rules.trading": True}, "climbing_tower": {"rules.supply": "easy"}}[game]
    c = compare(path, sets=key, games=games, threads=1)
    rows = c.table.dropna(subset=["group"])
    got = {(r.group, r.label, r.measure): r.a for r in rows.itertuples()}
    assert set(got) >= set(run) and set(c.group_names) == {k[0] for k in run}
    for k, v in run.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12), k
    for name in c.group_names:
        g = c.group(name)
        assert (g["group"] == name).all() and {"label", "measure", "a", "b", "diff", "diff_lo", "diff_hi"} <= set(g)
        assert any(title.startswith(f"Per {name}") for title in c.display_tables()) or \
            not ((g["diff_lo"] > 0) | (g["diff_hi"] < 0)).any()
        assert any(f.startswith(f"Per {name}:") for f in c.findings["text"])
    s = sweep(path, {k: [False, True] if v is True else ["hard", "easy"] for k, v in key.items()}, games=games,
              threads=1)
    cell0 = {(r.group, r.label, r.measure): r.value for r in s.table[s.table["cell"] == 0].dropna(subset=["group"])
             .itertuples()}
    for k, v in run.items():
        assert cell0[k] == pytest.approx(v, rel=1e-12, abs=1e-12), k
    cell1 = s.table[(s.table["cell"] == 1)].dropna(subset=["group"]).set_index(["group", "label", "measure"])
    for r in rows.itertuples():
        assert cell1.loc[(r.group, r.label, r.measure), "diff"] == pytest.approx(r.diff, nan_ok=True)
    assert all(any(t.startswith(f"Per {name}") for t in s.display_tables()) for name in s.group_names)
    assert json.loads(s.to_json())["sweep"][0].keys() >= {"group", "label", "measure"}


def test_group_intervals_a_against_a_and_when_every_label_plays_every_game():
    """A against A: every group difference is exactly 0. With six heroes at six seats every hero plays every game,
    so a hero's win rate is a plain mean and its delta-method deviation is the binomial one."""
    path = SCENARIOS / "haunted_tower.toml"
    aa = compare(path, path, games=300, threads=1).table.dropna(subset=["group"])
    assert len(aa) and (aa["diff"] == 0).all() and (aa["diff_sd"] == 0).all() and (aa["diff_lo"] == 0).all()
    c = compare(path, sets={"rules.trading": True}, both={"players": 6}, games=600, threads=1).group("hero")
    win = c[c["measure"] == "win_rate"]
    n = 600
    for r in win.itertuples():
        assert r.b_sd ** 2 == pytest.approx(r.b * (1 - r.b) * n / (n - 1), rel=1e-9, abs=1e-12), r.label


def test_group_sums_merge_to_the_numbers_of_one_pass():
    """The Dask path adds each task's sums: two ranges merged give exactly the sums of one pass."""
    from balance.analysis.studies.paired import Layout, PairSums, play_range
    from balance.run.runner import set_threads
    a = load_scenario(SCENARIOS / "climbing_tower.toml", games=900)
    b = load_scenario(SCENARIOS / "climbing_tower.toml", games=900, **{"rules.supply": "easy"})
    layouts = [Layout.of(a), Layout.of(b)]
    compiled = [(sc.spec(), sc.spec().compile_scenario(sc)) for sc in (a, b)]
    threads = set_threads(1)
    one, first, second = (PairSums.empty(*layouts) for _ in range(3))
    for sums, start, stop in ((one, 0, 900), (first, 0, 400), (second, 400, 900)):
        list(play_range(compiled, [a, b], layouts, [sums], start, stop, 300, threads))
    first.merge(second)
    for x, y in zip(one.groups, first.groups):
        assert np.array_equal(x.s, y.s) and np.array_equal(x.q, y.q)


def test_a_top_level_key_in_sweep_and_compare_means_what_the_file_key_means():
    s = sweep(None, {"strategy": ["random", "collector"]}, games=300, threads=1)
    assert list(s.table.drop_duplicates("cell")["strategy"]) == ["random", "collector"]
    assert (s.table[s.table["cell"] == 1]["diff"] != 0).any()
    c = compare(None, sets={"strategy": "collector", "players": 2}, games=300, threads=1)
    assert "win_rate[2]" not in set(c.table.dropna(subset=["b"])["metric"]) and "players=2" in c.meta["b"]


@pytest.mark.parametrize("game", ["spooky_tower", "haunted_tower", "climbing_tower"])
def test_every_card_removal_loads_and_changes_the_scenario(game):
    sc = load_scenario(None, game=game)
    item, removals = sc.spec().remove_items(sc)
    assert item and len(removals) == len({label for label, _ in removals}) > 0
    for label, sets in removals:
        assert load_scenario(sc.to_dict(), **sets).hash() != sc.hash(), label


def test_the_api_is_on_the_package():
    import balance
    assert balance.compare is compare and balance.sweep is sweep and balance.cards is cards
