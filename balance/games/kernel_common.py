"""Kernel pieces every game shares, written once: the trace buffer, the test scripts, the per-block counter sums
and the chunk's output arrays.

Each game keeps its own state layout, so these take the offsets of its regions; a game's ``emit_nb`` and
``scripted_nb`` are one-line calls with its layout's constants, which Numba folds in.
"""
from __future__ import annotations

import numpy as np

from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..core.jit import rules_jit, rules_jit_inline
from . import SUMS_SUFFIX, ChunkBuffers


@intrinsic
def prefetch_nb(typingctx, arr, idx):
    """Ask the CPU to bring the cache line holding arr[idx] in (LLVM's ``llvm.prefetch``): a hint that never faults
    and changes no value, so a loop can start the memory reads it will need before it needs them."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.gep(ary.data, [args[1]])
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])       # a read, kept in every cache level, of data
        return context.get_dummy_value()
    return types.void(arr, idx), codegen


@intrinsic
def lowest_bit_nb(typingctx, x):
    """Index of the lowest set bit of the 64-bit integer x (LLVM's ``llvm.cttz``, one instruction); 64 when x is 0.
    With ``x &= x - 1`` after each, a loop visits the set bits of a word in increasing order."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64:
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]),
                                            "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.IntType(1)(0)])
    return types.int64(x), codegen


if config.DISABLE_JIT:                          # the kernels as plain Python (debugging): a hint is nothing to do
    def prefetch_nb(arr, idx):                  # noqa: F811
        return None

    def lowest_bit_nb(x):                       # noqa: F811
        x = int(x) & (2 ** 64 - 1)
        return (x & -x).bit_length() - 1 if x else 64


