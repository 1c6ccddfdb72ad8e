"""What the `balance` commands share: their options (public names, one per option or group of options), loading
scenario files with --set and name overrides, the one-line failure, output folders and the Dask client.

The command line imports numpy, pandas, Numba and the scenario model only inside the commands that need them, so
that `balance --help` and a usage error answer at once, and a command loads its scenario (numpy and pydantic only)
before the runner, pandas or Numba, so that a bad scenario does too (tests/cli/test_entry.py holds it to that)."""
from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from ..core.defaults import DEFAULT_CHUNK
from ..core.outputs import OutputDirError, check_output_dir
from ..scenario.layers import name_override

SCENARIO_HELP = "Scenario TOML file; omit it for the embedded default (Spooky Tower, public card list)."


def fail(message: str, code: int = 2):
    """Each line of ``message`` (a ScenarioError has one for each problem it found) as ``error: LINE``, then exit."""
    for line in message.splitlines() or [""]:
        click.echo(f"error: {line}", err=True)
    sys.exit(code)


SET_HELP = ("Change one setting, KEY=VALUE, as a file that extends the scenario would (repeatable): "
            "components.buildings.12.ghost_worth=1, rules.flip_scope=building, seats.2.strategy=collector, "
            "players=3, strategy=collector. VALUE is read as TOML (12, 1.5, true, [1, 2]), else as text.")


def set_option(f):
    return click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help=SET_HELP)(f)


def parse_sets(sets, option: str = "--set") -> dict:
    """--set KEY=VALUE pairs as dotted overrides for load_scenario; a top-level key (players, strategy) as
    ``"KEY."``, which the loader lays over in a layer named after the --set (so it never collides with --players).
    Each is named ``OPTION KEY`` for the loader's errors (``--set players``)."""
    from ..scenario.layers import parse_value
    out = {}
    for item in sets or ():
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            fail(f"{option} {item!r}: not KEY=VALUE (allowed: a dotted key, '=', a value, such as "
                  "rules.flip_scope=building)")
        key = key.strip()
        given = key if "." in key else f"{key}."
        out[given] = parse_value(text.strip())
        name_override(given, out[given], f"{option} {key}")
    return out


def name_options(players=None, games=None, seed=None, strategy=None, seat_rotation=None) -> None:
    """Name the command's options that become scenario overrides, so that an error in one names the option
    (``scenarios/x.toml (--players 9): players: out of range ...``) and not a Python keyword."""
    for key, value, name in (("players", players, f"--players {players}"), ("games", games, f"-n {games}"),
                             ("seed", seed, f"--seed {seed}"),
                             ("strategy", {"name": strategy} if strategy else None, f"--strategy {strategy}"),
                             ("seat_rotation", seat_rotation, "--rotate" if seat_rotation else "--no-rotate")):
        if value is not None:
            name_override(key, value, name)


def folder_name(name: str) -> str:
    """A scenario's name as a folder name: lower case, each run of other characters than a-z and 0-9 one '_'."""
    import re
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "scenario"


def load(scenario, sets=(), **overrides):
    from ..scenario.model import ScenarioError, load_scenario
    try:
        return load_scenario(scenario, **overrides, **parse_sets(sets))
    except ScenarioError as err:
        fail(str(err))


def preload(*paths, sets=(), players=None, seed=None) -> None:
    """Load each scenario file a command names (pydantic, and numpy for a map, only), so that a bad one fails in one
    line before the command's modules (the runner, pandas, Numba) are imported; the command loads them again."""
    name_options(players, None, seed)
    for path in paths:
        if path is not None:
            load(path, sets, players=players, seed=seed)


def load_run(scenario, sets=(), players=None, strategy=None, seat_rotation=None, **overrides):
    """The scenario as `run` plays it: the file, then --players, --strategy, --rotate and --set laid over it."""
    name_options(players, overrides.get("games"), overrides.get("seed"), strategy, seat_rotation)
    return load(scenario, sets, players=players, seat_rotation=seat_rotation,
                 strategy={"name": strategy} if strategy else None, **overrides)


def scenario_options(f):
    """The scenario argument and the options that change it, as `run` takes them (`replay` and `show` too, so that a
    game of a run is replayed with the run's own options)."""
    f = set_option(options(PLAYERS_OPTION, STRATEGY_OPTION, ROTATE_OPTION)(f))
    return click.argument("scenario", required=False, type=click.Path(dir_okay=False))(f)


def check_out(out_dir, files) -> None:
    """Refuse an output folder that cannot be written before any game is played (``outputs.check_output_dir``)."""
    try:
        check_output_dir(out_dir, files)
    except OutputDirError as err:
        fail(f"--out {err}")


def write_failed(out_dir, err: Exception):
    """The output folder changed since it was checked (OutputDirError), or writing it failed (OSError)."""
    if isinstance(err, OutputDirError):
        fail(f"--out {err}")
    where = f" {err.filename}" if getattr(err, "filename", None) else ""
    fail(f"--out {out_dir}: could not write{where}: {err.strerror or err}", code=1)


def options(*opts):
    """One decorator that applies click options in the order given (the order ``--help`` lists them)."""
    def apply(f):
        for opt in reversed(opts):
            f = opt(f)
        return f
    return apply


PLAYERS_OPTION = click.option("--players", type=int, help="Number of players (default: the scenario's).")
STRATEGY_OPTION = click.option("--strategy", help="Play this strategy in every seat, with its default parameters.")
ROTATE_OPTION = click.option("--rotate/--no-rotate", "seat_rotation", default=None,
                             help="Rotate the lineup through the seats (default: the scenario's).")
