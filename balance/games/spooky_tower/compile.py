"""Validated Spooky Tower settings (``components``) compiled to the kernel's flat arrays (``layout``).

Cards get ids by Building value ascending, then in the listed order of Photos, so the cards of one value are
contiguous; the reference engine numbers them the same way.
"""
from __future__ import annotations

import numpy as np

from . import enums as E
from . import layout as L
from .components import SpookyTowerComponents, SpookyTowerRules
from .strategies import fill_ghost_values_nb


def _codes(effects: list[str]) -> list[int]:
    return [E.EFFECT_CODES[x] for x in effects if x != "none"]


def public_features(components: SpookyTowerComponents) -> np.ndarray:
    """Expected Photo effects per card of each value, float64[13, N_EFFECTS] (ghosts weighted by their worth).

    This is what the Building side shows every player, so strategies may use it.
    """
    feat = np.zeros((L.NV, E.N_EFFECTS), np.float64)
    for b in components.buildings:
        for photo in b.photos:
            for x in photo:
                feat[b.value, E.EFFECT_CODES[x]] += (b.ghost_worth if x == "ghost" else 1) / len(b.photos)
    return feat


def compile_rules(components: SpookyTowerComponents, rules: SpookyTowerRules, n_players: int,
                  max_turns: int) -> tuple[np.ndarray, np.ndarray]:
    """Compile validated settings into the kernel's flat arrays ``(s0, f0)`` (see ``layout``).

    ``s0`` holds the rules region filled in and a zeroed state region; ``f0`` the public card statistics.
    Cards get ids by value, then in the order listed, so the cards of one value are contiguous.
    """
    s = np.zeros(L.BASE_SIZE, np.int64)
    by_value = {b.value: b for b in components.buildings}
    card = 0
    for v in range(1, L.NV):
        s[L.VALUE_FIRST + v] = card
        b = by_value.get(v)
        if b is None:
            continue
        s[L.VALUE_COUNT + v] = len(b.photos)
        s[L.GHOST_WORTH + v] = b.ghost_worth
        bonus = _codes(b.bonus)
        s[L.BONUS_NFX + v] = len(bonus)
        s[L.BONUS_FX + v * L.MAX_FX:L.BONUS_FX + v * L.MAX_FX + len(bonus)] = bonus
        for code in bonus:
            s[L.BONUS_COUNT + v * E.N_EFFECTS + code] += 1
        for photo in b.photos:
            codes = _codes(photo)
            s[L.CARD_VALUE + card] = v
            s[L.CARD_NFX + card] = len(codes)
            s[L.CARD_FX + card * L.MAX_FX:L.CARD_FX + card * L.MAX_FX + len(codes)] = codes
            card += 1
    for g, effects in enumerate(components.grimoire):
        codes = _codes(effects)
        s[L.GRIM_NFX + g] = len(codes)
        s[L.GRIM_FX + g * L.MAX_FX:L.GRIM_FX + g * L.MAX_FX + len(codes)] = codes
    s[L.DIAL:L.DIAL + len(components.clock_dial)] = [E.EFFECT_CODES[x] for x in components.clock_dial]
    s[L.PARK_REQ:L.PARK_REQ + len(components.park_requirements)] = components.park_requirements
    prio = np.ones(E.N_EFFECTS, np.int64)
    if rules.effect_order == "takes_first":
        prio[[E.FX_TAKE_8MINUS, E.FX_TAKE_ANY]] = 0
        prio[[E.FX_FLIP_8MINUS, E.FX_FLIP_9PLUS]] = 2
    s[L.PRIORITY:L.PRIORITY + E.N_EFFECTS] = prio
    opt = {
        E.OPT_PETS: components.ghost_pets, E.OPT_FRAGMENTS: components.amulet_fragments,
        E.OPT_GHOSTS_TO_WIN: components.ghosts_to_win, E.OPT_FRAGMENTS_TO_WIN: components.fragments_to_win,
        E.OPT_EFFECT_ORDER: E.EFFECT_ORDER_NAMES.index(rules.effect_order),
        E.OPT_FLIP_SCOPE: E.FLIP_SCOPE_NAMES.index(rules.flip_scope),
        E.OPT_STUCK: E.STUCK_NAMES.index(rules.stuck_with_token),
        E.OPT_EXTRA_TURNS: E.EXTRA_TURN_NAMES.index(rules.extra_turns),
        E.OPT_MAX_TURNS: max_turns, E.OPT_GRIMOIRE_GHOST: components.grimoire_ghost_worth,
        E.OPT_N_PLAYERS: n_players, E.OPT_N_GRIMOIRE: len(components.grimoire),
        E.OPT_N_PARK: len(components.park_requirements), E.OPT_PARK_GHOSTS: components.park_ghosts,
        E.OPT_N_DIAL: len(components.clock_dial),
    }
    for k, val in opt.items():
        s[L.OPT + k] = val
    f = np.zeros(L.F_SIZE, np.float64)
    f[L.F_FEAT:L.F_FEAT + L.NV * E.N_EFFECTS] = public_features(components).ravel()
    fill_ghost_values_nb(f)
    return s, f
