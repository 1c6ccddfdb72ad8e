"""What every study result shares: plain-words formatting of metrics, JSON, text and the report folder."""
from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import jinja2
import numpy as np
import pandas as pd

from ...core.outputs import atomic_directory
from ...stats.results import json_safe
from ...scenario.model import Scenario, load_scenario
from ...stats.findings import Finding, frame

RATES = ("seat", "team", "victory", "spread", "group")    # metrics that are proportions: shown in % and points
GROUP_KINDS = ("group", "group_mean")     # the game's own groups (per hero, per tower): a win rate, then means
MANY_LABELS = 12                          # a group with more labels is summarised in the terminal


def is_rate(kind: str) -> bool:
    return kind in RATES


def fmt_value(kind: str, x: float) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "-"
    return f"{100 * x:.2f}%" if is_rate(kind) else f"{x:.3f}"


def fmt_diff(kind: str, x: float) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "-"
    return f"{100 * x:+.2f}" if is_rate(kind) else f"{x:+.3f}"


def unit(kind: str) -> str:
    return "points" if is_rate(kind) else ""


def fmt_gain(g: float) -> str:
    if g is None or np.isnan(g):
        return "-"
    return "exact" if np.isinf(g) else f"{g:.1f}x"


def describe_metric(metric: str, kind: str) -> str:
    """A metric id in words: win_rate[0] -> seat 0's win rate; share[amulet] -> amulet victories' share."""
    inner = metric[metric.find("[") + 1:-1] if "[" in metric else ""
    if kind == "seat":
        return f"seat {inner}'s win rate"
    if kind == "team":
        return "the team's win rate"
    if kind == "victory":
        return f"the share of games ending in {inner}" if inner != "unfinished" else "the share of unfinished games"
    if kind == "spread":
        return "the seat spread (best seat's win rate minus the worst's)"
    if kind == "length":
        return f"mean {metric}"
    if kind == "group":
        return f"the win rate of {inner}"
    return f"{metric[:metric.find('[')]} per game of {inner}"


def new_figure(**kw):
    """A matplotlib Figure of its own (Agg), not pyplot's: a plot method returns it, and a notebook shows it once
    (the inline backend also shows every pyplot figure a cell leaves open), and none is left open in a loop."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(**kw)
    FigureCanvasAgg(fig)
    return fig


def as_scenario(scenario, **overrides) -> Scenario:
    """A Scenario from a Scenario, a TOML path, a dict or None (the embedded default), with keyword overrides
    (``games``, ``seed``, ``players`` and dotted ``--set`` keys); None values are left out."""
    overrides = {k: v for k, v in overrides.items() if v is not None}
    if isinstance(scenario, Scenario):
        return load_scenario(scenario.to_dict(), **overrides) if overrides else scenario
    return load_scenario(scenario, **overrides)


def notes(named: list[tuple[str, Scenario]]) -> dict:
    """``{"notes": [...]}``: what the loader did to each named scenario (seats cycled to its players), each note
    once, prefixed by the names that share it; ``{}`` when there is none (the meta of a study stays as it was)."""
    by_note: dict[str, list[str]] = {}
    for name, sc in named:
        for n in sc.notes:
            by_note.setdefault(n, []).append(name)
    return {"notes": [f"{', '.join(names)}: {n}" for n, names in by_note.items()]} if by_note else {}


def dotted(sets: dict | None) -> dict:
    """--set keys as load_scenario overrides: a dotted key is one setting; a plain one (players) a top-level key,
    passed as ``"players."`` so that it lays over the other overrides and an error names its --set."""
    return {k if "." in k else f"{k}.": v for k, v in (sets or {}).items()}


def plain_key(key: str) -> str:
    """A --set key without the mark of a top-level key: ``"players."`` is ``"players"``."""
    return key[:-1] if key.endswith(".") and key.count(".") == 1 else key


_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=lambda name: bool(name) and name.endswith(".html.j2"),
    undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
_ENV.filters["md"] = lambda text: str(text).replace("|", "\\|").replace("\n", " ")


def group_names(table: pd.DataFrame) -> list[str]:
    """The game's own groups in a study's table (per role, per category), in order; none for most games."""
    if "group" not in table.columns:
        return []
    return [g for g in dict.fromkeys(table["group"]) if isinstance(g, str)]


def group_rows(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """Every row of one group (``label`` and ``measure`` say which), in the table's order."""
    if name not in group_names(table):
        raise KeyError(f"no group {name!r}; this study has {', '.join(group_names(table)) or 'none'}")
    return table[table["group"] == name].reset_index(drop=True)


