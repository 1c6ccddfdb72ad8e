"""Issue 12, parts 3 to 5: what a designer reads. The strategy x seat table of a rotating mixed lineup, the same
table in results.parquet whatever the run kept, every column defined, intervals and small rates never rounded to a
bound they do not reach, tables aligned, assumptions written as a designer writes them."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from balance.results import Results
from balance.stats import Aggregator, wilson
from test_aggregate import GAMES, LINEUP, P, SPEC, CAP, aggregate, split


def test_strategy_x_seat_counts_each_strategy_at_each_seat_as_pandas_does():
    r = aggregate(GAMES, [1000, 1000, len(GAMES["game"]) - 2000])
    rows = []
    for p in range(P):
        df = pd.DataFrame({"strategy": np.asarray(LINEUP)[GAMES["seat_strategy"][:, p]],
                           "won": GAMES["winner"] == p})
        for name, g in df.groupby("strategy", sort=False):
            rows.append({"strategy": name, "seat": p, "games": len(g), "wins": int(g.won.sum())})
    want = pd.DataFrame(rows).sort_values(["strategy", "seat"]).reset_index(drop=True)
    got = r.strategy_seats.sort_values(["strategy", "seat"]).reset_index(drop=True)
    assert_frame_equal(got[["strategy", "seat", "games", "wins"]], want, check_dtype=False)
    lo, hi = wilson(want.wins.to_numpy(), want.games.to_numpy())
    assert np.allclose(got.ci_low, lo) and np.allclose(got.ci_high, hi)
    assert r.rotates


def test_a_rotating_mixed_lineup_shows_strategies_and_strategy_x_seat_everywhere(tmp_path):
    from balance.report import write_report
    r = aggregate(GAMES, [len(GAMES["game"])])
    text = r.summary()
    assert "\nStrategies\n" in text and "\nStrategy x seat\n" in text
    matrix = r.display_tables()["Strategy x seat"]
    assert list(matrix.columns) == ["strategy"] + [f"seat {p}" for p in range(P)]
    assert list(matrix.strategy) == list(dict.fromkeys(LINEUP))
    write_report(r, tmp_path / "rep", [])
    md = (tmp_path / "rep" / "summary.md").read_text()
    html = (tmp_path / "rep" / "index.html").read_text()
    for page in (md, html):
        assert "Strategy x seat" in page and "Strategies" in page
    greedy_seat0 = matrix.loc[matrix.strategy == "greedy", "seat 0"].item()
    assert greedy_seat0 in md and greedy_seat0 in html


def test_fixed_seats_show_no_strategy_x_seat_table():
    """Without rotation each strategy has its own seat: the Seats table says it all."""
    games = dict(GAMES, seat_strategy=np.tile(np.arange(P, dtype=np.int8), (len(GAMES["game"]), 1)))
    r = aggregate(games, [len(games["game"])])
    assert not r.rotates and "Strategy x seat" not in r.display_tables()


@pytest.mark.parametrize("keep", [0, 25])
def test_results_parquet_is_always_the_seats_table_and_kept_games_have_their_own_file(tmp_path, keep):
    r = aggregate(GAMES, [len(GAMES["game"])], keep_games=keep)
    r.save(tmp_path / "run")
    assert_frame_equal(pd.read_parquet(tmp_path / "run" / "results.parquet"), r.seats)
    assert (tmp_path / "run" / "games.parquet").exists() == bool(keep)
    back = Results.load(tmp_path / "run")
    assert len(back.games) == keep
    if keep:
        assert_frame_equal(pd.read_parquet(tmp_path / "run" / "games.parquet"), r.games)
