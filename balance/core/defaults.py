"""Run defaults that the command line shows in its ``--help`` before anything heavy (numpy, Numba) is imported."""
from __future__ import annotations

DEFAULT_CHUNK = 500_000     # games a chunk holds at most (memory); the runner sizes chunks by time below it
