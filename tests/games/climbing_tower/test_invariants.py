"""Invariants of Climbing Tower kernel games: what must hold in every game, whatever the strategies do.

Over 100,000 batch games (``run_chunk``: the default scenario, and random strategies on a scenario that turns on
the rarer rules) every per-game output is checked against the others: the game ends within the round limit and
only a defeated BOSS wins; pawns stay within the tower and only climb; every card is in exactly one place (bought
at most once, removed at most once, Level 1 never bought, the deck at the end as the counters say); turns are the
actions and passes; gold pays for what was built; skills are gained once and used only after. On a few thousand
traced games the skeleton tokens are followed event by event from the final state's tower layout: every sword,
spared sword, gold, placement, top-up and return agrees with the tokens standing and the skeletons drawn without a
token, a skill comes only from a card every skeleton drawn on which was defeated, tokens on the tower + fallen + gold
+ supply = 12 at every round's end, gold is never carried into a round, and the events end where the final state
array stands. The cards are followed too, from the ``shuffle`` rows alone: every deal and redraw takes the shuffled
deck's next card, every buy the top card of the pile its row names, and every shuffle holds exactly the deck.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from balance.games.climbing_tower import compile_scenario, run_chunk
from balance.games.climbing_tower import enums as E
from balance.games.climbing_tower import rules as K
from balance.games.climbing_tower import layout as L
from balance.games.climbing_tower.components import TOKENS
from balance.scenario import load_scenario

GAMES = 50_000           # per scenario; two scenarios
TRACED = 1_500           # per scenario


def default_scenario():
    return load_scenario({"game": "climbing_tower", "players": 2, "seed": 1, "seat_rotation": True,
                          "seats": [{"name": "climber"}, {"name": "skeleton_farmer"}]})


def random_scenario():
    """Random strategies (and a thinner that spares some skeletons), Easy supply, tokens left standing (the supply
    runs short, and short cards are topped up), no deck minimum, the partner's hand always visible, arrows first."""
    return load_scenario({"game": "climbing_tower", "players": 2, "seed": 9, "seat_rotation": True,
                          "seats": [{"name": "random"}, {"name": "deck_thinner", "spare": 0.3}],
                          "rules": {"supply": "easy", "left_behind": "stay", "min_deck": 0, "round_limit": 14,
                                    "communication": "always", "icon_order": "arrows_first"}})


SCENARIOS = {"default": default_scenario, "random": random_scenario}


def floors_per_tower(sc) -> np.ndarray:
    """The BOSS floor + 1 (floors in the tower) of every tower label, in ``arrays.tower_labels`` order."""
    c, r = sc.components, sc.rules
    out = []
    for order in permutations(range(len(c.tower)), r.tower_cards):
        for side in c.boss:
            colours = [f.colour for t in order for f in c.tower[t].floors] + [f.colour for f in side.floors]
            out.append(1 + sum(colours[i] != colours[i - 1] for i in range(1, len(colours))))
    return np.array(out)


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def batch(request):
    sc = SCENARIOS[request.param]()
    out = run_chunk(compile_scenario(sc), seed=sc.seed, rotate=True, game0=0, n_games=GAMES, n_blocks=2)
    return sc, {k: np.asarray(v).astype(np.int64) for k, v in out.items()}


def test_games_end_within_the_round_limit(batch):
    sc, o = batch
    limit = sc.rules.round_limit
    assert ((o["rounds"] >= 1) & (o["rounds"] <= limit)).all()
    won = o["victory"] == E.WIN_BOSS
    assert np.isin(o["victory"], [E.WIN_BOSS, E.LOST_BELOW, E.LOST_AT_BOSS]).all()
    assert (o["rounds"][~won] == limit).all()              # only the BOSS's fall ends a game early
    assert ((o["winner"] == 0) == won).all() and (o["winner"][~won] == -1).all()
    assert (o["win_mask"] == np.where(won, 3, 0)).all()
    assert won.any() and (~won).any()


