"""The Order of Play, Experience, Ending the Game and Winning: one whole game from a reset state.

A game lives in four flat arrays (``layout``): ``s`` (int64 state, compiled rules, trace), ``f`` (float64 strategy
parameters), ``g`` (int32 board tables) and ``d`` (int16 board movement costs), allocated once per worker and reset
per game. The rules are split by concern: ``setup`` (Setting Up the Board), ``movement`` (Movement, Climbing,
Encountering a Chit, Magical Items), ``combat`` (Initiative to Dying, the Specter, the Monster Listing), this module,
and ``simulate`` (the batch driver). Every choice a rule leaves
to a player is a call into ``strategies``; the open rule points are read from the compiled options
(``docs/rules/haunted_tower.md``).
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums as E
from .. import strategies as S
from .combat import STOP, fight_nb, use_up_nb
from ..layout import (LEVEL_HIDDEN, SC_CLIMB, SC_MP, CHIT_SQ, g_level, CAND, CHIT_COLOUR, CHIT_FACEUP, CHIT_INDEX, CHIT_KIND, CHIT_LOC, CHIT_OWNER, CHOICE_SCRIPT,
                     DICE_SCRIPT, HS_BANE_KILLS, HS_BLUE, HS_DEATHS, HS_DRAINS, HS_ENCOUNTERS, HS_HELD_TURN, HS_HERO, HS_HP, HS_KEPT_BLUE,
                     HS_KEPT_PURPLE, HS_MAXHP, HS_N_ITEMS, HS_OUT, HS_POINTS, HS_PURPLE, HS_SPECTER_HIT,
                     HS_SPECTER_KILL, HS_SQ, HS_STANDUPS, HS_TRADE_INS, HT_ABILITY, HT_ABILITY_VALUE, HT_SPEED,
                     IC_HELD_END, IT_HEAL, KINDS, M_CHOICE_I, M_CHOICE_N, M_DICE_I, M_DICE_N, M_TRACE, MAX_HELD,
                     OPT, OPT_N_CHITS, OPT_OUT_SCORES, OPT_PLAYERS, OPT_PTS_BANE, OPT_PTS_BLUE, OPT_PTS_PURPLE,
                     OPT_PTS_SPECTER_HIT, OPT_PTS_SPECTER_KILL, OPT_PTS_STANDUP, OPT_TIES, OPT_TRADING,
                     OPT_TURN_CAP, SC, SC_ACTIVE, SC_ERROR, SC_IN, SC_LEFT, SC_N_CAND, SC_PATH_FROM, SC_PATH_N,
                     SC_ROUND, SC_ROUND_START, SC_SPECTER_KILLER, SC_TURN, SC_VICTORY, SC_WIN_MASK, SC_WINNER, SEAT_HERO,
                     TRACE, N_PARAMS, at, held_at, hs_at, ht_at, icnt_at, it_at, param_at, G_A, g_adj, SQ_HERO,
                     STREAMS, FINAL_FIELDS, N_FINAL, N_MC, N_IC, mcnt_at, HS_PTS_STANDUPS, HS_PTS_CHITS,
                     HS_PTS_BANE, HS_PTS_SPECTER_HIT, HS_PTS_SPECTER_KILL)
from .movement import (climb_table_nb, drop_phase_nb, encounter_candidates_nb, move_hero_nb, offer_item_nb,
                       slot_room_nb, usable_nb)
from .pieces import (carry_nb, die_nb, disown_chit_nb, emit_nb, illegal_nb, item_of_nb, reveal_nb, slot_of_nb,
                     uncarry_nb)
from .setup import place_chits_nb, reset_nb, rolloff_nb


@rules_jit
def trade_in_phase_nb(s, f, p):
    """Experience: while the hero has a "-1" chit and the monster chits to pay, its strategy may trade in two blue
    monster chits or one purple monster chit to remove one. Returns False on an illegal answer."""
    while s[hs_at(p, HS_DRAINS)] > 0 and (s[hs_at(p, HS_KEPT_BLUE)] >= 2 or s[hs_at(p, HS_KEPT_PURPLE)] >= 1):
        a = S.trade_in_nb(s, f, p)
        if a == E.TRADE_NONE:
            return True
        colour = E.BLUE if a == E.TRADE_TWO_BLUE else E.PURPLE
        need = 2 if a == E.TRADE_TWO_BLUE else 1
        field = HS_KEPT_BLUE if a == E.TRADE_TWO_BLUE else HS_KEPT_PURPLE
        if (a != E.TRADE_TWO_BLUE and a != E.TRADE_ONE_PURPLE) or s[hs_at(p, field)] < need:
            illegal_nb(s, p, E.DEC_TRADE_IN, a)
            return False
        for c in range(s[OPT + OPT_N_CHITS]):            # the kept monster chits with the lowest ids go
            if need > 0 and s[at(CHIT_LOC, c)] == E.LOC_KEPT and s[at(CHIT_OWNER, c)] == p \
                    and s[at(CHIT_COLOUR, c)] == colour:
                disown_chit_nb(s, p, c, E.LOC_GONE)
                need -= 1
        s[hs_at(p, field)] -= 2 if a == E.TRADE_TWO_BLUE else 1
        s[hs_at(p, HS_DRAINS)] -= 1
        s[hs_at(p, HS_TRADE_INS)] += 1
        emit_nb(s, E.EV_TRADE_IN, p, a, s[hs_at(p, HS_DRAINS)], 0)
    return True


@rules_jit
def potion_phase_nb(s, f, p):
    """At the start of its turn the hero may drink one carried potion. Returns False on an illegal answer."""
    s[at(CAND, 0)] = -1
    n = 1
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        c = s[held_at(p, k)]
        if s[it_at(item_of_nb(s, c), IT_HEAL)] > 0:
            s[at(CAND, n)] = c
            n += 1
    if n == 1:
        return True
    s[SC + SC_N_CAND] = n
    i = S.potion_nb(s, f, p)
    if i < 0 or i >= n:
        illegal_nb(s, p, E.DEC_POTION, i)
        return False
    c = s[at(CAND, i)]
    if c >= 0:
        hp = min(s[hs_at(p, HS_MAXHP)], s[hs_at(p, HS_HP)] + s[it_at(item_of_nb(s, c), IT_HEAL)])
        s[hs_at(p, HS_HP)] = hp
        emit_nb(s, E.EV_POTION, p, c, hp, 0)
        use_up_nb(s, p, c)
    return True


@rules_jit
def trade_phase_nb(s, f, g, p):
    """Trading (rule option `trading`): the hero may offer one of its items for one of an adjacent hero's; the other
    hero's strategy accepts or refuses. Rows (partner, item given, item received) go into CAND."""
    here = s[hs_at(p, HS_SQ)]
    n = 0
    for k in range(g[G_A]):
        a = g_adj(g, here, k)
        if a < 0:
            break
        q = s[at(SQ_HERO, a)]
        if q < 0 or q == p:
            continue
        for i in range(s[hs_at(p, HS_N_ITEMS)]):
            give = s[held_at(p, i)]
            if not usable_nb(s, q, give):
                continue
            for j in range(s[hs_at(q, HS_N_ITEMS)]):
                take = s[held_at(q, j)]
                same = slot_of_nb(s, give) == slot_of_nb(s, take)
                if usable_nb(s, p, take) and (same or (slot_room_nb(s, q, slot_of_nb(s, give)) > 0
                                                       and slot_room_nb(s, p, slot_of_nb(s, take)) > 0)) \
                        and 3 * n + 2 < 2048:
                    s[at(CAND, 3 * n)] = q
                    s[at(CAND, 3 * n + 1)] = give
                    s[at(CAND, 3 * n + 2)] = take
                    n += 1
    if n == 0:
        return True
    s[SC + SC_N_CAND] = n
    i = S.trade_offer_nb(s, f, g, p)
    if i < -1 or i >= n:
        illegal_nb(s, p, E.DEC_TRADE_OFFER, i)
        return False
    if i == -1:
        return True
    q = s[at(CAND, 3 * i)]
    give = s[at(CAND, 3 * i + 1)]
    take = s[at(CAND, 3 * i + 2)]
    s[SC + SC_ACTIVE] = q
    yes = S.trade_accept_nb(s, f, q, p, give, take)
    s[SC + SC_ACTIVE] = p
    if not yes:
        emit_nb(s, E.EV_TRADE, p, q, give, -1)
        return True
    uncarry_nb(s, p, give, E.LOC_HELD)
    uncarry_nb(s, q, take, E.LOC_HELD)
    carry_nb(s, q, give)
    carry_nb(s, p, take)
    emit_nb(s, E.EV_TRADE, p, q, give, take)
    return True


