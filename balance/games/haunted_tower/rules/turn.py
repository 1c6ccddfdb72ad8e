"""The Order of Play, Experience, Ending the Game and Winning: one whole game from a reset state.

A game lives in four flat arrays (``layout``): ``state`` (int64 state, compiled rules, trace), ``params`` (float64
strategy parameters), ``tables`` (int32 board tables) and ``costs`` (int16 board movement costs), allocated once per
worker and reset per game. The rules are split by concern: ``setup`` (Setting Up the Board), ``movement`` (Movement,
Climbing, Encountering a Chit, Magical Items), ``combat`` (Initiative to Dying, the Specter, the Monster Listing), this
module, and ``simulate`` (the batch driver). Every choice a rule leaves to a player is a call into ``strategies``; the
open rule points are read from the compiled options (``docs/rules/haunted_tower.md``).
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums
from .. import strategies
from .combat import STOP, fight_nb, use_up_nb
from ..layout import (ACTIVE, CAND, CHIT_COLOUR, CHIT_FACEUP, CHIT_INDEX, CHIT_KIND, CHIT_LOC, CHIT_OWNER, CHIT_SQ,
                      CHOICE_SCRIPT, CLIMB_TABLE, DICE_SCRIPT, ERROR, FINAL_FIELDS, G_A, HEROES_IN, HS_BANE_KILLS,
                      HS_BLUE, HS_DEATHS, HS_DRAINS, HS_ENCOUNTERS, HS_HELD_TURN, HS_HERO, HS_HP, HS_KEPT_BLUE,
                      HS_KEPT_PURPLE, HS_MAXHP, HS_N_ITEMS, HS_OUT, HS_POINTS, HS_PTS_BANE, HS_PTS_CHITS,
                      HS_PTS_SPECTER_HIT, HS_PTS_SPECTER_KILL, HS_PTS_STANDUPS, HS_PURPLE, HS_SPECTER_HIT,
                      HS_SPECTER_KILL, HS_SQ, HS_STANDUPS, HS_TRADE_INS, HT_ABILITY, HT_ABILITY_VALUE, HT_SPEED,
                      IC_HELD_END, IT_HEAL, KINDS, LEVEL_HIDDEN, MAX_HELD, MOVEMENT_POINTS, M_CHOICE_I, M_CHOICE_N,
                      M_DICE_I, M_DICE_N, M_TRACE, N_CANDIDATES, N_CHITS, N_FINAL, N_IC, N_MC, N_PARAMS,
                      OUT_HERO_SCORES, PATH_FROM, PATH_LENGTH, PLAYERS, POINTS_BANE, POINTS_BLUE, POINTS_LEFT,
                      POINTS_PURPLE, POINTS_SPECTER_HIT, POINTS_SPECTER_KILL, POINTS_STANDUP, ROUND, ROUND_STARTER,
                      SEAT_HERO, SPECTER_KILLER, SQ_HERO, STREAMS, TIES, TRACE, TRADING, TURN, TURN_CAP, VICTORY,
                      WINNER, WIN_MASK, at, g_adj, g_level, held_at, hs_at, ht_at, icnt_at, it_at, mcnt_at, param_at)
from .movement import (climb_table_nb, drop_phase_nb, encounter_candidates_nb, move_to_nb, movement_nb,
                       offer_item_nb, slot_room_nb, usable_nb)
from .pieces import (carry_nb, die_nb, disown_chit_nb, emit_nb, illegal_nb, item_of_nb, reveal_nb, slot_of_nb,
                     uncarry_nb)
from .setup import place_chits_nb, reset_nb, rolloff_nb

SKIP = -1                # turn_due_nb: the hero is out of the game
CAPPED = -2              # turn_due_nb: the turn cap is reached
ASK = -2                 # encounter_nb: the hero's strategy picks the chit


@rules_jit
def trade_in_phase_nb(state, params, p):
    """Experience: while the hero has a "-1" chit and the monster chits to pay, its strategy may trade in two blue
    monster chits or one purple monster chit to remove one. Returns False on an illegal answer."""
    while state[hs_at(p, HS_DRAINS)] > 0 \
            and (state[hs_at(p, HS_KEPT_BLUE)] >= 2 or state[hs_at(p, HS_KEPT_PURPLE)] >= 1):
        a = strategies.trade_in_nb(state, params, p)
        if a == enums.TRADE_NONE:
            return True
        colour = enums.BLUE if a == enums.TRADE_TWO_BLUE else enums.PURPLE
        need = 2 if a == enums.TRADE_TWO_BLUE else 1
        field = HS_KEPT_BLUE if a == enums.TRADE_TWO_BLUE else HS_KEPT_PURPLE
        if (a != enums.TRADE_TWO_BLUE and a != enums.TRADE_ONE_PURPLE) or state[hs_at(p, field)] < need:
            illegal_nb(state, p, enums.DEC_TRADE_IN, a)
            return False
        for c in range(state[N_CHITS]):            # the kept monster chits with the lowest ids go
            if need > 0 and state[at(CHIT_LOC, c)] == enums.LOC_KEPT and state[at(CHIT_OWNER, c)] == p \
                    and state[at(CHIT_COLOUR, c)] == colour:
                disown_chit_nb(state, p, c, enums.LOC_GONE)
                need -= 1
        state[hs_at(p, field)] -= 2 if a == enums.TRADE_TWO_BLUE else 1
        state[hs_at(p, HS_DRAINS)] -= 1
        state[hs_at(p, HS_TRADE_INS)] += 1
        emit_nb(state, enums.EV_TRADE_IN, p, a, state[hs_at(p, HS_DRAINS)], 0)
    return True


@rules_jit
def potion_phase_nb(state, params, p):
    """At the start of its turn the hero may drink one carried potion. Returns False on an illegal answer."""
    state[at(CAND, 0)] = -1
    n = 1
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        c = state[held_at(p, k)]
        if state[it_at(item_of_nb(state, c), IT_HEAL)] > 0:
            state[at(CAND, n)] = c
            n += 1
    if n == 1:
        return True
    state[N_CANDIDATES] = n
    i = strategies.potion_nb(state, params, p)
    if i < 0 or i >= n:
        illegal_nb(state, p, enums.DEC_POTION, i)
        return False
    c = state[at(CAND, i)]
    if c >= 0:
        hp = min(state[hs_at(p, HS_MAXHP)], state[hs_at(p, HS_HP)] + state[it_at(item_of_nb(state, c), IT_HEAL)])
        state[hs_at(p, HS_HP)] = hp
        emit_nb(state, enums.EV_POTION, p, c, hp, 0)
        use_up_nb(state, p, c)
    return True


@rules_jit
def trade_phase_nb(state, params, tables, p):
    """Trading (rule option `trading`): the hero may offer one of its items for one of an adjacent hero's; the other
    hero's strategy accepts or refuses. Rows (partner, item given, item received) go into CAND."""
    here = state[hs_at(p, HS_SQ)]
    n = 0
    for k in range(tables[G_A]):
        a = g_adj(tables, here, k)
        if a < 0:
            break
        q = state[at(SQ_HERO, a)]
        if q < 0 or q == p:
            continue
        for i in range(state[hs_at(p, HS_N_ITEMS)]):
            give = state[held_at(p, i)]
            if not usable_nb(state, q, give):
                continue
            for j in range(state[hs_at(q, HS_N_ITEMS)]):
                take = state[held_at(q, j)]
                same = slot_of_nb(state, give) == slot_of_nb(state, take)
                if usable_nb(state, p, take) and (same or (slot_room_nb(state, q, slot_of_nb(state, give)) > 0
                                                       and slot_room_nb(state, p, slot_of_nb(state, take)) > 0)) \
                        and 3 * n + 2 < 2048:
                    state[at(CAND, 3 * n)] = q
                    state[at(CAND, 3 * n + 1)] = give
                    state[at(CAND, 3 * n + 2)] = take
                    n += 1
    if n == 0:
        return True
    state[N_CANDIDATES] = n
    i = strategies.trade_offer_nb(state, params, tables, p)
    if i < -1 or i >= n:
        illegal_nb(state, p, enums.DEC_TRADE_OFFER, i)
        return False
    if i == -1:
        return True
    q = state[at(CAND, 3 * i)]
    give = state[at(CAND, 3 * i + 1)]
    take = state[at(CAND, 3 * i + 2)]
    state[ACTIVE] = q
    yes = strategies.trade_accept_nb(state, params, q, p, give, take)
    state[ACTIVE] = p
    if not yes:
        emit_nb(state, enums.EV_TRADE, p, q, give, -1)
        return True
    uncarry_nb(state, p, give, enums.LOC_HELD)
    uncarry_nb(state, q, take, enums.LOC_HELD)
    carry_nb(state, q, give)
    carry_nb(state, p, take)
    emit_nb(state, enums.EV_TRADE, p, q, give, take)
    return True


