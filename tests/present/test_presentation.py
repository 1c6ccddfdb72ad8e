"""What a designer reads. The strategy x seat table of a rotating mixed lineup, the same
table in results.parquet whatever the run kept, every column defined, intervals and small rates never rounded to a
bound they do not reach, tables aligned, assumptions written as a designer writes them."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from balance.stats.results import Results
from balance.stats import wilson
from synthetic_games import GAMES, LINEUP, P, aggregate

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


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
    from balance.present.report import write_report
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


# --- balance replay: cards by Building and Photo, a labelled snapshot line ------------------------------------------

def test_spooky_replay_names_cards_by_building_and_photo_and_labels_the_town():
    import re
    from balance.games.spooky_tower.narrate import narrate_text
    from balance.games.spooky_tower.reference import play_scenario
    from balance.scenario import load_scenario
    sc = load_scenario(SCENARIOS / "spooky_tower.toml")
    game = play_scenario(sc, seed=1, game=0)
    text = narrate_text(game)
    assert not re.search(r"\bcard \d", text), "an internal card id in the narration"
    takes = [line for line in text.splitlines() if line.startswith("  takes ")]
    name = r"  takes a Building \d+ card \(Photo: [a-z_0-9, ]+\)( \(by an effect\))?$"
    assert takes and all(re.match(name, t) for t in takes)
    snaps = [line for line in text.splitlines() if line.startswith("  = ")]
    assert snaps and all("Town, cards left by value [1:" in s and "House [" in s for s in snaps)
    last = game.snapshots[-1]       # the labels carry the counts the snapshot holds
    assert " ".join(f"{v}:{n}" for v, n in enumerate(last.town) if v > 0) in snaps[-1]


def test_haunted_replay_names_chits_by_content_and_labels_the_snapshot():
    import re
    from pathlib import Path
    from balance.games.haunted_tower import board_of
    from balance.games.haunted_tower.compile import chit_contents
    from balance.games.haunted_tower.narrate import Replay, narrate_text
    from balance.games.haunted_tower.reference import play_scenario
    from balance.scenario import load_scenario
    sc = load_scenario(SCENARIOS / "haunted_tower.toml")
    ref = play_scenario(sc, seed=1, game=0)
    c = sc.components
    r = Replay(game=ref, board=board_of(Path(sc.resources["map"])), heroes=tuple(h.name for h in c.heroes),
               monsters=tuple(m.name for m in c.monsters), items=tuple(i.name for i in c.items),
               strategies=("a",) * len(ref.kinds), chits=tuple(chit_contents(c)))
    text = narrate_text(r)
    assert not re.search(r"\bchit \d", text), "an internal chit id in the narration"
    snaps = [line for line in text.splitlines() if line.startswith("  = ")]
    assert snaps and all("chits left: Tower 1 " in s for s in snaps)
    assert all(re.search(r": (Tower \d, -?\d+ hp, attack -?\d+, \d+ items?, -?\d+ points|out)", s) for s in snaps)


# --- the Assumptions section: values as a designer writes them, reasons true of them -------------------------------

@pytest.mark.parametrize("game", ["spooky_tower", "haunted_tower", "climbing_tower"])
def test_assumption_values_are_written_as_in_a_scenario_file(game):
    import tomllib
    from balance.scenario import load_scenario
    sc = load_scenario(SCENARIOS / f"{game}.toml")
    rows = sc.spec().assumptions(sc)
    for setting, value, reason in rows:
        assert "{" not in value and "True" not in value and "False" not in value and "'" not in value, (setting, value)
        if setting.startswith("rules."):
            key = setting.split(".", 1)[1]
            assert tomllib.loads(f"x = {value}")["x"] == sc.rules.model_dump(mode="json")[key], setting
        if value == "false":
            assert reason.startswith("Off"), setting


def test_spooky_ghost_worth_reason_follows_the_value_in_force():
    from balance.scenario import load_scenario
    sc = load_scenario(SCENARIOS / "spooky_tower.toml", **{"components.buildings.12.ghost_worth": 1})
    rows = {s: (v, why) for s, v, why in sc.spec().assumptions(sc)}
    value, why = rows["components.buildings.12.ghost_worth"]
    assert value == "1" and "two ghosts" not in why and "public card list: 2" in why
    assert rows["components.buildings"][0] == "public card list"        # the cards themselves did not change
    sc = load_scenario(SCENARIOS / "spooky_tower.toml")
    rows = {s: (v, why) for s, v, why in sc.spec().assumptions(sc)}
    assert rows["components.buildings.12.ghost_worth"] == ("2", rows["components.buildings.12.ghost_worth"][1])
    assert "two ghosts" in rows["components.buildings.12.ghost_worth"][1]


def test_a_reconstructed_component_the_scenario_replaces_is_not_called_the_reconstruction():
    from balance.games.climbing_tower import assumptions
    from balance.scenario import load_scenario
    base = load_scenario(SCENARIOS / "climbing_tower.toml")
    boss = base.components.boss
    changed = base.model_copy(update={"components": base.components.model_copy(update={"boss": boss[:1]})})
    rows = {s: (v, why) for s, v, why in assumptions(changed)}
    assert rows["components.boss"][0] == "the scenario's own" and "No public source" not in rows["components.boss"][1]
    assert rows["components.cards"][0] == "ASSUMED reconstruction"


# --- every column explained, in docs/metrics.md and in the report ------------------------------------------------

METRICS = "\n".join((Path(__file__).resolve().parents[2] / "docs" / name).read_text()        # every table's section
                    for name in ("metrics.md", "metrics_cooperative.md", "metrics_studies.md"))


def _empty_results(game):
    """A game's Results with no game played: every table it has, from its shipped scenario, without a kernel."""
    from balance.scenario import load_scenario
    from balance.stats import Aggregator
    sc = load_scenario(SCENARIOS / f"{game}.toml")
    return Aggregator(sc.spec(), [seat.strategy for seat in sc.seats], sc.turn_cap, scenario=sc).finalize()


