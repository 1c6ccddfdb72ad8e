"""What every game's kernel computes, as digests: run in a new process with its own Numba cache, once with Numba's
compile patches (``balance/core/numba_patches``) and once without, by ``tests/core/test_numba_patches.py``.

``python tests/patch_outputs.py GAMES [GAME ...]`` (only those games' scenarios, where named) prints one JSON object: whether the patches were on, and for every shipped
scenario (``balance.run.agreement.shipped``: each file in ``scenarios/`` and each game's embedded default no file
repeats) the SHA-1 of each output array of its first GAMES games (``run_chunk``, as ``balance run`` plays them), for
its own seed and for the next seed (a control: a different game must give a different digest); and the seconds
each game's first chunk took (its kernel's cold compile, the first scenario of each game).
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def digests(chunk: dict) -> dict[str, str]:
    """SHA-1 of each output array: its dtype, shape and bytes."""
    out = {}
    for key in sorted(chunk):
        value = chunk[key]
        h = hashlib.sha1(f"{value.dtype}{value.shape}".encode())
        h.update(value.tobytes())
        out[key] = h.hexdigest()
    return out


def main(n_games: int, games: tuple[str, ...] = ()) -> dict:
    from balance.core import jit as _jit  # noqa: F401 - the patches are applied (or not) when the rule decorators load
    from balance.core import numba_patches as _numba_patches
    from balance.run.agreement import shipped

    result = {"patches": _numba_patches.ACTIVE, "scenarios": {}, "compile_s": {}}
    for label, scenario in shipped(ROOT / "scenarios"):
        spec = scenario.spec()
        if games and spec.name not in games:
            continue
        compiled = spec.compile_scenario(scenario)
        kept = {}
        for name, seed in (("seed", scenario.seed), ("next_seed", scenario.seed + 1)):
            t0 = time.perf_counter()
            chunk = spec.run_chunk(compiled, seed=seed, rotate=scenario.seat_rotation, game0=0, n_games=n_games,
                                   n_blocks=2)
            result["compile_s"].setdefault(spec.name, time.perf_counter() - t0)
            kept[name] = digests(chunk)
        result["scenarios"][Path(label).name] = kept
    return result


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(json.dumps(main(int(sys.argv[1]), tuple(sys.argv[2:]))))
