"""``python -m balance.run.warm``: what ``make run`` compiles in the background while pip installs the rest."""
from __future__ import annotations

import subprocess
import sys

HEAVY = ("pandas", "matplotlib", "pyarrow", "jinja2")


def test_compiling_a_kernel_imports_neither_pandas_nor_matplotlib():
    """make run starts the compile before pip has installed these: importing the package, loading the default
    scenario and compiling (or loading) its kernel must not need them."""
    code = ("import sys, balance.run.warm\n"
            "balance.run.warm.warm(None)\n"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == ""


def test_warm_refuses_a_missing_scenario_in_one_line(tmp_path):
    missing = tmp_path / "nosuch.toml"
    res = subprocess.run([sys.executable, "-m", "balance.run.warm", str(missing)], capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "nosuch.toml" in lines[0], res.stderr
    assert "Traceback" not in res.stderr


def test_simulate_and_results_still_come_from_the_package():
    import balance
    from balance.api import simulate
    from balance.stats.results import Results
    assert balance.simulate is simulate and balance.Results is Results


def test_a_run_compiles_its_tallies_while_it_warms_up_and_counts_none_of_that_game(monkeypatch):
    """The runner's warm-up (under the compile notice, counted as compile/load) adds its one game to throwaway
    tallies, so that a machine's first run compiles the statistics there, not silently inside its first chunk; the
    run's own tallies hold only the run's games."""
    import balance
    from balance.stats.aggregate import Aggregator
    real_update, seen = Aggregator.update, []

    def update(self, chunk):
        seen.append((id(self), int(chunk["game"].size)))
        real_update(self, chunk)
    monkeypatch.setattr(Aggregator, "update", update)
    res = balance.simulate(games=3000, progress=False, chunk_size=1000)
    assert seen[0][1] == 1 and seen[0][0] not in {a for a, _ in seen[1:]}
    assert [n for _, n in seen[1:]] == [1000, 1000, 1000] and res.tallies.games == 3000
