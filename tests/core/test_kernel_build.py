"""How the rule code is compiled (balance/core/jit.py, balance/core/numba_patches): build properties that the kernel's
speed and its compile time rest on. The tests of Numba's compile patches are skipped where the patches are off
(``BALANCE_NUMBA_PATCHES=0``, or a Numba they were not verified on); ``tests/core/test_numba_patches.py`` checks that the games
play the same either way.

Rule functions run without Numba's runtime (no reference counting on the arrays passed between them). A rule
function added with plain ``njit`` would quietly bring the runtime back into the turn loop; this test names it.
Only the drivers that allocate (the parallel loop, trace buffers, the floor) may use the runtime.
"""
from __future__ import annotations

import numba
import numba.core.registry
import pytest

from balance.core import rng
from balance.games.spooky_tower import layout, rules, strategies

ALLOCATING = {"simulate_nb", "trace_game_nb"}


def jitted(module):
    return {name: obj for name, obj in vars(module).items()
            if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.__module__ == module.__name__}


def test_rule_functions_compile_without_the_numba_runtime():
    found = 0
    for module in (rules.effects, rules.setup, rules.simulate, rules.turn, strategies, strategies.heuristics,
                   strategies.scripted, strategies.valuation, layout, rng):
        for name, fn in jitted(module).items():
            if name in ALLOCATING:
                continue
            found += 1
            assert fn.targetoptions.get("_nrt") is False, f"{module.__name__}.{name} is compiled with the runtime"
    assert found > 40


def test_the_allocating_drivers_exist():
    assert ALLOCATING <= set(jitted(rules.simulate))


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
    from balance.run.runner import play_chunk
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
    script = (f"import sys; sys.path[:0] = [{str(Path(__file__).parent)!r}, {str(Path(__file__).parents[1])!r}]; "
              "from test_kernel_build import variant_digests; print(*variant_digests(3000))")
    checked = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900)
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert checked.stdout.split() == variant_digests(3000)


# --- rules_jit_flat (balance/core/jit.py): typed once, inlined by LLVM into every caller ------------------------------

from balance.core import jit as _jit  # noqa: E402
from balance.core import numba_patches as patches  # noqa: E402
from balance.core.numba_patches import dispatch, memos, symbols  # noqa: E402

needs_patches = pytest.mark.skipif(not patches.ACTIVE, reason="Numba's compile patches are off in this process")


@_jit.rules_jit_flat(cache=False)         # compiled in this process, so that its code can be read
def _flat_leaf(s, i):
    """Big enough that LLVM would not inline it of its own accord into three call sites."""
    total = 0
    for k in range(s.shape[0]):
        v = s[k] * (i + 1)
        if v % 3 == 0:
            total += v // 3
        elif v % 5 == 1:
            total -= v * 7
        elif v % 7 == 2:
            total ^= v << 2
        else:
            total += s[(k + i) % s.shape[0]] - s[(k * 3 + 1) % s.shape[0]]
        if total > 1_000_000:
            total = total % 999_983
    return total


@numba.njit(**{**_jit.RULES_OPTIONS, "cache": False})
def _calls_flat_leaf(s):
    return _flat_leaf(s, 0) + 2 * _flat_leaf(s, 1) + 3 * _flat_leaf(s, 2)


@needs_patches
def test_flat_functions_are_inlined_into_their_callers():
    """Climbing Tower's speed rests on this: a flat function leaves no call behind in its caller's machine code."""
    import numpy as np
    s = np.arange(3, dtype=np.int64)
    assert _calls_flat_leaf(s) == sum(k * _flat_leaf.py_func(s, k - 1) for k in (1, 2, 3))
    assert patches.INSTALLED["always_inline"], "the alwaysinline hook could not be installed on this Numba"
    llvm = _calls_flat_leaf.inspect_llvm(_calls_flat_leaf.signatures[0])
    assert "_calls_flat_leaf" in llvm
    leaf_symbol = symbols.prefix_of(_flat_leaf.py_func)
    calls = [line for line in llvm.splitlines() if " call " in line and leaf_symbol in line]
    assert calls == []
    import re
    defined = re.findall(r"^define [^@]*@\"?([\w.$]+)", _flat_leaf.inspect_llvm(_flat_leaf.signatures[0]), re.M)
    assert [name for name in defined if symbols.is_flat(name)]