@pytest.mark.parametrize("game", ["spooky_tower", "haunted_tower", "climbing_tower"])
def test_every_column_of_every_table_is_defined_in_metrics_md_and_has_a_note(game):
    from balance.present.report.columns import column_note, section, slug
    r = _empty_results(game)
    t = r.tallies
    headings = {slug(h.lstrip("#").strip()) for h in METRICS.splitlines() if h.startswith("#")}
    for title, df in r.display_tables().items():
        assert slug(section(title, {g.name for g in t.groups}, {c.name for c in t.categories})) in headings, title
        for column in df.columns:
            assert column_note(title, column, t), (title, column)
    for g in t.groups:                  # a group's columns are named after its counters: each defined there
        for name in g.counter_names:
            assert f"| {name} |" in METRICS or f"| {name} (" in METRICS or f", {name} " in METRICS or \
                f"| {name}/" in METRICS, (g.name, name)
    for title, df in r.display_tables().items():     # the means tables' columns are the game's final counters
        if title.endswith("(means per game)"):
            for name in df.columns[1:]:
                assert f"`{name}`" in METRICS or f"| {name} |" in METRICS, (title, name)


def test_group_columns_say_they_are_an_association():
    from balance.present.report.columns import column_note
    r = _empty_results("spooky_tower")
    for column in ("win flipped", "win not flipped", "diff (pp)", "95% CI (pp)"):
        assert "association, not a cause" in column_note("Per value", column, r.tallies)
    assert "ghosts" in column_note("Per value", "ghosts/flipped", r.tallies)


