"""A small TOML writer: Python's tomllib reads TOML but cannot write it. Scenario files, the fragments that the study
commands write for ``extends``, and the assumption tables all write values through here."""
from __future__ import annotations

import math
import re
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def dumps_toml(table: dict) -> str:
    """TOML text for a table of dicts, lists, strings, ints, floats and bools (what :meth:`Scenario.to_dict` holds)."""
    lines: list[str] = []
    _emit_table(table, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _emit_table(table: dict, prefix: list[str], lines: list[str]) -> None:
    def is_table_list(v):
        return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)

    for key, value in table.items():
        if not isinstance(value, dict) and not is_table_list(value):
            lines.append(f"{_toml_key(key)} = {toml_value(value)}")
    for key, value in table.items():
        if isinstance(value, dict):
            lines += ["", f"[{'.'.join(_toml_key(k) for k in prefix + [key])}]"]
            _emit_table(value, prefix + [key], lines)
    for key, value in table.items():
        if is_table_list(value):
            for item in value:
                lines += ["", f"[[{'.'.join(_toml_key(k) for k in prefix + [key])}]]"]
                _emit_table(item, prefix + [key], lines)


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped, everything else as is."""
    escaped = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return '"' + "".join(escaped.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c)
                         for c in text) + '"'


def toml_value(value: Any) -> str:
    """One value as TOML text (inline tables for dicts)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
