"""Validated Haunted Tower settings compiled into the kernel's arrays (``layout``): ``s0``, ``f0``, ``g`` and ``d``.

Chits get ids in pool order: the blue pool as listed (each name repeated by its count), then the purple pool, then the
Specter's chit. Monsters, items and heroes keep their index in the scenario's lists.
"""
from __future__ import annotations

import weakref

import numpy as np

from . import board as B
from . import enums as E
from . import layout as L
from .components import HauntedTowerComponents, HauntedTowerRules

def chit_contents(c: HauntedTowerComponents) -> list[tuple[int, int, int]]:
    """(colour, content kind, index) of every chit, in id order."""
    monsters = {m.name: i for i, m in enumerate(c.monsters)}
    items = {it.name: i for i, it in enumerate(c.items)}
    out = []
    for colour, pool in ((E.BLUE, c.blue), (E.PURPLE, c.purple)):
        for name, n in pool.items():
            kind, index = (E.CONTENT_MONSTER, monsters[name]) if name in monsters else (E.CONTENT_ITEM, items[name])
            out += [(colour, kind, index)] * n
    out.append((E.SPECTER_CHIT, E.CONTENT_MONSTER, monsters[c.specter]))
    return out


def _mask(names, table) -> int:
    return sum(1 << table.index(n) for n in names)


def level_entries(board: B.Board) -> np.ndarray:
    """Per level 0..3 (row 0 unused), the squares where a movement edge from a square of another level arrives
    (staircase landings and tops), -1-padded: a path onto a level from another passes one of them first, so the
    cheapest of them bounds the cost of every square of that level from below (``targets.level_bound_nb``)."""
    nbr, level = board.nbr, board.level
    src = np.repeat(np.arange(board.n_squares), nbr.shape[1])
    dst = nbr.ravel()
    keep = dst >= 0
    src, dst = src[keep], dst[keep]
    dst = dst[level[src] != level[dst]]
    rows = [np.unique(dst[level[dst] == lv]) for lv in range(L.N_LEVELS + 1)]
    out = np.full((L.N_LEVELS + 1, max(1, max(len(r) for r in rows))), -1, np.int32)
    for lv, r in enumerate(rows):
        out[lv, :len(r)] = r
    return out


def pack_board(board: B.Board) -> np.ndarray:
    """The board's tables in one int32 array behind a header of sizes and offsets (``layout.G_*``)."""
    n = board.n_squares
    tables = {
        L.G_LEVEL: board.level, L.G_KIND: board.kind, L.G_ROOM: board.room, L.G_NBR: board.nbr,
        L.G_NBR_COST: board.nbr_cost, L.G_NBR_EDGE: board.nbr_edge, L.G_ADJ: board.adj, L.G_DOOR: board.door_nbr,
        L.G_ROOM_LEVEL: board.room_level, L.G_ROOM_SIZE: board.room_size, L.G_ROOM_SQ: board.room_sq,
        L.G_OUTSIDE: board.outside, L.G_ENTRY: level_entries(board),
    }
    front = np.zeros(n, np.int32)
    front[board.front] = 1
    placeable = np.zeros(n, np.int32)
    placeable[board.placeable] = 1
    rooms_on = np.zeros(L.N_LEVELS + 1, np.int32)
    rooms_on[1:] = board.rooms_per_level
    elig = np.bincount(board.room[board.placeable], minlength=board.n_rooms).astype(np.int32)
    depth = board.dist[2, board.outside[0], board.room_sq[:, 0]].astype(np.int64)   # climbing allowed
    tables.update({L.G_FRONT: front, L.G_PLACEABLE: placeable, L.G_ROOMS_ON: rooms_on, L.G_ROOM_ELIG: elig,
                   L.G_ROOM_NEAR: np.argsort(depth, kind="stable"), L.G_ROOM_FAR: np.argsort(-depth, kind="stable")})
    size = L.G_HEADER + sum(np.asarray(t).size for t in tables.values())
    g = np.zeros(size, np.int32)
    g[L.G_N] = n
    g[L.G_K] = board.nbr.shape[1]
    g[L.G_A] = board.adj.shape[1]
    g[L.G_D] = board.door_nbr.shape[1]
    g[L.G_R] = board.n_rooms
    g[L.G_RMAX] = board.room_sq.shape[1]
    g[L.G_N_OUT] = board.outside.shape[0]
    g[L.G_E] = tables[L.G_ENTRY].shape[1]
    off = L.G_HEADER
    for key, table in tables.items():
        flat = np.ascontiguousarray(table, np.int32).ravel()
        g[key] = off
        g[off:off + flat.size] = flat
        off += flat.size
    return g


