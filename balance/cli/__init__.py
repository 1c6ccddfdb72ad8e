"""The command-line layer: the ``balance`` command. Its entry point (:mod:`.entry`), the click group (:mod:`.group`),
the options every command shares (:mod:`.options`), the commands that play and show a scenario (:mod:`.commands`),
the study commands (:mod:`.study`), check and tournament (:mod:`.check`) and bench (:mod:`.bench`). It may import
every layer below it (core, games, scenario, stats, run, analysis, present); :mod:`balance.api` sits beside it.

``balance.cli.main`` is the click group (``from balance.cli import main``), imported on first use so that the entry
point imports click itself (a Ctrl-C while it imports is then one line)."""
from __future__ import annotations


def __getattr__(name: str):
    if name == "main":
        from .group import main
        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
