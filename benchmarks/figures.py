"""How long each figure takes: every figure of a `balance report` of each shipped scenario, and the figures of the
studies (sweep, compare, cards, tournament, check) on the same scenario, each made and written as its report writes
it (``report._png``), in seconds of wall time and of this process's CPU time.

The first figure a process draws also loads matplotlib's fonts; one small figure is drawn first, untimed, so that
each line is the figure's own cost. `balance bench` gives a whole report's time (its games, then its figures and
files); this script says which figure that time went to.

    python benchmarks/figures.py [--games 20000] [--study-games 2000] [--no-studies] [SCENARIO ...]
"""
from __future__ import annotations

import argparse
import glob
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(label: str, draw, folder: Path) -> tuple[float, float]:
    from balance.present.report import _png
    wall, cpu = time.perf_counter(), time.process_time()
    _png(folder, label.replace(" ", "_"), draw, None)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"  {label:34s} {wall:7.2f} s  (cpu {cpu:5.2f} s)", flush=True)
    return wall, cpu


def studies(path: str, games: int, threads):
    """(label, figure function) of each study on the scenario, played on ``games`` games."""
    import balance
    from balance.scenario import load_scenario
    sc = load_scenario(path)
    found = []
    strategies = ",".join(list(sc.spec().strategies)[:3])
    plays = {"sweep": lambda: balance.sweep(path, {"seed": [1, 2, 3]}, games=games, threads=threads),
             "compare": lambda: balance.compare(path, sets={"seats.0.strategy": "random"}, games=games,
                                                threads=threads),
             "cards": lambda: balance.cards(path, games=games, threads=threads),
             "tournament": lambda: balance.tournament(path, strategies, games=games, threads=threads),
             "check": lambda: balance.check(path, games=games, threads=threads)}
    for kind, play in plays.items():
        if kind == "check" and not sc.checks:
            continue
        try:
            study = play()
        except Exception as err:        # noqa: BLE001 - a study this scenario cannot run: say so, go on
            print(f"  {kind}: not played ({type(err).__name__}: {str(err)[:90]})")
            continue
        if hasattr(study, "figures"):
            found += [(f"{kind}: {name}", draw) for name, draw in study.figures().items()]
        else:
            found += [(f"{kind}: {name}", getattr(study.plot, name)) for name in study.plot.available()]
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenarios", nargs="*", help="scenario files (default: every scenarios/*.toml)")
    ap.add_argument("--games", type=int, default=20_000, help="games of each report")
    ap.add_argument("--study-games", type=int, default=2_000, help="games of each study")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--no-studies", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("MPLBACKEND", "Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from balance.cli.bench import machine
    from balance.run.runner import RunOptions, run
    from balance.scenario import load_scenario

    warm = Figure()
    FigureCanvasAgg(warm)
    warm.subplots().plot([0, 1], label="x")
    warm.legend()
    warm.savefig(io.BytesIO(), format="png")
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
    for path in args.scenarios or sorted(glob.glob(str(ROOT / "scenarios" / "*.toml"))):
        sc = load_scenario(path, games=args.games)
        t = time.perf_counter()
        results = run(sc, RunOptions(threads=args.threads, progress=False))
        print(f"{os.path.relpath(path, ROOT)}: {args.games:,} games in {time.perf_counter() - t:.1f} s")
        total = [0.0, 0.0]
        with tempfile.TemporaryDirectory() as tmp:
            for name in results.plot.available():
                for i, x in enumerate(timed(name, getattr(results.plot, name), Path(tmp))):
                    total[i] += x
            print(f"  {'report figures, all':34s} {total[0]:7.2f} s  (cpu {total[1]:5.2f} s)")
            if not args.no_studies:
                for label, draw in studies(path, args.study_games, args.threads):
                    timed(label, draw, Path(tmp))


if __name__ == "__main__":
    main()
