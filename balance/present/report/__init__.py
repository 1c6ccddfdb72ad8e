"""Self-contained reports of a run: ``index.html`` (tables, embedded plots, scenario, assumptions), ``summary.md``
(short enough for a CI job summary), the PNG figures and, for a game with categories, one CSV per category
(``category_<name>.csv``, every label), written atomically into one folder."""
from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

import jinja2
import pandas as pd

from ...core.outputs import atomic_directory
from ..figure import caption, save_png
from ...core.text import file_name, is_number_column
from ...stats.results import Results
from .. import strength_view
from .columns import ASSOCIATION, column_note

FIGURES = ("seats", "lengths", "victories", "cards", "win_rate_by_length")   # every game's figures
FILES = ("index.html", "summary.md") + tuple(f"{name}.png" for name in FIGURES)   # a report folder holds only these


def files_for(scenario) -> tuple[str, ...]:
    """The files a report of this scenario writes (a game with roles, points or several counter groups has more
    figures than FIGURES): the names an earlier report folder may hold and be replaced."""
    from ...games import counter_groups

    from ...games import categories

    spec = scenario.spec()
    extra = (["roles"] if spec.role_name else []) + (["score_lines"] if spec.score_lines else [])
    extra += [f"group_{file_name(g.name)}" for g in counter_groups(spec, scenario)[1:]]
    cats = [file_name(c.name) for c in categories(spec, scenario)]
    extra += [f"category_{c}" for c in cats] + (["contrasts"] if spec.contrasts else []) + ["card_values_cards"]
    extra += ["strength_levels"]
    return FILES + tuple(f"{name}.png" for name in extra) + tuple(f"category_{c}.csv" for c in cats) + \
        ("card_values_cards.csv",)          # written with --cards

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=lambda name: bool(name) and name.endswith((".html.j2", ".html")),
    undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


_ENV.filters["md"] = _md_cell


def _table(title: str, df: pd.DataFrame, note: str | None = None, tallies=None) -> dict:
    """A display table for the templates: its cells, each column's alignment ("num" right, "text" left) and, given
    the run's tallies, each column's one-line definition (shown under the table and as its header's hover text)."""
    columns = [str(c) for c in df.columns]
    notes = [""] * len(columns) if tallies is None else [column_note(title, c, tallies) for c in columns]
    return {"title": title, "id": file_name(title), "columns": columns, "notes": notes,
            "align": ["num" if is_number_column(df[c]) else "text" for c in df.columns],
            "rows": [[str(v) for v in row] for row in df.itertuples(index=False)], "note": note}


def _scenario_text(meta: dict) -> str:
    if meta.get("scenario_toml"):
        return meta["scenario_toml"]
    if meta.get("scenario") is not None:
        return json.dumps(meta["scenario"], indent=2, sort_keys=True)
    return "(no scenario recorded)"


CARDS_NOTE = ("Causal, unlike the association tables above: each card's effect removed in turn and the game played "
              "again on the same seed and games (paired on common random numbers, docs/studies.md); each cell is "
              "the change with its paired 95% interval.")


STRENGTH_NOTE = ("Each finding of the run as written, read again with the strategies tuned and with lookahead players "
                 "on the same games, with its 95% interval.")


def _png(folder: Path, name: str, draw, timings: dict | None) -> str:
    """Draw a figure, write it as ``<name>.png`` into ``folder`` and return the file base64-encoded; with
    ``timings``, the seconds it took go in under ``name``."""
    t = time.perf_counter()
    fig = draw()
    save_png(fig, folder / f"{name}.png")
    if fig.canvas.manager is not None:          # a pyplot figure (a study's): pyplot holds it until closed
        import matplotlib.pyplot as plt
        plt.close(fig)
    data = base64.b64encode((folder / f"{name}.png").read_bytes()).decode("ascii")
    if timings is not None:
        timings[name] = time.perf_counter() - t
    return data