@needs_patches
def test_flat_symbols_are_told_apart_from_wrappers_and_other_functions():
    prefix = symbols.prefix_of(_flat_leaf.py_func)
    assert symbols.is_flat(prefix + "B2v1E5ArrayIxLi1E1C7mutable7alignedEx")
    assert symbols.is_flat(prefix + "E")
    assert not symbols.is_flat("cpython." + prefix + "E")          # the Python wrapper stays a function
    assert not symbols.is_flat(prefix[:-1] + "x" + "E")            # another name of the same length
    assert not symbols.is_flat(symbols.prefix_of(_calls_flat_leaf.py_func) + "E")


@needs_patches
def test_climbing_tower_rules_are_flat():
    from balance.games.climbing_tower import strategies as ct_strategies
    from balance.games.climbing_tower.rules import build, play, rounds, setup, simulate
    from balance.games.climbing_tower.strategies import heuristics
    for module in (simulate, rounds, play, build, setup, ct_strategies, heuristics):
        for name, fn in jitted(module).items():
            if name in ALLOCATING:
                continue
            assert symbols.prefix_of(fn.py_func) in symbols.FLAT, f"{module.__name__}.{name} is not rules_jit_flat"


@_jit.rules_jit
def _plain_callee(s, k):
    return s[k] * 2


@needs_patches
def test_rule_functions_compile_once_per_argument_types_not_per_constant():
    """A caller passing a constant (Literal[int](3)) or a narrower signed integer (an int32 read from the board
    table) gets the callee's int64 compile: one specialisation for every constant, which cut The Haunted Tower's
    cold compile from about 71 to 55 s, and for every integer width (211 compiles to 195, about 0.5 s more;
    balance/core/numba_patches/dispatch.py). An unsigned integer keeps its own type."""
    from numba.core import types
    array = types.Array(types.int64, 1, "C")
    _plain_callee.get_call_template((array, types.IntegerLiteral(3)), {})
    _plain_callee.get_call_template((array, types.IntegerLiteral(4)), {})
    _plain_callee.get_call_template((array, types.int32), {})
    _plain_callee.get_call_template((array, types.int16), {})
    assert _plain_callee.signatures == [(array, types.int64)]
    _plain_callee.get_call_template((array, types.uint64), {})
    assert _plain_callee.signatures == [(array, types.int64), (array, types.uint64)]
    import numpy as np
    from numba import njit

    @njit(cache=False)
    def narrow(s, k):                   # an int32 argument, widened at the call: the value arrives whole
        return _plain_callee(s, np.int32(k))
    assert narrow(np.arange(10, dtype=np.int64), 7) == 14


# --- one optimisation per entry point (balance/core/numba_patches/link_once.py) -------------------------------------

ONCE_MODULE = '''
import numba
from balance.core import jit as _jit

@_jit.rules_jit
def leaf(s, i):                 # too big for LLVM to inline into every call site of its own accord
    acc = i
    for k in range(s.shape[0]):
        x = s[(k * 7 + i) % s.shape[0]]
        if (x + acc) & 1:
            acc = acc * 3 + x
        elif x > k:
            acc ^= x << (k % 5)
        else:
            acc -= s[(acc & 63) % s.shape[0]]
        acc %= 1_000_003
    return acc

@_jit.rules_jit
def powered(x, i):              # Numba compiles helpers of its own for these, while this function compiles
    return x ** 2 + i ** 3 + round(x, 2)

@_jit.rules_jit
def middle(s):
    return leaf(s, 0) + 2 * leaf(s, 1) + 3 * leaf(s, 2) + int(powered(1.5, 2))

@numba.njit(cache=True)
def entry(s):
    return middle(s) - leaf(s, 5)

@numba.njit(cache=True, parallel=True)
def par_entry(s, out):          # a parallel driver: Numba wraps its loop's body in two wrapper functions
    for b in numba.prange(out.shape[0]):
        out[b] = middle(s) + leaf(s, numba.int64(b))    # the loop index is unsigned
'''