def test_pawns_stay_in_the_tower_and_only_climb(batch):
    sc, o = batch
    n_labels = len(floors_per_tower(sc))
    assert ((o["tower"] >= 0) & (o["tower"] < n_labels)).all()
    assert (o["boss_side"] == o["tower"] % 2).all()
    top = floors_per_tower(sc)[o["tower"]] - 1
    floor = o["final"][:, :, L.FN_FLOOR] - 1                              # the floor reached counts from 1
    assert ((floor >= 0) & (floor <= top[:, None])).all()
    assert (o["final"][:, :, L.FN_CLIMBED] == floor).all()                   # from floor 0, up only
    at_top = (floor == top[:, None]).any(axis=1)
    assert (at_top[o["victory"] == E.WIN_BOSS]).all()                       # the last hit came from the BOSS floor
    assert (at_top == (o["victory"] != E.LOST_BELOW))[o["victory"] != E.WIN_BOSS].all()
    hits = o["final"][:, :, L.FN_BOSS_HITS].sum(axis=1)
    assert (hits[~at_top] == 0).all()
    hp = np.array([b.hp for b in sc.components.boss])[o["boss_side"]]
    assert (hits[o["victory"] == E.WIN_BOSS] >= hp[o["victory"] == E.WIN_BOSS]).all()


def test_every_card_in_exactly_one_place(batch):
    sc, o = batch
    cards = o["cards"][:, 0]                     # [game, card, counter]
    team = o["team"][:, 0, 0]
    level = np.array([c.level for c in sc.components.cards])
    bought, removed = cards[..., L.CC_BOUGHT], cards[..., L.CC_REMOVED]
    in_deck, dealt, played = cards[..., L.CC_IN_DECK_END], cards[..., L.CC_DEALT], cards[..., L.CC_PLAYED]
    assert ((bought >= 0) & (bought <= 1)).all() and ((removed >= 0) & (removed <= 1)).all()
    assert (bought[:, level == 1] == 0).all()
    assert np.isin(in_deck, [0, 1]).all()
    assert (in_deck + removed <= 1).all()                                   # removed cards are out of the game
    assert (in_deck[:, level == 1] == 1 - removed[:, level == 1]).all()
    assert (in_deck[:, level == 3] == bought[:, level == 3] - removed[:, level == 3]).all()
    assert (in_deck[:, level == 2] >= bought[:, level == 2] - removed[:, level == 2]).all()
    start = (level == 1).sum() + sc.rules.starting_level2
    assert (team[:, L.TM_DECK_END] == in_deck.sum(axis=1)).all()
    assert (team[:, L.TM_DECK_END] == start + team[:, L.TM_BOUGHT] - team[:, L.TM_REMOVED]).all()
    assert (team[:, L.TM_BOUGHT] == bought.sum(axis=1)).all()
    assert (team[:, L.TM_REMOVED] == removed.sum(axis=1)).all()
    rounds = o["rounds"][:, None]
    assert ((dealt <= rounds) & (played <= rounds)).all()
    never_in = (level[None, :] > 1) & (bought == 0)                           # Level 3 never bought: never in play
    assert (dealt[never_in & (level[None, :] == 3)] == 0).all()
    assert (played.sum(axis=1) == o["final"][:, :, L.FN_PLAYED].sum(axis=1)).all()


