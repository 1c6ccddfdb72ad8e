"""Which scenarios a change touches: the files each scenario is read from, as the loader reads them.

A scenario depends on its own file, on every file its ``extends`` chain reads (``scenario.extends_chain``, the
loader's own chain, at any depth) and on the files its game loaded for it (``Scenario.resources``: The Haunted
Tower's map). ``balance affected`` lists the scenarios that depend on any changed file; `.ci/balance-check.sh`
checks only those.
"""
from __future__ import annotations

from pathlib import Path

from .model import ScenarioError, extends_chain, load_scenario


def scenario_files(path: str | Path) -> set[Path] | None:
    """Every file scenario ``path`` is read from (resolved); None when it does not load (a base file that is gone,
    a bad value), so that a caller can treat it as changed and let ``balance check`` say why."""
    try:
        files = {p.resolve() for p in extends_chain(path)}
        files |= {Path(f).resolve() for f in load_scenario(path).resources.values()}
    except ScenarioError:
        return None
    return files


def affected(scenarios, changed) -> list[str]:
    """The scenarios (paths, in the order given, each once) that depend on any of the ``changed`` paths, and those
    that do not load."""
    changed = {Path(c).resolve() for c in changed}
    out: list[str] = []
    for s in dict.fromkeys(str(s) for s in scenarios):
        files = scenario_files(s)
        if files is None or files & changed:
            out.append(s)
    return out
