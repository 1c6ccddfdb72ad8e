"""A run's results as text for a terminal: the heading, the findings first, games worth watching, then the aligned
tables; the speed and precision lines. :class:`~balance.stats.results.Results` shows itself through these."""
from __future__ import annotations

import math
import textwrap

import pandas as pd

from ..core.text import text_table
from . import display, team_display


def display_tables(results, short: bool = False) -> dict[str, pd.DataFrame]:
    """The main tables as rounded display strings, keyed by title (used by :meth:`summary` and reports);
    ``short``: a category of many labels shows only its lowest and highest win rates (the terminal)."""
    if results.tallies.cooperative:
        return team_display.display_tables(results, short)
    return display.display_tables(results)

def seat_test_line(results) -> str:
    chi2, dof, p = results.seat_test
    if math.isnan(p):
        return "Seat equality (chi-square): not enough finished games"
    return (f"Seat equality (chi-square over finished games): chi2 = {chi2:.3f}, dof = {dof}, p = {p:.4g}\n"
            "  (p: how often seats this uneven would come out if every seat were equally likely to win)")

def heading(results) -> str:
    """The scenario's name, then what was played."""
    m, t = results.meta, results.tallies
    name = m.get("name") or t.title
    return f"{name}: {t.games:,} games of {t.title}, lineup {', '.join(t.lineup)}, seed {m.get('seed')}"

def summary(results) -> str:
    """Plain text for a terminal: the findings first, games worth watching, then the aligned tables (seats with
    their test, strategies, victory kinds, lengths, items...)."""
    head = heading(results)
    parts = [head, "=" * min(len(head), 100)]
    parts += [f"Note: {n}" for n in results.meta.get("notes", ())]     # what the scenario's loader did
    if results.meta.get("interrupted"):
        parts += ["", f"INTERRUPTED (Ctrl-C): these are the {results.tallies.games:,} games finished before it, not "
                      "the run asked for."]
    resumed = (results.meta.get("timing") or {}).get("resumed_games")
    if resumed:
        parts += ["", f"RESUMED from a checkpoint: the first {resumed:,} of these {results.tallies.games:,} games were "
                      "played by the run that wrote it."]
    parts += ["", "Findings"]
    for i, text in enumerate(results.findings["text"], 1):
        parts += textwrap.wrap(text, 110, initial_indent=f"  {i}. ", subsequent_indent="     ")
    if results.watch_lines():
        parts += ["", "Games worth watching"]
        for line in results.watch_lines():
            what, _, command = line.partition(": balance ")
            parts += [f"  {what}:", f"    balance {command}"]
    for title, df in display_tables(results, short=True).items():
        parts += ["", title, text_table(df)]
        if title == "Seats":
            parts.append(seat_test_line(results))
    return "\n".join(parts)

def speed_line(results) -> str:
    """How long the run took and how fast the kernel played (compile and load time excluded)."""
    t = results.meta.get("timing") or {}
    gps = t.get("games_per_s")
    speed = f"{gps:,.0f} games/s" if gps else "n/a games/s"
    threads = t.get("threads", "?")
    played = results.tallies.games - t.get("resumed_games", 0)
    resumed = (f"Resumed from a checkpoint of {t['resumed_games']:,} games; played "
               f"{played:,} more" if "resumed_games" in t else f"Played {played:,}")
    variants = len(results.meta.get("contrasts") or ())
    more = (f"; then {t['contrast_games']:,} games of {variants} contrast variant{'' if variants == 1 else 's'} "
            f"in {t['contrasts_s']:.2f} s") if variants and "contrasts_s" in t else ""
    return (f"{resumed} games in {t.get('simulate_s', float('nan')):.2f} s of simulation "
            f"({speed} on {threads} thread{'' if threads == 1 else 's'}); "
            f"compile/load {t.get('compile_s', float('nan')):.2f} s, wall {t.get('wall_s', float('nan')):.2f} s"
            + more)

def target_line(results) -> str:
    """Whether a --target-ci run reached its precision, and after how many games."""
    m = results.meta
    reached = "reached" if m.get("target_ci_reached") else "NOT reached (hit --max-games)"
    which = "team win-rate interval" if results.tallies.cooperative else "widest seat interval"
    return (f"Target 95% interval width {m['target_ci']:g}: {reached} after {results.tallies.games:,} games; "
            f"{which} now {results.ci_width_max():.4f}")
