"""Reports of a study (``balance tournament``, ``balance check``): ``index.html``, ``summary.md`` and the PNG
figures, findings in plain words first, written atomically into one folder as ``write_report`` does."""
from __future__ import annotations

import os
from pathlib import Path

from ...core.outputs import atomic_directory
from . import _ENV, _png, _table


def files(figures) -> tuple[str, ...]:
    """The files a study report with these figure names writes (what an earlier report folder may hold)."""
    return ("index.html", "summary.md") + tuple(f"{name}.png" for name in figures)


def write_study_report(out_dir: str | os.PathLike, *, title: str, heading: str, findings: list[str],
                       sections: list, plots, markdown: str, possible_figures=()) -> Path:
    """Write ``out_dir`` (see the module docstring); ``sections`` are (title, DataFrame) pairs, ``plots`` an object
    with ``available()`` and one method per figure, ``markdown`` the text of summary.md. Returns index.html."""
    own = files(tuple(possible_figures) or plots.available())
    with atomic_directory(out_dir, own) as tmp:
        figures = []
        for name in plots.available():
            data = _png(tmp, name, getattr(plots, name), None)
            figures.append({"name": name, "title": name.replace("_", " ").capitalize(), "data": data})
        html = _ENV.get_template("study.html.j2").render(
            title=title, heading=heading, findings=findings, tables=[_table(t, df) for t, df in sections],
            figures=figures)
        (tmp / "index.html").write_text(html, encoding="utf-8")
        (tmp / "summary.md").write_text(markdown, encoding="utf-8")
    return Path(out_dir) / "index.html"
