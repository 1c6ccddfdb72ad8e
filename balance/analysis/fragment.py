"""A scenario file that ``extends`` another with a few changes (``balance tune -o``, ``balance design -o``): the
changes as the layers a file gives, written beside the original and checked to load back to what was found."""
from __future__ import annotations

import os
from pathlib import Path

from ..core.toml import dumps_toml
from ..scenario import layers
from ..scenario.model import Scenario, ScenarioError, load_scenario

RUN_KEYS = ("games", "seed")       # what to play, not what changed: never in a fragment


def _plain(key: str) -> str:
    return key[:-1] if key.endswith(".") and key.count(".") == 1 else key


def overrides(base: Scenario, extra: dict | None = None, seats: bool = True) -> dict:
    """The command line's changes of ``base`` (--players, --set), then ``extra`` ({dotted key: value}), as the
    layers a file gives; ``seats=False`` leaves out the seats (a caller that writes them whole). Seed and games say
    what to play, not what is played, and are left out."""
    spec = base.spec()
    keyed = layers.keyed_paths(spec)
    full = base.to_dict()
    out: dict = {}
    for key, value in list(base.overrides.items()) + list((extra or {}).items()):
        plain = _plain(key)
        if plain in RUN_KEYS or (not seats and plain.split(".")[0] in ("seats", "strategy")):
            continue
        layer = ({plain: value} if "." not in plain else
                 layers.set_layer(full, plain, value, keyed, base.players, "--set", ScenarioError))
        out = layers.lay_over(out, layer, keyed, "--set", ScenarioError)
    return out


def fragment_table(base: Scenario, found: Scenario, name: str, path=None, extra: dict | None = None,
                   seats: list | None = None) -> dict:
    """The table of a fragment: ``extends`` (``base``'s file, relative to ``path``'s folder or the working folder),
    ``name``, the changes (:func:`overrides` with ``extra``) and ``seats`` written whole when given; the whole of
    ``found`` when ``base`` came from no file."""
    if not base.source:
        d = found.to_dict()
        d["name"] = name
        return d
    folder = Path(path).resolve().parent if path is not None else Path.cwd()
    table: dict = {"extends": Path(os.path.relpath(Path(base.source).resolve(), folder)).as_posix(), "name": name}
    table.update(overrides(base, extra, seats=seats is None))
    if seats is not None:
        table["seats"] = seats
    return table


def write_checked(path, text: str, found: Scenario, base: Scenario) -> Path:
    """Write ``text`` to ``path`` (beside it first, then moved over it), after checking that it loads back, on
    ``base``'s seed and games, to ``found`` (its name aside)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    try:
        back = load_scenario(tmp, seed=base.seed, games=base.games)
        want, got = found.to_dict(), back.to_dict()
        want.pop("name"), got.pop("name")
        if want != got:
            raise RuntimeError(f"the fragment written to {path} does not load to the scenario it stands for")
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    return target


def dumps(head: str, table: dict) -> str:
    return head + dumps_toml(table)