def test_the_report_gives_every_header_a_tooltip_and_a_footnote_and_links_each_title_to_them(tmp_path):
    from html.parser import HTMLParser
    from balance.present.report import write_report
    r = aggregate(GAMES, [len(GAMES["game"])])
    html = write_report(r, tmp_path / "rep", []).read_text()

    class Headers(HTMLParser):
        def __init__(self):
            super().__init__()
            self.th, self.links, self.ids, self.table = [], [], set(), None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "table":
                self.table = a.get("data-table")
            if tag == "th" and self.table not in (None, "Assumptions"):
                self.th.append((self.table, a.get("title"), a.get("class")))
            if tag == "a" and "def" in (a.get("class") or "").split():
                self.links.append(a["href"])
            if "id" in a:
                self.ids.add(a["id"])

    page = Headers()
    page.feed(html)
    assert page.th and all(title for _, title, _ in page.th), [x for x in page.th if not x[1]]
    assert page.links and all(link.startswith("#") and link[1:] in page.ids for link in page.links), page.links
    assert "#per_value-columns" in page.links or any(link.endswith("-columns") for link in page.links)
    assert html.count("association, not a cause") >= 4       # the group table's note and its footnotes
    assert '<dl class="columns">' in html and "metrics.md\"" not in html


def test_tables_align_text_left_and_numbers_right_in_the_report_and_on_the_terminal(tmp_path):
    from balance.present.report import write_report
    r = _empty_results("climbing_tower")
    text = r.summary()
    block = text.split("\nPer BOSS side\n")[1].splitlines()
    header, rule, first = block[0], block[1], block[2]
    assert header.startswith("  BOSS side") and first.startswith("  A ")      # a label column: left
    assert header.rstrip().endswith("mean rounds (won)") and first.rstrip().endswith("-")
    r = aggregate(GAMES, [len(GAMES["game"])])
    html = write_report(r, tmp_path / "rep", []).read_text()
    assert '<th class="text" title=' in html and '<td class="num">' in html
    assert '<td class="text">greedy</td>' in html and '<td class="num">0</td>' in html


def test_small_values_never_round_to_zero():
    from balance.present.display import ci, num, pct
    assert num(0.0004) == "<0.001" and num(0.0) == "0.000" and num(0.004, 2) == "<0.01"
    assert pct(4e-5) == "<0.01%" and ci(2e-6, 4e-5) == "[<0.01, <0.01]%"


def test_figures_use_the_tables_units_drop_empty_kinds_and_carry_a_caption():
    import matplotlib
    matplotlib.use("Agg")
    games = dict(GAMES, victory=np.where(GAMES["victory"] == 0, 1, GAMES["victory"]).astype(np.int8))
    games["winner"] = np.where(games["winner"] < 0, 0, games["winner"]).astype(np.int8)
    r = aggregate(games, [len(games["game"])])
    assert r.victories.games.iloc[0] == 0          # no unfinished game: no "unfinished" bar
    fig = r.plot.victories()
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ghosts", "amulet"]
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == pytest.approx(sorted(100 * r.victories.share.iloc[1:]))
    assert "%" in ax.get_ylabel() and fig._suptitle.get_text()
    fig = r.plot.cards()
    bottom = fig.axes[-1]                     # the win-rate differences, under a row per counter
    ys = np.asarray(bottom.containers[0][0].get_ydata(), dtype=float)      # the errorbar's points
    assert ys == pytest.approx(100 * r.cards.win_rate_diff.to_numpy(), nan_ok=True)
    assert "percentage points" in bottom.get_ylabel() and "association" in fig._suptitle.get_text()
    for name in r.plot.available():
        assert getattr(r.plot, name)()._suptitle.get_text(), name


def test_report_cards_adds_the_causal_card_values_section(tmp_path):
    """The causal per-card value is a section of the report (balance report --cards), not only of
    `balance cards`; a report without --cards has no such section, and a rerun may replace a --cards report."""
    from click.testing import CliRunner

    from balance.cli import main
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["report", "-n", "400", "--cards", "-o", str(out)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    html = (out / "index.html").read_text()
    assert "Card values (causal)" in html and "Causal, unlike the association tables" in html
    assert "Card values (causal)" in (out / "summary.md").read_text()
    table = (out / "card_values_cards.csv").read_text().splitlines()
    assert len(table) > 12 and (out / "card_values_cards.png").is_file()
    res = CliRunner().invoke(main, ["report", "-n", "400", "-o", str(out)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "Card values (causal)" not in (out / "index.html").read_text()
    assert not (out / "card_values_cards.csv").exists()
