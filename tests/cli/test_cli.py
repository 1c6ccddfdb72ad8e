"""The `balance` command end to end through click's CliRunner: output, exit codes, files written."""
from __future__ import annotations

import json
import threading
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from balance.cli import main
from balance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = str(ROOT / "scenarios" / "spooky_tower.toml")


@pytest.mark.parametrize("cmd", [[], ["run"], ["report"], ["show"], ["replay"], ["bench"], ["games"]])
def test_help_on_every_command(cli, cmd):
    res = cli(*cmd, "--help")
    assert res.exit_code == 0
    assert "Usage:" in res.output


def test_run_prints_every_table_and_speed(cli):
    res = cli("run", SCENARIO, "-n", 3000, "--seed", 5)
    assert res.exit_code == 0, res.output
    out = res.output
    for needle in ("Seats", "Seat equality", "Victory kinds", "ghosts", "amulet", "unfinished", "turns", "rounds",
                   "games/s", "3,000 games"):
        assert needle in out, needle


@pytest.mark.parametrize("threads, says", [(1, "on 1 thread)"), (2, "on 2 threads)")])
def test_run_speed_line_counts_threads(cli, threads, says):
    res = cli("run", "-n", 1000, "--threads", threads)
    assert res.exit_code == 0, res.output
    if threads == 2 and "on 1 thread)" in res.output:
        pytest.skip("Numba has one thread here")
    assert says in res.output


def test_run_json_and_out_dir(cli, tmp_path):
    res = cli("run", "-n", 2000, "--players", 2, "--json", "--out", tmp_path / "res", "--keep-games", 50)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert len(data["seats"]) == 2
    assert sum(s["wins"] for s in data["seats"]) + data["victories"][0]["games"] == 2000
    meta = json.loads((tmp_path / "res" / "meta.json").read_text())
    assert meta["games_played"] == 2000 and meta["seed"] == 1 and len(meta["scenario_hash"]) == 64
    assert meta["scenario"]["players"] == 2
    assert (tmp_path / "res" / "results.parquet").stat().st_size > 0


def test_run_is_reproducible_across_threads_and_chunks(cli):
    a = json.loads(cli("run", "-n", 5000, "--json", "--threads", 1, "--chunk-size", 777).stdout)
    b = json.loads(cli("run", "-n", 5000, "--json", "--threads", 2, "--chunk-size", 5000).stdout)
    for key in ("seats", "victories", "lengths", "cards"):
        assert a[key] == b[key]


def test_target_ci_stops_at_the_same_game_whatever_the_chunk_size_and_threads(cli):
    a = json.loads(cli("run", "--target-ci", 0.05, "--json", "--threads", 1, "--chunk-size", 777).stdout)
    b = json.loads(cli("run", "--target-ci", 0.05, "--json", "--threads", 2).stdout)
    assert a["meta"]["games_played"] == b["meta"]["games_played"]
    for key in ("seats", "victories", "lengths", "cards"):
        assert a[key] == b[key]


def test_kept_games_survive_later_chunks_played_into_the_same_arrays():
    """The runner plays each chunk into the previous chunk's arrays; the games kept from earlier chunks are copies."""
    from balance import simulate
    small = simulate(games=5000, seed=3, chunk_size=777, keep_games=4000, threads=1)
    whole = simulate(games=5000, seed=3, chunk_size=5000, keep_games=4000, threads=2)
    assert len(small.games) == 4000
    assert small.games["game"].tolist() == list(range(4000))
    pd.testing.assert_frame_equal(small.games, whole.games)


def test_target_ci_stops_at_the_requested_precision(cli):
    res = json.loads(cli("run", "--target-ci", 0.03, "--json").stdout)
    widths = [s["ci_high"] - s["ci_low"] for s in res["seats"]]
    assert max(widths) <= 0.03
    assert res["meta"]["target_ci_reached"] is True
    # and not wildly more games than needed: the widest interval is close to the target
    assert max(widths) > 0.025


@pytest.mark.parametrize("args, needle", [
    (["run", "--players", 5], "players"),
    (["run", "missing.toml"], "missing.toml: file not found"),
    (["run", "--strategy", "nonsense"], "nonsense"),
    (["show", "missing.toml"], "file not found"),
])
def test_bad_input_is_one_clear_line_and_exit_2(cli, args, needle):
    res = cli(*args)
    assert res.exit_code == 2
    assert needle in res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_games_and_target_ci_together_are_refused(cli):
    res = cli("run", "-n", 2000, "--target-ci", 0.1)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert "-n/--games 2000 with --target-ci 0.1" in res.output and "--max-games" in res.output


