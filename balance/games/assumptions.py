"""The Assumptions section of a report: each open-rule setting and component choice in force, its value written
as a designer writes it in a scenario file (TOML: "printed", true, [17, 13, 10, 8]) and a reason that reads true of
that value (a switched-off rule says so, the scenario's own components are not called the reconstruction)."""
from __future__ import annotations

from typing import Any

from ..core.toml import toml_value as _toml

Row = tuple[str, str, str]


def toml_value(value: Any) -> str:
    """A setting's value as it is written in a scenario file (TOML), e.g. ``"card"``, ``true``, ``[1, 2]``."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    elif hasattr(value, "value") and not isinstance(value, (bool, int, float, str)):     # an Enum
        value = value.value
    if isinstance(value, (list, tuple)):
        value = [v.model_dump(mode="json") if hasattr(v, "model_dump") else v for v in value]
    return _toml(value)


def rule_rows(rules) -> list[Row]:
    """One row per rule setting: ``rules.<name>``, its value in force, and its description as the reason. A yes/no
    rule that is off says so first, since its description reads as the rule in force."""
    rows = []
    for name, field in type(rules).model_fields.items():
        value = getattr(rules, name)
        reason = field.description or ""
        if value is False and reason:
            reason = f"Off: not in play. When true: {reason[0].lower()}{reason[1:]}"
        rows.append((f"rules.{name}", toml_value(value), reason))
    return rows


def component_row(key: str, own: bool, what: str, doc: str) -> Row:
    """A reconstructed component: the ASSUMED reconstruction with its reasoning, or the scenario's own."""
    if own:
        return (f"components.{key}", "the scenario's own",
                f"Set by the scenario, in place of the ASSUMED reconstruction of {what} ({doc}).")
    return (f"components.{key}", "ASSUMED reconstruction",
            f"No public source gives {what}; {doc}, section 1, gives the reasoning.")
