"""The study commands (`compare`, `sweep`, `cards`): parse, call :mod:`balance.analysis.studies`, print. No statistics
here."""
from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from .options import (EXECUTOR_OPTIONS, JSON_OPTION, PLAYERS_OPTION, THREADS_OPTION, check_out, fail, preload,
                       parse_sets, write_failed, dask_client, name_options, options, set_option)
from ..scenario.layers import ANY, name_override
from ..core.outputs import OutputDirError
from ..core.notice import show_progress


def study_options(f):
    """What every study command takes, as `run` does."""
    return options(
        click.option("-n", "--games", type=click.IntRange(min=1),
                     help="Games of each scenario (default: the scenario's). Not with --target-ci."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="Run seed, shared by every scenario."),
        PLAYERS_OPTION,
        THREADS_OPTION,
        click.option("--target-ci", type=click.FloatRange(min=1e-5, max=1.0),
                     help="Play until every win-rate interval (of a difference, or of a sweep cell) is at most this "
                          "wide, e.g. 0.005."),
        click.option("--max-games", type=click.IntRange(min=1000), default=10_000_000, show_default=True,
                     help="The most games --target-ci (or --until-decided) may play."),
        JSON_OPTION,
        click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
                     help="Also write a report folder (index.html, summary.md, PNG plots, CSV): new, empty, or an "
                          "earlier report of this command."),
        *EXECUTOR_OPTIONS,
    )(f)


@contextmanager
def progress_bar(total, unit, enabled):
    """A tqdm bar on a terminal (never in CI or a pipe); yields a function given the count so far (and the total,
    when it changes as the command goes)."""
    if not show_progress(enabled):
        yield None
        return
    from tqdm import tqdm
    bar = tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr)

    def update(done, new_total=None):
        if new_total is not None and new_total != bar.total:
            bar.total = new_total
        bar.update(done - bar.n)
    try:
        yield update
    finally:
        bar.close()


def _finish(study, out_dir, as_json):
    if study.meta.get("interrupted"):
        click.echo(f"interrupted after {study.meta.get('games', 0):,} games; nothing written", err=True)
        sys.exit(130)
    click.echo(study.to_json() if as_json else study.summary())
    if out_dir:
        try:
            index = study.write_report(out_dir)
        except (OSError, OutputDirError) as err:
            write_failed(out_dir, err)
        if not as_json:
            click.echo(f"report: {index}")


def _call(fn, *args, **kw):
    """A study with the command's options (``players``, ``games``, ``seed``), each named for the loader's errors."""
    from ..scenario.model import ScenarioError
    name_options(kw.get("players"), kw.get("games"), kw.get("seed"))
    try:
        return fn(*args, **kw)
    except (ScenarioError, ValueError) as err:
        fail(str(err))


@click.command()
@click.argument("a", required=False, type=click.Path(dir_okay=False))
@click.argument("b", required=False, type=click.Path(dir_okay=False))
@set_option
@click.option("--both-set", "both_sets", multiple=True, metavar="KEY=VALUE",
              help="Change one setting of both A and B (repeatable; keys as --set, which then changes B alone): "
                   "--both-set players=3 --both-set strategy=collector --set components.buildings.12.ghost_worth=1.")
@study_options
@click.option("--question", help="A question to answer, e.g. \"seat_spread(B) < seat_spread(A)\" or "
                                 "\"win_rate[0](B) - win_rate[0](A) > 0.01\" (docs/metrics_studies.md).")
@click.option("--until-decided", is_flag=True, help="Play until --question is answered (anytime-valid confidence "
                                                    "sequence, checked after each chunk) or --max-games.")
@click.option("--alpha", type=click.FloatRange(1e-6, 0.5), default=0.05, show_default=True,
              help="Error rate of the --question answer.")