@rules_jit
def encounter_nb(s, f, g, d, p):
    """Encountering a Chit: the hero's strategy picks one of the chits it may encounter, or none. Returns False when
    the game must stop (an illegal answer, the Specter dead)."""
    n = encounter_candidates_nb(s, g, p)
    if n == 0:                                           # nothing to encounter: the hero may still trade
        return trade_phase_nb(s, f, g, p) if s[OPT + OPT_TRADING] == 1 else True
    i = S.encounter_nb(s, f, g, d, p)
    if i < -1 or i >= n:
        illegal_nb(s, p, E.DEC_ENCOUNTER, i)
        return False
    if i == -1:
        if s[OPT + OPT_TRADING] == 1:
            return trade_phase_nb(s, f, g, p)
        return True
    c = s[at(CAND, i)]
    s[hs_at(p, HS_ENCOUNTERS)] += 1
    if s[at(CHIT_FACEUP, c)] == 0:
        emit_nb(s, E.EV_REVEAL, p, c, s[at(CHIT_KIND, c)], s[at(CHIT_INDEX, c)])
        reveal_nb(s, g, c)
    if s[at(CHIT_KIND, c)] == E.CONTENT_ITEM:
        return offer_item_nb(s, f, g, p, c)
    result = fight_nb(s, f, g, d, p, c)
    return result != STOP and s[SC + SC_SPECTER_KILLER] < 0