class Study:
    """Base of Comparison, Sweep and CardValues: ``title``, ``_findings()``, ``display_tables()``, ``figures()``,
    ``meta``; gives ``findings``, ``summary()``, ``to_dict()`` and ``write_report()``."""

    kind = "study"
    meta: dict

    @property
    def findings(self) -> pd.DataFrame:
        """What to read first, in order: one row a finding, with the columns of every result's findings (kind,
        text, estimate, ci_low, ci_high, weight; ``stats.findings.COLUMNS``)."""
        return frame(self._findings())

    def _findings(self) -> list[Finding]:
        raise NotImplementedError

    def display_tables(self) -> dict[str, pd.DataFrame]:
        raise NotImplementedError

    def figures(self) -> dict:
        """name -> a function drawing that figure (matplotlib Figure)."""
        return {}

    def heading(self) -> str:
        return self.meta.get("heading", "")

    def summary(self) -> str:
        lines = [self.heading(), "=" * min(100, len(self.heading()))]
        lines += [f"Note: {n}" for n in self.meta.get("notes", ())]       # what the scenarios' loader did
        lines += ["", "Findings"]
        for i, text in enumerate(self.findings["text"], 1):
            lines += _wrap(f"{i:>3}. {text}", "     ")
        for title, df in self.display_tables().items():
            lines += ["", title, df.to_string(index=False)]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{t}</li>" for t in self.findings["text"])
        return f"<p>{self.heading()}</p><ol>{items}</ol>" + "".join(
            f"<h4>{t}</h4>{df.to_html(index=False)}" for t, df in self.display_tables().items())

    def to_dict(self) -> dict:
        return json_safe({"kind": self.kind, "findings": list(self.findings["text"]), "meta": self.meta,
                          **{name: df.to_dict(orient="records") for name, df in self.frames().items()}})

    def frames(self) -> dict[str, pd.DataFrame]:
        return {}

    def report_files(self) -> tuple[str, ...]:
        return ("index.html", "summary.md") + tuple(f"{n}.png" for n in self.figure_names()) + \
            tuple(f"{n}.{ext}" for n in self.frames() for ext in ("csv", "parquet"))

    def figure_names(self) -> tuple[str, ...]:
        return tuple(self.figures())

    def write_report(self, out_dir: str | os.PathLike) -> Path:
        """index.html, summary.md, the figures as PNG and the tables as CSV, written atomically (like
        ``balance report``): a temporary folder beside ``out_dir`` moved into place only when complete."""
        out_dir = Path(out_dir)
        tables = [{"title": t, "columns": [str(c) for c in df.columns],
                   "rows": [[str(v) for v in r] for r in df.itertuples(index=False)]}
                  for t, df in self.display_tables().items()]
        details = [(k, f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else v)
                   for k, v in self.meta.items() if k not in ("heading", "timing") and not isinstance(v, (dict, list))]
        details += [(f"timing: {k}", v) for k, v in (self.meta.get("timing") or {}).items()]
        context = {"title": self.meta.get("title", self.kind), "kind": self.kind, "heading": self.heading(),
                   "findings": list(self.findings["text"]), "tables": tables, "details": details,
                   "notes": list(self.meta.get("notes", ()))}
        with atomic_directory(out_dir, self.report_files()) as tmp:
            figures = []
            for name, draw in self.figures().items():
                fig = draw()
                fig.savefig(tmp / f"{name}.png", dpi=100)
                data = base64.b64encode((tmp / f"{name}.png").read_bytes()).decode("ascii")
                figures.append({"name": name, "title": name.replace("_", " ").capitalize(), "data": data})
            for name, df in self.frames().items():
                df.to_csv(tmp / f"{name}.csv", index=False)
                df.to_parquet(tmp / f"{name}.parquet", index=False)
            (tmp / "index.html").write_text(_ENV.get_template("study.html.j2").render(context | {"figures": figures}),
                                            encoding="utf-8")
            (tmp / "summary.md").write_text(_ENV.get_template("study.md.j2").render(context), encoding="utf-8")
        return out_dir / "index.html"

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


def _wrap(text: str, indent: str) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width=110, subsequent_indent=indent) or [""]
