"""What each column of each table means, in one line: the tooltips and footnotes of ``index.html``.

docs/metrics.md (a co-operative game's tables: docs/metrics_cooperative.md) defines every column in full; this is the
short form the report shows beside the numbers, and the section of those docs that defines each table. A counter group's columns ("taken/game", "ghosts/flipped", "win
flipped", ...) are named after the game's counters, so they are explained by pattern, with the names filled in.
"""
from __future__ import annotations

import re

from ...stats.intervals import METHODS

ASSOCIATION = ("An association, not a cause: it compares the seats (or games) that did this with those that did "
               "not, in the same games, and strong positions reach it more often. Only a change to the game, run "
               "on the same seed and compared, says what a card or rule does.")

_SHORT = "An association, not a cause (see the note under the table)."

# table title (or its first word for "Per <group>" tables) -> heading of docs/metrics.md
SECTIONS = {
    "Seats": "Seats", "Heroes": "Heroes (The Haunted Tower)", "Strategies": "Strategies",
    "Strategy x seat": "Strategy x seat", "Victory kinds": "Victory kinds", "Lengths": "Lengths",
    "Points by scoring line": "Points by scoring line (The Haunted Tower)",
    "means": "Per hero / Per seat (means per game) (The Haunted Tower)",
    "group": "Per value / Per monster / Per item", "Team": "Team", "Endings": "Endings",
    "Per player (means per game)": "Per player (means per game)",
    "category": "Per *category* (Climbing Tower: Per tower)", "Contrasts": "Contrasts",
}

_FIXED = {
    "seat": "Seat number, from 0.",
    "strategy": "The strategy played; \"mixed\" when seat rotation put several at this seat.",
    "hero": "The hero played; \"mixed\" when hero rotation gave this seat several.",
    "games": "Games counted in this row (seat-games for a strategy or hero), finished or not.",
    "wins": "Games won; a tie counts as a win for every tied seat.",
    "win rate": "wins / games; unfinished games count as not won.",
    "mean points": "Average final points per game, unfinished games included.",
    "kind": "How the game ended (unfinished: the turn cap, no winner).",
    "share": "This row's part of all games (of all points, for a scoring line).",
    "measure": "turns, rounds (and rounds_won: the rounds of won games only).",
    "mean": "Average length over all games (unfinished ones at the cap included).",
    "median": "Half of the games last at most this long (a length that occurred).",
    "p10": "10% of the games last at most this long.",
    "p90": "90% of the games last at most this long.",
    "line": "A line of the rulebook's scoring table.",
    "points/seat-game": "Average points from this line per seat and game.",
    "lineup": "The strategies at the seats.",
    "rounds to win": "Mean rounds of the won games.",
    "outcome": "won: every game ending so was won; lost: none was; both: some were.",
    "share of losses": "Lost games ending this way / all lost games: why games are lost.",
    "mean rounds": "Average rounds of this row's games, unfinished included.",
    "mean rounds (won)": "Average rounds of this row's won games (\"-\": none won).",
    "contrast": "The contrast's name; \"scenario\" for the scenario as given.",
    "variant": "What the variant changes, in words.",
    "diff (pp)": "Difference of the two win rates before it, in percentage points.",
}

# (table title, or None for any table; interval column) -> the method that computes it
# (balance/analysis/stats/intervals.py)
INTERVALS = {
    ("Lengths", "95% CI"): "student_t", (None, "95% CI"): "wilson", (None, "95% CI (points)"): "student_t",
    (None, "95% CI (rounds)"): "student_t", (None, "95% CI (losses)"): "wilson", (None, "95% CI (pp)"): "newcombe",
    ("Strategy x seat", "seat"): "wilson",
}
_OF = {"95% CI": {"student_t": "the mean before it", "wilson": "the rate before it"},
       "95% CI (points)": "the mean points", "95% CI (rounds)": "the mean rounds to win",
       "95% CI (losses)": "the share of losses", "95% CI (pp)": "the difference"}


