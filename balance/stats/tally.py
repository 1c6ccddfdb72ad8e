"""The per-game tallies of a chunk: compiled passes over its rows, and the kernels' per-block counter sums.

Every tally is an integer sum over the chunk's games, so any chunking gives the same tallies. The counter groups,
the largest part of a chunk (I x C counters per seat and game), come summed per block by the kernel as it played
(``<key>_sums``, ``games.kernel_common.add_counter_sums_nb``): the aggregator adds those instead of reading the
rows again, which took most of the time between two chunks (the marginal games/s of `balance run` stays within
5% of the kernel's, `docs/performance.md`). A chunk without them (a game that does not sum, a test's made-up chunk) is tallied from its
rows (:func:`tally_group`), to the same numbers: both paths add the same four sums (:func:`_add_sums`).
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _tally_nb(mask, victory, turns, rounds, slots, seat_wins, seat_slot_games, seat_slot_wins, slot_games,
              slot_wins, victory_games, victory_wins, turns_hist, rounds_hist, seat_wins_by_turns,
              seat_wins_by_rounds):
    """Add one chunk's games to the seat, victory and length tallies in place, in one pass over the games; returns
    (finished games, tied games). A game counts as won for ``victory_wins`` when some seat won it. The pass counts
    games and wins by (seat, slot) and by victory kind in local arrays, without branching on a win, and the seat,
    slot and victory totals are added from those afterwards."""
    G, P = slots.shape
    V = victory_games.shape[0]
    games_by = np.zeros((P, P), np.int64)
    wins_by = np.zeros((P, P), np.int64)
    by_victory = np.zeros((2, V), np.int64)
    finished = 0
    tied = 0
    for g in range(G):
        m, v, tu, ro = np.int64(mask[g]), victory[g], turns[g], rounds[g]
        finished += v != 0
        by_victory[0, v] += 1
        by_victory[1, v] += m != 0
        turns_hist[v, tu] += 1
        rounds_hist[v, ro] += 1
        n_won = 0
        for p in range(P):
            k = slots[g, p]
            won = (m >> p) & 1
            n_won += won
            games_by[p, k] += 1
            wins_by[p, k] += won
            seat_wins_by_turns[tu, p] += won
            seat_wins_by_rounds[ro, p] += won
        tied += n_won > 1
    for p in range(P):
        for k in range(P):
            seat_slot_games[p, k] += games_by[p, k]
            seat_slot_wins[p, k] += wins_by[p, k]
            slot_games[k] += games_by[p, k]
            slot_wins[k] += wins_by[p, k]
            seat_wins[p] += wins_by[p, k]
    for v in range(V):
        victory_games[v] += by_victory[0, v]
        victory_wins[v] += by_victory[1, v]
    return finished, tied


@njit(cache=True, nogil=True)
def _group_sums_nb(mask, counters):
    """The four sums of one chunk's per-(seat, thing) counters of one group, [4, I * C] int64 (all rows, the winners'
    rows, and the same for "above zero", as the kernels' per-block sums hold them), and the (game, seat) pairs won.

    The largest tally of a chunk (I * C numbers per seat and game). Each (game, seat) row is read once, as one
    contiguous run of the flat array, into four int32 sums per counter (all rows, the winners' rows through a mask,
    and the same for "above zero"): branch-free, so the compiler vectorises it, and half the time of a loop that
    branched on the win and read the "used" counters with a stride. An int16 row adds at most 2**15 in magnitude,
    so the int32 sums are moved into int64 every 2**15 rows and cannot overflow."""
    G, P, I, C = counters.shape
    IC = I * C
    flat = counters.reshape(G * P * IC)
    s_all = np.zeros(IC, np.int32)
    s_won = np.zeros(IC, np.int32)
    pos_all = np.zeros(IC, np.int32)
    pos_won = np.zeros(IC, np.int32)
    out = np.zeros((4, IC), np.int64)
    won_pairs = 0
    n = 0
    for g in range(G):
        m = np.int64(mask[g])
        for p in range(P):
            keep = -np.int32((m >> p) & 1)  # all bits set when the seat won, else none
            won_pairs -= keep
            base = (g * P + p) * IC
            for j in range(IC):
                x = np.int32(flat[base + j])
                pos = np.int32(x > 0)
                s_all[j] += x
                s_won[j] += x & keep
                pos_all[j] += pos
                pos_won[j] += pos & keep
            n += 1
            if n == 32768 or (g == G - 1 and p == P - 1):
                for j in range(IC):
                    out[0, j] += s_all[j]
                    out[1, j] += s_won[j]
                    out[2, j] += pos_all[j]
                    out[3, j] += pos_won[j]
                    s_all[j] = 0
                    s_won[j] = 0
                    pos_all[j] = 0
                    pos_won[j] = 0
                n = 0
    return out, won_pairs


def _add_sums(s, won_pairs, pairs, used_counter, totals, totals_won, used_pairs, used_wins, unused_pairs,
              unused_wins) -> None:
    """Add one group's four sums (``s`` [4, I * C], see :func:`_group_sums_nb`) to its tallies: the totals (all
    seats, and the winners'), and for each thing how many (game, seat) pairs used it and won, and did not use it
    and won. ``won_pairs`` of the ``pairs`` (game, seat) pairs won; a thing not used is a pair not among the used
    ones (no second count per thing)."""
    I, C = totals.shape
    totals += s[0].reshape(I, C)
    totals_won += s[1].reshape(I, C)
    used, used_won = s[2].reshape(I, C)[:, used_counter], s[3].reshape(I, C)[:, used_counter]
    used_pairs += used
    used_wins += used_won
    unused_pairs += pairs - used
    unused_wins += won_pairs - used_won


def tally_group(mask, counters, used_counter, totals, totals_won, used_pairs, used_wins, unused_pairs,
                unused_wins) -> None:
    """Add one chunk's per-(seat, thing) counters of one group (int16 [G, P, I, C]) to its tallies, from the rows."""
    s, won_pairs = _group_sums_nb(mask, counters)
    _add_sums(s, int(won_pairs), counters.shape[0] * counters.shape[1], used_counter, totals, totals_won,
              used_pairs, used_wins, unused_pairs, unused_wins)


