"""The reference engine on a rule test's table: the same position, the same scripted step, in both engines.

A rule test lays out a kernel table by hand (``haunted_table.Table``); :func:`mirror` sets up a reference-engine
game (``reference.Table``) in that position: every chit where the kernel's lies (face up or down, carried, kept,
uses left), every hero on its square with its hit points, "-1" chits, deaths, hold, items, kept chits and tallies,
the turn and round counts, every seat playing the scripted strategy. :func:`both_play` (:func:`both_turns`,
:func:`both_fights`) then plays hero turns (one fight) with the same scripted dice and decisions in both and returns
both event lists, so that a test states a rule once and checks it against both engines (the reference is written
from the rulebook, not from the kernel).
"""
from __future__ import annotations

import numpy as np

from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower import strategies as S
from balance.games.haunted_tower.reference import Table as ReferenceTable
from balance.games.haunted_tower.reference import GameEnds
from haunted_table import SENTINEL

HERO_COUNTS = {"standups": L.HS_STANDUPS, "kills": L.HS_KILLS, "bane_kills": L.HS_BANE_KILLS,
               "specter_hits": L.HS_SPECTER_HIT, "specter_kill": L.HS_SPECTER_KILL, "encounters": L.HS_ENCOUNTERS,
               "runs": L.HS_RUNS, "trade_ins": L.HS_TRADE_INS, "damage_dealt": L.HS_DAMAGE_DEALT,
               "damage_taken": L.HS_DAMAGE_TAKEN, "hp": L.HS_HP, "drains": L.HS_DRAINS, "deaths": L.HS_DEATHS}


def mirror(t, dice=(), choices=()) -> ReferenceTable:
    """A reference game in the position of kernel table ``t``, scripted with these dice and decisions (a sentinel
    after the decisions, as ``haunted_table`` scripts them: one decision more is an illegal answer)."""
    sc, n = t.scenario, t.players
    heroes = [t.hs(p, L.HS_HERO) for p in range(n)]
    r = ReferenceTable(sc.components, sc.rules, t.board, n, t.opt(L.OPT_TURN_CAP), [S.SCRIPTED] * n,
                       np.zeros((n, L.N_PARAMS)), heroes, sc.seed, 0, dice=dice, choices=list(choices) + [SENTINEL])
    r.hero_on[:] = -1
    for ch in r.chits:
        c = ch.id
        ch.loc, ch.square, ch.owner = t.loc(c), t.chit_sq(c), t.owner(c)
        ch.placer, ch.face_up, ch.uses = int(t.s[L.CHIT_PLACER + c]), t.faceup(c), int(t.s[L.CHIT_USES + c])
        if ch.square >= 0:
            r.chit_on[ch.square] = c
            r.on_level[r.board.level[ch.square]] += 1
            r.hidden_on[r.board.level[ch.square]] += not ch.face_up
    for h in r.heroes:
        p = h.seat
        h.square = t.hs(p, L.HS_SQ)
        if h.square >= 0:
            r.hero_on[h.square] = p
        h.out, h.held = bool(t.hs(p, L.HS_OUT)), bool(t.hs(p, L.HS_HELD_TURN))
        h.items = t.items(p)
        h.kept = [ch.id for ch in r.chits if ch.loc == E.LOC_KEPT and ch.owner == p]
        for name, k in HERO_COUNTS.items():
            setattr(h, name, t.hs(p, k))
    r.turn_no, r.round_no = t.sc(L.SC_TURN), t.sc(L.SC_ROUND)
    return r


def play(r: ReferenceTable, step) -> list[tuple[int, ...]]:
    """Run one step of a mirrored reference game (a method call); the events it wrote (the game may end in it)."""
    first = len(r.events)
    try:
        step()
    except GameEnds as end:
        r.victory = end.victory
    return [tuple(int(x) for x in e) for e in r.events[first:]]


def both_play(t, turns):
    """Hero turns ``[(seat, dice, choices), ...]`` one after the other, in the kernel (``t.turn``) and in the
    reference game mirrored from the position before the first; (kernel events by turn, reference events by turn, the
    reference table). The reference's scripts must be used up exactly, as the kernel's are."""
    dice = [x for _p, ds, _cs in turns for x in ds]
    choices = [x for _p, _ds, cs in turns for x in cs]
    r = mirror(t, dice, choices)
    kernel = [t.turn(p, dice=ds, choices=cs) for p, ds, cs in turns]
    reference = [play(r, lambda p=p: r.turn(r.heroes[p])) for p, _ds, _cs in turns]
    assert not r.dice_script, f"{len(r.dice_script)} scripted dice left over in the reference"
    assert r.dice_stream.counter == 0, "the reference rolled unscripted dice"
    assert r.choice_i == len(choices), f"reference used {r.choice_i} of {len(choices)} scripted decisions"
    return kernel, reference, r


def both_turns(t, p=0, dice=(), choices=()):
    """One hero turn of seat p in both engines (``both_play``); (kernel events, reference events, reference
    table)."""
    kernel, reference, r = both_play(t, [(p, dice, choices)])
    return kernel[0], reference[0], r


def both_fights(t, p, c, dice=(), choices=()):
    """One encounter of hero p with the monster on chit c (``t.fight``), in the kernel and in the mirrored reference
    game; (kernel events, reference events, the reference table)."""
    r = mirror(t, dice, choices)
    kernel = t.fight(p, c, dice=dice, choices=choices)
    reference = play(r, lambda: r.fight(r.heroes[p], r.chits[c]))
    assert not r.dice_script and r.dice_stream.counter == 0, "reference dice left over, or unscripted dice rolled"
    assert r.choice_i == len(choices), f"reference used {r.choice_i} of {len(choices)} scripted decisions"
    return kernel, reference, r
