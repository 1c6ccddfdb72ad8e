"""A/B: is this working tree faster than another commit? Both builds play side by side, in lock step, on this machine.

A noisy shared machine (the 2-core development machine swung by 40% within ten seconds on 2026-12-02) cannot
compare two builds timed one after the other, nor even alternating processes: a build's median moved more between
two of its own runs than any change measured. Here each build runs in a live process of its own (its own checkout,
its own Numba cache), and they take turns playing the same chunk (A B, then B A, ...), so each pair of
measurements lies a fraction of a second apart and sees the same machine. The answer is the median over the pairs
of B's speed / A's, with its interquartile range. Both builds must play the same games: their outputs' hashes are
printed and compared (a change meant to alter the games says so with ``--allow-different``).

    python benchmarks/ab.py [--base COMMIT] [--scenario PATH] [--games N] [--threads T] [--pairs K] [--mode kernel|run]

``--mode kernel`` times the kernel on one chunk played into kept arrays (what ``balance bench`` times); ``--mode run``
times the runner's whole loop (``balance.run.runner.run``: chunks sized to the machine, aggregation, bookkeeping), less
its compile/load. A is ``--base`` (default ``HEAD``), checked out into a temporary git worktree; B is this tree.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORKER = r"""
import hashlib, sys, time
import numpy as np
from balance.scenario import load_scenario
mode, path, n, threads = sys.argv[1], sys.argv[2] or None, int(sys.argv[3]), int(sys.argv[4])
if mode == "kernel":
    from balance.run.chunks import play_chunk, set_threads
    sc = load_scenario(path)
    spec = sc.spec()
    compiled = spec.compile_scenario(sc)
    set_threads(threads)
    import inspect                  # as runs and `balance bench` play, in builds that can leave the counter rows out
    lean = {"counter_rows": False} if "counter_rows" in inspect.signature(play_chunk).parameters else {}
    out = play_chunk(spec, compiled, sc, 0, n, threads, **lean)
    h = hashlib.sha256()
    for k in sorted(out):
        h.update(k.encode())
        h.update(np.ascontiguousarray(out[k]).tobytes())
    def once():
        t = time.perf_counter()
        play_chunk(spec, compiled, sc, 0, n, threads, out=out, **lean)
        return time.perf_counter() - t
else:
    import json
    from balance.run.runner import RunOptions, run
    options = RunOptions(progress=False, threads=threads)
    sc = load_scenario(path, games=n)
    r = run(sc, options)
    d = {k: v for k, v in r.to_dict().items() if k != "meta"}     # every number but the timing (any game's shape)
    h = hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode())
    def once():
        timing = run(sc, options).meta["timing"]
        return timing["wall_s"] - timing["compile_s"]
print("ready", h.hexdigest()[:16], flush=True)
for _ in sys.stdin:
    print(once(), flush=True)
"""


def start(root: str, cache: str, args) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": root, "NUMBA_CACHE_DIR": cache}
    proc = subprocess.Popen([sys.executable, "-c", WORKER, args.mode, args.scenario or "", str(args.games),
                             str(args.threads)], cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline().split()
    if not line or line[0] != "ready":
        raise SystemExit(f"ab.py: the build in {root} did not start (its error is above)")
    return proc, line[1]


def timed(proc: subprocess.Popen) -> float:
    proc.stdin.write("go\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="the commit to compare against (A)")
    ap.add_argument("--scenario", default=None, help="scenario file (default: the embedded default)")
    ap.add_argument("--games", type=int, default=2_000, help="games a measurement plays")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--mode", choices=("kernel", "run"), default="kernel")
    ap.add_argument("--allow-different", action="store_true", help="the builds may play different games")
    args = ap.parse_args()
    if args.pairs < 2:
        raise SystemExit(f"ab.py: --pairs {args.pairs}: at least 2 pairs are needed for a median and quartiles")
    if subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "-q", args.base + "^{commit}"],
                      capture_output=True).returncode != 0:
        raise SystemExit(f"ab.py: --base {args.base}: not a commit of this repository")
    if args.scenario:
        args.scenario = os.path.abspath(args.scenario)
    with tempfile.TemporaryDirectory(prefix="balance-ab-") as tmp:
        base = os.path.join(tmp, "base")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-q", base, args.base], check=True)
        try:
            print(f"compiling both builds (A: {args.base}, B: this tree) ...", file=sys.stderr, flush=True)
            a, hash_a = start(base, os.path.join(tmp, "cache-a"), args)
            b, hash_b = start(ROOT, os.path.join(tmp, "cache-b"), args)
            if hash_a != hash_b and not args.allow_different:
                raise SystemExit(f"ab.py: the builds play different games (hashes {hash_a} and {hash_b}); "
                                 "--allow-different compares them anyway")
            times_a, times_b = [], []
            for i in range(args.pairs):
                first, second = (a, b) if i % 2 == 0 else (b, a)
                t1, t2 = timed(first), timed(second)
                ta, tb = (t1, t2) if first is a else (t2, t1)
                times_a.append(ta)
                times_b.append(tb)
            for proc in (a, b):
                proc.stdin.close()
                proc.wait()
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", base], check=False)
    ratios = sorted(x / y for x, y in zip(times_a, times_b))
    q1, q3 = statistics.quantiles(ratios, n=4)[0], statistics.quantiles(ratios, n=4)[2]
    rate = lambda t: args.games / statistics.median(t)     # noqa: E731
    print(f"{args.mode}: B / A speed, median of {args.pairs} pairs {statistics.median(ratios):.3f} "
          f"(interquartile {q1:.3f} to {q3:.3f}); median games/s A {rate(times_a):,.0f}, B {rate(times_b):,.0f}; "
          f"outputs {'the same' if hash_a == hash_b else 'different'} ({hash_b})")


if __name__ == "__main__":
    main()