def test_turns_gold_and_skills_add_up(batch):
    sc, o = batch
    r = sc.rules
    fin, team, sk = o["final"], o["team"][:, 0, 0], o["skills"][:, 0]
    rounds = o["rounds"]
    actions = fin[:, :, [L.FN_REDRAWS, L.FN_OFFERS, L.FN_PLAYED, L.FN_PASSES]].sum(axis=(1, 2))
    assert (o["turns"] == actions).all()
    assert (team[:, L.TM_BLOCKED] == fin[:, :, L.FN_BLOCKED].sum(axis=1)).all()
    assert (fin[:, :, L.FN_BLOCKED] <= rounds[:, None]).all()
    assert (fin[:, :, L.FN_OFFERS] <= rounds[:, None]).all()
    assert (fin[:, :, L.FN_REDRAWS] <= rounds[:, None] * (r.redraws + 1)).all()
    assert (fin[:, :, L.FN_SKELETONS] + fin[:, :, L.FN_BOSS_HITS] <= fin[:, :, L.FN_SWORDS]).all()
    assert (team[:, L.TM_GOLD] <= fin[:, :, L.FN_SKELETONS].sum(axis=1)).all()
    assert (team[:, L.TM_BONUS] <= rounds * (r.empty_hand_bonus + r.skill_gold)).all()
    level = np.array([c.level for c in sc.components.cards])
    cards = o["cards"][:, 0]
    spent = (cards[..., L.CC_BOUGHT] * np.where(level == 3, 2, 1)).sum(axis=1) + cards[..., L.CC_REMOVED].sum(axis=1)
    assert (spent <= team[:, L.TM_GOLD] + team[:, L.TM_BONUS]).all()
    gained, when, used = sk[..., L.SK_GAINED], sk[..., L.SK_ROUND], sk[..., L.SK_USED]
    assert np.isin(gained, [0, 1]).all()
    assert ((when >= 1) & (when < rounds[:, None]))[gained == 1].all() and (when[gained == 0] == 0).all()
    assert (used[gained == 0] == 0).all()
    assert (used[:, E.SKILL_FREE_PLAY] <= rounds - when[:, E.SKILL_FREE_PLAY]).all()
    assert (used[:, E.SKILL_BONUS_GOLD] <= rounds - when[:, E.SKILL_BONUS_GOLD]).all()
    assert (o["draws"] > 0).all()
    assert (o["seat_strategy"] == np.stack([np.arange(GAMES) % 2, 1 - np.arange(GAMES) % 2], axis=1)).all()


# --- skeleton tokens, event by event ---------------------------------------------------------------------------

class Tokens:
    """The skeleton tokens of one traced game, followed through its events on the tower layout the final state
    array holds (slots, floors, printed skeletons)."""

    def __init__(self, s: np.ndarray):
        sc = s[L.SC:L.SC + L.N_SC]
        self.n_slots = int(sc[L.SC_N_SLOTS])
        self.slot_pos = [int(s[L.SLOT_POS + i]) for i in range(self.n_slots)]
        self.slot_floor = [int(s[L.SLOT_FLOOR + i]) for i in range(self.n_slots)]
        self.printed = []
        for slot in range(self.n_slots):
            pos = self.slot_pos[slot]
            row = int(s[L.POS_TC + pos])
            k = slot - int(s[L.POS_SLOT0 + pos])
            self.printed.append([int(s[L.TC + row * L.N_TF + L.TF_FLOORS + 3 * k + 1 + side]) for side in (0, 1)])
        self.standing = [[0, 0] for _ in range(self.n_slots)]
        self.fallen = [[0, 0] for _ in range(self.n_slots)]
        self.missing = [list(x) for x in self.printed]         # no token yet on any skeleton drawn
        self.gold = 0
        self.supply = TOKENS
        self.by_floor = {}
        for i, floor in enumerate(self.slot_floor):
            self.by_floor.setdefault(floor, []).append(i)

    def floor_slots(self, floor):
        return self.by_floor[floor]

    def on_tower(self) -> int:
        return sum(a + b for a, b in self.standing) + sum(a + b for a, b in self.fallen)

    def conserved(self) -> bool:
        return self.on_tower() + self.gold + self.supply == TOKENS and min(self.supply, self.gold) >= 0


