"""The HTML/Markdown report and the figures, from a small synthetic run."""
from __future__ import annotations

import base64
from html.parser import HTMLParser
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

import balance.present.plots
import balance.present.report
import balance.core.outputs
from balance.core.outputs import MARKER, OutputDirError, atomic_directory
from balance.present.report import FIGURES, write_report
from balance.stats import Aggregator

SPEC = SimpleNamespace(
    name="fake", title="Fake <Game>", victory_names=("unfinished", "ghosts", "amulet"),
    player_counter_names=("ghosts", "pets"), counter_names=("taken", "flipped", "ghosts"),
    item_name="value", item_labels=tuple(range(1, 13)))
P, I, CAP = 3, 12, 30
LINEUP = ["greedy", "cautious|careful", "random"]
ASSUMPTIONS = [("grimoire_reshuffle", "true", "rulebook silent <see notes>"), ("park_limit", "3", "FAQ")]
TOML = '[game]\nname = "fake"\nnote = "<b>not bold</b>"\n'


def make_results(n: int = 400, seed: int = 0):
    rng = np.random.default_rng(seed)
    victory = rng.choice(3, size=n, p=[0.1, 0.6, 0.3]).astype(np.int8)
    winner = np.where(victory == 0, -1, rng.integers(0, P, size=n)).astype(np.int8)
    turns = np.where(victory == 0, CAP, rng.integers(4, CAP, size=n)).astype(np.int32)
    g = np.arange(n, dtype=np.int64)
    agg = Aggregator(SPEC, LINEUP, CAP, keep_games=25)
    agg.update(dict(game=g, winner=winner, victory=victory, turns=turns, rounds=(turns + 2) // 3,
                    seat_strategy=((np.arange(P)[None, :] + g[:, None]) % P).astype(np.int8),
                    final=rng.integers(0, 5, size=(n, P, 2)).astype(np.int16),
                    counters=(rng.poisson(0.4, size=(n, P, I, 3))).astype(np.int16)))
    return agg.finalize(seed=11, scenario={"game": "fake"}, scenario_toml=TOML)