def bit_words(flags: np.ndarray) -> np.ndarray:
    """The chit bit sets' words (``layout.CHIT_ON``, ``CHIT_BLUE`` ...): bit c % 64 of word c // 64 set where
    flags[..., c] (one per chit) is true; a 2-d `flags` gives one row of words per row of flags."""
    on = np.zeros(flags.shape[:-1] + (L.MAX_CHITS,), np.bool_)
    on[..., :flags.shape[-1]] = flags
    return np.packbits(on, axis=-1, bitorder="little").view("<i8")


def compile_rules(components: HauntedTowerComponents, rules: HauntedTowerRules, n_players: int, turn_cap: int,
                  board: B.Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's arrays ``(s0, f0, g, d)`` for validated settings and a checked board."""
    c = components
    if board.n_squares > L.MAX_SQUARES or board.n_rooms > L.MAX_ROOMS:
        raise ValueError(f"map {board.name}: {board.n_squares} squares and {board.n_rooms} rooms (allowed: at most "
                         f"{L.MAX_SQUARES} squares and {L.MAX_ROOMS} rooms)")
    chits = chit_contents(c)
    if len(chits) > L.MAX_CHITS or len(c.monsters) > L.MAX_MONSTERS or len(c.items) > L.MAX_ITEMS \
            or len(c.heroes) > L.MAX_HEROES:
        raise ValueError(f"{len(chits)} chits, {len(c.monsters)} monsters, {len(c.items)} items, {len(c.heroes)} "
                         f"heroes (allowed: at most {L.MAX_CHITS}, {L.MAX_MONSTERS}, {L.MAX_ITEMS}, {L.MAX_HEROES})")
    s = np.zeros(L.BASE_SIZE, np.int64)
    heroes = [h.name for h in c.heroes]
    monsters = [m.name for m in c.monsters]
    for h, hero in enumerate(c.heroes):
        row = (hero.speed, hero.hp, hero.attack, hero.ac, E.ABILITY_NAMES.index(hero.ability), hero.ability_value)
        s[L.HERO_TAB + h * L.N_HT:L.HERO_TAB + (h + 1) * L.N_HT] = row
    for m, mon in enumerate(c.monsters):
        row = [0] * L.N_MT
        row[L.MT_HP], row[L.MT_ATTACK], row[L.MT_AC], row[L.MT_UNDEAD] = mon.hp, mon.attack, mon.ac, int(mon.undead)
        row[L.MT_DAMAGE] = {"normal": E.DMG_NORMAL, "double": E.DMG_NORMAL, "energy_drain": E.DMG_DRAIN,
                            "double_energy_drain": E.DMG_DOUBLE_DRAIN, "steal_item": E.DMG_STEAL,
                            "rust": E.DMG_RUST}[mon.damage]
        row[L.MT_DOUBLE] = int(mon.damage == "double")
        row[L.MT_HAS_ROLL] = int(bool(mon.hit_roll))
        row[L.MT_INITIATIVE] = E.INITIATIVE_NAMES.index(mon.initiative)
        row[L.MT_INIT_BONUS] = mon.initiative_bonus
        row[L.MT_ONLY_BY] = sum(1 << E.BY_NAMES.index(b) for b in set(mon.damaged_only_by))
        row[L.MT_IGNORES_METAL] = int(mon.ignores_metal)
        row[L.MT_STAYS] = int(mon.stays)
        s[L.MON_TAB + m * L.N_MT:L.MON_TAB + (m + 1) * L.N_MT] = row
        if mon.hit_roll:
            s[L.HIT_ROLL + m * L.D10:L.HIT_ROLL + (m + 1) * L.D10] = [E.HIT_NAMES.index(x) for x in mon.hit_roll]
    for i, item in enumerate(c.items):
        row = [0] * L.N_IT
        row[L.IT_SLOT] = E.SLOT_NAMES.index(item.slot)
        row[L.IT_ATTACK], row[L.IT_DAMAGE], row[L.IT_AC] = item.attack_bonus, item.damage_bonus, item.ac_bonus
        row[L.IT_HEAL] = item.heal
        flags = (item.metal, item.magical and item.slot == "weapon", item.silver, item.holy, item.attack, item.magic)
        row[L.IT_FLAGS] = sum(1 << k for k, on in enumerate(flags) if on)
        row[L.IT_USES] = item.uses
        row[L.IT_USABLE] = _mask(item.usable_by, heroes) if item.usable_by else (1 << len(heroes)) - 1
        row[L.IT_BANE] = monsters.index(item.bane) if item.bane is not None else -1
        row[L.IT_BANE_DAMAGE] = item.bane_damage
        s[L.ITEM_TAB + i * L.N_IT:L.ITEM_TAB + (i + 1) * L.N_IT] = row
    for k, (colour, kind, index) in enumerate(chits):
        back = E.PURPLE if colour == E.SPECTER_CHIT else colour       # the Specter's chit is purple-backed
        s[L.CHIT_COLOUR + k], s[L.CHIT_KIND + k], s[L.CHIT_INDEX + k] = back, kind, index
    s[L.CHIT_BLUE:L.CHIT_BLUE + L.MAX_CHITS // 64] = bit_words(s[L.CHIT_COLOUR:L.CHIT_COLOUR + len(chits)] == E.BLUE)
    n_blue = sum(c.blue.values())
    sc = c.scoring
    opt = {
        L.OPT_PLAYERS: n_players, L.OPT_TURN_CAP: turn_cap, L.OPT_N_CHITS: len(chits), L.OPT_N_BLUE: n_blue,
        L.OPT_N_PURPLE: sum(c.purple.values()), L.OPT_SPECTER: monsters.index(c.specter),
        L.OPT_BLUE_EACH: rules.blue_per_player[n_players - E.MIN_PLAYERS],
        L.OPT_INIT_TIES: E.INIT_TIE_NAMES.index(rules.initiative_ties), L.OPT_TIES: E.TIE_NAMES.index(rules.ties),
        L.OPT_OUT_SCORES: int(rules.out_hero_scores), L.OPT_TRADING: int(rules.trading),
        L.OPT_CLIMB_1: rules.climb_from_1, L.OPT_CLIMB_2: rules.climb_from_2,
        L.OPT_SPECTER_ONCE: int(rules.specter_damage_once), L.OPT_PTS_STANDUP: sc.standup,
        L.OPT_PTS_BLUE: sc.blue_chit, L.OPT_PTS_PURPLE: sc.purple_chit, L.OPT_PTS_BANE: sc.bane_kill,
        L.OPT_PTS_SPECTER_HIT: sc.specter_damage, L.OPT_PTS_SPECTER_KILL: sc.specter_kill,
        L.OPT_N_MONSTERS: len(c.monsters), L.OPT_N_ITEMS: len(c.items), L.OPT_N_HEROES: len(c.heroes),
        L.OPT_GATE: E.GATE_NAMES.index(rules.gate_opens),
    }
    for k, v in opt.items():
        s[L.OPT + k] = v
    f = np.zeros(L.F_SIZE, np.float64)
    from .strategies.valuation import fill_worth_nb            # (valuation -> strategies -> ... import the layout only)
    fill_worth_nb(s, f)
    g, d = board_arrays(board)
    return s, f, g.copy(), d.copy()


_BOARD_ARRAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def board_arrays(board: B.Board) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's board arrays ``(g, d)``, built once per checked board (a Board is immutable) and kept while it
    lives: the next-step table alone takes about 25 ms, and the reference engine asks for them at every game. Callers
    get copies from ``compile_rules``."""
    got = _BOARD_ARRAYS.get(board)
    if got is None:
        steps = np.ascontiguousarray(next_steps(board).transpose(0, 2, 1)).ravel().view("<i2")  # layout.NEXT_STEP
        got = pack_board(board), np.concatenate([np.ascontiguousarray(board.dist, np.int16).ravel(), steps])
        _BOARD_ARRAYS[board] = got
    return got


def next_steps(board: B.Board) -> np.ndarray:
    """int8 [4, n, n]: for table t, square a and goal b, the index k of the first movement edge of a in the map's
    order that the hero may take under t (a staircase up only from the levels t climbs from:
    ``movement.climb_table_nb``) and that lies on a shortest path to b (its cost plus the cost from its end to b is
    the cost from a to b); -1 when none does. The kernel reads it transposed to [t, b, a] and packed two to a word of
    ``d`` (``layout.NEXT_STEP``): a walk follows it one load a step where it compared the costs of every neighbour
    (``heuristics.walk_toward_nb``, ``movement.record_path_nb``)."""
    n, k_max = board.nbr.shape
    level = np.asarray(board.level, np.int64)
    out = np.full(board.dist.shape, -1, np.int8)
    for t in range(board.dist.shape[0]):
        dist = board.dist[t].astype(np.int64)
        up_ok = ((level == 1) & ((t == 1) | (t == 2))) | ((level == 2) & (t >= 2))
        open_ = np.ones(n, bool)                        # no -1 neighbour before k (a square's list ends at one)
        for k in range(k_max):
            q = np.asarray(board.nbr[:, k], np.int64)
            open_ &= q >= 0
            allowed = open_ & ((np.asarray(board.nbr_edge[:, k]) != B.EDGE_UP) | up_ok)
            on_path = np.asarray(board.nbr_cost[:, k], np.int64)[:, None] + dist[np.where(q >= 0, q, 0)] == dist
            out[t][(out[t] < 0) & allowed[:, None] & on_path] = k
    return out


def seat_heroes(rules: HauntedTowerRules, components: HauntedTowerComponents, n_players: int) -> np.ndarray:
    """Hero index of each entry of the scenario's hero list (the kernel rotates through it per game)."""
    names = [h.name for h in components.heroes]
    return np.array([names.index(h) for h in rules.heroes], np.int64)
