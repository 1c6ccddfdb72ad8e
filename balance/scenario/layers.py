"""How the layers of a scenario combine: the game's defaults, an ``extends`` chain, overrides and ``--set`` keys.

Tables merge key by key. A list of tables that the game declares keyed (``GameSpec.list_keys``: Spooky Tower's
Buildings by ``value``, The Haunted Tower's heroes, monsters and items by ``name``) merges item by item: a table
with a key the layer below has changes only the keys it gives, a new key adds an item, and every item it does not
name stays. So a file that extends another, or an override, changes one number without copying a list. A layer
that means to give a whole list says so: ``replace = ["components.buildings"]``. Seats merge by position when a
layer gives as many seats as the one below (a seat whose strategy changes starts from that strategy's defaults);
every other list replaces whole. See docs/scenarios.md. An error in an override names where it came from: a Python
keyword, or the command line's option (:func:`override_name`).
"""
from __future__ import annotations

import copy
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable

Loc = tuple
Fail = Callable[[str, str, Any, Any, str], Exception]     # (label, problem, key path, got, allowed) -> error


def keyed_paths(spec) -> dict[Loc, str]:
    """The game's keyed lists as key paths: {("components", "buildings"): "value"}."""
    return {tuple(path.split(".")): key for path, key in (spec.list_keys if spec else {}).items()}


def defaults(spec) -> dict:
    """The game's rules and components with every default written out, in the scenario format."""
    return {"rules": spec.rules_model().model_dump(mode="json", exclude_none=True),
            "components": spec.components_model().model_dump(mode="json", exclude_none=True)}


def keyed_defaults(spec, keyed: dict[Loc, str]) -> dict:
    """The bottom layer: the game's default items of each keyed list (the lists a layer changes item by item)."""
    full, out = defaults(spec), {}
    for loc in keyed:
        src, dst = full, out
        for part in loc[:-1]:
            src, dst = src[part], dst.setdefault(part, {})
        dst[loc[-1]] = copy.deepcopy(src[loc[-1]])
    return out


def lay_over(base: dict, top: dict, keyed: dict[Loc, str], label: str, fail: Fail) -> dict:
    """One layer over the layers below it.

    ``strategy`` and ``seats`` are alternatives: a layer giving either replaces both below it, except that seats
    given as many as the seats below merge by position. ``replace`` (a list of keyed-list paths) makes this layer's
    lists at those paths whole lists."""
    replace = _replace_paths(top, keyed, label, fail)
    base = dict(base)
    seats = None
    if "strategy" in top or "seats" in top:
        below = base.pop("seats", None)
        base.pop("strategy", None)
        if isinstance(below, list) and isinstance(top.get("seats"), list) and len(below) == len(top["seats"]):
            seats = [_merge_seat(b, t) for b, t in zip(below, top["seats"])]
    out = _merge(base, {k: v for k, v in top.items() if k != "replace"}, (), keyed, replace, label, fail)
    if seats is not None:
        out["seats"] = seats
    return out


def _replace_paths(top: dict, keyed: dict[Loc, str], label: str, fail: Fail) -> set[Loc]:
    if "replace" not in top:
        return set()
    value = top["replace"]
    names = [".".join(loc) for loc in keyed]
    allowed = f"a list of the lists that merge item by item: {', '.join(repr(n) for n in names) or 'none'}"
    if not isinstance(value, list) or not all(isinstance(v, str) and tuple(v.split(".")) in keyed for v in value):
        raise fail(label, "not a list of keyed lists", "replace", value, allowed)
    return {tuple(v.split(".")) for v in value}


def _merge_seat(below: Any, top: Any) -> Any:
    """A seat over the seat in the same position: its parameters merge when it keeps the strategy's name."""
    if isinstance(below, dict) and isinstance(top, dict) and top.get("name", below.get("name")) == below.get("name"):
        return {**below, **top}
    return top


def _merge(base: dict, top: dict, loc: Loc, keyed: dict[Loc, str], replace: set[Loc], label: str,
           fail: Fail) -> dict:
    out = dict(base)
    for key, value in top.items():
        here = loc + (key,)
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value, here, keyed, replace, label, fail)
        elif here in keyed and here not in replace and isinstance(value, list):
            out[key] = _merge_items(out.get(key), value, here, keyed[here], label, fail)
        else:
            out[key] = value
    return out


