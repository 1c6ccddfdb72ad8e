"""How a scenario's problem is worded: the key path of a pydantic error, what a field allows in words, a near miss
("did you mean ..."), and whether the raw table holds a key. :mod:`.checks` words every problem through these."""
from __future__ import annotations

import difflib
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel

from .layers import NOTHING, value_at


def is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def field_at(model: type[BaseModel], loc: tuple) -> tuple[Any, Any]:
    """(annotation, FieldInfo or None) of the value at ``loc`` inside ``model``; (None, None) if not found."""
    ann, info = model, None
    for part in loc:
        if isinstance(part, str) and is_model(ann) and part in ann.model_fields:
            info = ann.model_fields[part]
            ann = info.annotation
        elif isinstance(part, int) and typing.get_origin(ann) is list:
            ann, info = typing.get_args(ann)[0], None
        else:
            return None, None
    return ann, info


def union_loc(model: type[BaseModel], loc: tuple) -> tuple | None:
    """The location of the value of a union type (``list[str] | Literal["random"]``) that ``loc`` lies in, or None:
    pydantic reports each alternative of it at a location of its own (its name after the value's)."""
    ann = model
    for i, part in enumerate(loc):
        if typing.get_origin(ann) in (typing.Union, types.UnionType) and \
                len([a for a in typing.get_args(ann) if a is not type(None)]) > 1:
            return loc[:i]
        if isinstance(part, str) and is_model(ann) and part in ann.model_fields:
            ann = ann.model_fields[part].annotation
        elif isinstance(part, int) and typing.get_origin(ann) is list:
            ann = typing.get_args(ann)[0]
        else:
            return None
    return None


def describe(ann: Any, info: Any) -> str:
    """What a value of this type may be, in a designer's words."""
    if ann is bool:
        return "true or false"
    if ann in (int, float):
        lo = hi = None
        for m in getattr(info, "metadata", ()):
            lo = getattr(m, "ge", lo)
            hi = getattr(m, "le", hi)
        what = "an integer" if ann is int else "a number"
        if lo is not None and hi is not None:
            return f"{what} from {lo} to {hi}"
        return what + (f" >= {lo}" if lo is not None else "") + (f" <= {hi}" if hi is not None else "")
    if ann is str:
        return "a string"
    if typing.get_origin(ann) is Literal:
        return one_of(typing.get_args(ann))
    if typing.get_origin(ann) is list:
        return f"a list, each item {describe(typing.get_args(ann)[0], None)}"
    if is_model(ann):
        return "a table with keys " + ", ".join(ann.model_fields)
    return "see docs/scenarios.md"


def did_you_mean(word: Any, choices) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def key_path(loc: tuple, named: dict[int, str] | None = None) -> str:
    """``loc`` as a message shows it: ``components.buildings[3].photos``; `named` (position in `loc` -> label) shows
    a list item by a label instead of its index (``components.buildings[value=4].photos``)."""
    out = ""
    for i, part in enumerate(loc):
        if named and i in named:
            out += f"[{named[i]}]"
        else:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def contains(raw: Any, loc: tuple) -> bool:
    return bool(loc) and value_at(raw, loc) is not NOTHING


def is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def one_of(names) -> str:
    """What a key allows, in words: "one of 'a', 'b'"."""
    return "one of " + ", ".join(repr(n) for n in names)
