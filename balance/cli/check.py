"""`balance check` and `balance tournament`: parse, call the API (``balance.analysis.checks``, ``balance.tournament``),
print and write. No statistics are computed here."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from .options import (CHUNK_SIZE_OPTION, EXECUTOR_OPTIONS, JSON_OPTION, PLAYERS_OPTION, THREADS_OPTION, check_out,
                  fail, preload, parse_sets, write_failed, dask_client, name_options, options, set_option)
from ..scenario.layers import name_override


def check_options(f):
    """The options `check` and `tournament` share with `run`."""
    return set_option(options(
        click.option("-n", "--games", type=click.IntRange(min=1), help="Games (see the command's help for of what)."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="Run seed (default: the scenario's)."),
        PLAYERS_OPTION,
        THREADS_OPTION,
        CHUNK_SIZE_OPTION,
        click.option("--target-ci", type=click.FloatRange(min=1e-5, max=1.0),
                     help="Precision to stop at (see the command's help)."),
        JSON_OPTION,
        click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
                     help="Write a report folder (index.html, summary.md, PNG plots): new, empty, or an earlier "
                          "report of the same command."),
    )(f))


def _write_file(path: str, text: str, what: str) -> None:
    """A file written beside its place and moved over it, so a reader never sees half of it."""
    target = Path(path)
    if target.is_dir():
        fail(f"{what} {path}: a folder (allowed: a file path)")
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as err:
        fail(f"{what} {path}: could not write: {err.strerror or err}", code=1)


@click.command()
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False))
@check_options
@click.option("--alpha", type=click.FloatRange(min=1e-6, max=0.5, min_open=False), default=0.05, show_default=True,
              help="Error rate of each claim: a true claim fails, or a false one passes, at most this often.")
@click.option("--baseline", type=click.Path(file_okay=False, exists=True),
              help="A folder `balance run --out` wrote: list every metric that moved significantly since.")
@click.option("--summary", "summary_file", type=click.Path(dir_okay=False),
              help="Write a Markdown summary here (for $GITHUB_STEP_SUMMARY).")
@click.option("--junit", "junit_file", type=click.Path(dir_okay=False),
              help="Write JUnit XML here: one test case per claim.")
def check(scenarios, games, seed, players, threads, chunk_size, target_ci, as_json, out_dir, sets, alpha,
          baseline, summary_file, junit_file):
    """Decide the balance claims of each scenario's [checks] table (docs/scenarios.md).

    Each scenario plays 1,000 games, then twice as many, and so on up to its game cap (-n, default the scenario's
    games), until every claim's anytime-valid 95% interval decides it. --target-ci W stops a claim as inconclusive
    once its interval is at most W wide. With --baseline, every scenario plays its whole cap. Exit code 0: every
    claim passes; 1: one fails; 3: none fails but one is inconclusive at the cap; 2: bad input."""
    name_options(players, games, seed)
    preload(*scenarios, sets=sets, players=players, seed=seed)
    from ..analysis.checks.run import check as run_check
    from ..present.report.study import files
    from ..scenario.model import ScenarioError

    if out_dir:
        check_out(out_dir, files(("claims", "baseline")))
    try:
        report = run_check(list(scenarios), games=games, seed=seed, players=players, threads=threads,
                           chunk_size=chunk_size, target_ci=target_ci, alpha=alpha, baseline=baseline,
                           sets=parse_sets(sets))
    except ScenarioError as err:
        fail(str(err))
    except (ValueError, OSError) as err:
        fail(f"--baseline {baseline}: {err}" if baseline and "baseline" not in str(err) else str(err))
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(report.summary())
    if summary_file:
        _write_file(summary_file, report.to_markdown(), "--summary")
    if junit_file:
        _write_file(junit_file, report.to_junit(), "--junit")
    if out_dir:
        from ..analysis.checks.text import baseline_display, claims_display
        from ..present.report.study import write_study_report
        sections = [(f"{s.name}: claims", claims_display(s.claims)) for s in report.scenarios if len(s.claims)]
        sections += [(f"{s.name}: moved against the baseline", baseline_display(s.baseline))
                     for s in report.scenarios if s.baseline is not None]
        try:
            index = write_study_report(out_dir, title=f"balance check: {report.outcome.upper()}",
                                       heading=", ".join(s.name for s in report.scenarios),
                                       findings=list(report.findings["text"]), sections=sections,
                                       plots=report.plot, markdown=report.to_markdown(),
                                       possible_figures=("claims", "baseline"))
        except (OSError, ValueError) as err:
            write_failed(out_dir, err)
        if not as_json:
            click.echo(f"report: {index}")
    sys.exit(report.exit_code)


@click.command()
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--strategies", required=True, metavar="A,B,C[:PARAM=VALUE]",
              help="The contestants: strategy names, each optionally with parameters, as "
                   "ghost_hunter,collector,collector:stack_target=5.")
@check_options
@click.option("--max-games", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="The most games per table --target-ci may play.")
@options(*EXECUTOR_OPTIONS)
def tournament(scenario, strategies, games, seed, players, threads, chunk_size, target_ci, as_json, out_dir, sets,
               max_games, executor, scheduler, workers):
    """Play every strategy variant against the others at every seating and rate them.

    -n is games per table (default: the scenario's), split evenly over its seatings. --target-ci W doubles the games
    per table from 1,000 until every variant's win-rate interval (co-operative games: every team's) is at most W
    wide. A competitive game's variants get Bradley-Terry ratings; a co-operative game's the mean team win rate."""
    from ..present.report.study import files
    from ..scenario.model import ScenarioError
    from ..analysis.tournaments import tournament as play

    if games is not None and target_ci is not None:
        fail(f"-n/--games {games} with --target-ci {target_ci}: give one of them (allowed: -n for games per table, "
              "or --target-ci, with --max-games as its limit)")
    if out_dir:
        check_out(out_dir, files(("ratings", "matrix")))
    name_options(players, games, seed)
    name_override("strategies", strategies, "--strategies")
    with dask_client(executor, scheduler, workers) as client:
        try:
            t = play(scenario, strategies, games=games, seed=seed, players=players, threads=threads,
                     chunk_size=chunk_size, target_ci=target_ci, max_games=max_games, sets=parse_sets(sets), client=client)
        except ScenarioError as err:
            fail(str(err))
    click.echo(json.dumps(t.to_dict(), indent=2) if as_json else t.summary())
    if out_dir:
        from ..present.report.study import write_study_report
        from ..present.tournaments_view import heading, sections
        try:
            index = write_study_report(out_dir, title=f"Tournament: {t.meta['scenario']}", heading=heading(t),
                                       findings=list(t.findings["text"]), sections=sections(t), plots=t.plot,
                                       markdown=t.to_markdown(), possible_figures=("ratings", "matrix"))
        except (OSError, ValueError) as err:
            write_failed(out_dir, err)
        if not as_json:
            click.echo(f"report: {index}")


@click.command("affected")
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--changed", "changed_file", type=click.File("r"), default="-",
              help="A file listing the changed paths, one a line, as `git diff --name-only BASE HEAD` prints them "
                   "(default: standard input).")
def affected(scenarios, changed_file):
    """List the SCENARIOS a change touches, one a line: each whose file, whose `extends` chain (at any depth) or
    whose loaded files (a map) include a changed path, and each that does not load (`balance check` then says why).

    \b
    git diff --name-only BASE HEAD | balance affected scenarios/*.toml"""
    from ..scenario.affected import affected as touched
    changed = [line.rstrip("\r\n") for line in changed_file]
    for path in touched(scenarios, [c for c in changed if c]):
        click.echo(path)


def register(group: click.Group) -> None:
    group.add_command(check)
    group.add_command(tournament)
    group.add_command(affected)
