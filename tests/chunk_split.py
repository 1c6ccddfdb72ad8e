"""The check that a kernel's chunk outputs do not depend on how the games were split (blocks, chunks, threads)."""
from __future__ import annotations

import numpy as np

from balance.games import SUMS_SUFFIX


def assert_same_games(whole: dict, *parts: dict) -> None:
    """``parts`` played the games of ``whole`` in order, in other blocks or chunks: every per-game array is the
    concatenation of the parts', with its dtype, and every per-block counter sum (``<key>_sums``, one row a block)
    totals the same."""
    assert all(p.keys() == whole.keys() for p in parts)
    for key, value in whole.items():
        if key.endswith(SUMS_SUFFIX):
            assert value.dtype == np.int64 and np.array_equal(
                value.sum(axis=0), sum(p[key].sum(axis=0) for p in parts)), key
            rows = whole[key[:-len(SUMS_SUFFIX)]]        # and they are the rows' own sums, all seats together
            assert np.array_equal(value.sum(axis=0)[0], rows.astype(np.int64).sum(axis=(0, 1)).reshape(-1)), key
        else:
            joined = np.concatenate([p[key] for p in parts])
            assert value.dtype == joined.dtype and np.array_equal(value, joined), key