def write_report(results: Results, out_dir: str | os.PathLike,
                 assumptions: list[tuple[str, str, str]] = (), cards=None, timings: dict | None = None,
                 strength=None) -> Path:
    """Write the report folder ``out_dir`` and return the path of its ``index.html``.

    ``assumptions`` are the (setting, value, reason) rows in force for this run (rules the rulebook leaves open).
    ``cards``: a ``balance.analysis.studies.cards`` result (``balance report --cards``), shown as its own section, table
    and figure, after the run's tables.
    ``strength``: a ``balance.analysis.strength`` result (``balance report --strength``): its verdicts after the
    findings, its tables, and its figure.
    ``timings``: a dict that gets the seconds each figure took to draw and write, by figure name.
    Everything is written to a temporary folder beside ``out_dir`` and moved into place only when complete; an
    existing ``out_dir`` is replaced only then, and an error leaves neither a partial report nor the temporary folder.
    An existing ``out_dir`` that holds anything but report files is refused (``outputs.OutputDirError``), untouched.
    """
    out_dir = Path(out_dir)
    meta = results.meta
    display = results.display_tables()
    first, second = results.headline_titles
    seat_test_line = "" if results.tallies.cooperative else results.seat_test_line()
    groups = {f"Per {g.name}" for g in results.tallies.groups}
    tables = [_table(title, df, seat_test_line if title == "Seats" else ASSOCIATION if title in groups else None,
                     results.tallies) for title, df in display.items()]
    details = [("games played", f"{meta.get('games_played', 0):,}"), ("seed", meta.get("seed")),
               ("lineup", ", ".join(results.tallies.lineup)), ("turn cap", meta.get("turn_cap")),
               ("scenario hash", meta.get("scenario_hash")), ("package version", meta.get("package_version"))]
    details += [(f"timing: {k}", f"{v:,.3f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) else v)
                for k, v in (meta.get("timing") or {}).items()]
    context = {
        "title": results.meta.get("name") or results.tallies.title, "game": results.tallies.game,
        "heading": results.heading(), "findings": list(results.findings["text"]), "watch": results.watch_lines(),
        "details": details, "tables": tables,
        "seat_test_line": seat_test_line, "scenario": _scenario_text(meta),
        "assumptions": [tuple(str(x) for x in a) for a in assumptions],
        "seats": display[first], "victories": display[second], "lengths": results.lengths,
        "extra": [_table(title, display[title]) for title in ("Strategies", "Strategy x seat", "Contrasts")
                  if title in display and (title == "Contrasts" or results.rotates)],
    }
    context["strength"] = None if strength is None else {
        "heading": strength_view.heading(strength), "findings": list(strength.findings["text"]),
        "tables": [_table(title, df) for title, df in strength_view.sections(strength)]}
    extra_figures = {}
    if strength is not None:
        extra_figures |= {f"strength_{name}": getattr(strength.plot, name) for name in strength.plot.available()}
    if cards is not None:
        for title, df in cards.display_tables().items():
            context["extra"].append(_table(f"Card values (causal): {title}", df, CARDS_NOTE))
        extra_figures |= {f"card_values_{name}": draw for name, draw in cards.figures().items()}
    csvs = {f"category_{file_name(name)}.csv": df for name, df in results.categories.items()}
    if cards is not None:
        csvs |= {f"card_values_{name}.csv": df for name, df in cards.frames().items()}
    own = FILES + tuple(f"{name}.png" for name in results.plot.available() if name not in FIGURES) + tuple(csvs) + \
        ("card_values_cards.png", "card_values_cards.csv", "strength_levels.png")   # --cards', --strength's
    with atomic_directory(out_dir, own) as tmp:
        for file, df in csvs.items():
            df.to_csv(tmp / file, index=False)
        figures = []
        for name in results.plot.available():
            data = _png(tmp, name, getattr(results.plot, name), timings)
            figures.append({"name": name, "title": name.replace("_", " ").capitalize(), "data": data,
                            "caption": caption(results, name)})
        for name, draw in extra_figures.items():
            data = _png(tmp, name, draw, timings)
            strong = name.startswith("strength_")
            figures.append({"name": name, "title": "Under stronger play" if strong else "Card values (causal)",
                            "data": data, "caption": STRENGTH_NOTE if strong else CARDS_NOTE})
        html = _ENV.get_template("report.html.j2").render(context | {"figures": figures})
        (tmp / "index.html").write_text(html, encoding="utf-8")
        md = _ENV.get_template("summary.md.j2").render(_summary_context(results, context))
        (tmp / "summary.md").write_text(md, encoding="utf-8")
    return out_dir / "index.html"


def _summary_context(results: Results, context: dict) -> dict:
    row = results.lengths.set_index("measure")
    parts = []
    for which in row.index:         # turns, rounds (and a co-operative game's rounds_won)
        r = row.loc[which]
        if r["games"]:
            parts.append(f"{which}: mean {r['mean']:.2f} [{r['mean_ci_low']:.2f}, {r['mean_ci_high']:.2f}], "
                         f"median {r['median']:.0f}, p10-p90 {r['p10']:.0f}-{r['p90']:.0f}")
    first, second = results.headline_titles
    return context | {"seats": _table(first, context["seats"]), "victories": _table(second,
                      context["victories"]), "length_line": "; ".join(parts) or "no games",
                      "games_played": f"{results.tallies.games:,}"}
