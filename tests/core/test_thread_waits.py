"""Worker threads sleep between two launches of a kernel instead of spinning (``balance.core.threads``): a spinning
worker held a core while the main thread added the chunk to the tallies. libgomp reads the policy once,
when Numba loads its threading layer, so importing balance must set it before that, and keep the user's own."""
from __future__ import annotations

import os
import subprocess
import sys

CODE = ("import os, balance\n"
        "from numba.np.ufunc import parallel\n"
        "loaded = parallel._is_initialized\n"
        "from balance.run.chunks import set_threads\n"
        "set_threads(None)\n"
        "print(loaded, parallel._is_initialized, os.environ.get('OMP_WAIT_POLICY'))\n")


def _run(env: dict) -> list[str]:
    done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, timeout=600,
                          check=True)
    return done.stdout.split()


def test_importing_balance_makes_the_kernel_threads_sleep_between_launches():
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    # set before the threading layer is loaded (which the first launch, here set_threads, does)
    assert _run(env) == ["False", "True", "PASSIVE"]


def test_a_wait_policy_the_user_set_is_kept():
    assert _run({**os.environ, "OMP_WAIT_POLICY": "ACTIVE"})[2] == "ACTIVE"
