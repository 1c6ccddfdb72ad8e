"""The `balance` command group: every command, and the one-line answer to whatever goes wrong (a bad option, a bad
scenario value, Ctrl-C, a closed pipe, or a bug in balance, which names what to send in a report)."""
from __future__ import annotations

import os
import sys
import typing

import click

from ..scenario.layers import override_names
from . import check, commands, study


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


for command in (commands.run, commands.report, commands.show, commands.replay, commands.show_map, commands.bench,
                commands.games):
    main.add_command(command)
study.register(main)
check.register(main)
