"""The `balance` command's entry point (``python -m balance`` and the console script): it imports the command line
itself, so that a Ctrl-C that arrives while numpy, pandas or Numba are still importing ends the command as one
later in the run does, in one line with exit status 130, and never as a traceback."""
from __future__ import annotations

import sys

INTERRUPTED = 130       # 128 + SIGINT, the shell's status for a command stopped by Ctrl-C


def interrupted() -> None:
    print("interrupted (Ctrl-C) while starting: nothing was run", file=sys.stderr)
    sys.exit(INTERRUPTED)


def main() -> None:
    try:
        from .group import main as command_line
    except KeyboardInterrupt:
        interrupted()
    command_line()