class Page(HTMLParser):
    """Collects each <table> (by its data-table attribute) as rows of cell texts, the <img> sources and <pre>."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[str] = []
        self.pre = ""
        self._table = self._row = self._cell = None
        self._in_pre = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(a.get("data-table") or f"table{len(self.tables)}", [])
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "img":
            self.images.append(a["src"])
        elif tag == "pre":
            self._in_pre = True

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "pre":
            self._in_pre = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._in_pre:
            self.pre += data


@pytest.fixture(scope="module")
def results():
    return make_results()


def parse(path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_report_has_every_table_figure_scenario_and_assumption(results, tmp_path):
    index = write_report(results, tmp_path / "report", ASSUMPTIONS)
    assert index == tmp_path / "report" / "index.html"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
    assert {p.name for p in index.parent.iterdir()} == {"index.html", "summary.md", MARKER} | {f"{f}.png" for f in
                                                                                                FIGURES}
    page = parse(index)
    body = lambda name: page.tables[name][1:]  # noqa: E731  (first row is the header)
    assert len(body("Seats")) == P and [r[0] for r in body("Seats")] == ["0", "1", "2"]
    assert page.tables["Seats"][0][:4] == ["seat", "strategy", "games", "wins"]
    assert [r[0] for r in body("Strategies")] == LINEUP
    assert [r[0] for r in body("Victory kinds")] == list(SPEC.victory_names)
    assert [r[0] for r in body("Lengths")] == ["turns", "rounds"]
    assert [r[0] for r in body("Per value")] == [str(v) for v in SPEC.item_labels]
    assert body("Assumptions") == [list(a) for a in ASSUMPTIONS]  # escaped in HTML, read back verbatim
    assert page.pre == TOML
    assert len(page.images) == len(FIGURES)
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    html = index.read_text()
    assert "<b>not bold</b>" not in html and "Fake &lt;Game&gt;" in html
    assert f"{results.seat_test.p_value:.4g}" in html


def test_summary_md_has_the_seat_rows(results, tmp_path):
    write_report(results, tmp_path / "r", [])
    md = (tmp_path / "r" / "summary.md").read_text()
    lines = md.splitlines()
    seats = results.display_tables()["Seats"]
    for row in seats.itertuples(index=False):
        cells = [str(v).replace("|", "\\|") for v in row]
        assert "| " + " | ".join(cells) + " |" in lines
    assert any(line.startswith("Seat equality") and "p = " in line for line in lines)
    # short enough for a CI job summary: 50 lines, and the two tables of a rotating mixed lineup (Strategies and
    # Strategy x seat, each a title, a header, a rule and a row per strategy, with blank lines)
    assert "| unfinished |" in md and md.count("\n") < 50 + 2 * (len(LINEUP) + 5)
    assert "Length: turns: mean" in md
    findings = lines.index("### Findings")
    assert findings < lines.index("### Details")
    texts = list(results.findings["text"])
    assert texts and all(f"{i}. {t.replace('|', chr(92) + '|')}" in lines for i, t in enumerate(texts, 1))


def test_index_html_puts_findings_first_and_run_details_last(results, tmp_path):
    html = (write_report(results, tmp_path / "r", [])).read_text()
    assert html.index("<h2>Findings</h2>") < html.index('data-table="Seats"') < html.index("<h2>Run</h2>")
    assert html.index("<h2>Scenario (resolved)</h2>") < html.index("<h2>Run</h2>")


def test_an_earlier_report_is_replaced_whole(results, tmp_path):
    target = tmp_path / "report"
    write_report(results, target, ASSUMPTIONS)
    (target / "index.html").write_text("old")
    write_report(results, target, ASSUMPTIONS)
    assert (target / "index.html").read_text() != "old"
    assert sorted(p.name for p in target.iterdir()) == sorted(balance.present.report.FILES + (MARKER,))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_a_folder_of_report_file_names_without_the_marker_is_refused(results, tmp_path):
    # Someone's web site holding only an index.html is not an earlier report: without the marker it stays.
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("my home page")
    with pytest.raises(OutputDirError, match=f"site: the folder holds index.html but was not written by balance"):
        write_report(results, site, ASSUMPTIONS)
    assert (site / "index.html").read_text() == "my home page" and sorted(p.name for p in site.iterdir()) == [
        "index.html"]


def test_a_file_added_to_the_old_report_while_writing_is_kept(results, tmp_path, monkeypatch):
    target = tmp_path / "report"
    write_report(results, target, ASSUMPTIONS)
    real = balance.present.report._summary_context

    def meanwhile(*args, **kwargs):         # after the folder was checked, before the new one moves in
        (target / "notes.txt").write_text("written during the run")
        return real(*args, **kwargs)

    monkeypatch.setattr(balance.present.report, "_summary_context", meanwhile)
    with pytest.raises(OutputDirError, match="holds other files \\(notes.txt\\)"):
        write_report(results, target, ASSUMPTIONS)
    assert (target / "notes.txt").read_text() == "written during the run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_what_appears_between_the_last_check_and_the_swap_moves_into_the_new_folder(tmp_path, monkeypatch):
    target = tmp_path / "out"
    with atomic_directory(target, ["a.txt"]) as tmp:
        (tmp / "a.txt").write_text("first")
    real_check = balance.core.outputs.check_output_dir
    calls = []

    def check_then_race(path, own):         # the second check passes, then a file lands in the old folder
        got = real_check(path, own)
        calls.append(path)
        if len(calls) == 2:
            (target / "late.txt").write_text("keep me")
        return got

    monkeypatch.setattr(balance.core.outputs, "check_output_dir", check_then_race)
    with atomic_directory(target, ["a.txt"]) as tmp:
        (tmp / "a.txt").write_text("second")
    assert (target / "a.txt").read_text() == "second" and (target / "late.txt").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_symbolic_link_and_dotdot_paths(results, tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(OutputDirError, match="link: is a symbolic link"):
        write_report(results, tmp_path / "link", ASSUMPTIONS)
    monkeypatch.chdir(tmp_path)
    write_report(results, "x/../y", ASSUMPTIONS)     # y, and no stray x/
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real", "y"]


@pytest.mark.parametrize("intruder", ["notes.txt", "sub/", "index.html/"])
def test_a_folder_holding_anything_else_is_refused_and_left_alone(results, tmp_path, intruder):
    # `report -o ~/Documents` must never empty the folder: only a folder of report files, or an empty one, is replaced.
    target = tmp_path / "mine"
    target.mkdir()
    (target / "summary.md").write_text("a report file")
    if intruder.endswith("/"):
        (target / intruder[:-1]).mkdir()
    else:
        (target / intruder).write_text("keep me")
    before = sorted(p.name for p in target.iterdir())
    with pytest.raises(OutputDirError, match=f"mine: the folder holds other files \\({intruder.rstrip('/')}"):
        write_report(results, target, ASSUMPTIONS)
    assert sorted(p.name for p in target.iterdir()) == before and (target / "summary.md").read_text() == "a report file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_an_empty_folder_is_written_into(results, tmp_path):
    (tmp_path / "empty").mkdir()
    write_report(results, tmp_path / "empty", ASSUMPTIONS)
    assert (tmp_path / "empty" / "index.html").exists()


@pytest.mark.parametrize("where", ["plot", "summary"])
@pytest.mark.parametrize("existing", [False, True])
def test_failure_midway_leaves_nothing_behind(results, tmp_path, monkeypatch, where, existing):
    target = tmp_path / "report"
    if existing:
        write_report(results, target, ASSUMPTIONS)
        before = {p.name: p.read_bytes() for p in target.iterdir()}

    def boom(*args, **kwargs):
        raise RuntimeError("injected")

    if where == "plot":  # after some PNGs are written
        monkeypatch.setattr(balance.present.plots, "cards", boom)
    else:  # after every PNG and index.html are written
        monkeypatch.setattr(balance.present.report, "_summary_context", boom)
    with pytest.raises(RuntimeError, match="injected"):
        write_report(results, target, ASSUMPTIONS)
    if existing:
        assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
        assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    else:
        assert list(tmp_path.iterdir()) == []


def test_plots_return_figures_without_pyplot_state(results):
    before = plt.get_fignums()
    for name in FIGURES:
        fig = getattr(results.plot, name)()
        assert isinstance(fig, Figure) and fig.axes, name
    assert plt.get_fignums() == before


def test_plots_and_report_survive_an_empty_run(tmp_path):
    r = Aggregator(SPEC, LINEUP, CAP).finalize()
    for name in FIGURES:
        assert isinstance(getattr(r.plot, name)(), Figure)
    write_report(r, tmp_path / "empty", [])
    page = parse(tmp_path / "empty" / "index.html")
    assert len(page.tables["Seats"]) == P + 1
    assert "not enough finished games" in (tmp_path / "empty" / "summary.md").read_text()


def test_text_summary_is_aligned_and_narrow(results):
    text = results.summary()
    assert max(len(line) for line in text.splitlines()) <= 120
    for s, name in zip(results.seats.seat, results.seats.strategy):
        assert any(line.split()[:2] == [str(s), name] for line in text.splitlines())


def test_intervals_near_0_and_1_never_round_to_a_bound_they_do_not_reach():
    from balance.core.text import ci, pct
    assert ci(0.0, 3.8e-5) == "[0.00, <0.01]%"
    assert ci(0.99996, 1.0) == "[>99.99, 100.00]%"
    assert pct(0.0) == "0.00%" and pct(4e-5) == "<0.01%" and pct(0.1234) == "12.34%"
    assert ci(-3e-5, 2e-5).rstrip("%") == "[>-0.01, <0.01]"


def test_a_report_links_to_nothing_outside_its_folder(tmp_path):
    """A report is moved and shared: every link is an anchor of the page itself (each table's definitions are
    written under it), never a path into the clone such as docs/metrics.md."""
    import re

    import balance
    from balance.present.report import write_report
    results = balance.simulate(games=300, progress=False)
    page = write_report(results, tmp_path / "r").read_text()
    links = re.findall(r'(?:href|src)="([^"]*)"', page)
    assert links and all(link.startswith(("#", "data:")) for link in links), \
        [link for link in links if not link.startswith(("#", "data:"))]
    ids = set(re.findall(r'id="([^"]*)"', page))
    assert {link[1:] for link in links if link.startswith("#")} <= ids
