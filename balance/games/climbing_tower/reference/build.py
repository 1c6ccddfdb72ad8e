"""The Climbing Tower reference engine, between the play phases: the build phase (R, Y, U with the round's gold) and
the next-round phase (gold lost, the BOSS's hits reset, skills for cleared cards, tokens of cards left behind,
skeletons onto the cards the pawns have reached). A part of ``reference.Table`` (a mixin)."""
from __future__ import annotations

from .. import enums
from .pieces import SIDES, Place, Player


class BuildAndNextRound:
    """Phases 2 and 3 of a round, for ``reference.Table``."""

    # --- 2. Build phase --------------------------------------------------------------------------------------------

    def build_phase(self, builder: int) -> None:
        """The bonus_gold skill's gold, then the round's start player spends gold on R, Y and U until it stops or
        nothing is affordable."""
        if enums.SKILL_BONUS_GOLD in self.skills:
            g = min(self.rules.skill_gold, self.supply_tokens)
            self.supply_tokens -= g
            self.gold += g
            self.team["bonus_gold"] += g
            self.skill_count[enums.SKILL_BONUS_GOLD]["used"] += 1
            self.emit(enums.EV_BONUS, -1, g, 1)
        while True:
            rows = self.build_options()
            if len(rows) == 1:
                return
            i = self.strategies[builder].build(self.view(builder), rows, self.cards)
            if i <= 0 or i >= len(rows):
                return
            self.build(builder, *rows[i])

    def build_options(self) -> list[tuple[int, int]]:
        """Stop; R from each Level 2 pile with cards (1 gold); Y (2 gold); U of each card of the deck, ascending ids
        (1 gold, while the deck holds more than ``min_deck``)."""
        rows = [(enums.BUILD_STOP, -1)]
        for k in (0, 1):
            if self.gold >= 1 and self.piles[k]:
                rows.append((enums.BUILD_R, k))
        if self.gold >= 2 and self.piles[2]:
            rows.append((enums.BUILD_Y, 2))
        if self.gold >= 1 and len(self.deck) > self.rules.min_deck:
            rows += [(enums.BUILD_U, c) for c in sorted(self.deck)]
        return rows

    def build(self, builder: int, act: int, arg: int) -> None:
        if act == enums.BUILD_U:
            self.deck.remove(arg)
            self.card_count[arg]["removed"] += 1
            self.team["removed"] += 1
            self.pay(1)
            self.emit(enums.EV_REMOVE, builder, arg)
            return
        card = self.piles[arg].pop(0)
        self.deck.add(card)
        self.card_count[card]["bought"] += 1
        self.team["bought"] += 1
        self.pay(1 if act == enums.BUILD_R else 2)
        self.emit(enums.EV_BUY, builder, self.cards[card].level, card, arg)

    def pay(self, gold: int) -> None:
        """Spent gold goes back to the token supply."""
        self.gold -= gold
        self.supply_tokens += gold

    # --- 3. Next-round phase ---------------------------------------------------------------------------------------

    def next_round(self) -> None:
        """Unspent gold lost; the BOSS's hits reset when they must come in one round; a tower card every skeleton
        drawn on which was defeated, once both pawns moved on from it, flips and gives its skill (once per skill); a
        card both pawns left with skeletons undefeated gives nothing, its tokens back to the supply
        (``left_behind``); then tokens onto the skeletons of cards in play that lack one (``top_up``), lowest card
        first; then skeletons onto every card a pawn now stands on that has none yet, lowest first."""
        self.supply_tokens += self.gold
        self.gold = 0
        if self.boss.same_round:
            self.boss.damage = 0
        for place in self.places[:-1]:
            if place.flipped or not place.placed:
                continue
            standing = place.standing()
            if standing + place.missing() == 0 and all(self.moved_on(pl, place) for pl in self.players):
                place.flipped = 1
                if place.skill in self.skills:
                    self.emit(enums.EV_SKILL, -1, place.position, -1)
                else:
                    self.skills.add(place.skill)
                    self.skill_count[place.skill]["gained"] = 1
                    self.skill_count[place.skill]["round_gained"] = self.round
                    self.emit(enums.EV_SKILL, -1, place.position, place.skill)
            elif all(self.left_behind(pl, place) for pl in self.players):
                place.flipped = 2
                if self.rules.left_behind == "return":
                    for slot in place.slots:
                        for side in SIDES:
                            self.supply_tokens += slot.standing[side]
                            slot.missing[side] += slot.standing[side]
                            slot.standing[side] = 0
                    self.emit(enums.EV_RETURN, -1, place.position, standing)
        if self.rules.top_up == "next_round":
            for place in self.places:
                if place.placed and not place.flipped:
                    self.top_up(place)
        for place in self.places:
            if not place.placed and any(self.stands_on(pl, place) for pl in self.players):
                self.place_skeletons(place)

    def moved_on(self, pl: Player, place: Place) -> bool:
        """The pawn's floor reaches a card above this one."""
        return self.floors[pl.floor].highest_place > place.position

    def left_behind(self, pl: Player, place: Place) -> bool:
        """No slot of the pawn's floor is on this card or below."""
        return self.floors[pl.floor].lowest_place > place.position

    def stands_on(self, pl: Player, place: Place) -> bool:
        floor = self.floors[pl.floor]
        return floor.lowest_place <= place.position <= floor.highest_place
