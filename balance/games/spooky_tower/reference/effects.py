"""Description of Effects, in the reference engine: each effect applied, and what it reveals resolved at once,
depth first (recursion); an immediate win is the exception ``GameOver``."""
from __future__ import annotations

from .. import enums
from .. import strategies
from .state import Player, Revealed

TAKE_EFFECTS = (enums.FX_TAKE_8MINUS, enums.FX_TAKE_ANY)
FLIP_EFFECTS = (enums.FX_FLIP_8MINUS, enums.FX_FLIP_9PLUS)


class Effects:
    """The effects of a :class:`~.engine.Table` (a part of ``Table``)."""

    def priority(self, effect: int) -> int:
        """Resolution rank of an effect among those revealed together (lower first)."""
        if self.rules.effect_order == "takes_first":
            if effect in TAKE_EFFECTS:
                return 0
            if effect in FLIP_EFFECTS:
                return 2
        return 1

    def resolve_all(self, revealed: list[Revealed]) -> None:
        """Resolve effects revealed together: by the rule option's priority, then as printed, cards in order."""
        for effect in sorted(revealed, key=lambda r: self.priority(r.effect)):
            self.resolve(effect)

    def resolve(self, r: Revealed) -> None:
        """Apply one effect, check for the win, then resolve at once whatever it revealed (depth first)."""
        me = self.players[self.active]
        self.emit(enums.EV_EFFECT, me.seat, r.effect, r.source, r.source_id)
        revealed = self.apply_effect(me, r)
        self.check_win(me)
        self.resolve_all(revealed)

    def apply_effect(self, me: Player, r: Revealed) -> list[Revealed]:
        """One effect of the Description of Effects; returns the effects it reveals (a dial step, a Grimoire card,
        a taken card's bonus, flipped Photos). An effect that cannot be applied is lost."""
        fx, seat = r.effect, me.seat
        if fx == enums.FX_GHOST:
            worth = self.ghost_worth(r)
            me.ghosts += worth
            if r.source == enums.SRC_PHOTO:
                self.counters[seat, self.book.value[r.source_id], enums.CNT_GHOSTS] += worth
            self.emit(enums.EV_GHOST, seat, worth)
        elif fx == enums.FX_CLUE:
            me.clues += 1
            self.clues_gained += 1
            self.emit(enums.EV_CLUE, seat, me.clues)
        elif fx == enums.FX_CLOCK:
            return [self.clock_step(me)]
        elif fx == enums.FX_GRIMOIRE:
            return self.reveal_grimoire(me)
        elif fx == enums.FX_PET:
            self.ghost_pet(me)
        elif fx == enums.FX_REROLL:
            me.token = True
            self.emit(enums.EV_TOKEN, seat)
        elif fx == enums.FX_FRAGMENT:
            if self.fragment_reserve > 0:
                self.fragment_reserve -= 1
                me.fragments += 1
                self.emit(enums.EV_FRAGMENT, seat, me.fragments)
            else:
                self.emit(enums.EV_LOST, seat, fx)
        elif fx in TAKE_EFFECTS:
            return self.take_effect(me, fx)
        elif fx in FLIP_EFFECTS:
            return self.flip_effect(me, fx)
        elif fx == enums.FX_EXTRA_TURN:
            self.extra_gained += 1
            self.emit(enums.EV_EXTRA, seat)
        return []

    def ghost_worth(self, r: Revealed) -> int:
        """Ghosts one ghost effect captures: a Photo's Building setting, the Grimoire setting, otherwise one."""
        if r.source == enums.SRC_PHOTO:
            return self.book.ghost_worth[self.book.value[r.source_id]]
        if r.source == enums.SRC_GRIMOIRE:
            return self.book.grimoire_ghost_worth
        return 1

    def clock_step(self, me: Player) -> Revealed:
        """Clock hand: one step clockwise; returns the effect the hand now shows (step N is midnight)."""
        step = self.clock + 1
        effect = self.book.dial[step - 1]
        self.clock = step % len(self.book.dial)
        self.emit(enums.EV_CLOCK, me.seat, self.clock, effect)
        return Revealed(effect, enums.SRC_DIAL, step)

    def reveal_grimoire(self, me: Player) -> list[Revealed]:
        """Grimoire: reveal the top card and apply its effects (lost when the deck is empty)."""
        if not self.grimoire:
            self.emit(enums.EV_LOST, me.seat, enums.FX_GRIMOIRE)
            return []
        g = self.grimoire.pop()
        self.emit(enums.EV_GRIMOIRE, me.seat, g, len(self.book.grimoire[g]))
        return [Revealed(fx, enums.SRC_GRIMOIRE, g) for fx in self.book.grimoire[g]]

    def ghost_pet(self, me: Player) -> None:
        """Ghost Pet: from the centre; if none is left, steal one from another player of your choice."""
        if self.pets_centre > 0:
            self.pets_centre -= 1
            me.pets += 1
            self.emit(enums.EV_PET, me.seat, -1)
            return
        holders = [q.seat for q in self.players if q.seat != me.seat and q.pets > 0]
        if not holders:
            self.emit(enums.EV_LOST, me.seat, enums.FX_PET)
            return
        victim = self.choose(strategies.choose_victim_nb, holders, candidates=holders)
        self.players[victim].pets -= 1
        me.pets += 1
        self.emit(enums.EV_PET, me.seat, victim)

    def take_effect(self, me: Player, fx: int) -> list[Revealed]:
        """Building value 8 or less / Any Building: take a card of a value you choose (its bonus follows)."""
        highest = 8 if fx == enums.FX_TAKE_8MINUS else 12
        values = [v for v in range(1, highest + 1) if self.town[v]]
        if not values:
            self.emit(enums.EV_LOST, me.seat, fx)
            return []
        v = self.choose(strategies.choose_target_nb, values, strategies.TARGET_TAKE, candidates=values)
        return self.take_building(me, v, by_effect=True)

    def flip_effect(self, me: Player, fx: int) -> list[Revealed]:
        """Flip Building value 8 or less / 9 or more: flip your most recent card of a value you choose (or all of
        them, under flip_scope "building")."""
        span = range(1, 9) if fx == enums.FX_FLIP_8MINUS else range(9, 13)
        values = [v for v in span if me.cards[v]]
        if not values:
            self.emit(enums.EV_LOST, me.seat, fx)
            return []
        v = self.choose(strategies.choose_target_nb, values, strategies.TARGET_FLIP, candidates=values)
        n_flip = len(me.cards[v]) if self.rules.flip_scope == "building" else 1
        return self.flip_building(me, v, n_flip, by_effect=True)
