"""`balance tune`: parse, call :func:`balance.analysis.tuning.tune`, print and write the fragment. No statistics
here."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .options import (EXECUTOR_OPTIONS, JSON_OPTION, THREADS_OPTION, dask_client, fail, name_options, options,
                      parse_sets, preload, search_options, set_option, show_and_write)
from .study import progress_bar


@click.command()
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--seat", type=int, help="Tune this seat's strategy (the scenario's seats, from 0) for its win rate.")
@click.option("--role", metavar="NAME", help="Tune the strategy of the seat that plays this role (The Haunted Tower: "
                                             "a hero, such as magic_user) for that role's win rate; with --seat where "
                                             "several seats play it in turn.")
@click.option("--team", is_flag=True, help="Tune every seat's strategy for the team's win rate (co-operative games).")
@set_option
@options(
    *search_options("Games of each confirmation (default: the scenario's).", "the result", 2_000,
                    "Candidates drawn from the parameter box (a Sobol sequence) besides the scenario's values.", 0),
    click.option("--stages", type=click.IntRange(min=1), default=2, show_default=True,
                 help="Searches, each after the first among candidates in a narrower box around the winner so far."),
    THREADS_OPTION,
    JSON_OPTION,
    click.option("-o", "--out", "out_file", type=click.Path(dir_okay=False),
                 help="Write the tuned scenario here: a TOML file that extends SCENARIO with the tuned values."),
    *EXECUTOR_OPTIONS,
)
def tune(scenario, seat, role, team, sets, games, seed, players, candidates, first_round, stages, threads, as_json,
         out_file, executor, scheduler, workers):
    """Search one strategy's documented parameters (each between its low and high, `balance games`) for the values
    that maximise one seat's (--seat N), one role's (--role NAME) or the team's (--team) win rate, the rest of the
    table as the scenario has it.

    Candidates race by successive halving on the same games (a seed derived from the scenario's); each round's
    leader is confirmed against the scenario's values on the scenario's own seed, which the search never plays, and
    the last confirmation is the result: the win rate before and after with 95% intervals and the gain with its
    interval from the paired games. Ctrl-C keeps the last confirmed leader."""
    if seat is not None and team:
        fail("--seat with --team: give one of them (allowed: --seat N, --role NAME, or --team)")
    if out_file and Path(out_file).is_dir():
        fail(f"--out {out_file}: a folder (allowed: a file path for the tuned scenario)")
    preload(scenario, sets=sets, players=players, seed=seed)
    from ..analysis.tuning import TuneError, tune as run_tune
    from ..scenario.model import ScenarioError

    name_options(players, games, seed)
    with dask_client(executor, scheduler, workers) as client, progress_bar(None, "games", None) as progress:
        try:
            result = run_tune(scenario, seat, role, team, sets=parse_sets(sets), games=games, seed=seed,
                              players=players, candidates=candidates, first_round=first_round, stages=stages,
                              threads=threads, progress=progress, client=client)
        except TuneError as err:
            fail(f"{scenario or '<default>'}: {err}")
        except ScenarioError as err:
            fail(str(err))
    show_and_write(result, out_file, as_json, "tuned scenario")
    if result.confirmed and out_file and not as_json:
        if not sets:
            m = result.meta
            click.echo(f"the confirmation again: balance compare {scenario + ' ' if scenario else ''}{out_file} "
                       f"--seed {m['seed']} -n {m['confirm_games']}" + (f" --players {players}" if players else ""))
    elif result.confirmed and not as_json:
        click.echo("\nTuned scenario (--out FILE writes it):\n" + result.fragment())
    if result.meta["interrupted"]:
        click.echo("interrupted: " + ("the last confirmed leader is reported" + (f" and written to {out_file}"
                                                                                  if out_file else "")
                                      if result.confirmed else "no leader was confirmed; nothing written"), err=True)
        sys.exit(130)