@rules_jit_inline
def prefetch_run_nb(arr, start, n):
    """Prefetch the cache lines of arr[start:start + n] (:func:`prefetch_nb`), 64 bytes apart."""
    step = max(1, 64 // arr.itemsize)
    for j in range(0, n, step):
        prefetch_nb(arr, np.uint64(start + j))
    if n > 0:
        prefetch_nb(arr, np.uint64(start + n - 1))


@rules_jit_inline
def fill_nb(s, start, n, value):
    """``s[start:start + n] = value`` as a plain loop (LLVM makes it a memset). Numba types and lowers a slice
    assignment's array machinery (a view, broadcasting) again at every site: a game reset of a dozen of them spent
    over a second of the cold compile on it."""
    for k in range(start, start + n):
        s[np.uint64(k)] = value


@rules_jit_inline
def emit_at_nb(s, trace, count_at, kind, player, a, b, c):
    """Record one trace event (5 words) in the region from `trace` when `s` carries one; the count at `count_at`
    goes on past the region's end, so an overflow is visible."""
    if s.shape[0] == trace:
        return
    n = s[count_at]
    i = trace + 5 * n
    if i + 5 <= s.shape[0]:
        s[i] = kind
        s[i + 1] = player
        s[i + 2] = a
        s[i + 3] = b
        s[i + 4] = c
    s[count_at] = n + 1


@rules_jit_inline
def next_scripted_nb(s, script, n_at, i_at, default):
    """The next entry of the script region from `script` (s[n_at] entries, s[i_at] used), or `default` once it is
    used up."""
    i = s[i_at]
    if i < s[n_at]:
        s[i_at] = i + 1
        return s[np.uint64(script + i)]
    return default


def load_script(s: np.ndarray, script: int, n_at: int, i_at: int, values) -> None:
    """Test hook (plain Python): the script region from `script` holds `values`, none of them used yet."""
    values = list(values)
    s[script:script + len(values)] = values
    s[n_at] = len(values)
    s[i_at] = 0


@rules_jit
def add_counter_sums_nb(rows, game, seats, width, mask, sums, block):
    """Add one game's counter rows to its block's running sums, for the aggregator (``stats.tally``: it adds these
    sums instead of reading the chunk's rows again). ``rows``: a counter group's int16 array [G, seats, I,
    C] flattened, ``width`` = I * C; ``sums``: its per-block sums [B, 4, width] flattened, holding every seat's
    counters, the winning seats' (bit p of ``mask``), and the same two for "above zero". Read right after the
    kernel wrote the rows, while they are in the cache; unsigned indices, so no negative-index checks keep the
    compiler from vectorising it (about 40 ns a game for Spooky Tower's 3 x 36 counters, against 420 ns for the
    same loop over the 4-d arrays)."""
    w = np.uint64(width)
    first = np.uint64(game) * np.uint64(seats) * w
    at = np.uint64(block) * np.uint64(4) * w
    for p in range(seats):
        keep = -((np.int64(mask) >> p) & 1)        # all bits set when seat p won, else none
        r = first + np.uint64(p) * w
        for j in range(w):
            x = np.int64(rows[r + j])
            pos = np.int64(x > 0)
            sums[at + j] += x
            sums[at + w + j] += x & keep
            sums[at + np.uint64(2) * w + j] += pos
            sums[at + np.uint64(3) * w + j] += pos & keep


def lookahead_flag(lineup_kinds, kind: int | None) -> bool | None:
    """The kernels' ``look`` argument for a lineup: True when a seat plays the lookahead strategy kind `kind` (the
    kernel with the search, compiled the first time such a lineup plays), None otherwise (the kernel without it,
    the search pruned before Numba types it: see a game's ``rules.game``)."""
    return True if kind is not None and bool((np.asarray(lineup_kinds) == kind).any()) else None


def chunk_arrays(out: dict | None, game0: int, n_games: int, make) -> dict:
    """The per-game output arrays of a chunk: views of the first ``n_games`` rows of ``out`` (an earlier chunk's, or
    :class:`ChunkBuffers`, played into again) when it is large enough, else ``make(n)`` (n = ``n_games``, more for
    ``ChunkBuffers``, which keeps them); ``game`` filled in. Reusing them spares the operating system zeroing new
    pages for every chunk: about 6% of a 2M-game chunk on the 2-core machine, and 13% of a `balance run` chunk of
    250,000 Spooky Tower games."""
    if out is None or "game" not in out or out["game"].shape[0] < n_games:
        if isinstance(out, ChunkBuffers):
            out.clear()
            out.update(make(int(n_games * ChunkBuffers.GROW)))
        else:
            out = make(n_games)
    out = {k: v[:n_games] for k, v in out.items() if not k.endswith(SUMS_SUFFIX)}
    out["game"][:] = np.arange(game0, game0 + n_games, dtype=np.int64)
    return out


def counter_sums(out: dict, n_blocks: int, *keys: str, rows: bool = True) -> list:
    """Zeroed per-block sums ([n_blocks, 4, I * C] int64, see :func:`add_counter_sums_nb`) of these counter groups
    of the chunk ``out``, added to it as ``<key>_sums``. Returns, in the order of ``keys``, each group's rows and
    sums as flat views, as the kernel reads them (flattened here: a reshape inside the kernel cost its compile about
    a second).

    ``rows=False``: the kernel gets a row per block instead of a row per game (it writes each game's counters there,
    sums them and writes the next game's over them), and the chunk's ``<key>`` holds no games ([0, P, I, C], the
    shape the aggregator checks). The aggregator needs only the sums; not writing 200-odd bytes a game spares the
    operating system zeroing fresh pages for them, about 6% of a `balance run` of Spooky Tower."""
    flat = []
    for key in keys:
        _, seats, I, C = out[key].shape
        out[key + SUMS_SUFFIX] = np.zeros((n_blocks, 4, I * C), np.int64)
        if rows:
            if out[key].shape[0] != out["game"].shape[0]:   # out: a chunk played without rows, played into again
                out[key] = np.empty((out["game"].shape[0], seats, I, C), out[key].dtype)
            target = out[key]
            if not target.flags.c_contiguous:   # a flat copy would be summed before the kernel wrote into the rows
                raise ValueError(f"{key}: the counter rows must be C-contiguous to be summed in the kernel")
        else:
            target = np.empty((n_blocks, seats, I, C), out[key].dtype)
            out[key] = target[:0]
        flat += [target.reshape(-1), out[key + SUMS_SUFFIX].reshape(-1)]
    return flat
