"""Validated Haunted Tower settings compiled into the kernel's arrays (``layout``): ``initial_state``,
``initial_params``, ``tables`` and ``costs``.

Chits get ids in pool order: the blue pool as listed (each name repeated by its count), then the purple pool, then the
Specter's chit. Monsters, items and heroes keep their index in the scenario's lists.
"""
from __future__ import annotations

import weakref

import numpy as np

from .board import EDGE_UP, Board
from . import enums
from . import layout
from .components import HauntedTowerComponents, HauntedTowerRules

def chit_contents(c: HauntedTowerComponents) -> list[tuple[int, int, int]]:
    """(colour, content kind, index) of every chit, in id order."""
    monsters = {m.name: i for i, m in enumerate(c.monsters)}
    items = {it.name: i for i, it in enumerate(c.items)}
    out = []
    for colour, pool in ((enums.BLUE, c.blue), (enums.PURPLE, c.purple)):
        for name, n in pool.items():
            kind, index = (enums.CONTENT_MONSTER, monsters[name]) if name in monsters \
                else (enums.CONTENT_ITEM, items[name])
            out += [(colour, kind, index)] * n
    out.append((enums.SPECTER_CHIT, enums.CONTENT_MONSTER, monsters[c.specter]))
    return out


def _mask(names, table) -> int:
    return sum(1 << table.index(n) for n in names)


def level_entries(board: Board) -> np.ndarray:
    """Per level 0..3 (row 0 unused), the squares where a movement edge from a square of another level arrives
    (staircase landings and tops), -1-padded: a path onto a level from another passes one of them first, so the
    cheapest of them bounds the cost of every square of that level from below (``targets.level_bound_nb``)."""
    nbr, level = board.nbr, board.level
    src = np.repeat(np.arange(board.n_squares), nbr.shape[1])
    dst = nbr.ravel()
    keep = dst >= 0
    src, dst = src[keep], dst[keep]
    dst = dst[level[src] != level[dst]]
    rows = [np.unique(dst[level[dst] == lv]) for lv in range(layout.N_LEVELS + 1)]
    out = np.full((layout.N_LEVELS + 1, max(1, max(len(r) for r in rows))), -1, np.int32)
    for lv, r in enumerate(rows):
        out[lv, :len(r)] = r
    return out


def pack_board(board: Board) -> np.ndarray:
    """The board's tables in one int32 array behind a header of sizes and offsets (``layout.G_*``)."""
    n = board.n_squares
    parts = {
        layout.G_LEVEL: board.level, layout.G_KIND: board.kind, layout.G_ROOM: board.room, layout.G_NBR: board.nbr,
        layout.G_NBR_COST: board.nbr_cost, layout.G_NBR_EDGE: board.nbr_edge, layout.G_ADJ: board.adj,
        layout.G_DOOR: board.door_nbr,
        layout.G_ROOM_LEVEL: board.room_level, layout.G_ROOM_SIZE: board.room_size, layout.G_ROOM_SQ: board.room_sq,
        layout.G_OUTSIDE: board.outside, layout.G_ENTRY: level_entries(board),
    }
    front = np.zeros(n, np.int32)
    front[board.front] = 1
    placeable = np.zeros(n, np.int32)
    placeable[board.placeable] = 1
    rooms_on = np.zeros(layout.N_LEVELS + 1, np.int32)
    rooms_on[1:] = board.rooms_per_level
    elig = np.bincount(board.room[board.placeable], minlength=board.n_rooms).astype(np.int32)
    depth = board.dist[2, board.outside[0], board.room_sq[:, 0]].astype(np.int64)   # climbing allowed
    parts.update({layout.G_FRONT: front, layout.G_PLACEABLE: placeable, layout.G_ROOMS_ON: rooms_on,
                  layout.G_ROOM_ELIG: elig, layout.G_ROOM_NEAR: np.argsort(depth, kind="stable"),
                  layout.G_ROOM_FAR: np.argsort(-depth, kind="stable")})
    size = layout.G_HEADER + sum(np.asarray(t).size for t in parts.values())
    tables = np.zeros(size, np.int32)
    tables[layout.G_N] = n
    tables[layout.G_K] = board.nbr.shape[1]
    tables[layout.G_A] = board.adj.shape[1]
    tables[layout.G_D] = board.door_nbr.shape[1]
    tables[layout.G_R] = board.n_rooms
    tables[layout.G_RMAX] = board.room_sq.shape[1]
    tables[layout.G_N_OUT] = board.outside.shape[0]
    tables[layout.G_E] = parts[layout.G_ENTRY].shape[1]
    off = layout.G_HEADER
    for key, table in parts.items():
        flat = np.ascontiguousarray(table, np.int32).ravel()
        tables[key] = off
        tables[off:off + flat.size] = flat
        off += flat.size
    return tables