def _merge_items(below: Any, items: list, loc: Loc, key: str, label: str, fail: Fail) -> list:
    """A keyed list over the list below: items found by `key` change, new keys add items, the rest stay."""
    path = ".".join(loc)
    if not items:
        raise fail(label, "an empty list changes nothing, because this list merges item by item", path, items,
                   f"tables that each change or add one {key}, or replace = [\"{path}\"] in this file to give the "
                   "whole list")
    out = [dict(x) if isinstance(x, dict) else x for x in (below if isinstance(below, list) else [])]
    seen: list = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or key not in item:
            got = item if not isinstance(item, dict) else NOTHING
            raise fail(label, "missing key", f"{path}[{i}].{key}", got,
                       f"every table names its {key}, which says which one it changes or adds (or replace = "
                       f"[\"{path}\"] in this file to give the whole list)")
        k = item[key]
        if k in seen:
            raise fail(label, f"a second table for {key} {k!r} in this file", f"{path}[{i}].{key}", k,
                       f"each {key} at most once a file; a table changes that {key} of the layers below, or adds it")
        seen.append(k)
        at = next((j for j, x in enumerate(out) if isinstance(x, dict) and x.get(key) == k), None)
        if at is None:
            out.append(item)
        else:
            out[at] = {**out[at], **item}
    return out


def layer_loc(merged: dict, raw: dict, loc: Loc, keyed: dict[Loc, str]) -> Loc | None:
    """``loc`` (a key path into the merged scenario) as a key path into one layer ``raw``: a keyed list's index is
    the merged item's position, which in a layer is wherever that layer lists the same key; None when the layer
    does not list it."""
    out: list = []
    for i, part in enumerate(loc):
        prefix = tuple(loc[:i])
        if isinstance(part, int) and prefix in keyed:
            item = value_at(merged, loc[:i + 1])
            mine = value_at(raw, tuple(out))
            if not isinstance(item, dict) or not isinstance(mine, list):
                return None
            k = item.get(keyed[prefix])
            part = next((j for j, x in enumerate(mine) if isinstance(x, dict) and x.get(keyed[prefix]) == k), None)
            if part is None:
                return None
        out.append(part)
    return tuple(out)


NOTHING = object()      # what value_at finds where a key path does not fit


def value_at(raw: Any, loc: Loc) -> Any:
    """The value at key path ``loc`` in a raw table, or ``NOTHING`` where the path does not fit it."""
    for part in loc:
        if isinstance(part, int) and isinstance(raw, list) and 0 <= part < len(raw):
            raw = raw[part]
        elif isinstance(part, str) and isinstance(raw, dict) and part in raw:
            raw = raw[part]
        else:
            return NOTHING
    return raw


# --- --set KEY=VALUE ---------------------------------------------------------------------------------------------

def set_layer(full: dict, dotted: str, value: Any, keyed: dict[Loc, str], players: int, label: str,
              fail: Fail) -> dict:
    """The layer that sets one dotted key of the scenario ``full`` (merged, every default written out).

    ``components.buildings.12.ghost_worth``: a keyed list's item by its key; ``seats.2.strategy`` (or ``.name``):
    seat 2's strategy (counting from 0), ``seats.2.<param>`` one of its parameters; ``rules.heroes.1``: a plain
    list's entry by position; anything else a table key. A top-level key alone (``players``, ``strategy``) is no
    dotted key: the loader lays it over as a file would give it."""
    parts = dotted.split(".")
    if not all(parts):
        raise fail(label, "not a key path", dotted, value, "keys joined by dots, such as rules.flip_scope, or a "
                   "top-level key, such as players or strategy")
    if parts[0] == "seats":
        return {"seats": _set_seat(full, parts, value, players, label, fail)}
    return _set(full, parts, value, (), keyed, dotted, label, fail)


def setting_value(full: dict, dotted: str, keyed: dict[Loc, str]) -> Any:
    """The value a dotted key (as :func:`set_layer` takes it) has in the scenario ``full``; KeyError when it has
    none."""
    parts, here, node = dotted.split("."), (), full
    if parts[0] == "seats" and len(parts) in (2, 3) and parts[1].isdigit():
        seats = full.get("seats") or [full.get("strategy", {"name": "random"})]
        seat = seats[int(parts[1]) % len(seats)]
        seat = seat if isinstance(seat, dict) else {"name": seat}
        field = parts[2] if len(parts) == 3 else "name"
        return seat["name" if field == "strategy" else field]
    for i, part in enumerate(parts):
        if isinstance(node, list) and here in keyed:
            name = keyed[here]
            k = _key_value(part, [x.get(name) for x in node if isinstance(x, dict)])
            node = next(x for x in node if isinstance(x, dict) and x.get(name) == k)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise KeyError(dotted)
        here = here + (part,)
    return node