@pytest.mark.parametrize("cmd", [["run", "--out"], ["report", "-o"]])
def test_an_output_folder_holding_other_files_is_refused_before_playing(cli, tmp_path, cmd):
    mine = tmp_path / "mine"
    (mine / "sub").mkdir(parents=True)
    (mine / "notes.txt").write_text("important")
    res = cli(*cmd, mine, "-n", 500)
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert len(line.splitlines()) == 1 and "Seats" not in line and "Traceback" not in line
    assert f"--out {mine}: the folder holds other files (notes.txt, sub/)" in line and "allowed:" in line
    assert (mine / "notes.txt").read_text() == "important" and (mine / "sub").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_an_output_path_under_a_file_is_one_clear_line(cli, tmp_path):
    (tmp_path / "afile").write_text("x")
    res = cli("run", "-n", 500, "--out", tmp_path / "afile" / "res")
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert "afile is not a folder" in res.output


def test_run_out_replaces_an_earlier_run_and_prints_before_writing(cli, tmp_path):
    out = tmp_path / "res"
    assert cli("run", "-n", 500, "--out", out).exit_code == 0
    res = cli("run", "-n", 700, "--out", out)
    assert res.exit_code == 0 and "Seats" in res.output and f"results written to {out}/" in res.output
    assert json.loads((out / "meta.json").read_text())["games_played"] == 700


def test_simulate_refuses_games_with_target_ci():
    from balance import simulate
    with pytest.raises(ValueError, match="games=2000 with target_ci=0.1: give one of them"):
        simulate(games=2000, target_ci=0.1)


def test_bad_scenario_file_names_file_key_value(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "spooky_tower"\nplayers = 3\n[rules]\nflip_scope = "pile"\n')
    res = cli("run", bad)
    assert res.exit_code == 2
    line = res.output.strip()
    assert "bad.toml" in line and "rules.flip_scope" in line and "pile" in line and "card" in line


def test_show_prints_the_resolved_scenario(cli):
    res = cli("show", SCENARIO)
    assert res.exit_code == 0
    assert "[components]" in res.output and "effect_order" in res.output and "ghost_worth" in res.output


class _Tables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables = 0
        self.images = 0

    def handle_starttag(self, tag, attrs):
        self.tables += tag == "table"
        self.images += tag == "img" and any(v and v.startswith("data:image/png") for _, v in attrs)


def test_report_writes_a_complete_folder(cli, tmp_path):
    out = tmp_path / "rep"
    res = cli("report", "-n", 2000, "-o", out)
    assert res.exit_code == 0, res.output
    assert f"report: {out / 'index.html'}" in res.output
    parser = _Tables()
    parser.feed((out / "index.html").read_text())
    assert parser.tables >= 5 and parser.images == 5
    assert "flip_scope" in (out / "index.html").read_text()
    for png in ("seats", "lengths", "victories", "cards", "win_rate_by_length"):
        assert (out / f"{png}.png").stat().st_size > 0
    assert "| seat" in (out / "summary.md").read_text().lower() or "seat" in (out / "summary.md").read_text()


def test_bad_input_leaves_no_report(cli, tmp_path):
    out = tmp_path / "rep"
    res = cli("report", "--players", 9, "-o", out)
    assert res.exit_code == 2
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_games_lists_strategies(cli):
    res = cli("games")
    assert res.exit_code == 0
    for name in ("random", "ghost_hunter", "collector", "clock_rusher", "flip_min_ev"):
        assert name in res.output


def test_games_lists_every_rule_option_and_component_key_with_its_default(cli):
    from balance.games import registry
    lines = cli("games").output.splitlines()
    for spec in registry().values():
        for model in (spec.rules_model, spec.components_model):
            for name in model.model_fields:
                assert any(line.startswith(f"    {name} = ") for line in lines), (spec.name, name)
    assert '    flip_scope = "card"  ' in "\n".join(lines) and "    buildings = [12 tables]  The Town" in "\n".join(lines)
    assert '    gate_opens = "all_revealed"  ' in "\n".join(lines)


def test_games_gives_each_game_its_player_count_as_a_designer_would_write_it(cli):
    from balance.games import registry
    lines = cli("games").output.splitlines()
    for spec in registry().values():
        lo, hi = spec.min_players, spec.max_players
        count = f"{lo} players" if lo == hi else f"{lo}-{hi} players"
        assert f"{spec.name}: {spec.title}, {count}" in lines, spec.name
    assert "climbing_tower: Climbing Tower, 2 players" in lines and "spooky_tower: Spooky Tower, 2-4 players" in lines


def test_replay_text_narrates_one_game(cli):
    res = cli("replay", SCENARIO, "--seed", 3)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Turn 1 (round 1): Seat 0" in out and "rolls" in out
    assert "wins" in out.lower()


def test_replay_jsonl_is_one_event_per_line_with_snapshots(cli):
    res = cli("replay", "--seed", 3, "--players", 4, "--format", "jsonl")
    assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in res.stdout.splitlines()]
    types = {r["type"] for r in records}
    assert {"roll", "take", "snapshot", "win"} <= types
    snap = next(r for r in records if r["type"] == "snapshot")
    assert len(snap["players"]) == 4


