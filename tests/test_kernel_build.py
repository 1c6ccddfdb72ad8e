"""How the rule code is compiled (balance/_jit.py): a build property that the kernel's speed rests on.

Rule functions run without Numba's runtime (no reference counting on the arrays passed between them). A rule
function added with plain ``njit`` would quietly bring the runtime back into the turn loop; this test names it.
Only the drivers that allocate (the parallel loop, trace buffers, the floor) may use the runtime.
"""
from __future__ import annotations

import numba.core.registry

from balance import rng
from balance.games.spooky_tower import kernel, layout, strategies

ALLOCATING = {"simulate_nb", "trace_game_nb", "floor_nb"}


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
