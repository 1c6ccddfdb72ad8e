"""Mutation testing: apply each curated rule, component or strategy bug alone and check that the suite catches it.

The differential suite holds the kernel to the reference engine, so a bug written into one engine alone is caught at
once. What it cannot catch is the same bug written into both, or a bug in what both share (the components, the
strategies). The mutations in ``mutants/<game>.toml`` are such bugs, written by hand: plausible misreadings of a
rule, a wrong component number, a strategy parameter read from the wrong slot. A mutation that the suite does not
notice shows a rule or a decision that no test pins down.

Each mutation is applied alone, in a scratch copy of the working tree, with a fresh Numba cache (a cached kernel
would hide the change, see ``balance/core/cache.py``). The suite then runs in two tiers: the fast tier (the game's rule,
strategy and playthrough tests, in one process) and, if every fast test passed, the whole suite (``make test``'s
test command). Both stop at the first failure. A mutation is *killed* when a test fails (or the run times out) and
*survives* when the whole suite passes. For each survivor the default scenario is played with and without the
mutation, so the report says whether it changes the default game's numbers.

Usage (``make mutants`` runs every game's list)::

    python mutants/run.py [--game spooky_tower] [--only ID[,ID]] [--jobs 2] [--list] [--check]

``--check`` only verifies that every mutation still applies to the code (each ``find`` text occurs exactly once);
``tests/test_mutants.py`` runs it in the normal suite, so the list cannot fall out of step with the code.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
KINDS = {
    "rule": "a rule misread the same way in the kernel and the reference engine",
    "component": "a component number or its compilation, shared by both engines",
    "strategy": "a heuristic decision or parameter, shared by both engines",
    "kernel": "a bug in the kernel alone (a control: the differential suite must catch it)",
}
# The whole suite, but the check that every mutation still applies to the code (in a mutated tree, the mutation's own
# text is gone, so that check fails whatever the mutation does).
FULL_SUITE = ["-n", "2", "--dist", "loadfile", "--ignore=tests/test_mutants.py", "tests"]
DEFAULT_RUN = ["run", "-n", "20000", "--seed", "1", "--json"]
TIMEOUT_S = 1200


class MutantListError(Exception):
    """A mutation list that is malformed or no longer applies to the code."""


@dataclass(frozen=True)
class Edit:
    file: str
    find: str
    replace: str


@dataclass(frozen=True)
class Mutant:
    game: str
    id: str
    kind: str
    what: str
    edits: tuple[Edit, ...]


@dataclass
class Outcome:
    mutant: Mutant
    status: str                      # killed | survived | error
    tier: str = ""                   # fast | full | "" (survived)
    test: str = ""                   # the first failing test, or why the run counted as a kill
    seconds: float = 0.0
    default_changed: bool | None = None
    detail: str = ""


@dataclass
class GameList:
    game: str
    fast: list[str]
    default_args: list[str]
    engines: list[list[str]]     # each engine's files: a "rule" mutation edits one file of each (both engines)
    mutants: list[Mutant] = field(default_factory=list)


# --- the lists ----------------------------------------------------------------------------------------------------

def load_list(path: Path) -> GameList:
    """Read ``mutants/<game>.toml`` and check its shape (not yet whether it applies: see :func:`check_applies`)."""
    data = tomllib.loads(path.read_text())
    game = path.stem
    meta = data.get("suite", {})
    for key in ("fast", "engines"):
        if not isinstance(meta.get(key), list) or not meta[key]:
            raise MutantListError(f"{path.name}: [suite].{key} must be a non-empty list")
    # engines: one file a game engine (a string), or for an engine split over files a list of them; a rule mutation
    # edits at least one file of every engine
    engines = [[e] if isinstance(e, str) else list(e) for e in meta["engines"]]
    out = GameList(game, list(meta["fast"]), list(meta.get("default_args", [])), engines)
    seen = set()
    for i, m in enumerate(data.get("mutant", [])):
        where = f"{path.name}: mutant[{i}]"
        for key in ("id", "kind", "what", "edit"):
            if key not in m:
                raise MutantListError(f"{where}: missing key {key!r}")
        if m["id"] in seen:
            raise MutantListError(f"{where}: id {m['id']!r} used twice")
        seen.add(m["id"])
        if m["kind"] not in KINDS:
            raise MutantListError(f"{where} ({m['id']}): kind {m['kind']!r} is not one of {', '.join(KINDS)}")
        edits = tuple(Edit(e["file"], e["find"], e["replace"]) for e in m["edit"])
        if any(e.find == e.replace for e in edits):
            raise MutantListError(f"{where} ({m['id']}): an edit whose replacement equals what it finds")
        files = {e.file for e in edits}
        if m["kind"] == "rule" and not all(files & set(engine) for engine in out.engines):
            raise MutantListError(f"{where} ({m['id']}): a rule mutation edits both engines "
                                  f"({' and '.join('/'.join(e) for e in out.engines)}), this one edits "
                                  f"{', '.join(sorted(files))}")
        out.mutants.append(Mutant(game, m["id"], m["kind"], m["what"], edits))
    return out


def all_lists(game: str | None = None) -> list[GameList]:
    paths = sorted(HERE.glob("*.toml"))
    if game is not None:
        paths = [p for p in paths if p.stem == game]
        if not paths:
            raise MutantListError(f"no mutation list mutants/{game}.toml")
    return [load_list(p) for p in paths]


def mutated_text(root: Path, mutant: Mutant) -> dict[str, str]:
    """The mutated contents of every file the mutant edits; each ``find`` must occur exactly once."""
    texts: dict[str, str] = {}
    for e in mutant.edits:
        text = texts.get(e.file)
        if text is None:
            path = root / e.file
            if not path.is_file():
                raise MutantListError(f"{mutant.game}/{mutant.id}: no file {e.file}")
            text = path.read_text()
        n = text.count(e.find)
        if n != 1:
            raise MutantListError(f"{mutant.game}/{mutant.id}: {e.file}: the text to replace occurs {n} times "
                                  f"(must be exactly once): {e.find[:80]!r}")
        texts[e.file] = text.replace(e.find, e.replace)
    return texts


def check_applies(lists: list[GameList], root: Path = ROOT) -> int:
    for gl in lists:
        for m in gl.mutants:
            mutated_text(root, m)
    return sum(len(gl.mutants) for gl in lists)


# --- running --------------------------------------------------------------------------------------------------------

def scratch_copy(dest: Path) -> None:
    """Copy the working tree as git sees it (tracked and untracked, not ignored) into ``dest``."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if not src.is_file():
            continue                         # deleted in the working tree but not yet in the index
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def _env(scratch: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(scratch), NUMBA_CACHE_DIR=str(cache), MPLBACKEND="Agg",
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def _first_failure(output: str) -> str:
    for pattern in (r"^FAILED (\S+)", r"^ERROR (\S+)", r"^(\S+::\S+) FAILED", r"^E\s+(.*)$"):
        m = re.search(pattern, output, re.M)
        if m:
            return m.group(1)[:160]
    return output.strip().splitlines()[-1][:160] if output.strip() else "no output"


def pytest(scratch: Path, cache: Path, args: list[str], timeout: int) -> tuple[bool, str, str]:
    """(passed, first failing test, output tail) of one pytest run in the scratch tree."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-o", "addopts=", "-rf", *args]
    try:
        res = subprocess.run(cmd, cwd=scratch, env=_env(scratch, cache), capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s", ""
    out = res.stdout + res.stderr
    if res.returncode == 0:
        return True, "", out[-400:]
    if res.returncode not in (1,):           # 2: interrupted (e.g. a collection error), 3: internal, 4: usage
        return False, f"pytest exit {res.returncode}: {_first_failure(out)}", out[-2000:]
    return False, _first_failure(out), out[-2000:]


def default_digest(scratch: Path, cache: Path, args: list[str]) -> str:
    """The default scenario's tables (timing and versions left out) from ``balance run --json`` in the scratch."""
    cmd = [sys.executable, "-m", "balance", *DEFAULT_RUN, *args]
    res = subprocess.run(cmd, cwd=scratch, env=_env(scratch, cache), capture_output=True, text=True, timeout=TIMEOUT_S)
    if res.returncode != 0:
        return f"error: {res.stderr.strip().splitlines()[-1] if res.stderr.strip() else res.returncode}"
    data = json.loads(res.stdout)
    data.pop("meta", None)
    return json.dumps(data, sort_keys=True)


class Worker:
    """A scratch copy of the tree; mutants are applied to it one at a time and undone after."""

    def __init__(self, base: Path, index: int):
        self.scratch = base / f"tree{index}"
        self.original = base / f"original{index}"      # the tree as it was at the start, to undo each mutation from
        self.caches = base / f"cache{index}"
        scratch_copy(self.scratch)
        shutil.copytree(self.scratch, self.original)
        self.n = 0

    def fresh_cache(self) -> Path:
        self.n += 1
        cache = self.caches / str(self.n)
        cache.mkdir(parents=True)
        return cache

    def run(self, gl: GameList, mutant: Mutant, baseline: str | None) -> Outcome:
        t0 = time.perf_counter()
        texts = mutated_text(self.original, mutant)
        try:
            for name, text in texts.items():
                (self.scratch / name).write_text(text)
            cache = self.fresh_cache()
            passed, test, tail = pytest(self.scratch, cache, gl.fast, TIMEOUT_S)
            if not passed:
                return Outcome(mutant, "killed", "fast", test, time.perf_counter() - t0, detail=tail)
            passed, test, tail = pytest(self.scratch, cache, FULL_SUITE, 2 * TIMEOUT_S)
            if not passed:
                return Outcome(mutant, "killed", "full", test, time.perf_counter() - t0, detail=tail)
            changed = None
            if baseline is not None:
                changed = default_digest(self.scratch, cache, gl.default_args) != baseline
            return Outcome(mutant, "survived", "", "", time.perf_counter() - t0, default_changed=changed)
        finally:
            for name in texts:
                shutil.copy2(self.original / name, self.scratch / name)
            shutil.rmtree(self.caches, ignore_errors=True)


def run_all(lists: list[GameList], only: set[str] | None, jobs: int, log) -> list[Outcome]:
    todo = [(gl, m) for gl in lists for m in gl.mutants if only is None or m.id in only]
    if not todo:
        raise MutantListError("no mutation matches --only")
    base = Path(tempfile.mkdtemp(prefix="balance-mutants-"))
    try:
        workers = [Worker(base, i) for i in range(max(1, jobs))]
        log(f"baseline: the fast tier of each game on the unmutated tree, and the default scenario's numbers")
        baselines = {}
        for gl in {gl.game: gl for gl, _ in todo}.values():
            cache = workers[0].fresh_cache()
            passed, test, tail = pytest(workers[0].scratch, cache, gl.fast, TIMEOUT_S)
            if not passed:
                raise MutantListError(f"{gl.game}: the fast tier fails without any mutation ({test}); fix the "
                                      f"suite first\n{tail}")
            baselines[gl.game] = default_digest(workers[0].scratch, cache, gl.default_args)
        free = list(workers)
        results: list[Outcome] = []

        def one(item):
            gl, m = item
            w = free.pop()
            try:
                out = w.run(gl, m, baselines[gl.game])
            finally:
                free.append(w)
            where = f"{out.tier}: {out.test}" if out.status == "killed" else (
                "changes the default game" if out.default_changed else "default game unchanged")
            log(f"  {out.status:<8} {m.game}/{m.id} ({m.kind}, {out.seconds:.0f} s) {where}")
            return out

        with ThreadPoolExecutor(max_workers=len(workers)) as pool:
            results = list(pool.map(one, todo))
        return results
    finally:
        shutil.rmtree(base, ignore_errors=True)


def report(results: list[Outcome], seconds: float) -> str:
    lines = ["", "Mutation score", "=============="]
    for game in dict.fromkeys(r.mutant.game for r in results):
        rs = [r for r in results if r.mutant.game == game]
        killed = sum(r.status == "killed" for r in rs)
        lines.append(f"{game}: {killed} of {len(rs)} killed ({100 * killed / len(rs):.1f}%)")
        for kind in KINDS:
            k = [r for r in rs if r.mutant.kind == kind]
            if k:
                n = sum(r.status == "killed" for r in k)
                lines.append(f"  {kind:<10} {n:>3} of {len(k):<3} killed ({100 * n / len(k):.0f}%)")
        by_tier = {t: sum(r.tier == t for r in rs) for t in ("fast", "full")}
        lines.append(f"  killed by the fast tier: {by_tier['fast']}, by the whole suite: {by_tier['full']}")
        survivors = [r for r in rs if r.status == "survived"]
        if survivors:
            lines.append("  survivors:")
            for r in survivors:
                effect = {True: "CHANGES the default game's numbers", False: "default game unchanged",
                          None: "default game not checked"}[r.default_changed]
                lines.append(f"    {r.mutant.id} ({r.mutant.kind}): {r.mutant.what} [{effect}]")
    lines.append(f"wall time {seconds / 60:.1f} min")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Apply each curated mutation alone and run the suite against it.")
    ap.add_argument("--game", help="one game's list (default: every mutants/<game>.toml)")
    ap.add_argument("--only", help="comma-separated mutation ids")
    ap.add_argument("--jobs", type=int, default=2, help="mutations tested at once (default 2: one per core)")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--check", action="store_true", help="only check that every mutation applies, and exit")
    ap.add_argument("--json", help="also write the outcomes to this JSON file")
    args = ap.parse_args(argv)
    try:
        lists = all_lists(args.game)
        n = check_applies(lists)
        if args.check:
            print(f"{n} mutations in {len(lists)} list(s), each applies exactly once")
            return 0
        if args.list:
            for gl in lists:
                for m in gl.mutants:
                    print(f"{gl.game}/{m.id} ({m.kind}): {m.what}")
            return 0
        t0 = time.perf_counter()
        only = set(args.only.split(",")) if args.only else None
        results = run_all(lists, only, args.jobs, lambda s: print(s, flush=True))
    except MutantListError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(report(results, time.perf_counter() - t0))
    if args.json:
        Path(args.json).write_text(json.dumps([{
            "game": r.mutant.game, "id": r.mutant.id, "kind": r.mutant.kind, "status": r.status, "tier": r.tier,
            "test": r.test, "seconds": round(r.seconds, 1), "default_changed": r.default_changed}
            for r in results], indent=2))
    return 0 if all(r.status == "killed" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
