"""Numbers and tables as text, the same in every layer that writes for a person: shares in percent, 95% intervals,
means, aligned text tables and names fit for a file name."""
from __future__ import annotations

import re

import numpy as np


def _p2(x) -> str:
    """A share in percent with two decimals, never rounded to 0.00 or 100.00 unless it is exactly that."""
    text = f"{100 * x:.2f}"
    if x != 0 and text in ("0.00", "-0.00"):
        return "<0.01" if x > 0 else ">-0.01"
    if abs(x) != 1 and text in ("100.00", "-100.00"):
        return ">99.99" if x > 0 else "<-99.99"
    return text


def pct(x) -> str:
    return "-" if not np.isfinite(x) else f"{_p2(x)}%"


def ci(lo, hi) -> str:
    return "-" if not (np.isfinite(lo) and np.isfinite(hi)) else f"[{_p2(lo)}, {_p2(hi)}]%"


def num(x, digits: int = 3) -> str:
    """A mean or ratio with ``digits`` decimals; one that is not 0 but would read 0.000 is "<0.001"."""
    if not np.isfinite(x):
        return "-"
    text = f"{x:.{digits}f}"
    if x != 0 and float(text) == 0 and digits > 0:
        return ("<" if x > 0 else ">-") + f"{10.0 ** -digits:.{digits}f}"
    return text


def file_name(name: str) -> str:
    """A table's or figure's name as part of a file name: lower case, each run of other characters than a-z and 0-9
    one '_' ("BOSS side" -> "boss_side")."""
    return re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_") or "x"


_NUMBER = re.compile(r"^[-+<>]?[\d,.]+%?$|^[-+<>\d.,%\[\] ]*\d[-+<>\d.,%\[\] ]*$")


def is_number_column(values) -> bool:
    """Whether a display column holds numbers (and intervals, "-" for none): those align right, text aligns left."""
    cells = [str(v) for v in values if str(v) not in ("-", "")]
    return bool(cells) and all(_NUMBER.match(v) for v in cells)


def text_table(df, indent: str = "  ") -> str:
    """A DataFrame of strings as an aligned text table (text columns left-aligned, numbers right-aligned)."""
    cols = [str(c) for c in df.columns]
    cells = [[str(v) for v in df[c]] for c in df.columns]
    widths = [max([len(c)] + [len(v) for v in vals]) for c, vals in zip(cols, cells)]
    just = [(str.rjust if is_number_column(vals) else str.ljust) for vals in cells]
    lines = [indent + "  ".join(j(c, w) for j, c, w in zip(just, cols, widths))]
    lines.append(indent + "  ".join("-" * w for w in widths))
    for i in range(len(df)):
        lines.append(indent + "  ".join(j(vals[i], w) for j, vals, w in zip(just, cells, widths)))
    return "\n".join(lines)


def markdown_table(df) -> list[str]:
    """A DataFrame of strings as the lines of a Markdown table ("|" in a cell escaped)."""
    cell = lambda v: str(v).replace("|", "\\|")      # noqa: E731
    out = ["| " + " | ".join(map(cell, df.columns)) + " |", "|" + " --- |" * len(df.columns)]
    return out + ["| " + " | ".join(map(cell, row)) + " |" for row in df.itertuples(index=False)]


def findings_first(heading: str, findings, sections, tail=()) -> str:
    """A study's result as text for a terminal: its heading, its findings numbered, then each (title, table) section
    and any closing lines."""
    lines = [heading, "", "Findings"] + [f"  {i}. {x}" for i, x in enumerate(findings, 1)]
    for title, df in sections:
        lines += ["", title, text_table(df)]
    return "\n".join(lines + list(tail))


def findings_first_markdown(title: str, heading: str, findings, sections) -> str:
    """The same as Markdown: a level-2 title, the heading, the findings numbered, a level-3 heading a section."""
    lines = [f"## {title}", "", heading, "", "### Findings", ""]
    lines += [f"{i}. {x}" for i, x in enumerate(findings, 1)]
    for name, df in sections:
        lines += ["", f"### {name}", ""] + markdown_table(df)
    return "\n".join(lines) + "\n"
