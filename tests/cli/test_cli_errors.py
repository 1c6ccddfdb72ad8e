"""No command ends in a traceback: an exception no command expected (a bug) is one line saying what happened and what
to send in a bug report, with exit code 70; a disagreement of the two engines in `balance replay` names its scenario,
seed and game and the commands that show them. BALANCE_DEBUG=1 keeps the traceback for the developer."""
from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from click.testing import CliRunner

from balance.cli.group import INTERNAL_ERROR, main
from balance.games import EngineDisagreement

ROOT = Path(__file__).resolve().parents[2]
COMPILE_LINE = re.compile(r"compil(ing|ed) .* rules(, first run only \.\.\.| in .* s; later runs)")
SHIPPED = {"spooky_tower": "spooky_tower.toml", "haunted_tower": "haunted_tower.toml",
           "climbing_tower": "climbing_tower.toml"}


def _drop_last_event(module):
    """A kernel whose traced games lose their last event: the bug an engine disagreement reports."""
    real = module.trace_game

    def tampered(*args, **kw):
        events, s = real(*args, **kw)
        return events[:-1], s
    return tampered


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_an_engine_disagreement_in_replay_is_one_line_naming_scenario_seed_game_and_what_to_send(game, monkeypatch):
    kernel = importlib.import_module(f"balance.games.{game}.rules")   # its trace_game
    monkeypatch.setattr(kernel, "trace_game", _drop_last_event(kernel))
    scenario = f"scenarios/{SHIPPED[game]}"
    monkeypatch.chdir(ROOT)
    res = CliRunner().invoke(main, ["replay", scenario, "--seed", "5", "--game", "2", "--players", "2"]
                             if game == "spooky_tower" else ["replay", scenario, "--seed", "5", "--game", "2"],
                             catch_exceptions=False)
    assert res.exit_code == INTERNAL_ERROR
    assert res.stdout == ""
    lines = [x for x in res.stderr.splitlines() if not COMPILE_LINE.match(x)]     # a first run's compile lines
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    line = lines[0]
    assert line.startswith("internal error (a bug in balance, not in your input): kernel and reference engine "
                           "disagree on scenario ")
    assert f"({scenario}), seed 5, game 2: event counts differ" in line
    players = " --players 2" if game == "spooky_tower" else ""
    assert f"`balance replay {scenario}{players} --seed 5 --game 2`" in line
    assert f"`balance show {scenario}{players}`" in line and "BALANCE_DEBUG=1 shows the traceback" in line


def test_every_game_raises_the_dedicated_type_on_a_disagreement(monkeypatch):
    from balance.scenario import load_scenario
    for game in sorted(SHIPPED):
        kernel = importlib.import_module(f"balance.games.{game}.rules")   # its trace_game
        monkeypatch.setattr(kernel, "trace_game", _drop_last_event(kernel))
        sc = load_scenario(ROOT / "scenarios" / SHIPPED[game])
        with pytest.raises(EngineDisagreement) as caught:
            sc.spec().replay(sc, 5, 2)
        assert (caught.value.scenario, caught.value.seed, caught.value.game) == (sc, 5, 2)
        assert "event counts differ" in caught.value.problem


def test_an_unexpected_exception_in_any_command_is_one_line_and_exit_70(monkeypatch):
    from balance.scenario import Scenario

    def broken(self):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(Scenario, "to_toml", broken)
    res = CliRunner().invoke(main, ["show"], catch_exceptions=False)
    assert res.exit_code == INTERNAL_ERROR and res.stdout == ""
    assert res.stderr == ("internal error (a bug in balance, not in your input): ZeroDivisionError: division by zero. "
                          "Please report it with the command you ran and the output of `balance show` with its "
                          "scenario and options; BALANCE_DEBUG=1 shows the traceback.\n")
    monkeypatch.setenv("BALANCE_DEBUG", "1")
    res = CliRunner().invoke(main, ["show"])
    assert isinstance(res.exception, ZeroDivisionError)      # the traceback, for the developer


TAMPERED_REPLAY = """
import sys
import balance.games.spooky_tower.rules as K
real = K.trace_game
K.trace_game = lambda *a, **k: (lambda e, s: (e[:-1], s))(*real(*a, **k))
from balance.cli.group import INTERNAL_ERROR, main
main(["replay", "--seed", "4"])
"""


def test_a_real_process_prints_no_traceback_on_a_disagreement():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("BALANCE_DEBUG", None)
    done = subprocess.run([sys.executable, "-c", TAMPERED_REPLAY], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600)
    assert done.returncode == INTERNAL_ERROR and done.stdout == ""
    errors = [line for line in done.stderr.splitlines() if not line.startswith(("compiling ", "compiled "))]
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "seed 4, game 0: event counts differ" in errors[0] and "`balance replay --seed 4 --game 0`" in errors[0]
