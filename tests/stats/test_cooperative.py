"""The shared layers with a co-operative game: team tallies, categories, per-team counter groups, contrasts, findings,
reports and the command line, driven by the synthetic fixture game of tests/coop_fixture.py (no Numba)."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from pandas.testing import assert_frame_equal

import coop_fixture as fx
from balance.games import Contrast
from balance.stats.results import Results
from balance.stats import Aggregator, wilson
from balance.stats.aggregate import Tallies


@pytest.fixture
def game(monkeypatch):
    return fx.install(monkeypatch)


def scenario(**overrides):
    from balance.scenario import load_scenario
    return load_scenario(None, game=fx.NAME, **overrides)


def chunk_of(sc, n: int, game0: int = 0) -> dict:
    return fx.run_chunk(fx.compile_scenario(sc), seed=sc.seed, rotate=False, game0=game0, n_games=n)


def split(games: dict, sizes) -> list[dict]:
    edges = np.cumsum([0] + list(sizes))
    return [{k: v[a:b] for k, v in games.items()} for a, b in zip(edges[:-1], edges[1:])]


def aggregate(sc, games: dict, sizes) -> Results:
    agg = Aggregator(sc.spec(), [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc)
    for c in split(games, sizes):
        agg.update(c)
    return agg.finalize(seed=sc.seed)


N = 3001


def test_category_and_team_tallies_match_a_plain_pandas_count(game):
    sc = scenario()
    games = chunk_of(sc, N)
    r = aggregate(sc, games, [N])
    rows = pd.DataFrame({"tower": games["tower"], "won": games["win_mask"] != 0, "fin": games["victory"] != 0,
                         "rounds": games["rounds"]})
    by = rows.groupby("tower")
    cat = r.category("tower")
    assert list(cat.games) == list(by.size().reindex(range(8), fill_value=0))
    assert list(cat.wins) == list(by.won.sum().reindex(range(8), fill_value=0))
    assert list(cat.finished) == list(by.fin.sum().reindex(range(8), fill_value=0))
    np.testing.assert_allclose(cat.mean_rounds, by.rounds.mean().reindex(range(8)), rtol=1e-12)
    won = rows[rows.won]
    np.testing.assert_allclose(cat.mean_rounds_won, won.groupby("tower").rounds.mean().reindex(range(8)), rtol=1e-12)
    lo, hi = wilson(cat.wins, cat.games)
    np.testing.assert_array_equal(cat.ci_low, lo)
    team = r.team.iloc[0]
    assert (team.games, team.wins) == (N, int(rows.won.sum()))
    assert team.rounds_won_mean == pytest.approx(won.rounds.mean(), rel=1e-12)
    end = r.endings.set_index("kind")
    for v, kind in enumerate(fx.VICTORIES):
        assert end.loc[kind, "games"] == int((games["victory"] == v).sum())
        assert end.loc[kind, "won"] == int(((games["victory"] == v) & rows.won).sum())
    assert end.loc["boss_defeated", "outcome"] == "won" and end.loc["stuck", "outcome"] == "lost"
    assert r.lengths.set_index("measure").loc["rounds_won", "games"] == int(rows.won.sum())


def test_win_rates_per_label_find_the_known_probabilities(game):
    """Statistical, with an explicit tolerance: every label's rate within 4.5 standard errors of its known p."""
    sc = scenario()
    r = aggregate(sc, chunk_of(sc, 40_000), [40_000])
    cat = r.category("tower")
    p = fx.win_probability(np.arange(8), 8, sc.rules.model_dump())
    se = np.sqrt(p * (1 - p) / cat.games)
    assert np.all(np.abs(cat.win_rate - p) < 4.5 * se), (cat.win_rate.to_numpy(), p)


@pytest.mark.parametrize("sizes", [[1, 7, 100, N - 108], [1000, 1000, 1000, 1], [N - 1, 1]])
def test_chunking_does_not_change_the_team_tallies(game, sizes):
    sc = scenario()
    games = chunk_of(sc, N)
    whole, parts = aggregate(sc, games, [N]), aggregate(sc, games, sizes)
    assert parts.tallies.to_dict() == whole.tallies.to_dict()
    for name in ("team", "endings", "lengths", "contrasts"):
        assert_frame_equal(getattr(parts, name), getattr(whole, name), check_exact=True)
    assert_frame_equal(parts.category("tower"), whole.category("tower"), check_exact=True)
    assert parts.summary() == whole.summary()