ONCE_SCRIPT = '''
import sys, numpy as np, once_mod
from balance.core.numba_patches import symbols
from numba.core.registry import cpu_target
codegen = cpu_target.target_context.codegen()
full_runs = []                  # per run of LLVM's full pipeline: does it optimise the parallel loop's body?
make = codegen._module_pass_manager

class Recording:
    def __init__(self, pm):
        self.pm = pm
    def run(self, module, pb):
        full_runs.append(any(not fn.is_declaration and fn.name.startswith("_ZN") and "numba_parfor_gufunc" in fn.name
                             for fn in module.functions))
        return self.pm.run(module, pb)

def recording(**kw):
    pm, pb = make(**kw)
    return (pm, pb) if kw else (Recording(pm), pb)
codegen._module_pass_manager = recording
s = np.arange(40, dtype=np.int64)
got = once_mod.entry(s)
leaf = lambda i: once_mod.leaf.py_func(s, i)
middle = leaf(0) + 2 * leaf(1) + 3 * leaf(2) + int(1.5 ** 2 + 2 ** 3 + round(1.5, 2))
assert got == middle - leaf(5), got
out = np.zeros(6, dtype=np.int64)
once_mod.par_entry(s, out)
assert list(out) == [middle + leaf(b) for b in range(6)], out
if sys.argv[1] == "compile":
    # the loop's body (with leaf and middle in it) went through the full pipeline once, not again in each of the
    # two wrappers around it and in par_entry itself, which link it in
    assert sum(full_runs) == 1, full_runs
    plib = once_mod.par_entry.overloads[once_mod.par_entry.signatures[0]].library
    assert getattr(plib, "_balance_glue", None), "par_entry was not built as glue around its loop's body"
    lib = once_mod.entry.overloads[once_mod.entry.signatures[0]].library
    mine = lib._final_module
    prefixes = [symbols.prefix_of(f.py_func) for f in (once_mod.leaf, once_mod.middle)]
    linked = [fn for fn in mine.functions if not fn.is_declaration and any(fn.name.startswith(p) for p in prefixes)]
    assert all(str(fn.linkage) == "Linkage.internal" for fn in linked), [(fn.name, fn.linkage) for fn in linked]
    callee = once_mod.middle.overloads[once_mod.middle.signatures[0]].library
    assert hasattr(callee, "_balance_callees")
    leaf_prefix = prefixes[0]
    assert not [fn.name for fn in callee._final_module.functions
                if not fn.is_declaration and fn.name.startswith(leaf_prefix)], "a callee linked its callee in"
    # compiled for its callers only, a callee has no wrapper for Python, and no machine code is made of it, nor of
    # the parallel loop's body (only what links them in runs them); Python's first call compiles it whole
    assert not [fn.name for fn in callee._final_module.functions if fn.name.startswith("_ZN7cpython")]
    assert callee._balance_link_only and plib._balance_glue and all(b._balance_link_only for b in plib._balance_glue)
    mine = [name for name in callee._balance_own if name.startswith(prefixes[1])]
    assert mine and not any(codegen._engine.is_symbol_defined(name) for name in mine), mine
    assert not getattr(callee, "_balance_emitted", False)
    assert once_mod.middle(s) == middle
    whole = once_mod.middle.overloads[once_mod.middle.signatures[0]].library
    assert whole is not callee and not hasattr(whole, "_balance_callees") and whole._balance_kernel
    assert once_mod.middle(s) == middle and once_mod.leaf(s, 3) == leaf(3)
if sys.argv[1] == "load":
    assert sum(once_mod.entry.stats.cache_hits.values()) == 1, once_mod.entry.stats
    assert sum(once_mod.par_entry.stats.cache_hits.values()) == 1, once_mod.par_entry.stats
print(got)
'''


