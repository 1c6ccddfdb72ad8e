"""Compile validated Climbing Tower settings into the kernel's arrays (``layout``), and name the towers.

A tower's label is its tower cards bottom to top and the BOSS side ("001-003-006 / A"); the kernel numbers the towers
in the order of :func:`tower_labels` (ordered choices of tower cards, lexicographic, then the side), so the
statistics can give every tower's win rate.
"""
from __future__ import annotations

from itertools import permutations
from math import perm

import numpy as np

from . import enums
from . import layout
from .components import ClimbingTowerComponents, ClimbingTowerRules

MAX_LABELLED = 5040        # towers the statistics tell apart (7 x 6 x 5 x 2 = 420 for the box)


def colours(c: ClimbingTowerComponents) -> list[str]:
    """Every colour the scenario names, cards' then floors', in first-seen order (their codes)."""
    out: list[str] = []
    for name in [k.colour for k in c.cards] + [f.colour for t in list(c.tower) + list(c.boss) for f in t.floors]:
        if name not in out:
            out.append(name)
    return out


def n_towers(c: ClimbingTowerComponents, r: ClimbingTowerRules) -> int:
    return perm(len(c.tower), r.tower_cards) * 2


def tower_labels(c: ClimbingTowerComponents, r: ClimbingTowerRules) -> tuple[str, ...]:
    """Every tower the set-up can build, in the kernel's numbering (none when there are too many to tabulate)."""
    if n_towers(c, r) > MAX_LABELLED:
        return ()
    names = [t.name for t in c.tower]
    return tuple(f"{'-'.join(names[i] for i in order)} / {side.name}"
                 for order in permutations(range(len(names)), r.tower_cards) for side in c.boss)


def compile_rules(c: ClimbingTowerComponents, r: ClimbingTowerRules) -> tuple[np.ndarray, np.ndarray]:
    """(initial state, initial parameters): the state array with the components and options written in, and the
    parameter array."""
    state = np.zeros(layout.STATE_SIZE, np.int64)
    code = {name: i for i, name in enumerate(colours(c))}
    opt = {layout.ROUND_LIMIT: r.round_limit,
           layout.SUPPLY: enums.SUPPLY_EASY if r.supply == "easy" else enums.SUPPLY_HARD,
           layout.COMMUNICATION: {"same_floor": enums.TALK_SAME_FLOOR, "always": enums.TALK_ALWAYS,
                                  "never": enums.TALK_NEVER}[r.communication],
           layout.OPTION_START_PLAYER: enums.START_ALTERNATE if r.start_player == "alternate" else enums.START_FIRST,
           layout.FIRST_PLAYER_SIDE: enums.LEFT if r.first_player_side == "left" else enums.RIGHT,
           layout.ICON_ORDER: enums.ICONS_SWORDS_FIRST if r.icon_order == "swords_first" else enums.ICONS_ARROWS_FIRST,
           layout.HAND_SIZE: r.hand_size, layout.STARTING_LEVEL2: r.starting_level2, layout.REDRAWS: r.redraws,
           layout.MIN_DECK: r.min_deck, layout.EMPTY_HAND_BONUS: r.empty_hand_bonus, layout.SKILL_GOLD: r.skill_gold,
           layout.LEFT_BEHIND: enums.LEFT_BEHIND_RETURN if r.left_behind == "return" else enums.LEFT_BEHIND_STAY,
           layout.TOP_UP: enums.TOP_UP_NEXT_ROUND if r.top_up == "next_round" else enums.TOP_UP_NEVER,
           layout.N_CARDS: len(c.cards), layout.N_TOWER_CARDS: len(c.tower), layout.TOWER_HEIGHT: r.tower_cards,
           layout.FIXED_TOWER: int(isinstance(r.tower, list)),
           layout.OPTION_BOSS_SIDE: {"random": -1, "A": 0, "B": 1}[r.boss_side],
           layout.TOWERS_LABELLED: int(n_towers(c, r) <= MAX_LABELLED)}
    level2 = [k.colour for k in c.level(2)]
    opt[layout.FIRST_PILE_COLOUR] = code[level2[0]] if level2 else -1
    for k, v in opt.items():
        state[k] = v
    if isinstance(r.tower, list):
        names = [t.name for t in c.tower]
        for i, n in enumerate(r.tower):
            state[layout.FIXED_TOWER_CARDS + i] = names.index(n)
    for i, k in enumerate(c.cards):
        row = layout.CARD + i * layout.N_CF
        state[row + layout.CF_LEVEL], state[row + layout.CF_COLOUR] = k.level, code[k.colour]
        state[row + layout.CF_NUMBER] = k.number
        state[row + layout.CF_SWORDS], state[row + layout.CF_ARROWS] = k.swords, k.arrows
        state[layout.FOLLOWS + i] = sum(1 << j for j, x in enumerate(c.cards)
                                        if x.colour == k.colour or x.number == k.number)
    for t, card in enumerate(list(c.tower)):
        _tower_row(state, t, card.floors, code, enums.SKILL_KINDS.index(card.skill))
    for side, b in enumerate(c.boss):
        row = _tower_row(state, layout.BOSS_ROW + side, b.floors, code, enums.SKILL_NONE)
        state[row + layout.TF_HP] = b.hp
        state[row + layout.TF_SAME_ROUND], state[row + layout.TF_BOTH] = int(b.same_round), int(b.both_pawns)
    return state, np.zeros(layout.F_SIZE, np.float64)


def _tower_row(state, t, floors, code, skill) -> int:
    row = layout.TC + t * layout.N_TF
    state[row + layout.TF_N_FLOORS] = len(floors)
    state[row + layout.TF_SKILL] = skill
    for k, fl in enumerate(floors):
        base = row + layout.TF_FLOORS + 3 * k
        state[base], state[base + 1], state[base + 2] = code[fl.colour], fl.left, fl.right
    return row