def test_a_checkpoint_goes_on_where_it_stopped(game):
    sc = scenario()
    games = chunk_of(sc, N)
    first, second = split(games, [1200, N - 1200])
    agg = Aggregator(sc.spec(), ["plain", "plain"], sc.turn_cap, scenario=sc)
    agg.update(first)
    state = json.loads(json.dumps(agg.state()))
    again = Aggregator(sc.spec(), ["plain", "plain"], sc.turn_cap, scenario=sc)
    again.restore(state)
    assert again.tallies.categories[0].games.sum() == 1200 and again.tallies.groups[0].per_team
    again.update(second)
    assert again.tallies.to_dict() == aggregate(sc, games, [N]).tallies.to_dict()
    copy = Tallies.from_dict(json.loads(json.dumps(again.tallies.to_dict())))
    assert copy.cooperative and copy.to_dict() == again.tallies.to_dict()


def test_a_per_team_group_counts_games_not_seats(game):
    sc = scenario()
    games = chunk_of(sc, N)
    r = aggregate(sc, games, [N])
    cards = r.group("card")
    assert list(cards.bought_games + cards.not_bought_games) == [N] * len(fx.CARDS)
    bought = games["cards"][:, 0, :, 0] > 0
    won = games["win_mask"] != 0
    assert list(cards.bought_games) == list(bought.sum(axis=0))
    np.testing.assert_allclose(cards.win_rate_bought, (bought & won[:, None]).sum(axis=0) / bought.sum(axis=0))
    assert "bought_per_won_game" in cards and not any("other_seat" in c or "winner" in c for c in cards.columns)
    assert cards.bought_per_won_game[0] == pytest.approx(games["cards"][won, 0, 0, 0].sum() / won.sum())


def test_a_co_operative_win_mask_holds_every_seat_or_none(game):
    sc = scenario()
    bad = chunk_of(sc, 50)
    bad["win_mask"] = np.where(bad["win_mask"] != 0, 1, 0).astype(np.int8)
    agg = Aggregator(sc.spec(), ["plain", "plain"], sc.turn_cap, scenario=sc)
    with pytest.raises(ValueError, match="every seat"):
        agg.update(bad)
    wrong = chunk_of(sc, 50)
    wrong["tower"] = np.full(50, 8, np.int16)
    with pytest.raises(ValueError, match="label index"):
        Aggregator(sc.spec(), ["plain", "plain"], sc.turn_cap, scenario=sc).update(wrong)


def test_results_show_the_team_not_seat_balance(game):
    sc = scenario()
    r = aggregate(sc, chunk_of(sc, N), [N])
    titles = list(r.display_tables())
    assert titles[:3] == ["Team", "Endings", "Lengths"] and "Seats" not in titles and "Strategies" not in titles
    assert "Per player (means per game)" in titles and "Per tower" in titles and "Per skill" in titles
    text = r.summary()
    assert "Seat equality" not in text and "Seat 0" not in text
    kinds = set(r.findings.kind)
    assert not kinds & {"seat_gap", "role_gap", "strategy_gap"}
    assert {"team_rate", "hardest_label", "easiest_label", "loss_reason"} <= kinds
    hardest = r.findings[r.findings.kind == "hardest_label"].iloc[0]
    assert "T000" in hardest.text and hardest.estimate == r.category("tower").win_rate[0]
    assert r.to_dict()["team"][0]["wins"] == r.team.wins[0] and "seats" not in r.to_dict()


def test_no_label_is_called_hardest_when_every_label_is_alike(game, monkeypatch):
    flat = dataclasses.replace(fx.SPEC, contrasts=())
    fx.install(monkeypatch, flat)
    monkeypatch.setattr(fx, "win_probability", lambda label, n, rules: np.full(label.shape, 0.4))
    sc = scenario()
    r = aggregate(sc, chunk_of(sc, 20_000), [20_000])
    assert not {"hardest_label", "easiest_label"} & set(r.findings.kind)


