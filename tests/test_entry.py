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
from balance.entry import main
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
    for module in ("numpy", "click", "pandas"):
        done = _run(STOP_IN.format(module=module))
        assert done.returncode == 130, (module, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == ""
        assert done.stderr.strip().splitlines() == ["interrupted (Ctrl-C) while starting: nothing was run"]