def compare(a, b, sets, both_sets, games, seed, players, threads, target_ci, max_games, as_json, out_dir, executor,
            scheduler, workers, question, until_decided, alpha):
    """Play scenario A and B (or A with --set changes) on common random numbers and print every metric of each,
    the difference and its 95% interval from the paired games, and how many games the pairing saved. --both-set
    changes A and B alike."""
    preload(a, b, players=players, seed=seed)
    from ..analysis.studies.compare import compare as run_compare

    if out_dir:
        check_out(out_dir, ("index.html", "summary.md", "differences.png", "compare.csv", "compare.parquet"))
    total = max_games if (target_ci or until_decided) else None
    with dask_client(executor, scheduler, workers) as client, progress_bar(total or games, "games", None) as progress:
        result = _call(run_compare, a, b, parse_sets(sets) if sets else None, games=games, seed=seed, players=players,
                       threads=threads, target_ci=target_ci, max_games=max_games, question=question,
                       until_decided=until_decided, alpha=alpha, progress=progress, client=client,
                       both=parse_sets(both_sets, "--both-set"))
    _finish(result, out_dir, as_json)
    if result.decision and not as_json:
        click.echo(f"answer: {result.decision['answer']} after {result.decision['games']:,} games of each")


def _grid(sets) -> dict:
    """--set KEY=V1,V2,... pairs: each value list split at commas outside brackets and quotes, each value read as
    TOML as `run --set` reads one."""
    from ..scenario.layers import parse_value, split_values
    grid = {}
    for item in sets or ():
        key, eq, text = item.partition("=")
        if not eq or not key.strip() or not text.strip():
            fail(f"--set {item!r}: not KEY=V1,V2,... (allowed: a dotted key, '=', values separated by commas, "
                  "such as components.buildings.12.ghost_worth=0,1,2)")
        key = key.strip()
        grid[key] = [parse_value(p) for p in split_values(text)]
        name_override(key if "." in key else f"{key}.", ANY, f"--set {key}")     # the key as the sweep passes it
    return grid


@click.command()
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--set", "sets", multiple=True, metavar="KEY=V1,V2,...",
              help="A key and its values to sweep (repeatable; every combination is played): "
                   "components.buildings.12.ghost_worth=0,1,2, players=2,3,4, seats.0.strategy=random,collector.")
@study_options
def sweep(scenario, sets, games, seed, players, threads, target_ci, max_games, as_json, out_dir, executor, scheduler,
          workers):
    """Play every combination of the listed values on common random numbers and print each cell's metrics with
    their 95% intervals; -o DIR also saves the tidy table as sweep.parquet and sweep.csv, with the plots."""
    preload(scenario, players=players, seed=seed)
    from ..analysis.studies.sweep import sweep as run_sweep

    grid = _grid(sets)
    if not grid:
        fail("sweep: give at least one --set KEY=V1,V2,... (allowed: any scenario key)")
    if out_dir:
        check_out(out_dir, ("index.html", "summary.md", "sweep.png", "sweep.csv", "sweep.parquet"))
    cells = 1
    for v in grid.values():
        cells *= len(v)
    with dask_client(executor, scheduler, workers) as client, progress_bar(cells, "cells", None) as progress:
        result = _call(run_sweep, scenario, grid, games=games, seed=seed, players=players, threads=threads,
                       target_ci=target_ci, max_games=max_games, progress=progress, client=client)
    _finish(result, out_dir, as_json)


@click.command()
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@study_options
def cards(scenario, games, seed, players, threads, target_ci, max_games, as_json, out_dir, executor, scheduler,
          workers):
    """The causal value of each card (item): its effect removed, the same games replayed on common random numbers,
    and the paired change in every metric against the unchanged scenario."""
    preload(scenario, players=players, seed=seed)
    from ..analysis.studies.cards import cards as run_cards

    if out_dir:
        check_out(out_dir, ("index.html", "summary.md", "cards.png", "cards.csv", "cards.parquet"))
    with dask_client(executor, scheduler, workers) as client, \
            progress_bar(max_games if target_ci else None, "games", None) as progress:
        result = _call(run_cards, scenario, games=games, seed=seed, players=players, threads=threads,
                       target_ci=target_ci, max_games=max_games, progress=progress, client=client)
    _finish(result, out_dir, as_json)


def register(main: click.Group) -> None:
    """Add the study commands to the `balance` group."""
    from .design import design
    from .tune import tune
    for command in (compare, sweep, cards, tune, design):
        main.add_command(command)
