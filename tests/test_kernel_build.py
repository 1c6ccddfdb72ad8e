"""How the rule code is compiled (balance/_jit.py): a build property that the kernel's speed rests on.

Rule functions run without Numba's runtime (no reference counting on the arrays passed between them). A rule
function added with plain ``njit`` would quietly bring the runtime back into the turn loop; this test names it.
Only the drivers that allocate (the parallel loop, trace buffers, the floor) may use the runtime.
"""
from __future__ import annotations

import numba.core.registry

from balance import rng
from balance.games.spooky_tower import kernel, layout, strategies

ALLOCATING = {"simulate_nb", "trace_game_nb"}


def jitted(module):
    return {name: obj for name, obj in vars(module).items()
            if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.__module__ == module.__name__}


def test_rule_functions_compile_without_the_numba_runtime():
    found = 0
    for module in (kernel, strategies, layout, rng):
        for name, fn in jitted(module).items():
            if name in ALLOCATING:
                continue
            found += 1
            assert fn.targetoptions.get("_nrt") is False, f"{module.__name__}.{name} is compiled with the runtime"
    assert found > 40


def test_the_allocating_drivers_exist():
    assert ALLOCATING <= set(jitted(kernel))


BOUNDSCHECK_VARIANTS = [
    dict(players=3),
    dict(players=4, seat_rotation=True,
         seats=[{"name": n} for n in ("random", "ghost_hunter", "collector", "clock_rusher")]),
    dict(players=2, seats=[{"name": "collector"}, {"name": "clock_rusher"}],
         rules={"effect_order": "takes_first", "flip_scope": "building", "stuck_with_token": "clock",
                "extra_turns": "stack"}),
    dict(players=4, strategy={"name": "ghost_hunter"}, rules={"stuck_with_token": "reroll"}),
]


def variant_digests(n_games: int) -> list[str]:
    """SHA-1 of every output array of `n_games` games of each variant (every strategy, every rule option)."""
    import hashlib

    from balance import load_scenario
    from balance.runner import play_chunk
    out = []
    for kw in BOUNDSCHECK_VARIANTS:
        sc = load_scenario(None, seed=11, **kw)
        spec = sc.spec()
        chunk = play_chunk(spec, spec.compile_scenario(sc), sc, 0, n_games, 1)
        out.append(hashlib.sha1(b"".join(chunk[k].tobytes() for k in sorted(chunk))).hexdigest())
    return out


def test_games_index_only_inside_the_state_under_numba_boundscheck(tmp_path):
    """Rule code indexes the state with unsigned indices (layout.py), so a negative index would not wrap around but
    read outside the array. Compiled with bounds checks, any index outside the arrays raises IndexError: these games
    (every strategy and every rule option) must run clean and play exactly as the unchecked build does."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
              "from test_kernel_build import variant_digests; print(*variant_digests(3000))")
    checked = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900)
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert checked.stdout.split() == variant_digests(3000)
