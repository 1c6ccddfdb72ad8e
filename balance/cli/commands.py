"""The `balance` command line: parse, call the API, print. No statistics are computed here."""
from __future__ import annotations

import json
import os
import sys
import typing
from contextlib import contextmanager
from pathlib import Path

import click

from ..core.defaults import DEFAULT_CHUNK
from ..scenario.layers import name_override, override_names
from ..core.notice import compile_notice, notice_mode
from ..present.outputs import OutputDirError, check_output_dir

# The command line imports numpy, pandas, Numba and the scenario model only inside the commands that need them, so
# that `balance --help` and a usage error answer at once, and a command loads its scenario (numpy and pydantic only)
# before the runner, pandas or Numba, so that a bad scenario does too (tests/test_entry.py holds it to that).

SCENARIO_HELP = "Scenario TOML file; omit it for the embedded default (Spooky Tower, public card list)."


def _fail(message: str, code: int = 2):
    """Each line of ``message`` (a ScenarioError has one for each problem it found) as ``error: LINE``, then exit."""
    for line in message.splitlines() or [""]:
        click.echo(f"error: {line}", err=True)
    sys.exit(code)


SET_HELP = ("Change one setting, KEY=VALUE, as a file that extends the scenario would (repeatable): "
            "components.buildings.12.ghost_worth=1, rules.flip_scope=building, seats.2.strategy=collector, "
            "players=3, strategy=collector. VALUE is read as TOML (12, 1.5, true, [1, 2]), else as text.")


def set_option(f):
    return click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help=SET_HELP)(f)


def _sets(sets, option: str = "--set") -> dict:
    """--set KEY=VALUE pairs as dotted overrides for load_scenario; a top-level key (players, strategy) as
    ``"KEY."``, which the loader lays over in a layer named after the --set (so it never collides with --players).
    Each is named ``OPTION KEY`` for the loader's errors (``--set players``)."""
    from ..scenario.layers import parse_value
    out = {}
    for item in sets or ():
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            _fail(f"{option} {item!r}: not KEY=VALUE (allowed: a dotted key, '=', a value, such as "
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


def _load(scenario, sets=(), **overrides):
    from ..scenario.model import ScenarioError, load_scenario
    try:
        return load_scenario(scenario, **overrides, **_sets(sets))
    except ScenarioError as err:
        _fail(str(err))


def _preload(*paths, sets=(), players=None, seed=None) -> None:
    """Load each scenario file a command names (pydantic, and numpy for a map, only), so that a bad one fails in one
    line before the command's modules (the runner, pandas, Numba) are imported; the command loads them again."""
    name_options(players, None, seed)
    for path in paths:
        if path is not None:
            _load(path, sets, players=players, seed=seed)


def _load_run(scenario, sets=(), players=None, strategy=None, seat_rotation=None, **overrides):
    """The scenario as `run` plays it: the file, then --players, --strategy, --rotate and --set laid over it."""
    name_options(players, overrides.get("games"), overrides.get("seed"), strategy, seat_rotation)
    return _load(scenario, sets, players=players, seat_rotation=seat_rotation,
                 strategy={"name": strategy} if strategy else None, **overrides)


def scenario_options(f):
    """The scenario argument and the options that change it, as `run` takes them (`replay` and `show` too, so that a
    game of a run is replayed with the run's own options)."""
    f = set_option(options(PLAYERS_OPTION, STRATEGY_OPTION, ROTATE_OPTION)(f))
    return click.argument("scenario", required=False, type=click.Path(dir_okay=False))(f)


def _check_out(out_dir, files) -> None:
    """Refuse an output folder that cannot be written before any game is played (``outputs.check_output_dir``)."""
    try:
        check_output_dir(out_dir, files)
    except OutputDirError as err:
        _fail(f"--out {err}")


def _write_failed(out_dir, err: Exception):
    """The output folder changed since it was checked (OutputDirError), or writing it failed (OSError)."""
    if isinstance(err, OutputDirError):
        _fail(f"--out {err}")
    where = f" {err.filename}" if getattr(err, "filename", None) else ""
    _fail(f"--out {out_dir}: could not write{where}: {err.strerror or err}", code=1)


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
        _fail(str(err), code=err.code)
    try:
        yield client
    except ExecutorError as err:
        _fail(str(err), code=err.code)
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


def _simulate(scenario, games, seed, players, strategy, seat_rotation, threads, chunk_size, target_ci, max_games,
              sets=(), keep_games=0, checkpoint=None, resume=None, contrasts=True, executor="local", scheduler=None,
              workers=None):
    if games is not None and target_ci is not None:
        _fail(f"-n/--games {games} with --target-ci {target_ci}: give one of them (allowed: -n for a fixed number "
              "of games, or --target-ci, with --max-games as its limit)")
    sc = _load_run(scenario, sets, players, strategy, seat_rotation, games=games, seed=seed)
    from ..run.runner import CheckpointError, RunOptions, run  # after the scenario: a bad one fails before Numba loads
    from ..scenario.model import ScenarioError
    with dask_client(executor, scheduler, workers) as client:
        try:
            return run(sc, RunOptions(threads=threads, chunk_size=chunk_size, keep_games=keep_games,
                                      target_ci=target_ci, max_games=max_games, checkpoint=checkpoint, resume=resume,
                                      contrasts=contrasts, client=client))
        except (CheckpointError, ScenarioError) as err:
            _fail(str(err))


class _OneLineErrors(click.Group):
    """Bad command-line values get one line and exit code 2, as bad scenario values do; --help keeps the usage."""

    def main(self, *args, **kwargs):
        try:
            with override_names():      # an error in an option's override names the option (name_options)
                return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.exceptions.Abort:          # Ctrl-C before any game finished (while loading or compiling)
            click.echo("interrupted before any game finished", err=True)
            sys.exit(130)
        except getattr(click.exceptions, "NoArgsIsHelpError", ()) as err:     # `balance` alone: the help
            click.echo(err.ctx.get_help())
            sys.exit(0)
        except click.ClickException as err:
            where = f"{err.ctx.command_path}: " if getattr(err, "ctx", None) is not None else ""
            message = " ".join(err.format_message().split())
            click.echo(f"error: {where}{message} (see --help)", err=True)
            sys.exit(err.exit_code)
        except BrokenPipeError:         # `balance ... | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as err:        # noqa: BLE001 - a bug in balance: one line, never a traceback
            if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
                raise
            _internal_error(err)


DEBUG_ENV = "BALANCE_DEBUG"         # set (to anything but 0): an internal error shows its traceback
INTERNAL_ERROR = 70                 # the exit code of an internal error (sysexits' EX_SOFTWARE)


def _internal_error(err: Exception) -> typing.NoReturn:
    """An exception no command expected: one line saying what happened and what to send in a bug report, and exit
    code 70. A disagreement of the two engines names its scenario, seed and game, and the commands that show them."""
    from ..games import EngineDisagreement
    if isinstance(err, EngineDisagreement):
        from ..run.runner import replay_args
        try:
            args = replay_args(err.scenario)
        except Exception:       # noqa: BLE001 - the report must come out whatever else is wrong
            args = None
        args = "SCENARIO" if args is None else args
        what = str(err)
        replay = f"balance replay {args} --seed {err.seed} --game {err.game}".replace("  ", " ")
        send = f"the command `{replay}` and the output of `{f'balance show {args}'.strip()}`"
    else:
        what = f"{type(err).__name__}: {err}"
        send = "the command you ran and the output of `balance show` with its scenario and options"
    what = " ".join(what.split())
    click.echo(f"internal error (a bug in balance, not in your input): {what}. Please report it with {send}; "
               f"{DEBUG_ENV}=1 shows the traceback.", err=True)
    sys.exit(INTERNAL_ERROR)


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="balance")
def main():
    """Monte Carlo balance analysis for tabletop games: win rates, game lengths and card values, with their
    uncertainty."""