@rules_jit
def play_turn_nb(s, f, g, d, p):
    """A hero's turn: trade-ins and a potion, movement, an encounter, a drop. Returns False when the game stops."""
    s[SC + SC_TURN] += 1
    s[SC + SC_ACTIVE] = p
    emit_nb(s, E.EV_TURN, p, s[SC + SC_TURN], s[SC + SC_ROUND], 0)
    if not trade_in_phase_nb(s, f, p) or not potion_phase_nb(s, f, p):
        return False
    if s[hs_at(p, HS_HELD_TURN)] == 1:
        s[hs_at(p, HS_HELD_TURN)] = 0
        emit_nb(s, E.EV_HELD, p, 0, 0, 0)
        s[SC + SC_MP] = 0
        s[SC + SC_CLIMB] = climb_table_nb(s, p)
        s[SC + SC_LEFT] = 0
        s[SC + SC_PATH_FROM] = s[hs_at(p, HS_SQ)]        # the path of no move: the square itself
        s[SC + SC_PATH_N] = 0
    else:
        roll = die_nb(s, 6)
        h = s[hs_at(p, HS_HERO)]
        mp = s[ht_at(h, HT_SPEED)] + roll
        if s[ht_at(h, HT_ABILITY)] == E.AB_MOVE_BONUS:
            mp += s[ht_at(h, HT_ABILITY_VALUE)]
        emit_nb(s, E.EV_MOVE_ROLL, p, roll, mp, 0)
        if not move_hero_nb(s, f, g, d, p, mp):
            return False
    deaths = s[hs_at(p, HS_DEATHS)]
    if not encounter_nb(s, f, g, d, p):
        return False
    if s[hs_at(p, HS_OUT)] == 0 and s[hs_at(p, HS_DEATHS)] == deaths:      # no drop after a death
        return drop_phase_nb(s, f, g, p)
    return True


@rules_jit
def play_rounds_nb(s, f, g, d):
    """The Order of Play: each round a 1d10 roll-off, then every hero still in the game clockwise from the winner,
    until the Specter dies, every hero is out, or the turn cap."""
    n_players = s[OPT + OPT_PLAYERS]
    cap = s[OPT + OPT_TURN_CAP]
    while True:
        s[SC + SC_ROUND] += 1
        start = rolloff_nb(s, 1)
        s[SC + SC_ROUND_START] = start
        emit_nb(s, E.EV_ROUND, -1, s[SC + SC_ROUND], start, 0)
        for k in range(n_players):
            p = start + k
            if p >= n_players:
                p -= n_players
            if s[hs_at(p, HS_OUT)] == 1:
                continue
            if s[SC + SC_TURN] >= cap:
                emit_nb(s, E.EV_CAP, -1, s[SC + SC_TURN], 0, 0)
                return
            if not play_turn_nb(s, f, g, d, p):
                return
            if s[SC + SC_IN] == 0:
                return