def run_in_new_process(tmp_path, name: str, module: str, script: str, *args: str, timeout: int = 300,
                       **env: str) -> str:
    """Write `module` (as ``{name}_mod.py``) and `script` into tmp_path and run the script in a new Python process
    with its own Numba cache there; it must exit 0 (a crash is a failure). Returns its standard output."""
    import os
    import subprocess
    import sys
    (tmp_path / f"{name}_mod.py").write_text(module)
    (tmp_path / f"{name}_script.py").write_text(script)
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=path, **env)
    res = subprocess.run([sys.executable, str(tmp_path / f"{name}_script.py"), *args], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, (res.returncode, res.stderr[-3000:])
    return res.stdout


@needs_patches
def test_an_entry_point_is_optimised_whole_with_private_copies_and_cached_alone(tmp_path):
    """The entry point links every function below it as a private copy (a call the optimiser did not inline cannot
    be bound to a callee's unoptimised code), a callee keeps only its own code and is never cached (its code calls
    other code of its process), and the cached entry point runs alone in a new process. A callee using ``**`` and
    ``round`` (helpers Numba compiles while it compiles) links them in: they once failed to link. A parallel
    driver's loop body is optimised once: the two wrappers Numba puts around it and the driver are glue, which links
    the optimised body in without optimising it again; the driver too runs alone from the cache."""
    assert patches.INSTALLED["link_once"], "the one-optimisation hooks could not be installed on this Numba"

    def run(mode):
        return run_in_new_process(tmp_path, "once", ONCE_MODULE, ONCE_SCRIPT, mode).split()[-1]

    first = run("compile")
    cached = sorted(p.name.split("-")[0] for p in (tmp_path / "cache").rglob("*.nbi"))
    # the entry points, and the two rule functions Python called (compiled whole for it), never a callee's code
    assert cached == ["once_mod.entry", "once_mod.leaf", "once_mod.middle", "once_mod.par_entry"], cached
    assert run("load") == first                 # the entry point alone, from the cache, in a new process


SHADOW_MODULE = '''
import numba
from balance.core import jit as _jit
from balance.core.numba_patches import dispatch, symbols

def rule_with_wrapper(fn):      # a rule function whose callee compile keeps Python's wrapper: Python runs its own code
    symbols.RULES.add(symbols.prefix_of(fn))
    return dispatch.one_specialisation(numba.njit(**_jit.RULES_OPTIONS)(fn))

@_jit.rules_jit
def leaf(s, i):                 # big enough that the entry point keeps a private copy rather than inlining it
    acc = i
    for k in range(s.shape[0]):
        x = s[(k * 7 + i) % s.shape[0]]
        acc = acc * 3 + x if (x + acc) & 1 else acc ^ (x << (k % 5))
        acc %= 1_000_003
    for k in range(s.shape[0]):
        x = s[(k * 11 + acc) % s.shape[0]]
        acc = acc * 5 + x if (x + acc) & 2 else acc - s[(acc & 63) % s.shape[0]]
        acc %= 1_000_033
    for k in range(s.shape[0]):
        x = s[(k * 13 + i) % s.shape[0]]
        acc = acc * 7 - x if (x ^ acc) & 4 else acc ^ (x << (k % 7))
        acc %= 1_000_037
    return acc

@_jit.rules_jit
def first(s):
    t = 0
    for j in range(s.shape[0] // 4):
        t += leaf(s, j) * (j + 1) - leaf(s, j + 1) + leaf(s, j * 3) ^ leaf(s, 2 * j) + leaf(s, j + 7) - leaf(s, j ^ 5)
    return t

@rule_with_wrapper
def second(s):
    return leaf(s, 4) - leaf(s, 6)

@numba.njit
def entry1(s):
    return first(s)

@numba.njit
def entry2(s):
    return second(s)
'''

SHADOW_SCRIPT = '''
import numpy as np, shadow_mod as m
s = np.arange(40, dtype=np.int64)
assert m.entry1(s) == m.first.py_func(s)
assert m.entry2(s) == m.second.py_func(s)
assert hasattr(m.second.overloads[m.second.signatures[0]].library, "_balance_callees")     # Python runs callee code
lib = m.entry1.overloads[m.entry1.signatures[0]].library
assert [fn for fn in lib._final_module.functions if not fn.is_declaration and "4leaf" in fn.name], "leaf was inlined"
print(m.second(s), m.second.py_func(s))     # the callee's own machine code, run from Python
'''


@needs_patches
def test_a_callee_compiled_after_an_entry_point_calls_the_callee_not_the_entry_points_private_copy(tmp_path):
    """`second` is compiled as a callee (own code only, calling `leaf` by name) after `entry1` was loaded with a
    private copy of `leaf` whose signature the optimiser was free to change. Called from Python, `second` must run
    the real `leaf`: when the private copy kept leaf's name, the JIT linker bound the call to it and the process
    crashed (as a Spooky Tower rule function did after Climbing Tower's kernel had compiled)."""
    got, expected = run_in_new_process(tmp_path, "shadow", SHADOW_MODULE, SHADOW_SCRIPT).split()
    assert got == expected


@needs_patches
def test_rule_functions_have_no_cfunc_wrapper_and_declarations_get_no_function_passes(monkeypatch):
    """Two cuts to every rule function's compile: no C-function-pointer wrapper (rule code never takes a function's
    address), and LLVM's function passes only over functions with a body (Numba made a pass builder for each
    declaration too, 7,071 of The Haunted Tower's 7,718)."""
    import numpy as np
    from numba.core import codegen
    assert patches.INSTALLED["function_passes"], "the function-pass hook could not be installed on this Numba"
    made, bodies, declared = [], [], []
    real_manager = codegen.JITCPUCodegen._function_pass_manager
    real_add = codegen.CPUCodeLibrary.add_llvm_module

    def manager(self, **kw):
        made.append(1)
        return real_manager(self, **kw)

    def add(self, module):
        bodies.append(sum(1 for fn in module.functions if not fn.is_declaration))
        declared.append(sum(1 for fn in module.functions if fn.is_declaration))
        return real_add(self, module)
    monkeypatch.setattr(codegen.JITCPUCodegen, "_function_pass_manager", manager)
    monkeypatch.setattr(codegen.CPUCodeLibrary, "add_llvm_module", add)

    @numba.njit(**{**_jit.RULES_OPTIONS, "cache": False})
    def rule(s, i):
        return s[i % s.shape[0]] * 3 + np.int64(i)

    assert rule(np.arange(5, dtype=np.int64), 7) == 2 * 3 + 7
    assert sum(made) == sum(bodies) > 0 and sum(declared) > 0, (made, bodies, declared)
    library = rule.overloads[rule.signatures[0]].library
    defined = [fn.name for fn in library._final_module.functions if not fn.is_declaration]
    assert any(name.startswith("_ZN7cpython") for name in defined), defined     # Python still calls it
    assert not [name for name in defined if name.startswith("cfunc.")], defined


EDGE_MODULE = '''
import numpy as np, numba
from balance.core.jit import rules_jit

@rules_jit
def printer(x):                 # needs its environment at run time
    print("value", x)
    return x * 2

@numba.njit
def entry_print(x):
    return printer(x)

@rules_jit
def mr_a(n):                    # mutual recursion, the outer function a callee
    if n <= 0:
        return 0
    return mr_b(n - 1) + 1

@rules_jit
def mr_b(n):
    if n <= 0:
        return 0
    return mr_a(n - 1) + 2

@numba.njit
def entry_mr(n):
    return mr_a(n)

@rules_jit
def tc(x, n):                   # recursion that changes its argument types
    if n <= 0:
        return 1.5
    return tc(np.float64(x), n - 1) + 1.0

@numba.njit
def entry_tc(x, n):
    return tc(x, n)

@rules_jit
def triple(x):
    return x * 3 + 1

@numba.vectorize
def vf(x):                      # a ufunc whose loop Numba calls through its address
    return triple(x)

@numba.njit
def entry_vf(a):
    return vf(a)

@rules_jit
def mid(x):
    return triple(x) * 2

@numba.njit
def entry_mid(x):
    return mid(x)

@numba.njit(parallel=True)
def driver(a):
    out = np.zeros(a.shape[0], dtype=np.int64)
    for i in numba.prange(a.shape[0]):
        out[i] = mid(a[i])
        print("body", i)
    return out
'''

EDGE_SCRIPT = '''
import sys, numpy as np, edge_mod as m
case = sys.argv[1]
if case == "print":
    print("got", m.entry_print(5))
elif case == "recursion":
    print("got", m.entry_mr(5), m.entry_tc(3, 2), m.tc(3, 2))
elif case == "ufunc":
    a = np.arange(4, dtype=np.int64)
    print("got", m.entry_vf(a).tolist(), m.vf(a).tolist())
elif case == "overload":
    m.entry_mid(1)
    print("got", m.mid.get_overload(m.mid.signatures[0])(1), end=" ")
    m.mid.recompile()
    print(m.mid(1))
elif case == "prange":
    print("got", m.driver(np.arange(2)).tolist())
'''


@pytest.mark.parametrize("case, expected", [
    ("print", "value 5\ngot 10"), ("recursion", "got 7 3.5 3.5"), ("ufunc", "got [1, 4, 7, 10] [1, 4, 7, 10]"),
    ("overload", "got 8 8"), ("prange", "got [2, 8]")])
def test_code_without_machine_code_of_its_own_still_runs_wherever_it_is_needed(tmp_path, case, expected):
    """A callee compiled without a Python wrapper and without machine code (and a parallel loop's body) must still
    run right wherever Numba needs more than the entry point's private copy: its environment (print), recursion that
    reaches a function by name, a ufunc loop called through its address, get_overload and recompile from Python.
    Each of these crashed, hung or failed in a review of the first version of these cuts."""
    # one thread: the loop body's lines in order (the body still runs as the parallel driver's copy)
    out = run_in_new_process(tmp_path, "edge", EDGE_MODULE, EDGE_SCRIPT, case, timeout=240,
                             NUMBA_NUM_THREADS="1").strip()
    if case == "prange":
        assert out.splitlines() == ["body 0", "body 1", expected], out
    else:
        assert out == expected, out


def test_lowest_bit_walks_the_set_bits_of_a_word_in_increasing_order():
    """kernel_common.lowest_bit_nb (llvm.cttz) and its plain-Python twin (NUMBA_DISABLE_JIT) agree with Python on
    words with bit 0, bit 63 (a negative int64) and scattered bits, and give 64 for an empty word."""
    import numpy as np
    from numba import njit

    from balance.games import kernel_common

    @njit
    def set_bits(x, out):
        n = 0
        while x != 0:
            out[n] = kernel_common.lowest_bit_nb(x)
            x &= x - 1
            n += 1
        return n

    for word in (1, 1 << 63, (1 << 63) | 1, 0b1011_0000_0000_0100, 2 ** 64 - 1, 0x0123_4567_89AB_CDEF):
        signed = word - (1 << 64) if word >= 1 << 63 else word
        out = np.zeros(64, np.int64)
        n = set_bits(np.int64(signed), out)
        assert list(out[:n]) == [b for b in range(64) if word >> b & 1]
    assert set_bits(np.int64(0), np.zeros(64, np.int64)) == 0
    assert njit(lambda x: kernel_common.lowest_bit_nb(x))(np.int64(0)) == 64
    source = open(kernel_common.__file__, encoding="utf-8").read()
    twin = source[source.index("    def lowest_bit_nb(x):"):]
    scope = {}
    exec("\n".join(line[4:] for line in twin.splitlines()[:3]), scope)          # the DISABLE_JIT definition
    for word in (1, 1 << 63, 0b1011_0000_0000_0100, 0):
        signed = word - (1 << 64) if word >= 1 << 63 else word
        assert scope["lowest_bit_nb"](np.int64(signed)) == (64 if word == 0 else (word & -word).bit_length() - 1)


def test_a_profiling_build_never_shares_the_users_cache(tmp_path):
    """``BALANCE_PROFILE_NOINLINE`` (benchmarks/profile.py --noinline) compiles slower code: without an explicit
    NUMBA_CACHE_DIR it goes to a cache folder of its own, never the one a user's runs load from."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "BALANCE_PROFILE_NOINLINE")}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "import os, balance; print(os.environ['NUMBA_CACHE_DIR'])"
    folder = lambda extra: subprocess.run([sys.executable, "-c", code], env={**env, **extra}, check=True,  # noqa: E731
                                          capture_output=True, text=True, timeout=600).stdout.strip()
    plain = folder({})
    profiled = folder({"BALANCE_PROFILE_NOINLINE": "best_target_nb"})
    other = folder({"BALANCE_PROFILE_NOINLINE": "slots_nb"})
    assert Path(plain).parent == Path(profiled).parent == tmp_path / "balance" / "numba"
    assert len({plain, profiled, other}) == 3 and "-noinline-" in profiled and "-noinline-" not in plain


# --- the builtin typing memo (balance/core/numba_patches/memos.py) -----------------------------------------------

@needs_patches
def test_a_repeated_builtin_typing_is_answered_once_and_as_numba_answers_it():
    """Each (function, argument types, flags) is typed once: a literal index is a type of its own (a mixed tuple's
    items keep their own types), the same call under other flags (error_model) is typed again, a call no template
    types still fails each time, and the compiled functions compute what Python does."""
    import numpy as np
    from numba import njit
    from numba.core import errors, types

    assert patches.INSTALLED["typing_memo"], "the typing memo could not be installed on this Numba"

    def mixed(t, x, y):
        a = t[0] + x + 1
        b = t[1] * 2.0 + x
        return a + x, b, x // y, np.uint64(x) + np.uint64(1)

    python = njit(cache=False)(mixed)
    numpy_errors = njit(cache=False, error_model="numpy")(mixed)
    args = ((3, 2.5), 7, 2)
    assert python(*args) == numpy_errors(*args) == mixed(*args)
    keys = [key for key in memos.TYPING_MEMO if key[2] == (types.int64, types.int64)
            and "add" in str(key[0])]
    assert keys, "int64 + int64 was not kept"
    assert len({key[4] for key in keys}) >= 2, "the two error models were typed as one"
    with pytest.raises(ZeroDivisionError):                          # each compiled with its own flags
        python((3, 2.5), 7, 0)
    assert numpy_errors((3, 2.5), 7, 0)[2] == 0
    before = len(memos.TYPING_MEMO)

    def bad(x):
        return x + "a"
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            njit(cache=False)(bad)(1)
    assert not [key for key in list(memos.TYPING_MEMO)[before:] if types.unicode_type in key[2]]


def test_index_helpers_are_computed_in_place_as_python_computes_them():
    """A ``rules_index`` helper has no compiled function of its own; compiled code gets the index Python gets, for
    int64, int32 and unsigned arguments and for negative sums (as np.uint64 of the int64 sum); a helper that is not
    affine is refused by name when compiled code first types a call."""
    import numpy as np
    from numba import njit
    from numba.core import errors
    from balance.core.index import rules_index
    from balance.games.haunted_tower import layout as ht

    assert not hasattr(ht.mcnt_at, "overloads") and not hasattr(layout.pl_at, "overloads")

    @njit(cache=False)
    def indices(p, m, k, q32):
        return ht.mcnt_at(p, m, k), ht.hit_roll_at(m, k), ht.at(ht.CAND, q32), layout.hand_at(p, m, k)

    for p, m, k in [(0, 0, 0), (3, 17, 4), (5, 47, 9), (1, 2, -40)]:
        got = indices(p, m, k, np.int32(k))
        want = (ht.mcnt_at(p, m, k), ht.hit_roll_at(m, k), ht.at(ht.CAND, k), layout.hand_at(p, m, k))
        assert got == want and all(isinstance(x, int) for x in got)
    assert indices(0, 0, 0, np.int32(-(ht.CAND + 1)))[2] == np.uint64(2 ** 64 - 1)

    def squares(a, b):
        return np.uint64(a * b + 1)
    rules_index(squares)
    with pytest.raises(errors.TypingError, match="squares is not an affine function"):
        njit(cache=False)(lambda a: squares(a, a))(2)


@needs_patches
def test_rule_functions_skip_the_passes_that_cannot_change_them_and_inline_closures_that_they_make():
    """The rules' pipeline is Numba's less the rewrites after typing, with the closure inliner run only where there
    is a closure to inline: a rule function that makes one still compiles without the runtime, with the closure
    inlined (not left as a function of its own), and computes what Python does."""
    from numba.core import ir
    from numba.core.caching import NullCache
    from numba.core.typed_passes import NopythonRewrites
    from numba.core.untyped_passes import InlineClosureLikes
    from balance.core.jit import RULES_OPTIONS, rules_jit

    assert RULES_OPTIONS.get("pipeline_class") is not None, "the rules' pipeline could not be built on this Numba"
    def closing(n):
        def step(x):
            return 3 * x + n
        total = 0
        for i in range(n):
            total += step(i)
        return total

    compiled = rules_jit(closing)
    compiled._cache = NullCache()       # compiled here, never loaded: a loaded overload has no pass timings
    assert compiled(5) == closing(5)
    ran = [name.split("_", 1)[1] for times in next(iter(compiled.overloads.values())).metadata["pipeline_times"].values()
           for name in times]
    assert "balance_inline_closures_if_any" in ran and InlineClosureLikes._name not in ran
    assert NopythonRewrites._name not in ran and "nopython_type_inference" in ran
    blocks = next(iter(compiled.overloads.values())).type_annotation.blocks
    values = [getattr(inst, "value", None) for block in blocks.values() for inst in block.body]
    assert not [v for v in values if isinstance(v, ir.Expr) and v.op == "make_function"
                or isinstance(v, (ir.Global, ir.FreeVar)) and hasattr(v.value, "py_func")], "the closure was not inlined"


def test_board_table_reads_are_computed_in_place_as_python_reads_them():
    """Each ``rules_table`` read of The Haunted Tower's board gives in compiled code what its Python body gives,
    over every square, room and neighbour slot of the reconstructed map (a decorator naming the wrong header word
    would read another table)."""
    import numpy as np
    from numba import njit
    from balance.games.haunted_tower import layout as ht
    from balance.scenario import load_scenario

    scenario = load_scenario("scenarios/haunted_tower.toml")
    g = scenario.spec().compile_scenario(scenario)[2]
    squares = [ht.g_level, ht.g_room, ht.g_is_front, ht.g_placeable]
    rows = [ht.g_nbr, ht.g_nbr_cost, ht.g_adj, ht.g_door]
    rooms = [ht.g_room_size, ht.g_room_level, ht.g_room_elig]

    @njit(cache=False)
    def compiled(g, q, k, r, j, level, out):
        out[0], out[1], out[2], out[3] = ht.g_level(g, q), ht.g_room(g, q), ht.g_is_front(g, q), ht.g_placeable(g, q)
        out[4], out[5], out[6], out[7] = ht.g_nbr(g, q, k), ht.g_nbr_cost(g, q, k), ht.g_adj(g, q, k), ht.g_door(g, q, k)
        out[8], out[9], out[10] = ht.g_room_size(g, r), ht.g_room_level(g, r), ht.g_room_elig(g, r)
        out[11], out[12], out[13] = ht.g_room_sq(g, r, j), ht.g_rooms_on(g, level), ht.g_outside(g, level - 1)

    out = np.zeros(14, np.int64)
    n, n_rooms = int(g[ht.G_N]), int(g[ht.G_R])
    slots = min(int(g[ht.G_K]), int(g[ht.G_A]), int(g[ht.G_D]))
    for q in range(n):
        for k in range(slots):
            r, j, level = q % n_rooms, k % int(g[ht.G_RMAX]), 1 + q % 3
            compiled(g, q, k, r, j, level, out)
            want = [f(g, q) for f in squares] + [f(g, q, k) for f in rows] + [f(g, r) for f in rooms] \
                + [ht.g_room_sq(g, r, j), ht.g_rooms_on(g, level), ht.g_outside(g, level - 1)]
            assert list(out) == want and all(type(x) is int for x in want), (q, k)


@needs_patches
def test_abi_sizes_and_alignments_are_asked_of_llvm_once_and_as_llvm_answers_them():
    """The target context's ABI answers (``memos.install_abi_memo``): the same as LLVM's for scalars, arrays, literal
    structs and pointers; a repeated question is not asked of LLVM again; a type naming an identified struct is
    answered by LLVM and not kept (its text does not give its layout)."""
    from llvmlite import ir as llir
    from numba.core.registry import cpu_target

    assert patches.INSTALLED["abi_memo"], "the ABI memo could not be installed on this Numba"
    ctx = cpu_target.target_context
    td = ctx.target_data
    i8, i32, i64, f64 = llir.IntType(8), llir.IntType(32), llir.IntType(64), llir.DoubleType()
    shapes = [i8, i32, i64, f64, llir.ArrayType(i8, 13), llir.LiteralStructType([i64, i8]),
              llir.LiteralStructType([i8, llir.LiteralStructType([i8, f64])]), i32.as_pointer()]
    for ty in shapes:
        assert ctx.get_abi_sizeof(ty) == ty.get_abi_size(td)
        assert ctx.get_abi_alignment(ty) == ty.get_abi_alignment(td)
    assert ctx.get_abi_sizeof(llir.LiteralStructType([i64, i8])) == 16
    assert ctx.get_abi_sizeof(llir.ArrayType(i8, 13)) == 13

    asked = []
    odd = llir.ArrayType(llir.IntType(24), 5)

    class Counted(type(odd)):
        def get_abi_size(self, target_data, context=None):
            asked.append(str(self))
            return super().get_abi_size(target_data, context)
    counted = Counted(llir.IntType(24), 5)
    sizes = {ctx.get_abi_sizeof(counted) for _ in range(3)}
    assert sizes == {odd.get_abi_size(td)} and len(asked) <= 1

    named = llir.global_context.get_identified_type("balance.abi_test")    # the context Numba's types live in
    named.set_body(i8, i8)
    assert ctx.get_abi_sizeof(named) == 2 and ctx.get_abi_alignment(named) == 1
    assert not [key for key in memos.ABI_MEMO[id(td)][1] if "%" in key[1]]
    copy = ctx.subtarget(error_model="numpy")               # as a compile's context: the same memo
    assert copy.get_abi_sizeof(counted) == odd.get_abi_size(td) and len(asked) <= 1