@rules_jit
def encounter_nb(state, params, tables, costs, p, e):
    """Encountering a Chit: the hero's strategy picks one of the chits it may encounter, or none; `e` is that
    answer when it is already given (a lookahead's search, ``rules.lookahead``), ``ASK`` to ask the strategy.
    Returns False when the game must stop (an illegal answer, the Specter dead)."""
    n = encounter_candidates_nb(state, tables, p)
    if n == 0:                                           # nothing to encounter: the hero may still trade
        return trade_phase_nb(state, params, tables, p) if state[TRADING] == 1 else True
    i = strategies.encounter_nb(state, params, tables, costs, p) if e == ASK else e
    if i < -1 or i >= n:
        illegal_nb(state, p, enums.DEC_ENCOUNTER, i)
        return False
    if i == -1:
        if state[TRADING] == 1:
            return trade_phase_nb(state, params, tables, p)
        return True
    c = state[at(CAND, i)]
    state[hs_at(p, HS_ENCOUNTERS)] += 1
    if state[at(CHIT_FACEUP, c)] == 0:
        emit_nb(state, enums.EV_REVEAL, p, c, state[at(CHIT_KIND, c)], state[at(CHIT_INDEX, c)])
        reveal_nb(state, tables, c)
    if state[at(CHIT_KIND, c)] == enums.CONTENT_ITEM:
        return offer_item_nb(state, params, tables, p, c)
    result = fight_nb(state, params, tables, costs, p, c)
    return result != STOP and state[SPECTER_KILLER] < 0


