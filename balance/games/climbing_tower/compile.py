"""Compile validated Climbing Tower settings into the kernel's arrays (``layout``), and name the towers.

A tower's label is its tower cards bottom to top and the BOSS side ("001-003-006 / A"); the kernel numbers the towers
in the order of :func:`tower_labels` (ordered choices of tower cards, lexicographic, then the side), so the
statistics can give every tower's win rate.
"""
from __future__ import annotations

from itertools import permutations
from math import perm

import numpy as np

from . import enums as E
from . import layout as L
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
    """(s0, f0): the state array with components and options written in, and the parameter array."""
    s = np.zeros(L.STATE_SIZE, np.int64)
    code = {name: i for i, name in enumerate(colours(c))}
    opt = {L.OPT_ROUND_LIMIT: r.round_limit, L.OPT_SUPPLY: E.SUPPLY_EASY if r.supply == "easy" else E.SUPPLY_HARD,
           L.OPT_TALK: {"same_floor": E.TALK_SAME_FLOOR, "always": E.TALK_ALWAYS, "never": E.TALK_NEVER}[
               r.communication],
           L.OPT_START: E.START_ALTERNATE if r.start_player == "alternate" else E.START_FIRST,
           L.OPT_SIDE0: E.LEFT if r.first_player_side == "left" else E.RIGHT,
           L.OPT_ICONS: E.ICONS_SWORDS_FIRST if r.icon_order == "swords_first" else E.ICONS_ARROWS_FIRST,
           L.OPT_HAND: r.hand_size, L.OPT_START_L2: r.starting_level2, L.OPT_REDRAWS: r.redraws,
           L.OPT_MIN_DECK: r.min_deck, L.OPT_BONUS: r.empty_hand_bonus, L.OPT_SKILL_GOLD: r.skill_gold,
           L.OPT_LEFT_BEHIND: E.LEFT_BEHIND_RETURN if r.left_behind == "return" else E.LEFT_BEHIND_STAY,
           L.OPT_TOP_UP: E.TOP_UP_NEXT_ROUND if r.top_up == "next_round" else E.TOP_UP_NEVER,
           L.OPT_N_CARDS: len(c.cards), L.OPT_N_TC: len(c.tower), L.OPT_HEIGHT: r.tower_cards,
           L.OPT_FIXED: int(isinstance(r.tower, list)),
           L.OPT_BOSS_SIDE: {"random": -1, "A": 0, "B": 1}[r.boss_side],
           L.OPT_LABELLED: int(n_towers(c, r) <= MAX_LABELLED)}
    level2 = [k.colour for k in c.level(2)]
    opt[L.OPT_PILE_COLOUR] = code[level2[0]] if level2 else -1
    for k, v in opt.items():
        s[L.OPT + k] = v
    if isinstance(r.tower, list):
        names = [t.name for t in c.tower]
        for i, n in enumerate(r.tower):
            s[L.OPT + L.OPT_FIXED_TC + i] = names.index(n)
    for i, k in enumerate(c.cards):
        row = L.CARD + i * L.N_CF
        s[row + L.CF_LEVEL], s[row + L.CF_COLOUR], s[row + L.CF_NUMBER] = k.level, code[k.colour], k.number
        s[row + L.CF_SWORDS], s[row + L.CF_ARROWS] = k.swords, k.arrows
        s[L.FOLLOWS + i] = sum(1 << j for j, x in enumerate(c.cards) if x.colour == k.colour or x.number == k.number)
    for t, card in enumerate(list(c.tower)):
        _tower_row(s, t, card.floors, code, E.SKILL_KINDS.index(card.skill))
    for side, b in enumerate(c.boss):
        row = _tower_row(s, L.BOSS_ROW + side, b.floors, code, E.SKILL_NONE)
        s[row + L.TF_HP], s[row + L.TF_SAME_ROUND], s[row + L.TF_BOTH] = b.hp, int(b.same_round), int(b.both_pawns)
    return s, np.zeros(L.F_SIZE, np.float64)


def _tower_row(s, t, floors, code, skill) -> int:
    row = L.TC + t * L.N_TF
    s[row + L.TF_N_FLOORS] = len(floors)
    s[row + L.TF_SKILL] = skill
    for k, fl in enumerate(floors):
        base = row + L.TF_FLOORS + 3 * k
        s[base], s[base + 1], s[base + 2] = code[fl.colour], fl.left, fl.right
    return row
