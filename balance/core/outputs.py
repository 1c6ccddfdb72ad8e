"""Output folders (`run --out`, `report -o`): checked before a run starts, written whole or not at all, and never
a cause of lost files.

A folder is written into a temporary folder beside it and moved into place only when complete, so an error leaves
neither a partial folder nor the temporary one. Every folder written here holds a marker file, ``MARKER``. An
existing folder is replaced only when it is empty, or when it holds the marker and otherwise nothing but files of
the kind being written (an earlier output of the same command); a folder with anything else in it
(``--out ~/Documents``, a web site's ``index.html``) is refused, never emptied. Files that appear in the old folder
while the new one is being written are moved into the new one, not deleted. :func:`check_output_dir` says why a
folder cannot be written before any work is done; :func:`atomic_directory` checks again when it writes.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

MARKER = ".balance-output"
_MARKER_TEXT = ("Written by balance. The next `balance run --out` or `balance report -o` into this folder replaces\n"
                "the files it wrote here; it refuses a folder that holds anything else.\n")
ALLOWED = "allowed: a new folder, an empty one, or one this command wrote before"


class OutputDirError(ValueError):
    """An output folder that cannot be written; the message names the folder, the problem and what is allowed."""


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _listing(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def check_output_dir(target: str | os.PathLike, own_files: Iterable[str]) -> Path:
    """Raise :class:`OutputDirError` unless ``target`` can be written as a folder holding ``own_files``.

    Allowed: a new folder (its parents are created), an empty one, or one holding :data:`MARKER` and otherwise only
    files named in ``own_files``, which it replaces. Returns the absolute, normalised path.
    """
    try:
        return _check(Path(target), set(own_files))
    except OSError as err:          # a folder that cannot even be looked at (permissions, a bad path)
        raise OutputDirError(f"{target}: cannot use it: {err.strerror or err} ({ALLOWED})") from None


def _check(shown: Path, own: set[str]) -> Path:
    path = Path(os.path.abspath(shown))             # `x/../y` is y: no stray x/ is created
    if path.is_symlink():
        raise OutputDirError(f"{shown}: is a symbolic link; give the folder it points to ({ALLOWED})")
    if path.exists() and not path.is_dir():
        raise OutputDirError(f"{shown}: exists and is not a folder ({ALLOWED})")
    cwd = Path.cwd().resolve()
    if path.resolve() == cwd or path.resolve() in cwd.parents:
        raise OutputDirError(f"{shown}: is the current folder or holds it ({ALLOWED})")
    if path.is_dir():
        entries = list(path.iterdir())
        foreign = sorted(p.name + ("/" if p.is_dir() else "") for p in entries
                         if p.name not in own | {MARKER} or not p.is_file() or p.is_symlink())
        if foreign:
            raise OutputDirError(f"{shown}: the folder holds other files ({_listing(foreign)}), which writing here "
                                 f"would delete ({ALLOWED})")
        if entries and not (path / MARKER).is_file():
            raise OutputDirError(f"{shown}: the folder holds {_listing(sorted(p.name for p in entries))} but was not "
                                 f"written by balance (no {MARKER} file), so it is not replaced ({ALLOWED})")
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputDirError(f"{shown}: the folder is not writable ({ALLOWED})")
    base = _nearest_existing(path.parent)
    if not base.is_dir():
        raise OutputDirError(f"{shown}: {base} is not a folder ({ALLOWED})")
    if not os.access(base, os.W_OK | os.X_OK):
        raise OutputDirError(f"{shown}: cannot create or replace it in {base}: not writable ({ALLOWED})")
    return path


def _retire(old: Path, new: Path, own: set[str]) -> None:
    """Empty the replaced folder ``old``: its own files go, anything that appeared since the check moves into
    ``new``; ``old`` is removed only when empty, so nothing of the user's is ever deleted."""
    for entry in old.iterdir():
        if entry.name in own | {MARKER} and entry.is_file() and not entry.is_symlink():
            entry.unlink()
        elif not (new / entry.name).exists():
            os.rename(entry, new / entry.name)
    old.rmdir()


@contextmanager
def atomic_directory(target: str | os.PathLike, own_files: Iterable[str]) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``target``; on success it replaces ``target``, on error it vanishes.

    ``target`` must pass :func:`check_output_dir` with ``own_files``, checked again as the new folder moves in. An
    existing ``target`` is moved aside only once the new folder is complete; if the final rename fails the old
    folder is put back. Of the old folder only its own files are deleted (:func:`_retire`); should anything stop
    that, the rest stays beside ``target`` as ``.<name>.old-<id>``.
    """
    own = set(own_files)
    target = check_output_dir(target, own)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        yield tmp
        (tmp / MARKER).write_text(_MARKER_TEXT)
        os.chmod(tmp, 0o755)
        check_output_dir(target, own)               # again: the folder may have changed while the work ran
        old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
        had_old = target.exists()
        if had_old:
            os.rename(target, old)
        try:
            os.rename(tmp, target)
        except BaseException:
            if had_old:
                os.rename(old, target)
            raise
        if had_old:
            try:
                _retire(old, target, own)
            except OSError:
                pass                                # what is left of the old folder stays, whole, beside target
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