@main.command()
@run_options
@click.option("--keep-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Keep up to this many per-game rows (saved with --out).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Write results.parquet (the seats table), games.parquet (with --keep-games) and meta.json into "
                   "this folder (new, empty, or an earlier --out).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
def run(scenario, out_dir, as_json, **kw):
    """Play a scenario's games and print seat win rates, victory kinds, lengths and card values."""
    if out_dir:
        from ..present.results import Results
        _check_out(out_dir, Results.FILES)
    results = _simulate(scenario, **kw)
    if as_json:
        click.echo(json.dumps(results.to_dict(), indent=2))
    else:
        click.echo(results.summary())
        click.echo(results.speed_line())
        if results.meta.get("target_ci"):
            click.echo(results.target_line())
    if results.meta.get("interrupted"):
        click.echo(f"interrupted after {results.tallies.games:,} games"
                   + (f"; nothing written to {out_dir}" if out_dir else ""), err=True)
        sys.exit(130)
    if out_dir:
        try:
            results.save(out_dir)
        except (OSError, OutputDirError) as err:
            _write_failed(out_dir, err)
        if not as_json:
            click.echo(f"results written to {out_dir}/")


@main.command()
@run_options
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Report folder: new, empty, or an earlier report (default: reports/ and the scenario's name "
                   "in lower case, each run of other characters one '_': reports/spooky_tower_public_card_list_"
                   "embedded_default for the embedded default).")
@click.option("--cards", "with_cards", is_flag=True,
              help="Also play each card removed in turn against the scenario (paired, as `balance cards` does, with "
                   "the same games) and add the causal card values to the report.")
def report(scenario, out_dir, with_cards, **kw):
    """Play a scenario and write an HTML report, a Markdown summary and PNG plots."""
    sc = _load(scenario, kw.get("sets"))
    from ..present.report import files_for, write_report
    if out_dir is None:
        out_dir = Path("reports") / folder_name(sc.name)
    _check_out(out_dir, files_for(sc))
    results = _simulate(scenario, **kw)
    click.echo(results.summary())
    click.echo(results.speed_line())
    if results.meta.get("interrupted"):
        click.echo(f"interrupted after {results.tallies.games:,} games; no report written to {out_dir}", err=True)
        sys.exit(130)
    card_values = None
    if with_cards:
        from ..analysis.studies.cards import cards as card_study
        try:
            card_values = card_study(_load(scenario, kw.get("sets")), games=kw.get("games"), seed=kw.get("seed"),
                                     players=kw.get("players"), threads=kw.get("threads"))
        except ValueError as err:
            _fail(f"{scenario or '<default>'}: --cards: {err}")
        click.echo(card_values.summary())
    try:
        index = write_report(results, out_dir, [tuple(a) for a in results.meta.get("assumptions", [])],
                             cards=card_values)
    except (OSError, OutputDirError) as err:
        _write_failed(out_dir, err)
    click.echo(f"report: {index}")


@main.command()
@scenario_options
def show(scenario, sets, **lineup):
    """Print the scenario resolved in full: every default filled in, exactly what would run (with the options given,
    as `run` takes them)."""
    click.echo(_load_run(scenario, sets, **lineup).to_toml(), nl=False)


@main.command()
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="Run seed (default: the scenario's).")
@click.option("--game", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Game index within the run.")
@scenario_options
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True,
              help="Readable English, or one JSON event per line.")