def test_a_big_category_shows_its_extremes_on_the_terminal_and_everything_in_the_report(game, tmp_path):
    from balance.present.report import write_report
    sc = scenario(**{"components.towers": 60})
    r = aggregate(sc, chunk_of(sc, 6000), [6000])
    short = r.display_tables(short=True)
    hard = next(v for k, v in short.items() if "10 lowest win rates" in k)
    easy = next(v for k, v in short.items() if "10 highest win rates" in k)
    rates = r.category("tower").set_index("tower").win_rate
    assert len(hard) == len(easy) == 10
    assert list(hard.tower) == list(rates.sort_values(kind="stable").index[:10])
    assert rates[easy.tower.iloc[0]] == rates.max()
    index = write_report(r, tmp_path / "rep")
    csv = pd.read_csv(tmp_path / "rep" / "category_tower.csv")
    assert len(csv) == 60 and list(csv.wins) == list(r.category("tower").wins)
    assert len(pd.read_csv(tmp_path / "rep" / "category_boss_side.csv")) == 2      # a name as a file name
    html = index.read_text()
    assert 'data-table="Per tower"' in html and "T059" in html and 'data-table="Seats"' not in html
    assert (tmp_path / "rep" / "category_tower.png").is_file()
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "| lineup |" in md and "Seat equality" not in md


def test_contrasts_play_the_variants_on_the_same_seed(game):
    from balance import api
    r = api.simulate(None, game=fx.NAME, games=3000, progress=False, threads=1)
    df = r.contrasts.set_index("contrast")
    assert list(df.index) == ["scenario", "communication", "supply"]
    off = aggregate(scenario(games=3000, **{"rules.limit": False}),
                    chunk_of(scenario(**{"rules.limit": False}), 3000), [3000])
    assert df.loc["communication", "wins"] == off.team.wins[0]
    assert df.loc["communication", "diff"] == pytest.approx(off.team.win_rate[0] - r.team.win_rate[0], abs=1e-15)
    assert df.loc["communication", "diff_ci_low"] > 0 and "contrast" in set(r.findings.kind)
    plain = api.simulate(None, game=fx.NAME, games=3000, progress=False, threads=1, contrasts=False)
    assert len(plain.contrasts) == 0 and plain.tallies.to_dict() == r.tallies.to_dict()


def test_an_a_a_contrast_differs_by_exactly_zero(game, monkeypatch):
    from balance import api
    same = Contrast("same", lambda sc: ("no change", {"rules.supply": sc.rules.supply}))
    fx.install(monkeypatch, dataclasses.replace(fx.SPEC, contrasts=(same,)))
    r = api.simulate(None, game=fx.NAME, games=2000, progress=False, threads=1)
    row = r.contrasts.iloc[1]
    assert row["diff"] == 0.0 and row["wins"] == r.team.wins[0]
    assert row["diff_ci_low"] == -row["diff_ci_high"] and "contrast" not in set(r.findings.kind)


def test_results_save_and_load_keep_categories_and_contrasts(game, tmp_path):
    from balance import api
    r = api.simulate(None, game=fx.NAME, games=1500, progress=False, threads=1)
    back = Results.load(r.save(tmp_path / "out"))
    assert_frame_equal(back.contrasts, r.contrasts)
    assert_frame_equal(back.category("tower"), r.category("tower"))
    assert back.summary() == r.summary()


def test_the_command_line_runs_and_reports_a_co_operative_game(game, tmp_path, monkeypatch):
    from balance.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fx.toml").write_text(f'game = "{fx.NAME}"\nname = "fixture"\ngames = 1500\n'
                                      '[strategy]\nname = "plain"\n')
    out = CliRunner().invoke(main, ["run", "fx.toml", "--threads", "1"])
    assert out.exit_code == 0, out.output
    assert "Team" in out.output and "Contrasts" in out.output and "Seats" not in out.output
    out = CliRunner().invoke(main, ["run", "fx.toml", "--threads", "1", "--no-contrasts", "--json"])
    data = json.loads(out.stdout)
    assert data["contrasts"] == [] and data["team"][0]["games"] == 1500
    out = CliRunner().invoke(main, ["report", "fx.toml", "--threads", "1", "-o", "rep"])
    assert out.exit_code == 0, out.output
    assert {"contrasts.png", "category_tower.png", "category_tower.csv", "index.html"} <= \
        {p.name for p in (tmp_path / "rep").iterdir()}
    assert 'data-table="Contrasts"' in (tmp_path / "rep" / "index.html").read_text()


def test_a_competitive_game_saves_no_team_fields():
    """Spooky Tower's and The Haunted Tower's saved files stay byte for byte: no new keys in their tallies."""
    from synthetic_games import GAMES, aggregate as competitive
    d = competitive(GAMES, [len(GAMES["game"])]).tallies.to_dict()
    assert not {"cooperative", "victory_wins", "categories"} & set(d)
    assert all("per_team" not in g for g in d["groups"])