@njit(cache=True, nogil=True)
def _tally_final_nb(mask, final, roles, has_roles, seat_sum, seat_sq, role_games, role_wins, role_sum, role_sq,
                    seat_role_games):
    """Add one chunk's per-seat final counters (sums and sums of squares, by seat and by role) and the roles' games
    and wins. Each game's P * K counters are one contiguous run of the flat array, summed into local int64 sums
    (the compiler vectorises it); an int16 squared fits in int32."""
    G, P, K = final.shape
    PK = P * K
    flat = final.reshape(G * PK)
    s = np.zeros(PK, np.int64)
    q = np.zeros(PK, np.int64)
    for g in range(G):
        base = g * PK
        for j in range(PK):
            x = np.int32(flat[base + j])
            s[j] += x
            q[j] += x * x
    for p in range(P):
        for k in range(K):
            seat_sum[p, k] += s[p * K + k]
            seat_sq[p, k] += q[p * K + k]
    if not has_roles:
        return
    R = role_games.shape[0]
    rs = np.zeros(R * K, np.int64)
    rq = np.zeros(R * K, np.int64)
    for g in range(G):
        m = np.int64(mask[g])
        for p in range(P):
            r = np.int64(roles[g, p])
            role_games[r] += 1
            role_wins[r] += (m >> p) & 1
            seat_role_games[p, r] += 1
            base = (g * P + p) * K
            rb = r * K
            for k in range(K):
                x = np.int32(flat[base + k])
                rs[rb + k] += x
                rq[rb + k] += x * x
    for r in range(R):
        for k in range(K):
            role_sum[r, k] += rs[r * K + k]
            role_sq[r, k] += rq[r * K + k]


def tally_rows(t, rows: dict) -> tuple[int, int]:
    """Add a checked chunk's rows (``rows``: its arrays, the win mask included; a counter group's rows only where
    the kernel did not sum them) to the Tallies ``t``; returns (finished games, tied games)."""
    mask, slots = rows["win_mask"], rows["seat_strategy"]
    # a Tallies restored from a file saved before seat_slot_wins or victory_wins existed lacks them: a scratch
    # array takes their counts, which are dropped
    scratch = lambda a, like: np.zeros(like.shape, np.int64) if a is None else a    # noqa: E731 (not kept)
    finished, tied = _tally_nb(mask, rows["victory"], rows["turns"], rows["rounds"], slots, t.seat_wins,
                               t.seat_slot_games, scratch(t.seat_slot_wins, t.seat_slot_games), t.slot_games,
                               t.slot_wins, t.victory_games, scratch(t.victory_wins, t.victory_games), t.turns_hist,
                               t.rounds_hist, t.seat_wins_by_turns, t.seat_wins_by_rounds)
    for grp in t.groups:
        if grp.chunk_key not in rows:       # summed in the kernel (add_group_sums)
            continue
        tally_group(mask, rows[grp.chunk_key], grp.used_counter, grp.totals, grp.totals_won, grp.used_pairs,
                    grp.used_wins, grp.unused_pairs, grp.unused_wins)
    if "final" in rows:
        has_roles = t.role_name is not None
        _tally_final_nb(mask, rows["final"], rows["seat_role"] if has_roles else slots, has_roles,
                        t.seat_final_sum, t.seat_final_sq, t.role_games, t.role_wins, t.role_final_sum,
                        t.role_final_sq, t.seat_role_games)
    return int(finished), int(tied)


def add_group_sums(grp, sums: np.ndarray, won_pairs: int, games: int, seats: int) -> None:
    """Add a chunk's per-block sums of one counter group (``sums`` [B, 4, I * C]: all rows, the winners' rows, and
    the same for "above zero", summed by the kernel as it played) to its tallies: what :func:`tally_group` adds
    from the rows. ``won_pairs``: (game, seat) pairs of the chunk that won; ``seats``: the group's seats a game."""
    _add_sums(sums.sum(axis=0), won_pairs, games * seats, grp.used_counter, grp.totals, grp.totals_won,
              grp.used_pairs, grp.used_wins, grp.unused_pairs, grp.unused_wins)
