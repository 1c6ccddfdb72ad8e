"""Every interval is called what computes it. For each interval column of each table of each game: the numbers are
recomputed from the run's counts with the one function that should give them; the method that function is
(``balance.stats.intervals.METHODS``) is the one ``balance.present.report.columns`` names for the column; the
report's note of the column gives that method's name; and docs/metrics.md defines the column, in the table's section, by
the same method. A note or a definition that names another method (the Lengths table's mean called a Wilson score
interval) fails here."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import balance
from balance.present.report.columns import column_note, interval_method, section
from balance.stats.intervals import METHODS, diff_interval, histogram_moments, mean_interval, wilson

ROOT = Path(__file__).resolve().parents[2]
METRICS = "\n".join((ROOT / "docs" / name).read_text() for name in ("metrics.md", "metrics_cooperative.md", "metrics_studies.md"))
FUNCTION_METHOD = {wilson: "wilson", mean_interval: "student_t", diff_interval: "newcombe"}


@pytest.fixture(scope="module", params=["spooky_tower", "haunted_tower", "climbing_tower"])
def run(request):
    return balance.simulate(ROOT / "scenarios" / f"{request.param}.toml", games=300, progress=False, threads=1)


def _means(games, sums, squares):
    out = [mean_interval(n, s, q) for n, s, q in zip(games, sums, squares)]
    return np.array([lo for _, lo, _ in out]), np.array([hi for _, _, hi in out])


def _hist_interval(hists):
    out = [mean_interval(*histogram_moments(h)) for h in hists]
    return np.array([lo for _, lo, _ in out]), np.array([hi for _, _, hi in out])


def _recomputed(r, title: str, column: str):
    """(function, its (lo, hi) from the run's counts, the table's raw (lo, hi)) for one interval column."""
    t = r.tallies
    ci = lambda df: (df["ci_low"].to_numpy(), df["ci_high"].to_numpy())  # noqa: E731
    if title == "Lengths":
        hists = [r._hist(w) for w in r.LENGTHS] + ([t.seat_wins_by_rounds[:, 0]] if t.cooperative else [])
        return mean_interval, _hist_interval(hists), (r.lengths.mean_ci_low.to_numpy(),
                                                      r.lengths.mean_ci_high.to_numpy())
    if column.startswith("95% CI (") and column[8:-1] == t.points_counter:
        k = list(t.player_counter_names).index(t.points_counter)
        if title == "Seats":
            df, got = r.seats, _means(t.seat_games, t.seat_final_sum[:, k], t.seat_final_sq[:, k])
        else:
            df, got = r.roles, _means(t.role_games, t.role_final_sum[:, k], t.role_final_sq[:, k])
        return mean_interval, got, (df[f"{t.points_counter}_ci_low"].to_numpy(),
                                    df[f"{t.points_counter}_ci_high"].to_numpy())
    if title == "Strategy x seat":
        ss = r.strategy_seats
        return wilson, wilson(ss.wins, ss.games), ci(ss)
    if title == "Victory kinds":
        return wilson, wilson(r.victories.games, t.games), ci(r.victories)
    if title == "Team":
        if column == "95% CI (rounds)":
            return mean_interval, _hist_interval([t.seat_wins_by_rounds[:, 0]]), (
                r.team.rounds_won_ci_low.to_numpy(), r.team.rounds_won_ci_high.to_numpy())
        return wilson, wilson(r.team.wins, r.team.games), ci(r.team)
    if title == "Endings":
        e = r.endings
        if column == "95% CI (losses)":
            return wilson, wilson(e.lost, e.lost.sum()), (e.losses_ci_low.to_numpy(), e.losses_ci_high.to_numpy())
        return wilson, wilson(e.games, t.games), ci(e)
    if title == "Contrasts":
        c = r.contrasts
        if column == "95% CI (pp)":
            got = diff_interval(c.wins[1:], c.games[1:], c.wins[0], c.games[0])[1:]
            return diff_interval, got, (c.diff_ci_low.to_numpy()[1:], c.diff_ci_high.to_numpy()[1:])
        return wilson, wilson(c.wins, c.games), ci(c)
    name = title[4:].split(":")[0] if title.startswith("Per ") else None
    groups = {g.name: g for g in t.groups}
    if name in groups:
        g = groups[name]
        df = r.group(name)
        return diff_interval, diff_interval(g.used_wins, g.used_pairs, g.unused_wins, g.unused_pairs)[1:], (
            df.diff_ci_low.to_numpy(), df.diff_ci_high.to_numpy())
    if name in r.categories:
        df = r.category(name)
        return wilson, wilson(df.wins, df.games), ci(df)
    df = {"Seats": r.seats, "Strategies": r.strategies}.get(title)
    if df is None and t.role_name is not None:
        df = r.roles
    assert df is not None, f"no recomputation for {title!r} {column!r}: add one"
    return wilson, wilson(df.wins, df.games), ci(df)


def _docs_rows(heading: str, column: str) -> list[str]:
    """The rows of docs/metrics.md's tables under ``heading`` (up to the next heading) whose first cell names the
    column ("win rate, 95% CI" names "95% CI"; "seat 0, seat 1, ..." names every seat column)."""
    lines = METRICS.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("#") and x.lstrip("#").strip() == heading)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if line.startswith("| "):
            first = [c.strip() for c in line.split("|")[1].split(",")]
            if column in first or (re.fullmatch(r"seat \d+", column) and "seat 0" in first):
                rows.append(line)
    return rows


def test_every_interval_column_is_named_and_defined_by_the_method_that_computes_it(run):
    t = run.tallies
    checked = 0
    for title, df in run.display_tables().items():
        for column in df.columns:
            method = interval_method(title, column)
            if method is None:
                assert not column.startswith("95% CI"), f"{title}: {column} has no method in columns.INTERVALS"
                continue
            function, want, got = _recomputed(run, title, column)
            np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=1e-12, atol=0,
                                       equal_nan=True, err_msg=f"{title}: {column}")
            assert FUNCTION_METHOD[function] == method, (title, column, method)
            name, key = METHODS[method]
            assert name in column_note(title, column, t), (title, column, column_note(title, column, t))
            others = [m.key for k, m in METHODS.items() if k != method and m.key not in name]
            assert not any(o in column_note(title, column, t) for o in others), (title, column)
            heading = section(title, {g.name for g in t.groups}, {c.name for c in t.categories})
            rows = _docs_rows(heading, column)
            assert rows, f"docs/metrics.md, section {heading!r}: no row defines {column!r}"
            assert all(key in row for row in rows), (heading, column, rows)
            checked += 1
    assert checked >= 4


def test_the_lengths_interval_is_a_student_t_interval_of_the_mean():
    """The mean length's interval is Student t with n - 1 degrees of freedom; a Wilson interval is for a share
    between 0 and 1 and could not even hold a mean of 48 turns."""
    _, lo, hi = mean_interval(5, 10, 30)    # 0, 1, 2, 3, 4: mean 2, s^2 = 2.5
    half = 2.7764451051977987 * np.sqrt(2.5 / 5)
    assert (lo, hi) == pytest.approx((2 - half, 2 + half))
    assert interval_method("Lengths", "95% CI") == "student_t"
    note = column_note("Lengths", "95% CI", SimpleNamespace(groups=[], categories=[], role_name=None))
    assert "Student t" in note and "Wilson" not in note
