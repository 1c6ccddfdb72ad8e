"""Where does a kernel spend its time? `perf` samples of the jitted code, named by function, and the hottest
instructions of one function.

perf cannot name jitted code by itself: this script writes the symbol map perf reads (``/tmp/perf-<pid>.map``) for
every function of the kernel's entry point (its parallel driver, with the rule functions it links in as private
copies), records the process with ``perf record -e cpu-clock`` while the kernel plays on one thread, and prints
perf's report. With ``--annotate NAME`` it also disassembles the function whose symbol contains NAME (``objdump``,
from the bytes in memory) and prints its hottest instructions with their share of all samples. A load that misses
the cache shows as the instruction after it.

LLVM inlines most rule functions into their callers, so their samples count as the caller's. ``--noinline
record_path_nb,walk_toward_nb`` keeps the named rule functions out of line (LLVM's ``noinline``, in a fresh Numba
cache), so the report names them; the kernel then runs somewhat slower than it does for a user (a call where there
was none), so read the shares, not the games/s. Climbing Tower's flat functions can be named the same way.

    python benchmarks/profile.py [--scenario PATH] [--games N] [--seconds S] [--annotate best_target_nb]
                                 [--noinline NAME,NAME]

Needs ``perf`` (Debian's linux-perf) and ``objdump``; the machine must allow ``perf record`` on its own processes.
"""
from __future__ import annotations

import argparse
import collections
import ctypes
import os
import re
import signal
import subprocess
import sys
import tempfile
import time


def symbols(kernel) -> list[tuple[int, str]]:
    """(address, symbol) of every function defined in the libraries of the kernel's compiled entry points."""
    found = {}
    for cres in kernel.overloads.values():
        for lib in [cres.library, *getattr(cres.library, "_linking_libraries", [])]:
            try:
                module = lib._final_module
            except Exception:                   # noqa: BLE001 - a library loaded from the cache keeps no IR
                continue
            for fn in module.functions:
                if not fn.is_declaration:
                    address = lib.get_pointer_to_function(fn.name)
                    if address:
                        found[address] = fn.name
    return sorted(found.items())


def annotate(data: str, spans: list[tuple[int, int]], top: int) -> None:
    """The hottest instructions of the function at one of `spans` ((start, end) of its copies): the copy that
    holds the most samples (an entry point and a caller may each hold one)."""
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True,
                         check=True).stdout.split()
    count = collections.Counter(int(x, 16) for x in ips)
    address, end = max(spans, key=lambda sp: sum(n for ip, n in count.items() if sp[0] <= ip < sp[1]))
    code = ctypes.string_at(address, min(end - address, 1 << 20))
    with tempfile.NamedTemporaryFile(suffix=".bin") as fh:
        fh.write(code)
        fh.flush()
        asm = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={address:#x}",
                              fh.name], capture_output=True, text=True, check=True).stdout.splitlines()
    rows = [(int(m.group(1), 16), line) for line in asm if (m := re.match(r"\s*([0-9a-f]+):", line))]
    total = max(1, sum(count.values()))
    inside = sum(count.get(a, 0) for a, _ in rows)
    print(f"\n{inside / total:.1%} of all samples in this function; its {top} hottest instructions:")
    hot = sorted(rows, key=lambda r: -count.get(r[0], 0))[:top]
    for a, line in sorted(hot):
        print(f"{count.get(a, 0) / total:6.2%} {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default=None, help="scenario file (default: the embedded default)")
    ap.add_argument("--games", type=int, default=20_000, help="games a chunk plays")
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--annotate", default=None, help="also list the hottest instructions of this function")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--noinline", default="", help="rule functions (comma-separated Python names) kept out of line "
                                                   "so that the profile names them; this changes the code measured")
    args = ap.parse_args()
    os.environ["BALANCE_PROFILE_NOINLINE"] = args.noinline
    with tempfile.TemporaryDirectory(prefix="balance-profile-") as tmp:
        # a fresh cache: a kernel loaded from the cache keeps no IR to name its functions by
        os.environ["NUMBA_CACHE_DIR"] = os.path.join(tmp, "cache")
        from balance.run.chunks import play_chunk, set_threads
        from balance.scenario import load_scenario
        sc = load_scenario(args.scenario)
        spec = sc.spec()
        compiled = spec.compile_scenario(sc)
        set_threads(1)
        print(f"compiling {sc.game} ...", file=sys.stderr, flush=True)
        out = play_chunk(spec, compiled, sc, 0, args.games, 1)
        package = spec.run_chunk.__module__
        kernel = (sys.modules.get(package + ".rules") or sys.modules[package + ".kernel"]).simulate_nb
        syms = symbols(kernel)
        ends = [a for a, _ in syms[1:]] + [syms[-1][0] + 0x10000]
        with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
            for (a, name), end in zip(syms, ends):
                fh.write(f"{a:x} {end - a:x} {name}\n")
        data = os.path.join(tmp, "perf.data")
        perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-o", data, "-p", str(os.getpid())],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        t, games = time.perf_counter(), 0
        while time.perf_counter() - t < args.seconds:
            play_chunk(spec, compiled, sc, 0, args.games, 1, out=out)
            games += args.games
        print(f"{games / (time.perf_counter() - t):,.0f} games/s on one thread, under perf", flush=True)
        perf.send_signal(signal.SIGINT)
        perf.wait()
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "sym"], capture_output=True,
                                text=True).stdout
        for line in report.splitlines():
            if line.strip() and not line.startswith("#"):
                pct, _, sym = line.strip().partition(" ")
                if float(pct.rstrip("%")) >= 0.2:
                    print(f"{pct:>8} {re.sub(r'B[0-9]+v[0-9]+B.*', '', sym.replace('[.] ', '').strip())[:110]}")
        if args.annotate:
            hits = [(a, end) for (a, name), end in zip(syms, ends) if args.annotate in name]
            if not hits:
                raise SystemExit(f"profile.py: no function of the kernel is named like {args.annotate!r}")
            annotate(data, hits, args.top)
        os.unlink(f"/tmp/perf-{os.getpid()}.map")


if __name__ == "__main__":
    main()
