"""Output folders (`run --out`, `report -o`): checked before a run starts, written whole or not at all.

A folder is written into a temporary folder beside it and moved into place only when complete, so an error leaves
neither a partial folder nor the temporary one. An existing folder is replaced only when it holds nothing but
files of the kind being written (a folder this tool wrote before) or nothing at all: a folder with anything else in
it (``--out ~/Documents``) is refused, never emptied. :func:`check_output_dir` says why a folder cannot be written
before any work is done; :func:`atomic_directory` checks again when it writes.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator


class OutputDirError(ValueError):
    """An output folder that cannot be written; the message names the folder, the problem and what is allowed."""


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_output_dir(target: str | os.PathLike, own_files: Iterable[str]) -> Path:
    """Raise :class:`OutputDirError` unless ``target`` can be written as a folder holding ``own_files``.

    Allowed: a new folder (its parents are created), an empty one, or one that holds only files named in
    ``own_files``, which it replaces. Returns the absolute path.
    """
    own = set(own_files)
    shown = Path(target)
    path = shown.absolute()
    allowed = "allowed: a new folder, an empty one, or one this command wrote before"
    if path.exists() and not path.is_dir():
        raise OutputDirError(f"{shown}: exists and is not a folder ({allowed})")
    cwd = Path.cwd().resolve()
    if path.resolve() == cwd or path.resolve() in cwd.parents:
        raise OutputDirError(f"{shown}: is the current folder or holds it ({allowed})")
    if path.is_dir():
        foreign = sorted(p.name + ("/" if p.is_dir() else "") for p in path.iterdir()
                         if p.name not in own or not p.is_file() or p.is_symlink())
        if foreign:
            listed = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise OutputDirError(f"{shown}: the folder holds other files ({listed}), which writing here would "
                                 f"delete ({allowed})")
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputDirError(f"{shown}: the folder is not writable ({allowed})")
    base = _nearest_existing(path.parent)
    if not base.is_dir():
        raise OutputDirError(f"{shown}: {base} is not a folder ({allowed})")
    if not os.access(base, os.W_OK | os.X_OK):
        raise OutputDirError(f"{shown}: cannot create or replace it in {base}: not writable ({allowed})")
    return path


@contextmanager
def atomic_directory(target: str | os.PathLike, own_files: Iterable[str]) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``target``; on success it replaces ``target``, on error it vanishes.

    ``target`` must pass :func:`check_output_dir` with ``own_files``. An existing ``target`` is moved aside only
    once the new folder is complete, then deleted; if the final renames fail the old folder is put back.
    """
    target = check_output_dir(target, own_files)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        yield tmp
        os.chmod(tmp, 0o755)
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
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
