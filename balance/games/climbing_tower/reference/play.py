"""The Climbing Tower reference engine, the play phase (rulebook, Play phase): the deal, the legal actions, redraw,
exchange, playing a card and its icons (swords against skeletons or the BOSS, arrows up the tower), passing, a blocked
round, and the end of the phase (gold, groups that stand again, the empty-hand bonus). A part of ``engine.Table`` (a
mixin)."""
from __future__ import annotations

from ....core.rng import py_shuffled
from .. import enums
from .pieces import SIDES, Player


class PlayPhase:
    """Phase 1 of a round, for ``engine.Table``."""

    # --- 1. Play phase ---------------------------------------------------------------------------------------------

    def play_phase(self, start: int) -> bool:
        """Deal, then turns alternate from the start player until both hands are empty or a player holding cards
        cannot act. True when the BOSS falls."""
        for pl in self.players:
            pl.redraws_used, pl.offered, pl.face_down = 0, False, None
        self.top, self.free_play_used, self.blocked = None, False, None
        self.played, self.discard = [], []
        self.deal(start)
        seat = start
        while any(pl.hand for pl in self.players):
            me = self.players[seat]
            rows = self.legal_actions(me)
            if not rows:
                if me.hand:
                    self.block(me)
                    return False
                self.pass_turn(me)
            else:
                i = self.strategies[seat].turn(self.view(seat), rows, self.cards)
                if not 0 <= i < len(rows):
                    i = 0
                act, card = rows[i]
                if self.take_action(me, act, card):
                    self.take_snapshot()
                    return True
            self.take_snapshot()
            seat = 1 - seat
        return False

    def deal(self, start: int) -> None:
        """Shuffle the common deck (ascending ids, then the shuffle stream; or the deal script; a ``shuffle`` row
        per card, top first), ``hand_size`` cards to the start player, as many to the other; the rest is the draw
        pile."""
        ascending = sorted(self.deck)
        if self.deal_script:
            order = [self.deal_script.pop(0) if self.deal_script else c for c in ascending]
        else:
            order = py_shuffled(ascending, self.shuffle_stream)
        for i, c in enumerate(order):
            self.emit(enums.EV_SHUFFLE, -1, enums.STACK_DECK, i, c)
        dealt = 0
        for seat in (start, 1 - start):
            pl = self.players[seat]
            pl.hand = order[dealt:dealt + min(self.rules.hand_size, len(order) - dealt)]
            dealt += len(pl.hand)
            for c in pl.hand:
                self.card_count[c]["dealt"] += 1
                self.emit(enums.EV_DEAL, seat, c)
        self.draw_pile = order[dealt:]

    def legal_actions(self, me: Player) -> list[tuple[int, int]]:
        """(action, card) rows: plays in hand order (a free play for a card that matches nothing, with the
        free_play skill unused this round), then redraws, then offers."""
        rows = []
        free = enums.SKILL_FREE_PLAY in self.skills and not self.free_play_used
        for c in me.hand:
            if self.top is None or self.cards[c].follows(self.cards[self.top]):
                rows.append((enums.ACT_PLAY, c))
            elif free:
                rows.append((enums.ACT_FREE, c))
        redraws = self.rules.redraws + (enums.SKILL_EXTRA_REDRAW in self.skills)
        if me.redraws_used < redraws and self.draw_pile:
            rows += [(enums.ACT_REDRAW, c) for c in me.hand]
        if not me.offered:
            rows += [(enums.ACT_OFFER, c) for c in me.hand]
        return rows

    def take_action(self, me: Player, act: int, card: int) -> bool:
        """One turn's action; True when it defeats the BOSS."""
        self.turn += 1
        if act == enums.ACT_REDRAW:
            self.redraw(me, card)
        elif act == enums.ACT_OFFER:
            self.offer(me, card)
        else:
            return self.play_card(me, card, free=act == enums.ACT_FREE)
        return False

    def redraw(self, me: Player, card: int) -> None:
        """A. Discard a card face up, draw the draw pile's top card."""
        me.hand.remove(card)
        self.discard.append(card)
        drawn = self.draw_pile.pop(0)
        me.hand.append(drawn)
        me.redraws_used += 1
        if me.redraws_used > self.rules.redraws:
            self.skill_count[enums.SKILL_EXTRA_REDRAW]["used"] += 1
        me.count["redraws"] += 1
        self.emit(enums.EV_REDRAW, me.seat, card, drawn)

    def offer(self, me: Player, card: int) -> None:
        """B. A card face down; once both players have one down, each takes the other's."""
        me.hand.remove(card)
        me.face_down = card
        me.offered = True
        me.count["offers"] += 1
        self.emit(enums.EV_OFFER, me.seat, card)
        partner = self.players[1 - me.seat]
        if partner.face_down is not None:
            me.hand.append(partner.face_down)
            partner.hand.append(card)
            gets = {me.seat: partner.face_down, partner.seat: card}
            me.face_down = partner.face_down = None
            self.emit(enums.EV_EXCHANGE, -1, gets[0], gets[1])

    def play_card(self, me: Player, card: int, free: bool) -> bool:
        """C. Play a card onto the play area and resolve its icons, swords then arrows (or arrows first by
        ``icon_order``); True when the BOSS falls (any icons left are not resolved)."""
        me.hand.remove(card)
        self.played.append(card)
        self.emit(enums.EV_PLAY, me.seat, card, -1 if self.top is None else self.top, int(free))
        self.top = card
        if free:
            self.free_play_used = True
            self.skill_count[enums.SKILL_FREE_PLAY]["used"] += 1
        self.card_count[card]["played"] += 1
        me.count["cards_played"] += 1
        arrows_first = self.rules.icon_order == "arrows_first"
        if arrows_first:
            self.climb(me, self.cards[card].arrows)
        for _ in range(self.cards[card].swords):
            if self.sword(me):
                return True
        if not arrows_first:
            self.climb(me, self.cards[card].arrows)
        return False

    def sword(self, me: Player) -> bool:
        """One sword: on the BOSS floor a hit on the BOSS (with both pawns there, when its side needs it); elsewhere
        it "can defeat" a skeleton standing on the player's floor and own side: the player's strategy defeats it
        (the lowest printed floor's first) or spares it. True when the BOSS falls."""
        me.count["swords"] += 1
        if me.floor == self.boss_floor:
            if self.boss.both_pawns and self.players[1 - me.seat].floor != me.floor:
                return False
            self.boss.damage += 1
            me.count["boss_hits"] += 1
            self.emit(enums.EV_BOSS_HIT, me.seat, self.boss.damage, self.boss.hp)
            return self.boss.damage >= self.boss.hp
        floor = self.floors[me.floor]
        left = floor.standing(me.side)
        if left and self.strategies[me.seat].sword(self.view(me.seat)) == enums.SWORD_SPARE:
            self.emit(enums.EV_SPARE, me.seat, floor.number, me.side, left)
            return False
        for slot in floor.slots:
            if slot.standing[me.side] > 0:
                slot.standing[me.side] -= 1
                slot.fallen[me.side] += 1
                me.count["skeletons"] += 1
                self.emit(enums.EV_SWORD, me.seat, floor.number, me.side, floor.standing(me.side))
                return False
        return False

    def climb(self, me: Player, arrows: int) -> None:
        """Up arrows: exactly that many floors, stopping on the BOSS floor at most."""
        to = min(me.floor + arrows, self.boss_floor)
        if to != me.floor:
            me.count["climbed"] += to - me.floor
            self.emit(enums.EV_CLIMB, me.seat, me.floor, to)
            me.floor = to

    def pass_turn(self, me: Player) -> None:
        """An empty hand that can do nothing passes."""
        self.turn += 1
        me.count["passes"] += 1
        self.emit(enums.EV_PASS, me.seat)

    def block(self, me: Player) -> None:
        """A player holding cards with no legal action ends the round at once."""
        self.blocked = me.seat
        me.count["blocked"] += 1
        self.team["blocked_rounds"] += 1
        self.emit(enums.EV_BLOCKED, me.seat, len(me.hand))

    def end_play_phase(self) -> None:
        """Each side of a floor where skeletons fell pays a gold a skeleton when every skeleton drawn there has
        fallen (none stands, none lacks its token); otherwise the fallen stand again where they fell, for nothing.
        Then the empty-hand bonus (from the token supply) when both hands are empty, nothing is face down and the
        round was not blocked."""
        for floor in self.floors:
            for side in SIDES:
                fallen = floor.fallen(side)
                if fallen == 0:
                    continue
                if floor.standing(side) + floor.missing(side) == 0:
                    self.gold += fallen
                    self.team["gold"] += fallen
                    self.emit(enums.EV_GOLD, -1, floor.number, side, fallen)
                else:
                    for slot in floor.slots:
                        slot.standing[side] += slot.fallen[side]
                    self.emit(enums.EV_GOLD, -1, floor.number, side, 0)
                for slot in floor.slots:
                    slot.fallen[side] = 0
        if self.blocked is None and self.deck and all(not pl.hand and pl.face_down is None for pl in self.players):
            bonus = min(self.rules.empty_hand_bonus, self.supply_tokens)
            self.supply_tokens -= bonus
            self.gold += bonus
            self.team["bonus_gold"] += bonus
            self.emit(enums.EV_BONUS, -1, bonus, 0)

    def gather_cards(self) -> None:
        """Every card of the round goes back into the common deck (which never stopped holding them)."""
        for pl in self.players:
            pl.hand, pl.face_down = [], None
        self.draw_pile, self.played, self.discard = [], [], []