def test_replay_is_reproducible(cli):
    assert cli("replay", "--seed", 9).stdout == cli("replay", "--seed", 9).stdout
    assert cli("replay", "--seed", 9).output != cli("replay", "--seed", 10).output


# Every error class of scenario validation, through the CLI: one line naming file, key, value and what is allowed.
BAD_SCENARIOS = {
    "unknown_key": ('game = "spooky_tower"\nplayer = 3\n', ["player"]),
    "unknown_rules_key": ('game = "spooky_tower"\n[rules]\nflip_scop = "card"\n', ["rules.flip_scop"]),
    "wrong_type": ('game = "spooky_tower"\nplayers = "three"\n', ["players", "three"]),
    "five_players": ('game = "spooky_tower"\nplayers = 5\n', ["players", "5", "2 to 4"]),
    "negative_count": ('game = "spooky_tower"\n[components]\nghost_pets = -1\n', ["components.ghost_pets", "-1"]),
    "empty_dial": ('game = "spooky_tower"\n[components]\nclock_dial = []\n', ["components.clock_dial"]),
    "unreachable_win": ('game = "spooky_tower"\n[components]\nghosts_to_win = 99\n',
                        ["components.ghosts_to_win", "99"]),
    "unknown_strategy": ('game = "spooky_tower"\nstrategy = { name = "cheater" }\n', ["strategy", "cheater"]),
    "bad_param": ('game = "spooky_tower"\nstrategy = { name = "collector", stack_target = 0.0 }\n',
                  ["stack_target", "0.0"]),
    "syntax": ('game = "spooky_tower\n', ["TOML"]),
}