def follow_tokens(events: np.ndarray, s: np.ndarray, cost: dict | None) -> None:
    """Follow the tokens through one game's events, asserting each event's numbers, the conservation at each
    round's end and that a build spends only the gold of its own round."""
    t = Tokens(s)
    phase = "set-up"                 # set-up, play (from a round event), build (from its first gold), next
    for kind, p, a, b, c in (tuple(int(x) for x in row) for row in events):
        if kind in (E.EV_SKILL, E.EV_RETURN, E.EV_PLACE, E.EV_ROUND) and phase in ("play", "build"):
            t.supply += t.gold           # the next-round phase: unspent gold is lost, never carried
            t.gold = 0
            phase = "next"
        if kind == E.EV_ROUND:
            assert t.conserved() and not any(map(any, t.fallen)), "tokens lost or fallen at a round's end"
            assert c == 0 and t.gold == 0
            phase = "play"
            if cost is not None:
                cost["rounds"] += 1
        elif kind in (E.EV_GOLD, E.EV_BONUS, E.EV_BUY, E.EV_REMOVE):
            phase = "build"
        if kind == E.EV_PLACE:          # a card's tokens, or a top-up: onto the skeletons without one
            placed = 0
            for slot in range(t.n_slots):
                if t.slot_pos[slot] == a:
                    for side in (0, 1):
                        n = min(t.missing[slot][side], t.supply)
                        t.standing[slot][side] += n
                        t.missing[slot][side] -= n
                        t.supply -= n
                        placed += n
            assert placed == b
            assert c == sum(sum(t.missing[i]) for i in range(t.n_slots) if t.slot_pos[i] == a)
        elif kind == E.EV_SWORD:
            slot = next(i for i in t.floor_slots(a) if t.standing[i][b] > 0)
            t.standing[slot][b] -= 1
            t.fallen[slot][b] += 1
            assert sum(t.standing[i][b] for i in t.floor_slots(a)) == c
        elif kind == E.EV_SPARE:
            assert c > 0 and sum(t.standing[i][b] for i in t.floor_slots(a)) == c
        elif kind == E.EV_GOLD:
            slots = t.floor_slots(a)
            fell = sum(t.fallen[i][b] for i in slots)
            assert fell > 0
            if sum(t.standing[i][b] + t.missing[i][b] for i in slots) == 0:
                assert c == fell
                t.gold += fell
            else:
                assert c == 0
                for i in slots:
                    t.standing[i][b] += t.fallen[i][b]
            for i in slots:
                t.fallen[i][b] = 0
        elif kind == E.EV_BONUS:
            assert a <= t.supply
            t.supply -= a
            t.gold += a
        elif kind in (E.EV_BUY, E.EV_REMOVE):
            price = 2 if kind == E.EV_BUY and a == 3 else 1
            assert t.gold >= price, "a build spent gold its round did not earn"
            t.gold -= price
            t.supply += price
        elif kind == E.EV_SKILL:            # every skeleton drawn on the card defeated
            assert sum(sum(t.standing[i]) + sum(t.missing[i]) for i in range(t.n_slots) if t.slot_pos[i] == a) == 0
        elif kind == E.EV_RETURN:
            back = 0
            for slot in range(t.n_slots):
                if t.slot_pos[slot] == a:
                    back += sum(t.standing[slot])
                    t.missing[slot] = [m + n for m, n in zip(t.missing[slot], t.standing[slot])]
                    t.standing[slot] = [0, 0]
            assert back == b
            t.supply += back
        elif kind == E.EV_END:
            break
        assert t.conserved()
    # The end: the events' tokens are where the final state array has them.
    for slot in range(t.n_slots):
        for side in (0, 1):
            assert t.standing[slot][side] == s[L.STANDING + 2 * slot + side], (slot, side)
            assert t.fallen[slot][side] == s[L.HIT + 2 * slot + side], (slot, side)
            assert t.missing[slot][side] == s[L.MISSING + 2 * slot + side], (slot, side)
    for floor in range(s[L.SC + L.SC_N_FLOORS]):     # the kept per-floor sums agree with the slots
        for side in (0, 1):
            slots = range(s[L.FLOOR_LO + floor], s[L.FLOOR_HI + floor] + 1)
            assert s[L.ON_FLOOR + 2 * floor + side] == sum(s[L.STANDING + 2 * k + side] for k in slots)
    assert t.gold == s[L.SC + L.SC_GOLD]
    assert t.supply == s[L.SC + L.SC_SUPPLY_TOKENS]
    assert t.on_tower() + t.gold + t.supply == TOKENS


