"""The command's entry point: ``import balance`` is light, and a Ctrl-C while the command line is still importing
(numpy, pandas, Numba) ends the command in one line with exit 130, as one later in a run does."""
from __future__ import annotations

import subprocess
import sys

STOP_IN = """
import sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt       # what Python raises when SIGINT arrives in the middle of this import
sys.meta_path.insert(0, Interrupt())
sys.argv = ["balance", "run", "-n", "10"]
from balance.cli.entry import main
main()
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)


def test_importing_balance_imports_neither_numpy_nor_pydantic():
    done = _run("import sys, balance; print(sorted(m for m in ('numpy', 'pydantic', 'pandas', 'numba', "
                "'matplotlib') if m in sys.modules))")
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


def test_the_public_names_still_load_on_first_use():
    done = _run("import balance; print(balance.load_scenario(None).game, balance.ScenarioError.__name__, "
                "balance.games.get_game('haunted_tower').title, balance.Scenario.__name__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["spooky_tower", "ScenarioError", "The", "Haunted", "Tower", "Scenario"]


def test_a_ctrl_c_while_the_command_imports_is_one_line_and_exit_130():
    """click is imported by the entry point; numpy, pandas and Numba only by the command once it runs: a Ctrl-C in
    either is one line and exit 130."""
    said = {"click": "interrupted (Ctrl-C) while starting: nothing was run",
            "numpy": "interrupted before any game finished", "pandas": "interrupted before any game finished"}
    for module, line in said.items():
        done = _run(STOP_IN.format(module=module))
        assert done.returncode == 130, (module, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == ""
        assert done.stderr.strip().splitlines() == [line], module


HEAVY = ("numpy", "pandas", "numba", "matplotlib", "scipy", "pydantic")
MODULES_AFTER = """
import sys
from balance.cli.entry import main
sys.argv = ["balance", *{args!r}]
try:
    main()
except SystemExit:
    pass
print("HEAVY", sorted(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


def _heavy_after(*args: str) -> list[str]:
    done = _run(MODULES_AFTER.format(args=list(args), heavy=HEAVY))
    line = [x for x in done.stderr.splitlines() if x.startswith("HEAVY ")]
    assert line, done.stderr
    return eval(line[0][6:])


def test_help_imports_nothing_heavy():
    """`balance --help` (and every command's) answers from click alone: no numpy, pandas, Numba or matplotlib. Its
    time is a figure of `balance bench`, not asserted here."""
    for args in (["--help"], ["run", "--help"], ["report", "--help"], ["compare", "--help"], ["check", "--help"],
                 ["replay", "--help"]):
        assert _heavy_after(*args) == [], args


def test_a_usage_error_imports_nothing_heavy():
    assert _heavy_after("run", "--threads", "0") == []


LIGHT = ("pydantic",)       # what loading and checking a scenario may import: never Numba, pandas, scipy, numpy
BAD_SETTING = {
    "spooky_tower": ('game = "spooky_tower"\n[rules]\nflip_scope = "tower"\n', "rules.flip_scope"),
    "spooky_tower components": ('game = "spooky_tower"\n[components]\npark_requirements = [' + "3, " * 21 + "3]\n",
                                "components.park_requirements"),
    "haunted_tower": ('game = "haunted_tower"\nplayers = 9\n', "players"),
    "haunted_tower map": ('game = "haunted_tower"\n[components]\nmap = "nowhere.txt"\n', "nowhere.txt"),
    "climbing_tower": ('game = "climbing_tower"\n[rules]\nsupply = "medium"\n', "rules.supply"),
}


def _error_after(*args: str) -> tuple[list[str], str]:
    """What heavy modules a command failing on its input imported, and its one-line error."""
    done = _run(MODULES_AFTER.format(args=list(args), heavy=HEAVY))
    lines = done.stderr.splitlines()
    heavy = [x for x in lines if x.startswith("HEAVY ")]
    assert heavy, done.stderr
    return eval(heavy[0][6:]), "\n".join(x for x in lines if not x.startswith("HEAVY "))


def test_a_bad_scenario_file_fails_without_numba_or_pandas(tmp_path):
    """Loading and checking a scenario (its game's models and cross-checks) needs neither the kernels nor the
    statistics, nor numpy (but to read a map): a bad setting of any game, or a missing file, is reported by every command that reads a
    scenario (the studies and `check` too) before Numba, pandas, scipy or numpy load."""
    for what, (text, named) in BAD_SETTING.items():
        path = tmp_path / f"{what.replace(' ', '_')}.toml"
        path.write_text(text)
        for command in ("run", "show", "report", "check", "compare", "sweep", "cards"):
            heavy, error = _error_after(command, str(path))
            assert error.startswith("error: ") and named in error and "\n" not in error, (what, command, error)
            light = LIGHT + (("numpy",) if "map" in what else ())       # a map is read into arrays
            assert set(heavy) <= set(light), (what, command, heavy)
    heavy, error = _error_after("run", str(tmp_path / "missing.toml"))
    assert "missing.toml" in error and set(heavy) <= set(LIGHT), (error, heavy)


def test_show_of_a_good_scenario_imports_no_kernel():
    for game in ("spooky_tower", "haunted_tower", "climbing_tower"):
        assert set(_heavy_after("show", f"scenarios/{game}.toml")) <= {"numpy", "pydantic"}, game
