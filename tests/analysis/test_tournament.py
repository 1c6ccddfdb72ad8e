"""`balance tournament`: tables and seatings, the Bradley-Terry (Luce) fit, co-operative teams, the command."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from balance.analysis.ratings import fit_luce, intervals
from balance.analysis.tournaments import parse_variants, seatings, tables, tournament

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_tables_and_seatings():
    assert tables(4, 3, False) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert tables(2, 3, False) == [(0, 0, 1), (0, 1, 1)]                 # fewer variants than seats
    assert tables(3, 2, True) == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]   # same-strategy teams too
    assert seatings((0, 0, 1)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert len(seatings((0, 1, 2, 3))) == 24


def test_luce_fit_recovers_known_strengths():
    """Games simulated from known strengths at 3-seat tables: each fitted rating within its 95% interval
    (Bonferroni allowance: all four at once at about 99%) of the truth, centred."""
    rng = np.random.default_rng(3)
    truth = np.array([0.8, 0.1, -0.3, -0.6])
    counts, decided, wins = [], [], np.zeros(4)
    for table in tables(4, 3, False):
        c = np.bincount(table, minlength=4).astype(float)
        p = c * np.exp(truth) / (c * np.exp(truth)).sum()
        w = rng.multinomial(4000, p)
        counts.append(c), decided.append(4000)
        wins += w
    theta, cov = fit_luce(np.array(counts), np.array(decided), wins)
    sd = np.sqrt(np.diag(cov))
    assert abs(theta.sum()) < 1e-9
    assert np.all(np.abs(theta - (truth - truth.mean())) < 2.8 * sd), (theta, truth - truth.mean(), sd)
    lo, hi = intervals(theta, cov)
    assert np.all(hi - lo < 0.2) and np.all(lo < theta) and np.all(theta < hi)


def test_luce_fit_keeps_a_strategy_that_never_wins_finite():
    theta, cov = fit_luce(np.array([[1.0, 1.0]]), np.array([100]), np.array([100.0, 0.0]))
    assert np.all(np.isfinite(theta)) and theta[0] > theta[1] + 3 and np.all(np.isfinite(cov))


def test_parse_variants():
    v = parse_variants("random,collector:stack_target=5:reroll_below=1")
    assert [x.label for x in v] == ["random", "collector:stack_target=5:reroll_below=1"]
    assert v[1].strategy == "collector" and v[1].params == {"stack_target": 5, "reroll_below": 1}


def test_competitive_tournament_ranks_and_is_the_same_on_any_threads():
    a = tournament(None, "random,collector,ghost_hunter", games=3000, threads=1)
    b = tournament(None, "random,collector,ghost_hunter", games=3000, threads=2, chunk_size=700)
    assert a.ratings.equals(b.ratings) and a.matrix.equals(b.matrix) and a.tables.equals(b.tables)
    assert a.ratings["strategy"].iloc[-1] == "random"                   # the baseline loses to both heuristics
    assert a.ratings["ci_high"].iloc[-1] < a.ratings["ci_low"].iloc[0]
    assert a.meta["seatings"] == 6 and a.meta["games"] == 3000          # one table of 3, its 6 seatings
    m = a.matrix.to_numpy()
    assert np.isnan(np.diag(m)).all() and ((m[~np.isnan(m)] >= 0) & (m[~np.isnan(m)] <= 1)).all()
    assert a.ratings["wins"].sum() + a.meta["ties"] + a.meta["unfinished"] == 3000
    assert {"ratings", "matrix"} <= set(a.plot.available())
    g = a.gaps.set_index(["higher", "lower"])
    top, last = a.ratings["strategy"].iloc[0], a.ratings["strategy"].iloc[-1]
    row = g.loc[(top, last)]             # the rating difference, its interval from the fit's covariance
    c = a.rating_cov
    sd = np.sqrt(c.at[top, top] + c.at[last, last] - 2 * c.at[top, last])
    assert row["gap"] == pytest.approx(a.ratings["rating"].iloc[0] - a.ratings["rating"].iloc[-1])
    assert row["ci_high"] - row["ci_low"] == pytest.approx(2 * 1.959963984540054 * sd)
    assert row["clear"] and len(g) == 3 and (g["gap"] >= 0).all()
    said = a.findings.set_index("kind").loc["next_gap"]
    assert said["estimate"] == pytest.approx(a.gaps["gap"].iloc[0]) and f"{top}'s rating" in said["text"]


def test_cooperative_tournament_rates_teams():
    t = tournament(SCENARIOS / "climbing_tower.toml", "climber,deck_thinner", games=400, threads=2)
    assert t.cooperative and list(t.tables["table"]) == ["climber + climber", "climber + deck_thinner",
                                                          "deck_thinner + deck_thinner"]
    assert t.matrix.loc["climber", "deck_thinner"] == t.matrix.loc["deck_thinner", "climber"]
    row = t.tables.set_index("table").loc["climber + deck_thinner"]
    assert row["games"] == 400 and 0 <= row["win_rate"] <= 1
    assert "team_win_rate" in t.ratings and "makes the strongest teams" in t.findings["text"][0]
    gap = t.gaps.iloc[0]                 # the two variants' mean team win rates, independent errors combined
    r = t.ratings.set_index("strategy")
    assert gap["gap"] == pytest.approx(r["team_win_rate"].iloc[0] - r["team_win_rate"].iloc[1])
    se = np.hypot(*((r["ci_high"] - r["ci_low"]) / (2 * 1.959963984540054)))
    assert gap["ci_high"] - gap["gap"] == pytest.approx(1.959963984540054 * se)
    assert t.findings["kind"].iloc[1] == "next_gap"


@pytest.mark.parametrize("args, words", [
    (["--strategies", "random,bogus"], ["bogus", "unknown strategy"]),
    (["--strategies", "random,collector:stack_target=99"], ["stack_target", "out of range"]),
    (["--strategies", "random"], ["at least two"]),
    (["--strategies", "random,collector", "-n", "10", "--target-ci", "0.01"], ["give one of them"]),
    (["--strategies", "random,collector", "--players", "9"], ["players", "out of range"]),
])
def test_cli_bad_input_is_one_line_and_exit_2(cli, args, words):
    res = cli("tournament", *args)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and all(w in lines[0] for w in words), res.output


def test_cli_tournament_json_and_report(cli, tmp_path):
    res = cli("tournament", "--strategies", "random,collector", "-n", 600, "--players", 2, "--json",
              "-o", tmp_path / "t", "--threads", 1)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [r["strategy"] for r in data["ratings"]] == ["collector", "random"]
    html = (tmp_path / "t" / "index.html").read_text()
    assert html.index("Findings") < html.index("Ranking") and (tmp_path / "t" / "ratings.png").exists()


def test_the_win_matrix_colours_centre_on_the_fair_share_of_the_table():
    """Yellow is neither ahead nor behind: at three players that is a third of the wins, not a half; a co-operative
    game's pairings centre on the mean team."""
    t = tournament(None, "random,collector,ghost_hunter", games=300, threads=1)
    assert t.meta["players"] == 3
    fig = t.plot.matrix()
    norm = fig.axes[0].images[0].norm
    assert norm.vcenter == pytest.approx(1 / 3) and (norm.vmin, norm.vmax) == (0.0, 1.0)
    assert "fair share, 33%" in fig.axes[1].get_ylabel()
    coop = tournament(SCENARIOS / "climbing_tower.toml", "climber,deck_thinner", games=100, threads=1)
    norm = coop.plot.matrix().axes[0].images[0].norm
    assert norm.vcenter == pytest.approx(float(np.nanmean(coop.matrix.to_numpy(dtype=float))))
