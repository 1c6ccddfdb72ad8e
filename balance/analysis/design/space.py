"""What ``balance design`` may change: each ``--vary KEY=RANGE`` as an axis, and the candidate settings drawn from
them.

An axis is a dotted scenario key (as ``--set`` takes it) with a list of values (``10,11,12``; split at the commas
outside brackets and quotes, each value TOML, so that a value may be a list: ``["reroll"],["clock"],[]``), an
integer range (``4..9``: every integer from 4 to 9) or a number range (``0.5..2.0``). When every axis is a list or an integer range
and the grid has at most ``max_candidates`` points, every point is a candidate; otherwise the candidates are Sobol
points of the box (a list's values and an integer range's integers taken by position; a number range rounded to a
hundredth of its width). The scenario's own values come first when they lie in the space, so that "change nothing" is
always tried.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.toml import toml_value
from ...scenario.layers import keyed_paths, parse_value, setting_value, split_values
from ...scenario.model import Scenario, ScenarioError

RANGE = ".."


@dataclass(frozen=True)
class Axis:
    key: str
    values: tuple | None            # a list or an integer range, every value; None for a number range
    low: float | None = None        # a number range's ends
    high: float | None = None
    current: Any = None             # the scenario's value

    @property
    def width(self) -> float:
        """The span a change is measured against (1 for a list of words)."""
        if self.values is None:
            return float(self.high - self.low) or 1.0
        if not all(_number(v) for v in self.values):
            return 1.0
        return float(max(self.values) - min(self.values)) or 1.0

    def text(self) -> str:
        if self.values is None:
            return f"{self.low:g} to {self.high:g}"
        return ", ".join(shown(v) for v in self.values)


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def shown(v) -> str:
    """A value as a designer reads it: a list or table as TOML (``["reroll"]``), a number as written, a word as is."""
    if isinstance(v, (list, dict)):
        return toml_value(v)
    return f"{v:g}" if isinstance(v, float) else str(v)


def vary_label(base: Scenario, key: str) -> str:
    """Where a --vary error comes from: ``<file> (--vary KEY)``, as a --set error names its file and option."""
    return f"{base.source} (--vary {key})" if base.source else f"--vary {key}"


def parse_vary(item: str, base: Scenario) -> Axis:
    """``KEY=4..9``, ``KEY=0.5..2``, ``KEY=a,b,c`` or ``KEY=["reroll"],["clock"],[]`` (values split at the commas
    outside brackets, braces and quotes, each read as TOML as ``--set`` reads one) as an axis of ``base``; a bad one
    raises ScenarioError, one line naming the file, the key, the value and what is allowed. Every listed value (a
    range's two ends) is checked alone against the scenario, so that a bad one is said before any game is played."""
    key, eq, text = item.partition("=")
    key, text = key.strip(), text.strip()
    if not eq or not key or not text:
        raise ScenarioError(vary_label(base, key or item), f"{item!r}: not KEY=RANGE (allowed: KEY=LOW..HIGH or "
                            "KEY=V1,V2,..., such as rules.round_limit=10..14 or "
                            'components.buildings.1.bonus=["reroll"],["clock"],[])')
    label = vary_label(base, key)
    if key.split(".")[0] in ("seed", "games", "players"):
        raise ScenarioError(label, "every candidate plays the same games", key, text,
                            "a rule, component or strategy key")
    try:
        current = setting_value(base.to_dict(), key, keyed_paths(base.spec()))
    except (KeyError, StopIteration, IndexError):
        raise ScenarioError(label, "no such setting", key, text, "a dotted key as --set takes it, such as "
                            "components.heroes.magic_user.hp or components.buildings.12.ghost_worth (a Building "
                            "by its value)") from None
    parts = split_values(text)
    if len(parts) == 1 and RANGE in text and not text.startswith(_TOML_OPENERS):
        lo_text, _, hi_text = text.partition(RANGE)
        lo, hi = parse_value(lo_text.strip()), parse_value(hi_text.strip())
        if not (_number(lo) and _number(hi)) or lo > hi:
            raise ScenarioError(label, "not a range", key, text, "LOW..HIGH, two numbers, LOW <= HIGH")
        if isinstance(lo, int) and isinstance(hi, int):
            if hi - lo > 1000:
                raise ScenarioError(label, f"{hi - lo + 1} integers", key, text, "at most 1,001")
            axis = Axis(key, tuple(range(lo, hi + 1)), current=current)
        else:
            axis = Axis(key, None, float(lo), float(hi), current)
        _check(base, key, (lo, hi), label)
        return axis
    values = []
    for part in parts:
        v = parse_value(part)
        if part == "" or (v == part and part.startswith(_TOML_OPENERS)):      # not TOML, read as text
            raise ScenarioError(label, "not a value", key, part or text, "values separated by commas, each a "
                                'TOML value as --set takes one: 2, 0.5, word, "text", ["reroll", "clock"], []')
        values.append(v)
    if len(set(map(repr, values))) != len(values):
        raise ScenarioError(label, "a repeated value", key, text, "distinct values")
    _check(base, key, values, label)
    return Axis(key, tuple(values), current=current)


_TOML_OPENERS = ("[", "{", '"', "'")


def _check(base: Scenario, key: str, values, label: str) -> None:
    """Each value alone over ``base``: the loader's error for a bad one, named after the --vary."""
    from ..studies.study import as_scenario, dotted
    for v in values:
        try:
            as_scenario(base, **dotted({key: v}))
        except ScenarioError as err:
            raise renamed(err, label) from None


def renamed(err: ScenarioError, label: str) -> ScenarioError:
    """The loader's first problem with a --vary value, named after the --vary (``<file> (--vary KEY)``)."""
    one = err.errors[0]
    return ScenarioError(label, one.problem, one.key, one.got, one.allowed)


def _inside(axis: Axis, v) -> bool:
    if axis.values is not None:
        return any(v == x for x in axis.values)
    return _number(v) and axis.low <= v <= axis.high


def _round(axis: Axis, u: float):
    if axis.values is not None:
        return axis.values[min(int(u * len(axis.values)), len(axis.values) - 1)]
    step = (axis.high - axis.low) / 100 or 1.0
    return float(round(min(axis.high, axis.low + u * (axis.high - axis.low)) / step) * step)


def candidates(axes: list[Axis], max_candidates: int, seed: int) -> list[tuple]:
    """The settings to try, the scenario's own first when it lies in the space; each a tuple, one value per axis."""
    current = tuple(a.current for a in axes)
    out: list[tuple] = [current] if all(_inside(a, v) for a, v in zip(axes, current)) else []
    grid = math.prod(len(a.values) for a in axes) if all(a.values is not None for a in axes) else None
    if grid is not None and grid <= max_candidates:
        points = list(itertools.product(*(a.values for a in axes)))
    else:
        from scipy.stats import qmc
        sobol = qmc.Sobol(len(axes), scramble=True, seed=np.random.default_rng(seed))
        points = [tuple(_round(a, u) for a, u in zip(axes, row))
                  for row in sobol.random(1 << max(1, math.ceil(math.log2(max_candidates))))]
    for p in points:
        if p not in out:
            out.append(p)
        if len(out) >= max(max_candidates, 1):
            break
    return out


def change(axes: list[Axis], values: tuple) -> float:
    """How far a setting is from the scenario's: the sum over axes of |value - current| / the axis's width (1 for
    each changed word)."""
    total = 0.0
    for a, v in zip(axes, values):
        if _number(v) and _number(a.current):
            total += abs(float(v) - float(a.current)) / a.width
        else:
            total += float(v != a.current)
    return total