def interval_method(title: str, column: str) -> str | None:
    """The key of :data:`~balance.stats.intervals.METHODS` that computes the interval column ``column`` of the
    table ``title`` (None: not an interval column)."""
    if title == "Strategy x seat" and column.startswith("seat "):
        return INTERVALS[("Strategy x seat", "seat")]
    return INTERVALS.get((title, column), INTERVALS.get((None, column)))


def _interval_note(title: str, column: str) -> str:
    m = interval_method(title, column)
    of = _OF[column]
    of = of[m] if isinstance(of, dict) else of
    return (f"95% interval of {of}: {METHODS[m].name}"
            + (" (unpaired)." if title == "Contrasts" and column == "95% CI (pp)" else "."))


def slug(heading: str) -> str:
    """A Markdown heading's anchor as GitHub writes it: lower case, punctuation dropped, each space a '-'."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")


def section(title: str, groups=(), categories=()) -> str:
    """The docs/metrics.md heading that defines the table ``title``."""
    if title in SECTIONS:
        return SECTIONS[title]
    if title.startswith("Per ") and title.endswith("(means per game)"):
        return SECTIONS["means"]
    name = title[4:].split(":")[0] if title.startswith("Per ") else ""
    if name in categories:
        return SECTIONS["category"]
    return SECTIONS["group"] if name in groups else "Conventions"


def column_note(title: str, column: str, tallies) -> str:
    """One line that defines ``column`` of the table ``title`` (docs/metrics.md has the full definition)."""
    groups = {g.name: g for g in tallies.groups}
    group = groups.get(title[4:]) if title.startswith("Per ") else None
    if group is not None:
        return _group_note(column, group)
    cats = {c.name for c in tallies.categories}
    if title.startswith("Per ") and title[4:].split(":")[0] in cats and column == title[4:].split(":")[0]:
        return f"The {column}: one row per label (every game carries one)."
    if title.endswith("(means per game)") and column not in ("seat", "hero"):
        return f"Mean per game of the final '{column}' counter, unfinished games included; no interval."
    if title == "Strategy x seat" and column.startswith("seat "):
        return (f"Win rate of the strategy when it sat at {column}, with its 95% interval ("
                f"{METHODS[interval_method(title, column)].name}); \"-\": it never sat there.")
    if title == "Strategies" and column == "win rate":
        return "wins / appearances (a strategy at two seats counts twice a game)."
    if title == "Contrasts" and column == "diff (pp)":
        return "Variant win rate - scenario win rate, in percentage points; the variant is a real change, so a cause."
    if column in _OF:
        return _interval_note(title, column)
    if column in _FIXED:
        return _FIXED[column]
    if tallies.role_name and column == tallies.role_name:
        return _FIXED["hero"]
    return ""


def _group_note(column: str, g) -> str:
    used = g.counter_names[g.used_counter]
    who = "games the team" if getattr(g, "per_team", False) else "seat-games in which the seat"
    if column == g.name:
        return f"One row per {g.name}."
    if column.endswith("/game"):
        return (f"'{column[:-5]}' per game, all seats together: total over all seats and games / games.")
    if "/" in column:
        top, base = column.split("/", 1)
        return f"'{top}' per '{base}': total of {top} / total of {base}, over all games and seats."
    if column == f"win {used}" and getattr(g, "per_team", False):
        return f"Win rate of the games in which the team's '{used}' count was above 0. {_SHORT}"
    if column == f"win {used}":
        return f"Win rate of the {who} {used} this at least once. {_SHORT}"
    if column == f"win not {used}":
        return f"Win rate of the other {who.split(' in which')[0]}. {_SHORT}"
    if column == "diff (pp)":
        return f"win {used} - win not {used}, in percentage points. {_SHORT}"
    if column == "95% CI (pp)":
        return f"{_interval_note(g.name, column)} {_SHORT}"
    return ""