def _set_seat(full: dict, parts: list, value: Any, players: int, label: str, fail: Fail) -> list:
    if isinstance(full.get("seats"), list) and full["seats"]:
        below = full["seats"]
        if len(below) != players:       # listed for another number of players: cycled to this one, as loaded
            below = [below[i % len(below)] for i in range(players)]
        seats = [dict(s) if isinstance(s, dict) else {"name": s} for s in below]
    else:
        one = full.get("strategy", {"name": "random"})
        seats = [dict(one) if isinstance(one, dict) else {"name": one} for _ in range(players)]
    allowed = f"seats.N.strategy or seats.N.<parameter>, N from 0 to {len(seats) - 1}"
    if len(parts) not in (2, 3) or not parts[1].isdigit() or int(parts[1]) >= len(seats):
        raise fail(label, "no such seat setting", ".".join(parts), value, allowed)
    seat = seats[int(parts[1])]
    field = parts[2] if len(parts) == 3 else "strategy"
    if field in ("strategy", "name"):
        seats[int(parts[1])] = seat if seat.get("name") == value else {"name": value}
    else:
        seat[field] = value
    return seats


def _set(full: Any, parts: list, value: Any, loc: Loc, keyed: dict[Loc, str], dotted: str, label: str,
         fail: Fail) -> dict:
    key, rest = parts[0], parts[1:]
    here = loc + (key,)
    below = full.get(key) if isinstance(full, dict) else None
    if not rest:
        return {key: value}
    if here in keyed:
        name = keyed[here]
        items = below if isinstance(below, list) else []
        k = _key_value(rest[0], [x.get(name) for x in items if isinstance(x, dict)])
        if len(rest) == 1:
            raise fail(label, "names an item, not a setting of it", dotted, value,
                       f"{'.'.join(here)}.<{name}>.<setting>, such as {'.'.join(here)}.{rest[0]}.<setting>")
        item = next((x for x in items if isinstance(x, dict) and x.get(name) == k), {})
        return {key: [{name: k, **_set(item, rest[1:], value, (), {}, dotted, label, fail)}]}
    if isinstance(below, list):
        if not rest[0].isdigit() or int(rest[0]) >= len(below):
            raise fail(label, "no such entry", dotted, value,
                       f"{'.'.join(here)}.N with N from 0 to {len(below) - 1} (the list has {len(below)})")
        new = copy.deepcopy(below)
        i = int(rest[0])
        if len(rest) == 1:
            new[i] = value
        elif isinstance(new[i], dict):
            new[i] = _merge_plain(new[i], _set(new[i], rest[1:], value, (), {}, dotted, label, fail))
        else:
            raise fail(label, "no such setting", dotted, value, f"{'.'.join(here)}.{i} itself")
        return {key: new}
    return {key: _set(below if isinstance(below, dict) else {}, rest, value, here, keyed, dotted, label, fail)}


def _merge_plain(base: dict, top: dict) -> dict:
    out = dict(base)
    for k, v in top.items():
        out[k] = _merge_plain(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _key_value(text: str, existing: list) -> Any:
    """A keyed list's key from a dotted path: a number when the list's keys are numbers."""
    if existing and all(isinstance(x, int) and not isinstance(x, bool) for x in existing):
        try:
            return int(text)
        except ValueError:
            return text
    return text


def split_values(text: str) -> list[str]:
    """``V1,V2,...`` (a sweep's --set, a design's --vary) as its values' texts: split at the commas outside brackets,
    braces and quotes, so that a value may be a list or a table (``["reroll"],["clock"],[]``)."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def parse_value(text: str) -> Any:
    """A --set value: a TOML value (12, 1.5, true, "text", [1, 2]) or, failing that, the text itself
    (``rules.flip_scope=building``)."""
    import tomllib
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


# --- where an override came from -----------------------------------------------------------------------------------

ANY = object()          # name_override's value for an override of any value (a sweep's --set KEY=V1,V2,...)
_NAMED: ContextVar[list | None] = ContextVar("balance_override_names", default=None)


@contextmanager
def override_names():
    """A block (one command of the command line) in which :func:`name_override` names overrides; outside every such
    block an override is a Python keyword."""
    token = _NAMED.set([])
    try:
        yield
    finally:
        _NAMED.reset(token)


def name_override(key: str, value: Any, name: str) -> None:
    """Say that the override ``key`` (as load_scenario gets it: ``players``, ``players.`` for a --set of a top-level
    key, ``rules.flip_scope``) with ``value`` (or ``ANY`` value) came from ``name`` (``--players 9``, ``--set
    players``): an error in it then names ``<file> (NAME)``. Outside an :func:`override_names` block, nothing."""
    named = _NAMED.get()
    if named is not None:
        named.append((key, value, name))


def override_name(key: str, value: Any) -> str:
    """What an error calls an override: the name the command line gave it (:func:`name_override`; the latest of the
    same key and value), else a Python keyword, ``keyword players=9``."""
    for k, v, name in reversed(_NAMED.get() or ()):
        if k == key and (v is ANY or _same(v, value)):
            return name
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"keyword {key[:-1] if key.endswith('.') else key}={shown}"


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:       # noqa: BLE001 - values that cannot be compared are not the same
        return False