@pytest.mark.parametrize("case", sorted(BAD_SCENARIOS))
def test_every_validation_error_class_through_the_cli(cli, tmp_path, case):
    text, needles = BAD_SCENARIOS[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    res = cli("run", path, "-n", 10, "--out", tmp_path / "out")
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.output
    assert f"{case}.toml" in lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert not (tmp_path / "out").exists()


class _Stream:
    """A stream that lets a test wait, without a clock, until a line has been written."""

    def __init__(self):
        import threading
        self.text, self.wrote = "", threading.Condition()

    def write(self, text):
        with self.wrote:
            self.text += text
            self.wrote.notify_all()

    def flush(self):
        pass

    def wait_for(self, needle):
        with self.wrote:
            assert self.wrote.wait_for(lambda: needle in self.text, timeout=600), self.text


def test_a_slow_compile_is_announced_with_its_elapsed_time():
    """On a terminal: one line rewritten with the elapsed time, then the total. The clock is scripted (0, 0.7, 1.4
    ... seconds), so no wall-clock time is asserted."""
    import itertools

    from balance.run.runner import compile_notice
    out = _Stream()
    ticks = itertools.count(0.0, 0.7)
    with compile_notice("Spooky Tower", True, stream=out, after=0.0, clock=lambda: next(ticks), every=0.001):
        out.wait_for("first run only ... 1 s")
    text = out.text
    assert text.startswith("\rcompiling Spooky Tower rules, first run only ... 1 s")    # 0.7 s, rounded
    assert text.endswith("later runs load them from the cache\n") and "\rcompiled Spooky Tower rules in " in text


def test_a_compile_outside_a_terminal_is_one_line_when_it_starts_and_one_when_it_ends(monkeypatch):
    """A CI log or a notebook gets whole lines, no carriage returns, and the default (progress not asked for either
    way) is this mode whenever stderr is not a terminal."""
    from balance.core.notice import notice_mode
    from balance.run.runner import compile_notice
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert notice_mode(None) == "lines" and notice_mode(False) == "off" and notice_mode(True) == "live"
    out = _Stream()
    with compile_notice("Spooky Tower", notice_mode(None), stream=out, after=0.0):
        out.wait_for("\n")
    lines = out.text.splitlines(keepends=True)
    assert "\r" not in out.text and len(lines) == 2, out.text
    assert lines[0] == "compiling Spooky Tower rules, first run only ...\n"
    assert lines[1].startswith("compiled Spooky Tower rules in ") and lines[1].endswith("from the cache\n")


def test_a_fast_load_and_a_silenced_notice_print_nothing():
    import io
    import threading

    from balance.run.runner import compile_notice
    out = io.StringIO()
    with compile_notice("Spooky Tower", True, stream=out, after=600.0):
        pass                                        # done long before the notice is due
    for off in (False, "off"):
        with compile_notice("Spooky Tower", off, stream=out, after=0.0):
            threading.Event().wait(0.05)
    assert out.getvalue() == ""


def test_set_changes_one_building_as_an_extending_file_does(cli, tmp_path):
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "{SCENARIO}"\n[[components.buildings]]\nvalue = 12\nghost_worth = 0\n',
                     encoding="utf-8")
    by_file = cli("run", child, "-n", 3000, "--json")
    by_set = cli("run", SCENARIO, "-n", 3000, "--json", "--set", "components.buildings.12.ghost_worth=0")
    plain = cli("run", SCENARIO, "-n", 3000, "--json")
    assert by_file.exit_code == by_set.exit_code == plain.exit_code == 0, by_set.output
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in ("meta", "timing")}  # noqa: E731
    assert strip(by_set.stdout)["seats"] == strip(by_file.stdout)["seats"] != strip(plain.stdout)["seats"]
    shown = cli("show", SCENARIO, "--set", "components.buildings.12.ghost_worth=0").output
    assert shown.count("[[components.buildings]]") == 12 and "ghost_worth = 0" in shown


