"""`balance design`: parse, call :func:`balance.analysis.design.design`, print, write the fragment and the report.
No statistics here."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .options import (EXECUTOR_OPTIONS, JSON_OPTION, THREADS_OPTION, check_out, dask_client, fail, name_options,
                      options, parse_sets, preload, search_options, set_option, show_and_write)


def _goals(items) -> dict:
    from ..scenario.layers import parse_value
    out: dict = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            fail(f"--goal {item}: not KEY=VALUE (allowed: a [checks] claim, such as role_gap_max=0.10 or "
                 "win_rate=[0.55,0.65])")
        parts = key.strip().split(".")
        where = out
        for p in parts[:-1]:                # victory_share.amulet=[0.1,0.3]
            where = where.setdefault(p, {})
        where[parts[-1]] = parse_value(value.strip())
    return out


def _say(kind, x):
    if kind == "round":
        click.echo(f"round {x['round'] + 1}: {x['candidates']} settings, {x['games']:,} games each: "
                   f"{x['passing']} pass, {x['failing']} fail", err=True)
    elif kind == "confirm":
        c, outcome = x
        click.echo(f"confirming setting {c.index} on the scenario's seed: {outcome}", err=True)
    else:
        click.echo(str(x), err=True)


@click.command()
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--vary", multiple=True, metavar="KEY=RANGE",
              help="A setting that may change (repeatable): KEY=LOW..HIGH (integers: each one; numbers: a range) or "
                   "KEY=V1,V2,... (split at the commas outside brackets and quotes, each value TOML as --set reads "
                   "one, so a list is a value); the same dotted keys as --set, such as "
                   "components.heroes.magic_user.hp=4..9 or 'components.buildings.1.bonus=[\"reroll\"],[\"clock\"],[]' "
                   "(a Building by its value).")
@click.option("--goal", "goal_items", multiple=True, metavar="CLAIM=VALUE",
              help="A claim that must hold, in the [checks] format (repeatable), such as role_gap_max=0.10 or "
                   "win_rate=[0.55,0.65]; default: the scenario's own [checks].")
@click.option("--minimise", type=click.Choice(["role_gap", "hero_gap", "seat_gap", "item_lift"]),
              help="Among the settings that meet the claims, prefer the smallest value of this measure (default: the "
                   "smallest change from the scenario's values).")
@set_option
@options(
    *search_options("The most games of each confirmation (default: the scenario's).", "the recommendation", 1_000,
                    "Settings to try: every point of a small grid, else Sobol points of the space.", 1),
    click.option("--tries", type=click.IntRange(min=1), default=3, show_default=True,
                 help="Finalists confirmed in order, each with its share of the error rate, until one passes."),
    click.option("--strength", type=click.Choice(["tuned", "lookahead"]),
                 help="Confirm the recommendation with stronger players too."),
    THREADS_OPTION,
    JSON_OPTION,
    click.option("-o", "--out", "out_file", type=click.Path(dir_okay=False),
                 help="Write the recommended scenario here: a TOML file that extends SCENARIO with its values."),
    click.option("--report", "report_dir", type=click.Path(file_okay=False),
                 help="Write a report folder (index.html, summary.md, tradeoff.png): new, empty, or an earlier one."),
    *EXECUTOR_OPTIONS,
)
def design(scenario, vary, goal_items, minimise, sets, games, seed, players, candidates, first_round, tries, strength,
           threads, as_json, out_file, report_dir, executor, scheduler, workers):
    """Find values of the --vary settings for which the claims hold (--goal, or the scenario's [checks]), and confirm
    them with a guarantee.

    Every setting plays the same games (a seed derived from the scenario's); successive halving spends games on the
    settings that still compete. The finalists are confirmed in order on the scenario's own seed, which the search
    never plays, with the anytime-valid intervals of `balance check`: a recommendation's claims all hold at 95%
    confidence. When none can be confirmed, it says so, with the closest setting's intervals, and exits with code 1."""
    if not vary:
        fail("design: give at least one --vary KEY=RANGE (allowed: any rule, component or strategy key)")
    if out_file and Path(out_file).is_dir():
        fail(f"--out {out_file}: a folder (allowed: a file path for the recommended scenario)")
    preload(scenario, sets=sets, players=players, seed=seed)
    goals = _goals(goal_items) or None
    from ..analysis.design import DesignError, design as run_design
    from ..scenario.model import ScenarioError

    name_options(players, games, seed)
    if report_dir:
        from ..present.report.study import files
        check_out(report_dir, files(["tradeoff"]))
    with dask_client(executor, scheduler, workers) as client:
        try:
            result = run_design(scenario, list(vary), goals, minimise=minimise, sets=parse_sets(sets), games=games,
                                seed=seed, players=players, candidates=candidates, first_round=first_round,
                                tries=tries, strength=strength, threads=threads, progress=_say, client=client)
        except DesignError as err:
            fail(f"{scenario or '<default>'}: {err}")
        except ScenarioError as err:
            fail(str(err))
    show_and_write(result, out_file, as_json, "recommended scenario")
    if report_dir:
        from ..present import design_view
        from ..present.report.study import write_study_report
        index = write_study_report(report_dir, title="balance design", heading=design_view.heading(result),
                                   findings=list(result.findings["text"]), sections=design_view.sections(result),
                                   plots=result.plot, markdown=result.to_markdown())
        if not as_json:
            click.echo(f"report: {index}")
    if result.meta["interrupted"]:
        click.echo("interrupted: " + ("the confirmed setting is reported" if result.confirmed else
                                      "nothing was confirmed; nothing written"), err=True)
        sys.exit(130)
    if not result.confirmed:            # an answer, but not the one asked for: scripts and CI can tell
        sys.exit(1)
