"""The streaming Aggregator against an independent plain-pandas computation on all per-game rows."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal
from scipy import stats

from balance.core.outputs import MARKER
from balance.stats.results import Results
from balance.stats import Aggregator, diff_interval, wilson

from synthetic_games import CAP, GAMES, LINEUP, C, I, N, P, SPEC, aggregate, make_games, split  # noqa: F401


def tables(r: Results) -> dict[str, pd.DataFrame]:
    out = {name: getattr(r, name) for name in ("seats", "slots", "strategies", "victories", "lengths", "cards")}
    out |= {f"hist_{w}": r.length_histogram(w) for w in r.LENGTHS}
    out |= {f"by_{w}": r.win_rate_by_length(w) for w in r.LENGTHS}
    return out




@pytest.fixture(scope="module")
def whole() -> Results:
    return aggregate(GAMES, [N])


@pytest.mark.parametrize("sizes", [[1, 7, 100, N - 108], [1000, 1000, 1000, 1], [N - 1, 1],
                                   list(np.diff(np.r_[0, np.sort(np.random.default_rng(5).choice(
                                       np.arange(1, N), 40, replace=False)), N]))])
def test_chunking_does_not_change_any_table(whole, sizes):
    r = aggregate(GAMES, sizes)
    for name, df in tables(whole).items():
        assert_frame_equal(tables(r)[name], df, check_exact=True, obj=name)
    assert r.seat_test == whole.seat_test
    assert r.summary() == whole.summary()


# --- the independent computation: plain pandas over all rows ----------------------------------------------------
def per_game_frame(g) -> pd.DataFrame:
    return pd.DataFrame({"game": g["game"], "winner": g["winner"].astype(int),
                         "victory": np.asarray(SPEC.victory_names)[g["victory"]],
                         "turns": g["turns"].astype(int), "rounds": g["rounds"].astype(int)})


def per_seat_frame(g) -> pd.DataFrame:
    n = len(g["game"])
    df = pd.DataFrame({"game": np.repeat(g["game"], P), "seat": np.tile(np.arange(P), n),
                       "slot": g["seat_strategy"].ravel().astype(int)})
    df["strategy"] = np.asarray(LINEUP)[df.slot]
    df["won"] = (np.repeat(g["winner"], P) == df.seat).astype(int)
    return df


def rate_columns(df: pd.DataFrame) -> pd.DataFrame:
    df["win_rate"] = df.wins / df.games
    df["ci_low"], df["ci_high"] = wilson(df.wins.to_numpy(), df.games.to_numpy())
    return df


def test_streaming_equals_pandas_from_rows(whole):
    r = aggregate(GAMES, [500, 1, 2000, 500])
    games, seats = per_game_frame(GAMES), per_seat_frame(GAMES)

    ref = seats.groupby("seat").agg(games=("won", "size"), wins=("won", "sum")).reset_index()
    got = r.seats
    assert got.seat.tolist() == ref.seat.tolist() and set(got.strategy) == {"mixed"}
    ref = rate_columns(ref)
    for col in ("games", "wins", "win_rate", "ci_low", "ci_high"):
        assert np.array_equal(got[col].to_numpy(), ref[col].to_numpy()), col

    ref = rate_columns(seats.groupby("strategy", sort=False).agg(games=("won", "size"), wins=("won", "sum"))
                       .reset_index())
    assert_frame_equal(r.strategies, ref, check_dtype=False, check_exact=True)
    ref = rate_columns(seats.groupby("slot").agg(games=("won", "size"), wins=("won", "sum")).reset_index())
    assert np.array_equal(r.slots[["games", "wins", "win_rate"]].to_numpy(),
                          ref[["games", "wins", "win_rate"]].to_numpy())

    finished = games[games.victory != "unfinished"]
    assert r.tallies.seat_finished.tolist() == [len(finished)] * P
    chi = stats.chisquare(finished.winner.value_counts().sort_index().to_numpy())
    assert r.seat_test.chi2 == pytest.approx(chi.statistic, rel=1e-12)
    assert r.seat_test.p_value == pytest.approx(chi.pvalue, rel=1e-9)

    counts = games.victory.value_counts().reindex(list(SPEC.victory_names), fill_value=0)
    assert r.victories.games.tolist() == counts.tolist()
    assert np.array_equal(r.victories.share.to_numpy(), (counts / len(games)).to_numpy())

    for which in ("turns", "rounds"):
        col = games[which]
        row = r.lengths.set_index("measure").loc[which]
        assert row["games"] == len(col) and row["mean"] == col.mean()
        lo, hi = stats.t.interval(0.95, len(col) - 1, loc=col.mean(), scale=col.sem())
        assert (row.mean_ci_low, row.mean_ci_high) == pytest.approx((lo, hi), rel=1e-12)
        for q, name in ((0.5, "median"), (0.1, "p10"), (0.9, "p90")):
            assert row[name] == np.quantile(col.to_numpy(), q, method="inverted_cdf"), (which, name)
        hist = col.value_counts().sort_index()
        got = r.length_histogram(which).set_index("length").games
        assert got[got > 0].to_dict() == hist.to_dict()
        for kind in SPEC.victory_names:
            sub = games.loc[games.victory == kind, which].value_counts().sort_index()
            got = r.length_histogram(which, victory=kind).set_index("length").games
            assert got[got > 0].to_dict() == sub.to_dict()
        by = r.win_rate_by_length(which).set_index("length")
        ref = seats.assign(length=np.repeat(games[which].to_numpy(), P)).pivot_table(
            index="length", columns="seat", values="won", aggfunc="sum")
        for s in range(P):
            assert by[f"seat{s}_wins"].to_dict() == ref[s].to_dict()
            assert np.array_equal(by[f"seat{s}_share"].to_numpy(),
                                  (ref[s] / games[which].value_counts().sort_index()).to_numpy())

    check_cards_against_pandas(r.cards, seats)


def check_cards_against_pandas(cards: pd.DataFrame, seats: pd.DataFrame):
    n = len(GAMES["game"])
    long = pd.DataFrame(GAMES["counters"].reshape(-1, C).astype(int), columns=list(SPEC.counter_names))
    long["item"] = np.tile(np.asarray(SPEC.item_labels), n * P)
    long["won"] = np.repeat(seats.won.to_numpy(), I)
    totals = long.groupby("item")[list(SPEC.counter_names)].sum()
    for name in SPEC.counter_names:
        assert np.array_equal(cards[f"{name}_per_game"].to_numpy(), (totals[name] / n).to_numpy()), name
    assert np.allclose(cards.ghosts_per_flipped.to_numpy(), (totals.ghosts / totals.flipped).to_numpy(), rtol=1e-15)
    split = long.groupby(["item", "won"])[list(SPEC.counter_names)].sum().unstack("won")
    wins, others = int(seats.won.sum()), int((~seats.won.astype(bool)).sum())
    for name in SPEC.counter_names:
        assert np.array_equal(cards[f"{name}_per_winner"].to_numpy(), (split[(name, 1)] / wins).to_numpy()), name
        assert np.array_equal(cards[f"{name}_per_other_seat"].to_numpy(),
                              (split[(name, 0)] / others).to_numpy()), name
    long["used"] = long.flipped > 0
    g = long.groupby(["item", "used"]).won.agg(["size", "sum"]).unstack("used")
    assert cards.flipped_players.tolist() == g[("size", True)].tolist()
    assert cards.not_flipped_players.tolist() == g[("size", False)].tolist()
    assert np.array_equal(cards.win_rate_flipped.to_numpy(), (g[("sum", True)] / g[("size", True)]).to_numpy())
    assert np.array_equal(cards.win_rate_not_flipped.to_numpy(), (g[("sum", False)] / g[("size", False)]).to_numpy())
    d, lo, hi = diff_interval(g[("sum", True)], g[("size", True)], g[("sum", False)], g[("size", False)])
    assert np.array_equal(cards.win_rate_diff.to_numpy(), np.asarray(d))
    assert np.array_equal(cards.diff_ci_low.to_numpy(), np.asarray(lo))
    assert np.array_equal(cards.diff_ci_high.to_numpy(), np.asarray(hi))


@pytest.mark.parametrize("keep,sizes", [(0, [N]), (37, [10] * 300 + [1]), (1000, [999, 2, N - 1001]), (5000, [N])])
def test_keep_games_keeps_exactly_the_first_n(keep, sizes):
    r = aggregate(GAMES, sizes, keep_games=keep)
    n = min(keep, N)
    assert len(r.games) == n
    if n == 0:
        return
    assert r.games.game.tolist() == list(range(n))
    ref = per_game_frame({k: v[:n] for k, v in GAMES.items()})
    for col in ref.columns:
        assert r.games[col].tolist() == ref[col].tolist(), col
    for s in range(P):
        assert r.games[f"seat{s}_strategy"].tolist() == [LINEUP[j] for j in GAMES["seat_strategy"][:n, s]]
        for k, name in enumerate(SPEC.player_counter_names):
            assert r.games[f"seat{s}_{name}"].tolist() == GAMES["final"][:n, s, k].tolist()


def test_ci_width_max_shrinks_and_matches_wilson():
    games = make_games(40_000, seed=3)
    agg = Aggregator(SPEC, LINEUP, CAP)
    assert agg.ci_width_max() == float("inf")
    widths = []
    for chunk in split(games, [100, 900, 9000, 30_000]):
        agg.update(chunk)
        widths.append(agg.ci_width_max())
        seats = agg.finalize().seats
        assert widths[-1] == (seats.ci_high - seats.ci_low).max()
    assert widths == sorted(widths, reverse=True) and widths[-1] < widths[0] / 10
    lo, hi = wilson(agg.tallies.seat_wins, 40_000)
    assert widths[-1] == np.max(hi - lo)


def test_fixed_seats_name_their_strategy():
    r = aggregate(make_games(500, seed=1, rotate=False), [500])
    assert r.seats.strategy.tolist() == LINEUP
    assert r.strategies.games.tolist() == [1000, 500]


def test_rejects_overlapping_or_malformed_chunks():
    agg = Aggregator(SPEC, LINEUP, CAP)
    a, b = split(GAMES, [100, N - 100])
    agg.update(a)
    with pytest.raises(ValueError, match="increasing"):
        agg.update(a)
    bad = dict(b, winner=np.where(b["victory"] == 0, 0, b["winner"]).astype(np.int8))
    with pytest.raises(ValueError, match="unfinished"):
        agg.update(bad)
    with pytest.raises(ValueError, match="shapes"):
        agg.update(dict(b, counters=b["counters"][:, :, :5]))
    agg.update(b)  # a rejected chunk changes nothing
    assert agg.games == N
    with pytest.raises(ValueError, match="used_counter"):
        Aggregator(SPEC, LINEUP, CAP, used_counter=3)


def test_games_longer_than_the_cap_widen_the_histograms():
    games = make_games(200, seed=9)
    games["turns"][5] = CAP + 30
    r = aggregate(games, [100, 100])
    h = r.length_histogram("turns")
    assert h.length.max() == CAP + 30 and h.games.sum() == 200


def test_results_do_not_change_after_more_updates_and_survive_json_and_save(tmp_path):
    agg = Aggregator(SPEC, LINEUP, CAP, keep_games=20)
    a, b = split(GAMES, [1500, N - 1500])
    agg.update(a)
    r = agg.finalize(seed=1, scenario={"players": P}, scenario_toml="players = 3\n")
    before = r.seats.copy()
    agg.update(b)
    assert_frame_equal(r.seats, before)
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert d["meta"]["games_played"] == 1500 and len(d["seats"]) == P and len(d["cards"]) == I
    assert d["meta"]["scenario_hash"] and d["meta"]["package_version"]
    r.save(tmp_path / "run")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [MARKER, "games.parquet", "meta.json",
                                                                    "results.parquet"]
    back = Results.load(tmp_path / "run")
    for name, df in tables(r).items():
        assert_frame_equal(tables(back)[name], df, check_exact=True, obj=name)
    assert_frame_equal(back.games, r.games)
    assert back.meta["seed"] == 1 and back.meta["scenario_toml"] == "players = 3\n"


@pytest.mark.parametrize("seats", [1, 3])
def test_group_tally_is_exact_past_its_int32_flushes_at_the_int16_extremes(seats):
    """The group tally sums int16 rows in int32 and moves them to int64 every 2**15 rows: over 70,000 rows of values
    at both ends of int16 it must give numpy's int64 sums exactly (an int32 running sum would overflow)."""
    from balance.stats.tally import tally_group
    rng = np.random.default_rng(5)
    G, I, C, used = 70_000 // seats, 4, 3, 1
    counters = rng.choice(np.array([-32768, -1, 0, 1, 32767], np.int16), size=(G, seats, I, C))
    counters[:, :, 0, 0], counters[:, :, 0, 2] = 32767, -32768       # sums beyond int32 either way
    mask = rng.integers(0, 2 ** seats, G).astype(np.int8)
    out = [np.zeros((I, C), np.int64), np.zeros((I, C), np.int64)] + [np.zeros(I, np.int64) for _ in range(4)]
    tally_group(mask, counters, used, *out)
    won = ((mask[:, None].astype(np.int64) >> np.arange(seats)) & 1).astype(bool)         # [G, seats]
    c64 = counters.astype(np.int64)
    is_used = counters[:, :, :, used] > 0                                                 # [G, seats, I]
    expect = [c64.sum(axis=(0, 1)), c64[won].sum(axis=0), is_used.sum(axis=(0, 1)), is_used[won].sum(axis=0),
              (~is_used).sum(axis=(0, 1)), (~is_used[won]).sum(axis=0)]
    for got, want in zip(out, expect):
        assert np.array_equal(got, want)
    assert expect[0][0, 0] > 2 ** 31 and expect[0][0, 2] < -2 ** 31     # the test reaches past int32


def test_counter_groups_must_be_int16():
    """The group tally sums int16 rows in int32: wider counters are refused, not summed wrongly."""
    from balance.stats.aggregate import Aggregator
    from balance.scenario import load_scenario
    sc = load_scenario(None, games=1000)
    spec = sc.spec()
    chunk = spec.run_chunk(spec.compile_scenario(sc), seed=1, rotate=False, game0=0, n_games=50, n_blocks=1)
    chunk["counters"] = chunk["counters"].astype(np.int32)
    with pytest.raises(ValueError, match="counters: counters are int16, not int32"):
        Aggregator(spec, [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc).update(chunk)