def test_set_errors_are_one_line(cli):
    res = CliRunner().invoke(main, ["show", "--set", "seats.9.strategy=collector"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith("error: <default> (--set seats.9.strategy): seats.9.strategy: no such seat setting")
    res = CliRunner().invoke(main, ["run", "--set", "no_equals_sign"])
    assert res.exit_code == 2 and res.output.startswith("error: --set 'no_equals_sign': not KEY=VALUE")


def test_set_of_a_top_level_key_means_what_the_file_key_means(cli, tmp_path):
    """--set strategy=NAME gives every seat that strategy, as `strategy = "NAME"` in a file does; --set players=N
    sets the players (and the listed seats follow); a bad value names the key and what is allowed."""
    shown = cli("show", "--set", "strategy=collector")
    assert shown.exit_code == 0, shown.output
    assert load_scenario(tomllib.loads(shown.output)).seats == load_scenario(None, strategy="collector").seats
    three = cli("show", ROOT / "scenarios" / "haunted_tower.toml", "--set", "players=3")
    assert three.exit_code == 0 and "players = 3" in three.output and three.output.count("[[seats]]") == 3
    run = cli("run", "-n", 300, "--threads", 1, "--set", "players=2", "--set", "strategy=collector", "--json")
    assert run.exit_code == 0 and json.loads(run.stdout)["meta"]["scenario"]["players"] == 2
    for args, line in [
        (["players=abc"], "error: <default> (--set players): players: must be an integer (got 'abc'; allowed: an "
                          "integer from 2 to 4)"),
        (["strategy=colector"], "error: <default> (--set strategy): strategy.name: unknown strategy (did you mean "
                                "'collector'?) (got 'colector'; allowed: one of 'random', 'ghost_hunter', "
                                "'collector', 'clock_rusher', 'lookahead')"),
        (["players=9"], "error: <default> (--set players): players: out of range (got 9; allowed: an integer from "
                        "2 to 4)"),
    ]:
        res = CliRunner().invoke(main, ["show", *[a for x in args for a in ("--set", x)]])
        assert res.exit_code == 2 and res.output == line + "\n", res.output


def test_bench_measures_kernel_floor_and_reference(cli):
    res = cli("bench", "-n", 2000, "--reference-games", 10, "--threads", 1, "--no-cold")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("benchmark: ") and lines[1].startswith("machine:   ")
    assert "(1 thread, 2,000 games, best of 3)" in lines[2] and "(plain Python, 10 games)" in lines[5]
    assert "kernel / reference = " in lines[6] and "(information only)" in lines[6]
    assert not any("cold compile" in line for line in lines)


@pytest.mark.parametrize("args, says", [
    (["run", "--threads", "0"], "error: balance run: Invalid value for '--threads': 0 is not in the range x>=1."),
    (["run", "-n", "-5"], "error: balance run: Invalid value for '-n' / '--games': -5 is not in the range x>=1."),
    (["run", "/"], "error: balance run: Invalid value for '[SCENARIO]': File '/' is a directory."),
    (["nonsense"], "error: balance: No such command 'nonsense'."),
])
def test_bad_command_line_values_get_one_line_and_exit_2(args, says):
    res = CliRunner().invoke(main, args, prog_name="balance")
    assert res.exit_code == 2 and res.output == f"{says} (see --help)\n"


def test_simulate_refuses_what_the_command_line_refuses():
    import balance
    for kw in ({"threads": 0}, {"chunk_size": -1}, {"threads": 1.5}):
        with pytest.raises(ValueError, match="out of range"):
            balance.simulate(games=10, **kw)
    assert balance.Results is __import__("balance.stats.results", fromlist=["Results"]).Results


def test_report_default_folder_is_named_after_the_scenario(cli, tmp_path, monkeypatch):
    from balance.cli.options import folder_name
    assert folder_name("The Haunted Tower, reconstructed components") == "the_haunted_tower_reconstructed_components"
    assert folder_name("Spooky Tower (public card list, embedded default)") == \
        "spooky_tower_public_card_list_embedded_default"
    assert folder_name("!!!") == "scenario"
    monkeypatch.chdir(tmp_path)
    scenario = tmp_path / "mine.toml"
    scenario.write_text('name = "Pets x2: a test"\ngame = "spooky_tower"\n', encoding="utf-8")
    res = cli("report", scenario, "-n", 500)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "reports" / "pets_x2_a_test" / "index.html").is_file()
    assert "report: reports/pets_x2_a_test/index.html" in res.output


@pytest.fixture()
def ctrl_c_after_two_chunks(monkeypatch):
    """Ctrl-C arrives while the third chunk plays."""
    from balance.run import runner
    real, calls = runner.play_chunk, []

    def play_chunk(*args, **kwargs):
        calls.append(args[4])
        if len(calls) == 4:             # the first call only compiles (one game), then two chunks
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(runner, "play_chunk", play_chunk)
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 1e-9)     # chunks of 1,000 games
    return calls


def test_ctrl_c_prints_the_games_finished_marked_interrupted_and_exits_130(cli, ctrl_c_after_two_chunks, tmp_path):
    out = tmp_path / "out"
    res = cli("run", "-n", 50_000, "--out", out)
    assert res.exit_code == 130
    assert "2,000 games of Spooky Tower" in res.output and "INTERRUPTED (Ctrl-C): these are the 2,000 games" in \
        res.output
    assert f"interrupted after 2,000 games; nothing written to {out}" in res.output
    assert not out.exists()
    full = cli("run", "-n", 2000, "--json")
    assert json.loads(full.stdout)["seats"] is not None


def test_ctrl_c_during_a_report_leaves_no_report_folder(cli, ctrl_c_after_two_chunks, tmp_path):
    res = cli("report", "-n", 50_000, "-o", tmp_path / "rep")
    assert res.exit_code == 130 and "no report written" in res.output
    assert not (tmp_path / "rep").exists() and list(tmp_path.iterdir()) == []


def test_an_interrupted_run_matches_an_uninterrupted_run_of_the_same_games(ctrl_c_after_two_chunks):
    import balance
    cut = balance.simulate(games=50_000, progress=False)
    assert cut.meta["interrupted"] is True and cut.tallies.games == 2000
    whole = balance.simulate(games=2000, progress=False, chunk_size=2000)
    assert cut.seats.equals(whole.seats) and cut.tallies.watch == whole.tallies.watch


