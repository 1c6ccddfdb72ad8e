"""Kernel against reference engine on the shipped scenarios' games, exactly as `balance run` plays them: each game's
traced kernel event for event and its batch kernel's outcome against the reference engine (``balance.run.agreement``),
the first games of each scenario's run, in parallel over the cores, with the counts.

Run: `.venv/bin/python benchmarks/agreement.py [-n GAMES_PER_GAME] [--jobs J] [--game NAME] [--first G]`, or
`make agreement` (10,000 games a game). A game's games are shared out among its shipped scenarios (every file in
scenarios/, and its embedded default when no file plays the same games). Exit code 1 when any game disagrees.
The Haunted Tower's reference engine plays a few games a second a core: its 10,000 take the longest.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 25                  # games a task: small enough that both cores stay busy to the end


def check(label: str, game0: int, n: int) -> tuple[str, int, list[tuple[int, str]]]:
    """Games game0 .. game0+n-1 of one shipped scenario: (label, games checked, disagreements)."""
    from balance.run.agreement import disagreements, load
    return label, n, disagreements(load(label), range(game0, game0 + n))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--games", type=int, default=10_000, help="games of each game, shared out among its "
                    "shipped scenarios (default 10,000)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--game", action="append", help="only this game (repeatable; default every game)")
    ap.add_argument("--first", type=int, default=0, help="the first game index checked (default 0)")
    args = ap.parse_args()
    from balance.run.agreement import shipped

    os.chdir(ROOT)              # scenarios named as a user names them, relative to the repository (the workers too)
    scenarios = [(label, sc) for label, sc in shipped("scenarios") if not args.game or sc.game in args.game]
    if not scenarios:
        print(f"no shipped scenario of {', '.join(args.game)}", file=sys.stderr)
        return 2
    by_game = defaultdict(list)
    for label, sc in scenarios:
        by_game[sc.game].append(label)
    tasks = []
    for labels in by_game.values():
        each = math.ceil(args.games / len(labels))
        for label in labels:
            for g0 in range(args.first, args.first + each, CHUNK):
                tasks.append((label, g0, min(CHUNK, args.first + each - g0)))
    checked, problems = defaultdict(int), defaultdict(list)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done in as_completed([pool.submit(check, *task) for task in tasks]):
            label, n, found = done.result()
            checked[label] += n
            problems[label] += found
    wall = time.perf_counter() - t0
    scenario = dict(scenarios)
    for labels in by_game.values():
        total, bad = sum(checked[x] for x in labels), sum(len(problems[x]) for x in labels)
        print(f"{scenario[labels[0]].spec().title}: {total:,} games, {total - bad:,} agree, {bad:,} disagree")
        for label in labels:
            found = sorted(problems[label])
            listed = ", ".join(str(g) for g, _ in found[:20]) + (" ..." if len(found) > 20 else "")
            print(f"  {label} (seed {scenario[label].seed}), games {args.first:,} to "
                  f"{args.first + checked[label] - 1:,}: {checked[label]:,} checked, {len(found):,} disagree"
                  + (f": games {listed}" if found else ""))
            for g, what in found[:3]:
                print(f"    game {g}: {what[:300]}")
    print(f"{sum(checked.values()):,} games in {wall:.1f} s on {args.jobs} processes "
          f"({sum(checked.values()) / wall:,.1f} games/s)")
    return 1 if any(problems.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