def bit_words(flags: np.ndarray) -> np.ndarray:
    """The chit bit sets' words (``layout.CHIT_ON``, ``CHIT_BLUE`` ...): bit c % 64 of word c // 64 set where
    flags[..., c] (one per chit) is true; a 2-d `flags` gives one row of words per row of flags."""
    on = np.zeros(flags.shape[:-1] + (layout.MAX_CHITS,), np.bool_)
    on[..., :flags.shape[-1]] = flags
    return np.packbits(on, axis=-1, bitorder="little").view("<i8")


def compile_rules(components: HauntedTowerComponents, rules: HauntedTowerRules, n_players: int, turn_cap: int,
                  board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's arrays ``(initial_state, initial_params, tables, costs)`` for validated settings and a checked
    board."""
    c = components
    if board.n_squares > layout.MAX_SQUARES or board.n_rooms > layout.MAX_ROOMS:
        raise ValueError(f"map {board.name}: {board.n_squares} squares and {board.n_rooms} rooms (allowed: at most "
                         f"{layout.MAX_SQUARES} squares and {layout.MAX_ROOMS} rooms)")
    chits = chit_contents(c)
    if len(chits) > layout.MAX_CHITS or len(c.monsters) > layout.MAX_MONSTERS or len(c.items) > layout.MAX_ITEMS \
            or len(c.heroes) > layout.MAX_HEROES:
        raise ValueError(f"{len(chits)} chits, {len(c.monsters)} monsters, {len(c.items)} items, {len(c.heroes)} "
                         f"heroes (allowed: at most {layout.MAX_CHITS}, {layout.MAX_MONSTERS}, {layout.MAX_ITEMS}, "
                         f"{layout.MAX_HEROES})")
    state = np.zeros(layout.BASE_SIZE, np.int64)
    heroes = [h.name for h in c.heroes]
    monsters = [m.name for m in c.monsters]
    for h, hero in enumerate(c.heroes):
        row = (hero.speed, hero.hp, hero.attack, hero.ac, enums.ABILITY_NAMES.index(hero.ability), hero.ability_value)
        state[layout.HERO_TAB + h * layout.N_HT:layout.HERO_TAB + (h + 1) * layout.N_HT] = row
    for m, mon in enumerate(c.monsters):
        row = [0] * layout.N_MT
        row[layout.MT_HP], row[layout.MT_ATTACK], row[layout.MT_AC] = mon.hp, mon.attack, mon.ac
        row[layout.MT_UNDEAD] = int(mon.undead)
        row[layout.MT_DAMAGE] = {"normal": enums.DMG_NORMAL, "double": enums.DMG_NORMAL,
                                 "energy_drain": enums.DMG_DRAIN, "double_energy_drain": enums.DMG_DOUBLE_DRAIN,
                                 "steal_item": enums.DMG_STEAL,
                                 "rust": enums.DMG_RUST}[mon.damage]
        row[layout.MT_DOUBLE] = int(mon.damage == "double")
        row[layout.MT_HAS_ROLL] = int(bool(mon.hit_roll))
        row[layout.MT_INITIATIVE] = enums.INITIATIVE_NAMES.index(mon.initiative)
        row[layout.MT_INIT_BONUS] = mon.initiative_bonus
        row[layout.MT_ONLY_BY] = sum(1 << enums.BY_NAMES.index(b) for b in set(mon.damaged_only_by))
        row[layout.MT_IGNORES_METAL] = int(mon.ignores_metal)
        row[layout.MT_STAYS] = int(mon.stays)
        state[layout.MON_TAB + m * layout.N_MT:layout.MON_TAB + (m + 1) * layout.N_MT] = row
        if mon.hit_roll:
            state[layout.HIT_ROLL + m * layout.D10:layout.HIT_ROLL + (m + 1) * layout.D10] = \
                [enums.HIT_NAMES.index(x) for x in mon.hit_roll]
    for i, item in enumerate(c.items):
        row = [0] * layout.N_IT
        row[layout.IT_SLOT] = enums.SLOT_NAMES.index(item.slot)
        row[layout.IT_ATTACK], row[layout.IT_DAMAGE] = item.attack_bonus, item.damage_bonus
        row[layout.IT_AC] = item.ac_bonus
        row[layout.IT_HEAL] = item.heal
        flags = (item.metal, item.magical and item.slot == "weapon", item.silver, item.holy, item.attack, item.magic)
        row[layout.IT_FLAGS] = sum(1 << k for k, on in enumerate(flags) if on)
        row[layout.IT_USES] = item.uses
        row[layout.IT_USABLE] = _mask(item.usable_by, heroes) if item.usable_by else (1 << len(heroes)) - 1
        row[layout.IT_BANE] = monsters.index(item.bane) if item.bane is not None else -1
        row[layout.IT_BANE_DAMAGE] = item.bane_damage
        state[layout.ITEM_TAB + i * layout.N_IT:layout.ITEM_TAB + (i + 1) * layout.N_IT] = row
    for k, (colour, kind, index) in enumerate(chits):
        back = enums.PURPLE if colour == enums.SPECTER_CHIT else colour       # the Specter's chit is purple-backed
        state[layout.CHIT_COLOUR + k], state[layout.CHIT_KIND + k], state[layout.CHIT_INDEX + k] = back, kind, index
    colours = state[layout.CHIT_COLOUR:layout.CHIT_COLOUR + len(chits)]
    state[layout.CHIT_BLUE:layout.CHIT_BLUE + layout.MAX_CHITS // 64] = bit_words(colours == enums.BLUE)
    n_blue = sum(c.blue.values())
    sc = c.scoring
    opt = {
        layout.OPT_PLAYERS: n_players, layout.OPT_TURN_CAP: turn_cap, layout.OPT_N_CHITS: len(chits),
        layout.OPT_N_BLUE: n_blue,
        layout.OPT_N_PURPLE: sum(c.purple.values()), layout.OPT_SPECTER: monsters.index(c.specter),
        layout.OPT_BLUE_EACH: rules.blue_per_player[n_players - enums.MIN_PLAYERS],
        layout.OPT_INIT_TIES: enums.INIT_TIE_NAMES.index(rules.initiative_ties),
        layout.OPT_TIES: enums.TIE_NAMES.index(rules.ties),
        layout.OPT_OUT_SCORES: int(rules.out_hero_scores), layout.OPT_TRADING: int(rules.trading),
        layout.OPT_CLIMB_1: rules.climb_from_1, layout.OPT_CLIMB_2: rules.climb_from_2,
        layout.OPT_SPECTER_ONCE: int(rules.specter_damage_once), layout.OPT_PTS_STANDUP: sc.standup,
        layout.OPT_PTS_BLUE: sc.blue_chit, layout.OPT_PTS_PURPLE: sc.purple_chit, layout.OPT_PTS_BANE: sc.bane_kill,
        layout.OPT_PTS_SPECTER_HIT: sc.specter_damage, layout.OPT_PTS_SPECTER_KILL: sc.specter_kill,
        layout.OPT_N_MONSTERS: len(c.monsters), layout.OPT_N_ITEMS: len(c.items), layout.OPT_N_HEROES: len(c.heroes),
        layout.OPT_GATE: enums.GATE_NAMES.index(rules.gate_opens),
    }
    for k, v in opt.items():
        state[layout.OPT + k] = v
    params = np.zeros(layout.F_SIZE, np.float64)
    from .strategies.valuation import fill_worth_nb            # (valuation -> strategies -> ... import the layout only)
    fill_worth_nb(state, params)
    from . import STRATEGIES
    for spec in STRATEGIES.values():      # the heuristics' defaults, for a lookahead's base (rules.lookahead)
        if spec.kind < layout.N_BASE_KINDS:
            row = layout.F_BASE + spec.kind * layout.N_PARAMS
            params[row:row + len(spec.params)] = spec.vector({})
    tables, costs = board_arrays(board)
    return state, params, tables.copy(), costs.copy()


_BOARD_ARRAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's board arrays ``(tables, costs)``, built once per checked board (a Board is immutable) and kept while
    it lives: the next-step table alone takes about 25 ms, and the reference engine asks for them at every game. Callers
    get copies from ``compile_rules``."""
    got = _BOARD_ARRAYS.get(board)
    if got is None:
        steps = np.ascontiguousarray(next_steps(board).transpose(0, 2, 1)).ravel().view("<i2")  # layout.NEXT_STEP
        got = pack_board(board), np.concatenate([np.ascontiguousarray(board.dist, np.int16).ravel(), steps])
        _BOARD_ARRAYS[board] = got
    return got


def next_steps(board: Board) -> np.ndarray:
    """int8 [4, n, n]: for table t, square a and goal b, the index k of the first movement edge of a in the map's
    order that the hero may take under t (a staircase up only from the levels t climbs from:
    ``movement.climb_table_nb``) and that lies on a shortest path to b (its cost plus the cost from its end to b is
    the cost from a to b); -1 when none does. The kernel reads it transposed to [t, b, a] and packed two to a word of
    ``costs`` (``layout.NEXT_STEP``): a walk follows it one load a step where it compared the costs of every neighbour
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
            allowed = open_ & ((np.asarray(board.nbr_edge[:, k]) != EDGE_UP) | up_ok)
            on_path = np.asarray(board.nbr_cost[:, k], np.int64)[:, None] + dist[np.where(q >= 0, q, 0)] == dist
            out[t][(out[t] < 0) & allowed[:, None] & on_path] = k
    return out


def seat_heroes(rules: HauntedTowerRules, components: HauntedTowerComponents, n_players: int) -> np.ndarray:
    """Hero index of each entry of the scenario's hero list (the kernel rotates through it per game)."""
    names = [h.name for h in components.heroes]
    return np.array([names.index(h) for h in rules.heroes], np.int64)