def test_a_real_sigint_stops_a_long_run(cli, tmp_path):
    """A SIGINT sent to a `balance run` of a billion games, once it is playing (its checkpoint, written after every
    chunk, exists): the run stops with the games played so far, exit 130, and writes no outputs. How soon it stops
    is a matter of the chunks' length (runner.CHUNK_SECONDS), not asserted here: a test asserts no wall-clock time."""
    import signal
    import subprocess
    import sys
    haunted = str(ROOT / "scenarios" / "haunted_tower.toml")
    assert cli("run", haunted, "-n", 200).exit_code == 0   # compiled into this suite's cache before the run starts
    ck = tmp_path / "run.ckpt"
    p = subprocess.Popen([sys.executable, "-m", "balance", "run", haunted, "-n", "1000000000", "--out",
                          str(tmp_path / "o"), "--checkpoint", str(ck)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        while not ck.exists():
            assert p.poll() is None, p.communicate()
            threading.Event().wait(0.05)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)           # a guard against a hang, not a speed bound
    finally:
        p.kill()
    assert p.returncode == 130, err
    assert "INTERRUPTED (Ctrl-C)" in out and "interrupted after " in err and not (tmp_path / "o").exists()


def test_resume_after_ctrl_c_gives_the_numbers_of_an_uninterrupted_run(cli, ctrl_c_after_two_chunks, tmp_path):
    ck = tmp_path / "run.ckpt"
    cut = cli("run", "-n", 5000, "--seed", 9, "--checkpoint", ck, "--json")
    assert cut.exit_code == 130 and ck.is_file()
    assert json.loads(ck.read_text())["tallies"]["games"] == 2000
    resumed = cli("run", "-n", 5000, "--seed", 9, "--resume", ck, "--checkpoint", ck, "--json")
    whole = cli("run", "-n", 5000, "--seed", 9, "--json")
    assert resumed.exit_code == whole.exit_code == 0, resumed.output
    a, b = json.loads(resumed.stdout), json.loads(whole.stdout)
    for key in a:
        if key not in ("meta", "timing"):
            assert a[key] == b[key], key
    assert json.loads(ck.read_text())["tallies"]["games"] == 5000


def test_a_resumed_run_says_so_and_times_only_its_own_games(cli, ctrl_c_after_two_chunks, tmp_path):
    ck = tmp_path / "run.ckpt"
    assert cli("run", "-n", 5000, "--seed", 9, "--checkpoint", ck).exit_code == 130
    before = json.loads(ck.read_text())["simulate_s"]
    resumed = cli("run", "-n", 5000, "--seed", 9, "--resume", ck, "--checkpoint", ck)
    assert resumed.exit_code == 0, resumed.output
    assert "RESUMED from a checkpoint: the first 2,000 of these 5,000 games were played by the run that wrote it." \
        in resumed.output
    run_line = next(line for line in resumed.output.splitlines() if "s of simulation" in line)
    assert run_line.startswith("Resumed from a checkpoint of 2,000 games; played 3,000 more games in "), run_line
    timing = balance_json(cli("run", "-n", 5000, "--seed", 9, "--resume", ck, "--json"))["meta"]["timing"]
    assert timing["resumed_games"] == 5000 and timing["games_per_s"] is None          # nothing left to play
    after = json.loads(ck.read_text())["simulate_s"]
    assert after > before                   # the checkpoint carries the seconds of both runs on


def balance_json(res):
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_resume_refuses_another_runs_checkpoint(cli, tmp_path):
    ck = tmp_path / "run.ckpt"
    assert cli("run", "-n", 1000, "--checkpoint", ck).exit_code == 0
    res = CliRunner().invoke(main, ["run", "-n", 1000, "--seed", 2, "--resume", str(ck)], prog_name="balance")
    assert res.exit_code == 2 and res.output.startswith(f"error: --resume {ck}: the checkpoint is of another run "
                                                        "(scenario_hash ")
    res = CliRunner().invoke(main, ["run", "-n", 1000, "--resume", str(ck), "--keep-games", "5"])
    assert res.exit_code == 2 and "a checkpoint holds the aggregates, not per-game rows" in res.output


def test_a_haunted_tower_run_resumes_to_the_same_numbers(ctrl_c_after_two_chunks, tmp_path):
    import balance
    ck = str(tmp_path / "ht.ckpt")
    haunted = str(ROOT / "scenarios" / "haunted_tower.toml")
    cut = balance.simulate(haunted, games=3000, checkpoint=ck, progress=False)
    assert cut.meta["interrupted"] and cut.tallies.games == 2000
    resumed = balance.simulate(haunted, games=3000, resume=ck, progress=False)
    whole = balance.simulate(haunted, games=3000, progress=False)
    assert resumed.tallies.to_dict() == whole.tallies.to_dict()
    assert resumed.roles.equals(whole.roles) and resumed.group("item").equals(whole.group("item"))