@rules_jit
def begin_turn_nb(state, params, p):
    """The start of a hero's turn: trade-ins and a potion, then the held turn or the movement roll. Returns 1 when
    the hero moves (``SC_MP`` and ``SC_CLIMB`` set: its strategy names the square, ``end_turn_nb`` moves it), 0
    when it is held, -1 when the game stops."""
    state[TURN] += 1
    state[ACTIVE] = p
    emit_nb(state, enums.EV_TURN, p, state[TURN], state[ROUND], 0)
    if not trade_in_phase_nb(state, params, p) or not potion_phase_nb(state, params, p):
        return -1
    if state[hs_at(p, HS_HELD_TURN)] == 1:
        state[hs_at(p, HS_HELD_TURN)] = 0
        emit_nb(state, enums.EV_HELD, p, 0, 0, 0)
        state[MOVEMENT_POINTS] = 0
        state[CLIMB_TABLE] = climb_table_nb(state, p)
        state[POINTS_LEFT] = 0
        state[PATH_FROM] = state[hs_at(p, HS_SQ)]        # the path of no move: the square itself
        state[PATH_LENGTH] = 0
        return 0
    roll = die_nb(state, 6)
    h = state[hs_at(p, HS_HERO)]
    mp = state[ht_at(h, HT_SPEED)] + roll
    if state[ht_at(h, HT_ABILITY)] == enums.AB_MOVE_BONUS:
        mp += state[ht_at(h, HT_ABILITY_VALUE)]
    emit_nb(state, enums.EV_MOVE_ROLL, p, roll, mp, 0)
    movement_nb(state, p, mp)
    return 1


@rules_jit
def end_turn_nb(state, params, tables, costs, p, moves, q):
    """The rest of a hero's turn after ``begin_turn_nb`` (`moves` its answer): the move to square q (when it moves),
    an encounter, a drop. Returns False when the game stops."""
    if moves == 1 and not move_to_nb(state, tables, costs, p, q):
        return False
    return after_move_nb(state, params, tables, costs, p, ASK)


@rules_jit
def after_move_nb(state, params, tables, costs, p, e):
    """The rest of a hero's turn once it stands where it stops: an encounter (`e`: ``encounter_nb``), a drop.
    Returns False when the game stops."""
    deaths = state[hs_at(p, HS_DEATHS)]
    if not encounter_nb(state, params, tables, costs, p, e):
        return False
    if state[hs_at(p, HS_OUT)] == 0 and state[hs_at(p, HS_DEATHS)] == deaths:      # no drop after a death
        return drop_phase_nb(state, params, tables, p)
    return True


@rules_jit
def play_turn_nb(state, params, tables, costs, p):
    """A hero's turn: trade-ins and a potion, movement, an encounter, a drop. Returns False when the game stops."""
    moves = begin_turn_nb(state, params, p)
    if moves < 0:
        return False
    q = strategies.move_nb(state, params, tables, costs, p) if moves == 1 else -1
    return end_turn_nb(state, params, tables, costs, p, moves, q)


@rules_jit
def new_round_nb(state):
    """A round starts: the 1d10 roll-off picks the seat that starts it (``ROUND_STARTER``)."""
    state[ROUND] += 1
    start = rolloff_nb(state, 1)
    state[ROUND_STARTER] = start
    emit_nb(state, enums.EV_ROUND, -1, state[ROUND], start, 0)


@rules_jit
def turn_due_nb(state, k):
    """Whose turn is the k-th of this round (clockwise from ``ROUND_STARTER``): the seat; SKIP for a hero out of the
    game; CAPPED when the turn cap is reached before it (the game ends unfinished)."""
    n_players = state[PLAYERS]
    p = state[ROUND_STARTER] + k
    if p >= n_players:
        p -= n_players
    if state[hs_at(p, HS_OUT)] == 1:
        return SKIP
    if state[TURN] >= state[TURN_CAP]:
        emit_nb(state, enums.EV_CAP, -1, state[TURN], 0, 0)
        return CAPPED
    return p


