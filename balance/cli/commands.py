"""The commands that play a scenario and show what came of it: run, report, show, replay, show-map, bench and games.
They parse, call the API and print; no statistics are computed here."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ..core.notice import compile_notice, notice_mode
from ..core.outputs import OutputDirError
from .options import (PLAYERS_OPTION, THREADS_OPTION, check_out, fail, folder_name, load, load_run, name_options,
                      run_options, scenario_options, simulate, write_failed)


@click.command()
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
        from ..stats.results import Results
        check_out(out_dir, Results.FILES)
    results = simulate(scenario, **kw)
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
            write_failed(out_dir, err)
        if not as_json:
            click.echo(f"results written to {out_dir}/")


@click.command()
@run_options
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Report folder: new, empty, or an earlier report (default: reports/ and the scenario's name "
                   "in lower case, each run of other characters one '_': reports/spooky_tower_public_card_list_"
                   "embedded_default for the embedded default).")
@click.option("--cards", "with_cards", is_flag=True,
              help="Also play each card removed in turn against the scenario (paired, as `balance cards` does, with "
                   "the same games) and add the causal card values to the report.")
@click.option("--strength", "with_strength", is_flag=True,
              help="Also play the scenario with its strategies tuned and with lookahead players, on the same games, "
                   "and say for each main finding whether it holds, shrinks or reverses as play gets stronger.")
@click.option("--strength-games", type=click.IntRange(100, None), default=None,
              help="Games of each strength level (default: 2,000).")
@click.option("--tuned", "tuned_file", type=click.Path(dir_okay=False),
              help="With --strength: a tuned scenario (as `balance tune -o` writes) instead of tuning here.")
@click.option("--playouts", type=int, default=None,
              help="With --strength: the lookahead's playouts per choice (default: the lookahead's own).")
def report(scenario, out_dir, with_cards, with_strength, strength_games, tuned_file, playouts, **kw):
    """Play a scenario and write an HTML report, a Markdown summary and PNG plots."""
    if not with_strength and (tuned_file or playouts is not None or strength_games):
        fail("--tuned, --playouts and --strength-games: only with --strength")
    if tuned_file:
        from ..analysis.strength.levels import tuned_scenario
        from ..scenario.model import ScenarioError
        try:
            tuned_scenario(load(scenario, kw.get("sets")), tuned_file)
        except ScenarioError as err:
            fail(str(err))
    sc = load(scenario, kw.get("sets"))
    from ..present.report import files_for, write_report
    if out_dir is None:
        out_dir = Path("reports") / folder_name(sc.name)
    check_out(out_dir, files_for(sc))
    results = simulate(scenario, **kw)
    click.echo(results.summary())
    click.echo(results.speed_line())
    if results.meta.get("interrupted"):
        click.echo(f"interrupted after {results.tallies.games:,} games; no report written to {out_dir}", err=True)
        sys.exit(130)
    card_values = None
    if with_cards:
        from ..analysis.studies.cards import cards as card_study
        try:
            card_values = card_study(load(scenario, kw.get("sets")), games=kw.get("games"), seed=kw.get("seed"),
                                     players=kw.get("players"), threads=kw.get("threads"))
        except ValueError as err:
            fail(f"{scenario or '<default>'}: --cards: {err}")
        click.echo(card_values.summary())
    stronger = None
    if with_strength:
        from ..analysis.strength import strength
        from ..scenario.model import ScenarioError
        try:
            stronger = strength(load(scenario, kw.get("sets")), games=strength_games, seed=kw.get("seed"),
                                players=kw.get("players"), threads=kw.get("threads"), tuned=tuned_file,
                                playouts=playouts, progress=lambda line: click.echo(line, err=True))
        except ScenarioError as err:
            fail(str(err))
        except ValueError as err:
            fail(f"{scenario or '<default>'}: --strength: {err}")
        except KeyboardInterrupt:
            click.echo(f"interrupted; no report written to {out_dir}", err=True)
            sys.exit(130)
        click.echo(stronger.summary())
    try:
        index = write_report(results, out_dir, [tuple(a) for a in results.meta.get("assumptions", [])],
                             cards=card_values, strength=stronger)
    except (OSError, OutputDirError) as err:
        write_failed(out_dir, err)
    click.echo(f"report: {index}")


@click.command()
@scenario_options
def show(scenario, sets, **lineup):
    """Print the scenario resolved in full: every default filled in, exactly what would run (with the options given,
    as `run` takes them)."""
    click.echo(load_run(scenario, sets, **lineup).to_toml(), nl=False)


@click.command()
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="Run seed (default: the scenario's).")
@click.option("--game", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Game index within the run.")
@scenario_options
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True,
              help="Readable English, or one JSON event per line.")
def replay(scenario, seed, game, sets, fmt, **lineup):
    """Narrate one game of a run, move by move, as the kernel and the reference engine both play it; the scenario's
    options as `run` takes them."""
    sc = load_run(scenario, sets, **lineup)
    spec = sc.spec()
    if spec.replay is None:
        fail(f"{spec.name}: no replay for this game yet")
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


@click.command("show-map")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False))
@click.option("--level", type=click.IntRange(1, 9), help="Draw one level only (default: every level).")
def show_map(scenario, level):
    """Draw the scenario's map as text (walls, rooms, hallways, doors, staircases), so a designer can check it."""
    sc = load(scenario)
    spec = sc.spec()
    if spec.draw_map is None:
        fail(f"{scenario or '<default>'}: {spec.title} is not played on a map (allowed: a scenario of a game with "
              "a map, such as haunted_tower)")
    try:
        click.echo(spec.draw_map(sc, level), nl=False)
    except ValueError as err:
        fail(f"{scenario or '<default>'}: --level {level}: {err}")


@click.command()
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
@click.option("--lookahead-games", type=click.IntRange(min=0), default=20, show_default=True,
              help="Games in which a game's lookahead strategy (seat 0, at its defaults) is timed, one thread; 0: "
                   "none.")
def bench(scenario, games, reference_games, players, threads, cold, report_games, lookahead_games):
    """Measure kernel games per second against the reference engine and a no-rules floor (information only), on
    the same seeds; a game's lookahead strategy's decisions per second; a whole run against the kernel; a report's
    games, figures and files; and the kernel's cold compile time."""
    from .bench import benchmark

    name_options(players)
    sc = load(scenario, players=players)
    click.echo(benchmark(sc, games=games, reference_games=reference_games, threads=threads, cold=cold,
                         report_games=report_games, lookahead_games=lookahead_games).to_text())


@click.command()
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