@rules_jit
def score_nb(s, p):
    """Winning: the scoring table for seat p, line by line into HS_PTS_*, and the total."""
    scores = not (s[hs_at(p, HS_OUT)] == 1 and s[OPT + OPT_OUT_SCORES] == 0)
    s[hs_at(p, HS_PTS_STANDUPS)] = scores * s[hs_at(p, HS_STANDUPS)] * s[OPT + OPT_PTS_STANDUP]
    s[hs_at(p, HS_PTS_CHITS)] = scores * (s[hs_at(p, HS_BLUE)] * s[OPT + OPT_PTS_BLUE]
                                          + s[hs_at(p, HS_PURPLE)] * s[OPT + OPT_PTS_PURPLE])
    s[hs_at(p, HS_PTS_BANE)] = scores * s[hs_at(p, HS_BANE_KILLS)] * s[OPT + OPT_PTS_BANE]
    s[hs_at(p, HS_PTS_SPECTER_HIT)] = scores * s[hs_at(p, HS_SPECTER_HIT)] * s[OPT + OPT_PTS_SPECTER_HIT]
    s[hs_at(p, HS_PTS_SPECTER_KILL)] = scores * s[hs_at(p, HS_SPECTER_KILL)] * s[OPT + OPT_PTS_SPECTER_KILL]
    return (s[hs_at(p, HS_PTS_STANDUPS)] + s[hs_at(p, HS_PTS_CHITS)] + s[hs_at(p, HS_PTS_BANE)]
            + s[hs_at(p, HS_PTS_SPECTER_HIT)] + s[hs_at(p, HS_PTS_SPECTER_KILL)])


@rules_jit
def finish_nb(s):
    """Ending the Game and Winning: points for every seat; the most points wins (ties: the `ties` option). An
    unfinished game (the cap, or an illegal answer) has no winner."""
    n_players = s[OPT + OPT_PLAYERS]
    best = -1
    for p in range(n_players):
        pts = score_nb(s, p)
        s[hs_at(p, HS_POINTS)] = pts
        best = max(best, pts)
        for k in range(s[hs_at(p, HS_N_ITEMS)]):
            s[icnt_at(p, item_of_nb(s, s[held_at(p, k)]), IC_HELD_END)] += 1
        emit_nb(s, E.EV_SCORE, p, pts, 0, 0)
    victory = E.WIN_NONE
    if s[SC + SC_ERROR] == 0:
        if s[SC + SC_SPECTER_KILLER] >= 0:
            victory = E.WIN_SPECTER
        elif s[SC + SC_IN] == 0:
            victory = E.WIN_ALL_OUT
    s[SC + SC_VICTORY] = victory
    if victory == E.WIN_NONE:
        return
    mask = 0
    for p in range(n_players):
        if s[hs_at(p, HS_POINTS)] == best:
            mask |= 1 << p
    killer = s[SC + SC_SPECTER_KILLER]
    if s[OPT + OPT_TIES] == E.SHARE_SPECTER and killer >= 0 and (mask >> killer) & 1 == 1:
        mask = 1 << killer
    s[SC + SC_WIN_MASK] = mask
    for p in range(n_players):
        if (mask >> p) & 1 == 1:
            s[SC + SC_WINNER] = p
            break
    emit_nb(s, E.EV_WIN, -1, victory, mask, 0)


@rules_jit
def play_game_nb(s, f, g, d, seed, game):
    """Deal game `game` of run `seed` and play it to the end (seat heroes and strategies already set)."""
    reset_nb(s, g, seed, game)
    play_on_nb(s, f, g, d)


@rules_jit
def play_on_nb(s, f, g, d):
    """From a reset state: the chits placed, the rounds played, the score."""
    if place_chits_nb(s, f, g, d):
        play_rounds_nb(s, f, g, d)
    finish_nb(s)
