"""What a study's result shows of itself, the same way in every study: its findings as the one DataFrame form
(``stats.findings.COLUMNS``), its figures (``.plot``), its text for a terminal (``summary``) and Markdown
(``to_markdown``). A result class names the modules that write each, imported only when asked for."""
from __future__ import annotations

import importlib

import pandas as pd


def _attribute(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Shown:
    """Mixin: ``FINDINGS``, ``PLOTS``, ``SUMMARY`` and ``MARKDOWN`` are "module:name" of the function (or, for
    ``PLOTS``, the class) that takes the result."""

    FINDINGS: str
    PLOTS: str
    SUMMARY: str
    MARKDOWN: str

    @property
    def findings(self) -> pd.DataFrame:
        """What to read first, in order, with the columns of every result's findings (kind, text, estimate, ci_low,
        ci_high, weight; ``stats.findings.COLUMNS``)."""
        from ..stats.findings import frame
        return frame(_attribute(self.FINDINGS)(self))

    @property
    def plot(self):
        """The figures, one method each."""
        return _attribute(self.PLOTS)(self)

    def summary(self) -> str:
        """Plain text for a terminal: the findings first, then the tables."""
        return _attribute(self.SUMMARY)(self)

    def to_markdown(self) -> str:
        """The same as Markdown (a CI job summary, a pull-request comment)."""
        return _attribute(self.MARKDOWN)(self)