def follow_cards(events: np.ndarray) -> None:
    """Follow one game's cards through its ``shuffle`` rows (what an auditor checks a trace with): the supply piles
    in their set-up order, each round's deck in its shuffled order, top first."""
    piles = {E.STACK_PILE2: [], E.STACK_PILE2B: [], E.STACK_PILE3: []}
    deck = None                     # the common deck's cards (known from the first shuffle)
    order, top, size = [], 0, -1
    for kind, p, a, b, c in (tuple(int(x) for x in row) for row in events):
        if kind == E.EV_SHUFFLE and a == E.STACK_DECK:
            order = order if b else []
            assert b == len(order)
            order.append(c)
            top = 0
        elif kind == E.EV_SHUFFLE:
            assert deck is None and b == len(piles[a]), "a supply pile is listed at set-up only, top first"
            piles[a].append(c)
        elif kind == E.EV_ROUND:
            size = b
        elif kind == E.EV_DEAL:
            if top == 0:                # the round's first deal: the shuffle just listed is the whole deck
                assert len(order) == size and len(set(order)) == size
                assert deck is None or set(order) == deck
                deck = set(order)
            assert a == order[top], "a deal is not the shuffled deck's next card"
            top += 1
        elif kind == E.EV_REDRAW:
            assert b == order[top], "a redraw is not the draw pile's next card"
            top += 1
        elif kind == E.EV_BUY:
            assert (a == 3) == (c == E.STACK_PILE3) and piles[c] and piles[c].pop(0) == b, \
                "a buy is not the top card of the pile it names"
            deck.add(b)
        elif kind == E.EV_REMOVE:
            deck.remove(a)


def final_places(sc, s: np.ndarray) -> None:
    """Every card in exactly one place in the final state: the deck, a supply pile (still to come), or out of the
    game (removed, as the counters say)."""
    n = len(sc.components.cards)
    loc = s[L.LOC:L.LOC + n]
    assert np.isin(loc, [E.LOC_OUT, E.LOC_DECK, E.LOC_PILE2, E.LOC_PILE2B, E.LOC_PILE3]).all()
    assert (loc == E.LOC_DECK).sum() == s[L.SC + L.SC_DECK_N]
    removed = s[L.CCNT + L.CC_REMOVED:L.CCNT + n * L.N_CC:L.N_CC]
    assert ((loc == E.LOC_OUT) == (removed == 1)).all()
    for k, where in enumerate((E.LOC_PILE2, E.LOC_PILE2B, E.LOC_PILE3)):
        left = [int(s[L.PILES + k * L.MAX_CARDS + i]) for i in range(int(s[L.SC + L.SC_PILE_I + k]),
                                                                       int(s[L.SC + L.SC_PILE_N + k]))]
        assert sorted(left) == sorted(np.flatnonzero(loc == where).tolist())


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_skeleton_tokens_are_conserved_and_gold_is_never_carried(name):
    sc = SCENARIOS[name]()
    compiled = compile_scenario(sc)
    cost = {"rounds": 0}
    for game in range(TRACED):
        events, s = K.trace_game(compiled, sc.seed, game)
        follow_tokens(events, s, cost)
        follow_cards(events)
        final_places(sc, s)
    assert cost["rounds"] > TRACED * 5


def test_the_card_check_can_fail():
    """A buy whose row names the wrong pile, or a deal out of the shuffled order, is caught."""
    sc = random_scenario()                      # Easy supply: two Level 2 piles
    compiled = compile_scenario(sc)
    for game in range(50):
        events, _ = K.trace_game(compiled, sc.seed, game)
        follow_cards(events)
        buys = [i for i, r in enumerate(events) if r[0] == E.EV_BUY and r[2] == 2]
        if buys:
            bad = events.copy()
            bad[buys[0], 4] = 1 - bad[buys[0], 4]
            with pytest.raises(AssertionError, match="pile it names"):
                follow_cards(bad)
            deal = next(i for i, r in enumerate(events) if r[0] == E.EV_DEAL)
            bad = events.copy()
            bad[[deal, deal + 1]] = bad[[deal + 1, deal]]
            with pytest.raises(AssertionError, match="next card"):
                follow_cards(bad)
            return
    pytest.fail("no Level 2 buy in 50 games")


def test_the_token_check_can_fail():
    """A game whose events lose a gold token is caught."""
    sc = default_scenario()
    compiled = compile_scenario(sc)
    for game in range(50):
        events, s = K.trace_game(compiled, sc.seed, game)
        gold = [i for i, r in enumerate(events) if r[0] == E.EV_GOLD and r[4] > 0]
        if gold:
            bad = events.copy()
            bad[gold[0], 4] += 1
            with pytest.raises(AssertionError):
                follow_tokens(bad, s, None)
            return
    pytest.fail("no gold in 50 games")
