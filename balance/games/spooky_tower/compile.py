"""Validated Spooky Tower settings (``components``) compiled to the kernel's flat arrays (``layout``).

Cards get ids by Building value ascending, then in the listed order of Photos, so the cards of one value are
contiguous; the reference engine numbers them the same way.
"""
from __future__ import annotations

import numpy as np

from . import enums
from . import layout
from .components import SpookyTowerComponents, SpookyTowerRules
from .strategies import fill_ghost_values_nb


def _codes(effects: list[str]) -> list[int]:
    return [enums.EFFECT_CODES[x] for x in effects if x != "none"]


def public_features(components: SpookyTowerComponents) -> np.ndarray:
    """Expected Photo effects per card of each value, float64[13, N_EFFECTS] (ghosts weighted by their worth).

    This is what the Building side shows every player, so strategies may use it.
    """
    feat = np.zeros((layout.NV, enums.N_EFFECTS), np.float64)
    for b in components.buildings:
        for photo in b.photos:
            for x in photo:
                feat[b.value, enums.EFFECT_CODES[x]] += (b.ghost_worth if x == "ghost" else 1) / len(b.photos)
    return feat


def compile_rules(components: SpookyTowerComponents, rules: SpookyTowerRules, n_players: int,
                  max_turns: int) -> tuple[np.ndarray, np.ndarray]:
    """Compile validated settings into the kernel's flat arrays ``(initial_state, initial_params)`` (see ``layout``).

    ``initial_state`` holds the rules region filled in and a zeroed state region; ``initial_params`` the public card
    statistics.
    Cards get ids by value, then in the order listed, so the cards of one value are contiguous.
    """
    state = np.zeros(layout.BASE_SIZE, np.int64)
    by_value = {b.value: b for b in components.buildings}
    card = 0
    for v in range(1, layout.NV):
        state[layout.VALUE_FIRST + v] = card
        b = by_value.get(v)
        if b is None:
            continue
        state[layout.VALUE_COUNT + v] = len(b.photos)
        state[layout.GHOST_WORTH + v] = b.ghost_worth
        bonus = _codes(b.bonus)
        state[layout.BONUS_NFX + v] = len(bonus)
        state[layout.BONUS_FX + v * layout.MAX_FX:layout.BONUS_FX + v * layout.MAX_FX + len(bonus)] = bonus
        for code in bonus:
            state[layout.BONUS_COUNT + v * enums.N_EFFECTS + code] += 1
        for photo in b.photos:
            codes = _codes(photo)
            state[layout.CARD_VALUE + card] = v
            state[layout.CARD_NFX + card] = len(codes)
            state[layout.CARD_FX + card * layout.MAX_FX:layout.CARD_FX + card * layout.MAX_FX + len(codes)] = codes
            card += 1
    for g, effects in enumerate(components.grimoire):
        codes = _codes(effects)
        state[layout.GRIM_NFX + g] = len(codes)
        state[layout.GRIM_FX + g * layout.MAX_FX:layout.GRIM_FX + g * layout.MAX_FX + len(codes)] = codes
    state[layout.DIAL:layout.DIAL + len(components.clock_dial)] = [enums.EFFECT_CODES[x] for x in components.clock_dial]
    state[layout.PARK_REQ:layout.PARK_REQ + len(components.park_requirements)] = components.park_requirements
    prio = np.ones(enums.N_EFFECTS, np.int64)
    if rules.effect_order == "takes_first":
        prio[[enums.FX_TAKE_8MINUS, enums.FX_TAKE_ANY]] = 0
        prio[[enums.FX_FLIP_8MINUS, enums.FX_FLIP_9PLUS]] = 2
    state[layout.PRIORITY:layout.PRIORITY + enums.N_EFFECTS] = prio
    opt = {
        enums.OPT_PETS: components.ghost_pets, enums.OPT_FRAGMENTS: components.amulet_fragments,
        enums.OPT_GHOSTS_TO_WIN: components.ghosts_to_win, enums.OPT_FRAGMENTS_TO_WIN: components.fragments_to_win,
        enums.OPT_EFFECT_ORDER: enums.EFFECT_ORDER_NAMES.index(rules.effect_order),
        enums.OPT_FLIP_SCOPE: enums.FLIP_SCOPE_NAMES.index(rules.flip_scope),
        enums.OPT_STUCK: enums.STUCK_NAMES.index(rules.stuck_with_token),
        enums.OPT_EXTRA_TURNS: enums.EXTRA_TURN_NAMES.index(rules.extra_turns),
        enums.OPT_MAX_TURNS: max_turns, enums.OPT_GRIMOIRE_GHOST: components.grimoire_ghost_worth,
        enums.OPT_N_PLAYERS: n_players, enums.OPT_N_GRIMOIRE: len(components.grimoire),
        enums.OPT_N_PARK: len(components.park_requirements), enums.OPT_PARK_GHOSTS: components.park_ghosts,
        enums.OPT_N_DIAL: len(components.clock_dial),
    }
    for k, val in opt.items():
        state[layout.OPT + k] = val
    params = np.zeros(layout.F_SIZE, np.float64)
    params[layout.F_FEAT:layout.F_FEAT + layout.NV * enums.N_EFFECTS] = public_features(components).ravel()
    fill_ghost_values_nb(params)
    return state, params