def replay(scenario, seed, game, sets, fmt, **lineup):
    """Narrate one game of a run, move by move, as the kernel and the reference engine both play it; the scenario's
    options as `run` takes them."""
    sc = _load_run(scenario, sets, **lineup)
    spec = sc.spec()
    if spec.replay is None:
        _fail(f"{spec.name}: no replay for this game yet")
    with compile_notice(spec.title, notice_mode(None)):
        played = spec.replay(sc, sc.seed if seed is None else seed, game)
    try:
        if fmt == "jsonl":
            for line in spec.narrate_jsonl(played):
                click.echo(line)
        else:
            click.echo(spec.narrate_text(played))
        sys.stdout.flush()
    except BrokenPipeError:         # `balance replay ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@main.command("show-map")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--level", type=click.IntRange(1, 9), help="Draw one level only (default: every level).")
def show_map(scenario, level):
    """Draw the scenario's map as text (walls, rooms, hallways, doors, staircases), so a designer can check it."""
    sc = _load(scenario)
    spec = sc.spec()
    if spec.draw_map is None:
        _fail(f"{scenario or '<default>'}: {spec.title} is not played on a map (allowed: a scenario of a game with "
              "a map, such as haunted_tower)")
    try:
        click.echo(spec.draw_map(sc, level), nl=False)
    except ValueError as err:
        _fail(f"{scenario or '<default>'}: --level {level}: {err}")


@main.command()
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("-n", "--games", type=click.IntRange(min=1000), default=2_000_000, show_default=True,
              help="Games for the kernel and the floor.")
@click.option("--reference-games", type=click.IntRange(min=10), default=300, show_default=True,
              help="Games for the (slow) reference engine.")
@PLAYERS_OPTION
@THREADS_OPTION
@click.option("--cold/--no-cold", default=True, show_default=True,
              help="Also time the kernel's compile into a fresh Numba cache, in a new process (what a first run "
                   "pays; tens of seconds).")
@click.option("--report-games", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="Games of the timed report (its games, then its tables, figures and files); 0: no report.")
def bench(scenario, games, reference_games, players, threads, cold, report_games):
    """Measure kernel games per second against the reference engine and a no-rules floor (information only), on
    the same seeds; a whole run against the kernel; a report's games, figures and files; and the kernel's cold
    compile time."""
    from ..run.bench import benchmark

    name_options(players)
    sc = _load(scenario, players=players)
    click.echo(benchmark(sc, games=games, reference_games=reference_games, threads=threads, cold=cold,
                         report_games=report_games).to_text())


@main.command()
def games():
    """List the games and their strategies with every parameter and default."""
    from ..games import registry

    for spec in registry().values():
        lo, hi = spec.min_players, spec.max_players
        click.echo(f"{spec.name}: {spec.title}, {lo if lo == hi else f'{lo}-{hi}'} players")
        click.echo("  strategies:")
        for st in spec.strategies.values():
            click.echo(f"    {st.name}: {st.doc}")
            for p in st.params:
                click.echo(f"        {p.name} = {p.default:g}  [{p.low:g}, {p.high:g}]  {p.doc}")
        for section, model in (("rules", spec.rules_model), ("components", spec.components_model)):
            click.echo(f"  [{section}] (docs/scenarios.md):")
            values = model().model_dump(mode="json", exclude_none=True)
            for name, field in model.model_fields.items():
                click.echo(f"    {name} = {_brief(values.get(name))}  {field.description or ''}".rstrip())


def _brief(value) -> str:
    """A default as a designer would write it, short: a list of tables as its count."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return f"[{len(value)} tables]"
    if isinstance(value, dict) and len(json.dumps(value)) > 60:
        return f"{{{len(value)} entries}}"
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


from .study import register as _register_studies  # noqa: E402  (the study commands live in their own module)
from .check import register as _register_checks  # noqa: E402  (check and tournament: their own module too)

_register_studies(main)
_register_checks(main)
