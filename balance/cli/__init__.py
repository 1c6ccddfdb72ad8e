"""The command-line layer: the ``balance`` command — its entry point (:mod:`.entry`), the click group and the
run, replay and report commands (:mod:`.commands`), the study commands (:mod:`.study`) and check and tournament
(:mod:`.check`). It may import every layer below it (core ← scenario ← games ← run ← analysis ← present ← cli);
:mod:`balance.api` sits beside it at the top.

``balance.cli.main`` is the click group (``from balance.cli import main``), imported on first use so that the entry
point imports click itself (a Ctrl-C while it imports is then one line)."""
from __future__ import annotations


def __getattr__(name: str):
    if name == "main":
        from .commands import main
        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