THREADS_OPTION = click.option("--threads", type=click.IntRange(min=1),
                              help="Worker threads (default: all cores).")
CHUNK_SIZE_OPTION = click.option("--chunk-size", type=click.IntRange(min=1), default=DEFAULT_CHUNK,
                                 show_default=True, help="Games per chunk (memory); does not change any result.")
JSON_OPTION = click.option("--json", "as_json", is_flag=True,
                           help="Print the result as JSON instead of tables.")


EXECUTOR_OPTIONS = (
    click.option("--executor", type=click.Choice(["local", "dask", "dask-local"]), default="local",
                 show_default=True, help="Where the games run: this machine's threads, the Dask scheduler at "
                 "--scheduler, or a local Dask cluster of --workers processes (needs balance[dask]); the "
                 "results are the same."),
    click.option("--scheduler", metavar="ADDRESS", help="The Dask scheduler, such as tcp://host:8786."),
    click.option("--workers", type=click.IntRange(min=1),
                 help="Worker processes of --executor dask-local (default: one per core)."),
)


@contextmanager
def dask_client(executor: str, scheduler: str | None, workers: int | None):
    """The Dask client of --executor (None for local), closed afterwards; a Dask problem is one line."""
    from ..run.runner import ExecutorError
    if executor == "local":
        yield None
        return
    from ..run.executor import close, connect
    try:
        client = connect(executor, scheduler, workers)
    except ExecutorError as err:
        fail(str(err), code=err.code)
    try:
        yield client
    except ExecutorError as err:
        fail(str(err), code=err.code)
    finally:
        close(client)


def run_options(f):
    """Options shared by `run` and `report`."""
    opts = [
        click.option("-n", "--games", type=click.IntRange(min=1),
                     help="Games to play (default: the scenario's). Not with --target-ci, which decides it."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="Run seed (default: the scenario's)."),
        PLAYERS_OPTION,
        STRATEGY_OPTION,
        ROTATE_OPTION,
        THREADS_OPTION,
        CHUNK_SIZE_OPTION,
        click.option("--target-ci", type=click.FloatRange(min=1e-5, max=1.0),
                     help="Play until every seat's 95% win-rate interval is at most this wide, e.g. 0.005."),
        click.option("--max-games", type=click.IntRange(min=1), default=100_000_000, show_default=True,
                     help="The most games --target-ci may play."),
        click.option("--checkpoint", type=click.Path(dir_okay=False),
                     help="Save the aggregates to this file after every chunk (about every half second)."),
        click.option("--resume", type=click.Path(dir_okay=False, exists=True),
                     help="Go on from a --checkpoint file of the same scenario: the final numbers are those of an "
                          "uninterrupted run."),
        click.option("--contrasts/--no-contrasts", default=True, show_default=True,
                     help="Also play the game's contrast variants (a co-operative game's standing one-key changes, "
                          "same seed and games) and compare their win rates with the scenario's."),
        *EXECUTOR_OPTIONS,
    ]
    f = set_option(options(*opts)(f))
    return click.argument("scenario", required=False, type=click.Path(dir_okay=False))(f)


def simulate(scenario, games, seed, players, strategy, seat_rotation, threads, chunk_size, target_ci, max_games,
              sets=(), keep_games=0, checkpoint=None, resume=None, contrasts=True, executor="local", scheduler=None,
              workers=None):
    if games is not None and target_ci is not None:
        fail(f"-n/--games {games} with --target-ci {target_ci}: give one of them (allowed: -n for a fixed number "
              "of games, or --target-ci, with --max-games as its limit)")
    sc = load_run(scenario, sets, players, strategy, seat_rotation, games=games, seed=seed)
    from ..run.runner import CheckpointError, RunOptions, run  # after the scenario: a bad one fails before Numba loads
    from ..scenario.model import ScenarioError
    with dask_client(executor, scheduler, workers) as client:
        try:
            return run(sc, RunOptions(threads=threads, chunk_size=chunk_size, keep_games=keep_games,
                                      target_ci=target_ci, max_games=max_games, checkpoint=checkpoint, resume=resume,
                                      contrasts=contrasts, client=client))
        except (CheckpointError, ScenarioError) as err:
            fail(str(err))


def search_options(games_help: str, what: str, first_round: int, candidates_help: str, least: int) -> tuple:
    """The options of a search confirmed on the scenario's seed (`tune`, `design`): -n, --seed, --players,
    --candidates, --first-round."""
    return (click.option("-n", "--games", type=click.IntRange(min=100), help=games_help),
            click.option("--seed", type=click.IntRange(0, 2**63 - 1),
                         help=f"The scenario's seed, on which {what} is confirmed (the search plays a seed derived "
                              "from it)."),
            PLAYERS_OPTION,
            click.option("--candidates", type=click.IntRange(min=least), default=16, show_default=True,
                         help=candidates_help),
            click.option("--first-round", type=click.IntRange(min=100), default=first_round, show_default=True,
                         help="Games each candidate plays in the first round; each round doubles them for the "
                              "better half."))


def show_and_write(result, out_file, as_json: bool, what: str) -> None:
    """Print a search's result (``tune``, ``design``) and write its fragment to ``out_file`` when it confirmed one;
    ``what`` names the file in the closing line ("tuned scenario")."""
    if out_file:
        result.meta["fragment_path"] = str(out_file)
    click.echo(result.to_json() if as_json else result.summary())
    if result.confirmed and out_file:
        try:
            result.write_fragment(out_file)
        except OSError as err:
            fail(f"--out {out_file}: could not write: {err.strerror or err}", code=1)
        if not as_json:
            click.echo(f"{what}: {out_file}")