@rules_jit
def rest_of_round_nb(state, params, tables, costs, k0):
    """The turns of this round from its k0-th on, every hero on its strategy. Returns False when the game is over
    (the Specter dead, every hero out, the turn cap; ``game`` plays lookahead seats)."""
    for k in range(k0, state[PLAYERS]):
        p = turn_due_nb(state, k)
        if p == SKIP:
            continue
        if p == CAPPED or not play_turn_nb(state, params, tables, costs, p) or state[HEROES_IN] == 0:
            return False
    return True


@rules_jit
def play_rounds_nb(state, params, tables, costs):
    """The Order of Play: each round a 1d10 roll-off, then every hero still in the game clockwise from the winner,
    until the Specter dies, every hero is out, or the turn cap."""
    while True:
        new_round_nb(state)
        if not rest_of_round_nb(state, params, tables, costs, 0):
            return


@rules_jit
def score_nb(state, p):
    """Winning: the scoring table for seat p, line by line into HS_PTS_*, and the total."""
    scores = not (state[hs_at(p, HS_OUT)] == 1 and state[OUT_HERO_SCORES] == 0)
    state[hs_at(p, HS_PTS_STANDUPS)] = scores * state[hs_at(p, HS_STANDUPS)] * state[POINTS_STANDUP]
    state[hs_at(p, HS_PTS_CHITS)] = scores * (state[hs_at(p, HS_BLUE)] * state[POINTS_BLUE]
                                          + state[hs_at(p, HS_PURPLE)] * state[POINTS_PURPLE])
    state[hs_at(p, HS_PTS_BANE)] = scores * state[hs_at(p, HS_BANE_KILLS)] * state[POINTS_BANE]
    state[hs_at(p, HS_PTS_SPECTER_HIT)] = scores * state[hs_at(p, HS_SPECTER_HIT)] * state[POINTS_SPECTER_HIT]
    state[hs_at(p, HS_PTS_SPECTER_KILL)] = scores * state[hs_at(p, HS_SPECTER_KILL)] * state[POINTS_SPECTER_KILL]
    return (state[hs_at(p, HS_PTS_STANDUPS)] + state[hs_at(p, HS_PTS_CHITS)] + state[hs_at(p, HS_PTS_BANE)]
            + state[hs_at(p, HS_PTS_SPECTER_HIT)] + state[hs_at(p, HS_PTS_SPECTER_KILL)])


@rules_jit
def finish_nb(state):
    """Ending the Game and Winning: points for every seat; the most points wins (ties: the `ties` option). An
    unfinished game (the cap, or an illegal answer) has no winner."""
    n_players = state[PLAYERS]
    best = -1
    for p in range(n_players):
        pts = score_nb(state, p)
        state[hs_at(p, HS_POINTS)] = pts
        best = max(best, pts)
        for k in range(state[hs_at(p, HS_N_ITEMS)]):
            state[icnt_at(p, item_of_nb(state, state[held_at(p, k)]), IC_HELD_END)] += 1
        emit_nb(state, enums.EV_SCORE, p, pts, 0, 0)
    victory = enums.WIN_NONE
    if state[ERROR] == 0:
        if state[SPECTER_KILLER] >= 0:
            victory = enums.WIN_SPECTER
        elif state[HEROES_IN] == 0:
            victory = enums.WIN_ALL_OUT
    state[VICTORY] = victory
    if victory == enums.WIN_NONE:
        return
    mask = 0
    for p in range(n_players):
        if state[hs_at(p, HS_POINTS)] == best:
            mask |= 1 << p
    killer = state[SPECTER_KILLER]
    if state[TIES] == enums.SHARE_SPECTER and killer >= 0 and (mask >> killer) & 1 == 1:
        mask = 1 << killer
    state[WIN_MASK] = mask
    for p in range(n_players):
        if (mask >> p) & 1 == 1:
            state[WINNER] = p
            break
    emit_nb(state, enums.EV_WIN, -1, victory, mask, 0)


@rules_jit
def play_game_nb(state, params, tables, costs, seed, game):
    """Deal game `game` of run `seed` and play it to the end (seat heroes and strategies already set)."""
    reset_nb(state, tables, seed, game)
    play_on_nb(state, params, tables, costs)


@rules_jit
def play_on_nb(state, params, tables, costs):
    """From a reset state: the chits placed, the rounds played, the score."""
    if place_chits_nb(state, params, tables, costs):
        play_rounds_nb(state, params, tables, costs)
    finish_nb(state)
