"""The command-line layer: the ``balance`` command — its entry point (:mod:`.entry`), the click group and the run,
replay and report commands (:mod:`.main`), the study commands (:mod:`.study`) and check and tournament
(:mod:`.check`). It may import every layer below it (core ← scenario ← games ← run ← analysis ← present ← cli);
:mod:`balance.api` sits beside it at the top.

``balance.cli.main`` is the click group (``from balance.cli import main``), imported on first use so that the entry
point imports click itself; the module that defines it is ``sys.modules["balance.cli.main"]``."""
from __future__ import annotations

import sys
import types


class _Package(types.ModuleType):
    def __setattr__(self, name, value):
        # importing the submodule binds its name on this package: keep ``main`` the click group it defines
        if name == "main" and isinstance(value, types.ModuleType):
            value = value.main
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name == "main":
        from .main import main
        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
