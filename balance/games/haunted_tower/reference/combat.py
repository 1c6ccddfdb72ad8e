"""The Haunted Tower reference engine, combat: Initiative, Attacking, Running Away, Damage, Dying, the monsters'
special abilities and the Specter of Sir Jameson, as plain Python.

:class:`Combat` is a part of ``reference.Table`` (a mixin): it uses the table's dice, events, decisions and pieces.
The rules are those of ``docs/rules/haunted_tower.md`` (section 2, Combat) and the rulebook's Monster Listing; the
events those of ``docs/trace.md``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import enums
from .. import layout
from .. import strategies
from ..components import Item, Monster

DRAIN_DAMAGE = {"energy_drain": 1, "double_energy_drain": 2}
SLOWED_PENALTY = 2           # carrion crawler: -2 on the next attack roll
ROBBER_FLY_REACH = 10
FREE_CLIMBING = 2            # board.dist[2]: climbing allowed


class GameEnds(Exception):
    """The game ends at once: the Specter is killed, every hero is out, the turn cap, or an illegal answer."""

    def __init__(self, victory: int):
        super().__init__(enums.VICTORY_NAMES[victory])
        self.victory = victory


@dataclass
class Fight:
    """The monster being fought: at full hit points when the fight begins (the Specter every time)."""

    chit: object                 # reference.Chit
    monster: Monster
    hp: int
    drained: bool = False        # it already gave a "-1" chit in this encounter
    slowed: bool = False         # the hero's next attack roll is at -2 (carrion crawler)
    over: bool = False
    hurt: bool = False           # an attack of this combat round could hurt its target


class Combat:
    """Combat rules for ``reference.Table``."""

    def fight(self, h, ch) -> None:
        """The monster and the hero take turns, initiative rolled every round, until one dies or the hero runs
        away (or the robber fly goes away). A fight in which neither side can hurt the other may never end: after
        100 combat rounds in a row in which no attack could hurt its target, the game ends there, unfinished (the
        fight cap, a simulation limit like the turn cap)."""
        m = self.monsters[ch.index]
        f = Fight(ch, m, m.hp)
        self.battle = f
        ch.loc = enums.LOC_FIGHT
        h.hit_specter_now = False
        self.emit(enums.EV_FIGHT, h.seat, ch.id, ch.index)
        self.mcnt[h.seat, ch.index, layout.MC_ENCOUNTERS] += 1
        try:
            quiet = 0                            # rounds in a row in which nobody could be hurt
            while not f.over:
                if quiet == layout.FIGHT_CAP_ROUNDS:
                    self.emit(enums.EV_CAP, -1, self.turn_no, 1)
                    h.fight_cap = 1
                    raise GameEnds(enums.WIN_NONE)
                f.hurt = False
                self.combat_round(h, f)
                quiet = 0 if f.hurt else quiet + 1
        finally:
            self.battle = None
            if ch.loc == enums.LOC_FIGHT:        # the Specter stays where it was, face up
                ch.loc = enums.LOC_BOARD

    def combat_round(self, h, f: Fight) -> None:
        """The side with the initiative acts, then the other. A failed escape is followed at once by the monster's
        attack; when the monster acts second, that is its attack of the round."""
        if self.initiative(h, f):
            self.hero_acts(h, f)
            if not f.over:
                self.monster_attacks(h, f)
            return
        self.monster_attacks(h, f)
        if f.over:
            return
        if self.hero_acts(h, f) and not f.over:
            self.monster_attacks(h, f)

    # --- Initiative ------------------------------------------------------------------------------------------------

    def initiative(self, h, f: Fight) -> bool:
        """Hero and monster roll 1d6 (plus bonuses: the pit viper's +1); the higher attacks first. Zombies always
        lose the initiative, no die rolled. A tie: `initiative_ties` (roll again, or the hero or the monster)."""
        if f.monster.initiative == "always_loses":
            self.emit(enums.EV_INITIATIVE, h.seat, -1, -1, 1)
            return True
        while True:
            hero = self.die(6) + h.ability(enums.AB_INITIATIVE_BONUS)
            monster = self.die(6) + f.monster.initiative_bonus
            if hero != monster:
                self.emit(enums.EV_INITIATIVE, h.seat, hero, monster, int(hero > monster))
                return hero > monster
            if self.rules.initiative_ties == "hero":
                self.emit(enums.EV_INITIATIVE, h.seat, hero, monster, 1)
                return True
            if self.rules.initiative_ties == "monster":
                self.emit(enums.EV_INITIATIVE, h.seat, hero, monster, 0)
                return False
            self.emit(enums.EV_INITIATIVE, h.seat, hero, monster, -1)

    # --- the hero's action -----------------------------------------------------------------------------------------

    def combat_options(self, h) -> list[tuple[int, int]]:
        """Run away, attack with its own weapon, attack with each attack item it carries, drink each potion."""
        opts = [(enums.CO_RUN, -1), (enums.CO_ATTACK, -1)]
        for c in h.items:
            item = self.item_of(c)
            if item.attack:
                opts.append((enums.CO_ATTACK, c))
            elif item.heal > 0:
                opts.append((enums.CO_POTION, c))
        return opts

    def hero_acts(self, h, f: Fight) -> bool:
        """The hero's action of the round (the strategy's choice). Returns True for a failed escape."""
        opts = self.combat_options(h)
        i = int(self.decide(strategies.combat_nb, h.seat, h.seat, f.chit.id, opts=opts))
        if not 0 <= i < len(opts):
            self.illegal(h.seat, enums.DEC_COMBAT, i)
        kind, c = opts[i]
        if kind == enums.CO_RUN:
            return not self.run_away(h, f)
        if kind == enums.CO_ATTACK:
            self.attack(h, f, c)
        else:
            self.drink(h, c)
        return False

    def run_away(self, h, f: Fight) -> bool:
        """1d10 (plus a run bonus) of at least the monster's attack number escapes: the monster and its chit leave
        the game, except the Specter, which stays while the hero backs up two squares the way it came."""
        roll = self.die(10) + h.ability(enums.AB_RUN_BONUS)
        escaped = roll >= f.monster.attack
        self.emit(enums.EV_RUN, h.seat, roll, int(escaped))
        if not escaped:
            return False
        f.over = True
        h.runs += 1
        self.mcnt[h.seat, f.chit.index, layout.MC_RUNS] += 1
        if f.monster.stays:
            self.back_up(h)
        else:
            self.monster_leaves(h, f.chit)
        return True

    def back_up(self, h) -> None:
        """The Specter: back up two squares along this turn's path (fewer if it is shorter or they are taken; none
        when it did not move or both are taken). The `back` event names the square the hero ends on either way."""
        path = self.path
        k = min(2, len(path) - 1)
        while k > 0 and not self.free(path[-1 - k]):
            k -= 1
        self.move_hero(h, path[-1 - k])
        self.emit(enums.EV_BACK, h.seat, h.square)

    # --- Attacking ---------------------------------------------------------------------------------------------------

    def bonus_counts(self, item: Item | None, m: Monster) -> bool:
        """An item's bonuses count, except a metal item's against the rust monster."""
        return item is not None and not (m.ignores_metal and item.metal)

    def may_harm(self, h, item: Item | None, m: Monster) -> bool:
        """"Can only be damaged by ...": magic (a magic hero, a wand), magical weapons, silver, holy water; the
        stake harms the vampire whatever its immunity."""
        if not m.damaged_only_by:
            return True
        if item is not None and item.bane == m.name:
            return True
        kinds = set()
        if h.has_magic or (item is not None and item.magic):
            kinds.add("magic")
        if item is not None:
            if item.slot == "weapon" and item.magical:
                kinds.add("magical_weapon")
            if item.silver:
                kinds.add("silver")
            if item.holy:
                kinds.add("holy_water")
        return bool(kinds & set(m.damaged_only_by))

    def attack(self, h, f: Fight, c: int) -> None:
        """1d6 + attack number (less the "-1" chits) + the weapon's bonus (+ the undead bonus, - 2 when slowed) of
        at least the monster's armour class hits; damage 1 + bonuses. A limited item loses a use."""
        m = f.monster
        item = self.item_of(c) if c >= 0 else None
        counts = self.bonus_counts(item, m)
        roll = self.die(6)
        total = roll + h.attack + (item.attack_bonus if counts else 0)
        if m.undead:
            total += h.ability(enums.AB_UNDEAD_BONUS)
        if f.slowed:
            total -= SLOWED_PENALTY
            f.slowed = False
        if total - roll + 6 >= m.ac and self.may_harm(h, item, m):
            f.hurt = True                   # a 6 would have hurt it
        hit = total >= m.ac
        self.emit(enums.EV_WEAPON, h.seat, c)
        self.emit(enums.EV_ATTACK, h.seat, roll, total, int(hit))
        if hit:
            if self.may_harm(h, item, m):
                self.damage_monster(h, f, item, counts)
            else:
                self.emit(enums.EV_IMMUNE, h.seat, f.chit.id)
        if c >= 0:
            self.use_once(h, c)
        if h.specter_kill:
            raise GameEnds(enums.WIN_SPECTER)

    def damage_monster(self, h, f: Fight, item: Item | None, counts: bool) -> None:
        m = f.monster
        bane = item is not None and item.bane == m.name
        damage = 1 + (item.damage_bonus if counts else 0) + h.ability(enums.AB_DAMAGE_BONUS)
        if bane:
            damage += item.bane_damage
        f.hp -= damage
        h.damage_dealt += damage
        self.emit(enums.EV_DAMAGE, h.seat, damage, f.hp)
        if f.chit is self.specter and not h.hit_specter_now:
            h.hit_specter_now = True
            h.specter_hits = 1 if self.rules.specter_damage_once else h.specter_hits + 1
        if f.hp <= 0:
            self.kill(h, f, bane)

    def kill(self, h, f: Fight, bane: bool) -> None:
        """Dying: the hero keeps the monster's chit and stand-up; the stake's kill of the vampire scores more;
        killing the Specter ends the game."""
        ch = f.chit
        f.over = True
        self.emit(enums.EV_KILL, h.seat, ch.id, ch.index)
        self.lift_chit(ch, enums.LOC_KEPT, h.seat)
        h.kept.append(ch.id)
        h.standups += 1
        h.kills += 1
        self.mcnt[h.seat, ch.index, layout.MC_KILLS] += 1
        if bane:
            h.bane_kills += 1
        if ch is self.specter:
            h.specter_kill = 1
            self.specter_killer = h.seat

    # --- the monster's attack ----------------------------------------------------------------------------------------

    def armour_class(self, h, m: Monster) -> int:
        """Base armour class + armour + shield + other items' bonuses (metal ones not against the rust monster)."""
        items = (self.item_of(c) for c in h.items)
        return h.card.ac + sum(it.ac_bonus for it in items if not (m.ignores_metal and it.metal))

    def monster_attacks(self, h, f: Fight) -> None:
        """1d6 + the monster's attack number of at least the hero's armour class hits: damage, an energy drain,
        the robber fly's theft or the rust monster's meal."""
        m = f.monster
        ac = self.armour_class(h, m)
        if 6 + m.attack >= ac and m.damage != "rust":
            f.hurt = True                   # a 6 would have hurt the hero (or taken an item)
        roll = self.die(6)
        total = roll + m.attack
        hit = total >= ac
        self.emit(enums.EV_MONSTER_ATTACK, h.seat, roll, total, int(hit))
        if not hit:
            return
        if m.damage == "steal_item":
            self.robber_fly(h, f)
            return
        if m.damage == "rust":
            self.rust(h)
            return
        if m.damage in DRAIN_DAMAGE:
            self.wound(h, DRAIN_DAMAGE[m.damage])
            if not f.drained:               # "a maximum of one '-1' chit" per encounter
                f.drained = True
                h.drains += 1
                self.emit(enums.EV_DRAIN, h.seat, h.drains)
        else:
            outcome = enums.HIT_DOUBLE if m.damage == "double" else enums.HIT_NORMAL
            if m.hit_roll:
                face = self.die(10)
                outcome = enums.HIT_NAMES.index(m.hit_roll[face - 1])
                self.emit(enums.EV_HIT_ROLL, h.seat, face, outcome)
            self.wound(h, h.hp if outcome == enums.HIT_STONE else 2 if outcome == enums.HIT_DOUBLE else 1)
            if outcome == enums.HIT_SLOWED:
                f.slowed = True
            elif outcome == enums.HIT_HELD:
                h.held = True
        if h.hp <= 0:
            self.hero_dies(h, f)

    def wound(self, h, lost: int) -> None:
        h.hp -= lost
        h.damage_taken += lost
        self.emit(enums.EV_WOUND, h.seat, lost, h.hp)

    def right_of(self, h) -> int:
        """The player on the hero's right handles the monster's attacks."""
        return (h.seat - 1) % self.n_players

    def robber_fly(self, h, f: Fight) -> None:
        """No damage: the player on the right moves one of the hero's items 10 squares away (movement cost 10, or
        the largest cost below with a free square). A hero with no items left: the fly goes away."""
        if not h.items:
            f.over = True
            self.emit(enums.EV_FLY_AWAY, h.seat, f.chit.id)
            self.monster_leaves(h, f.chit)
            return
        who = self.right_of(h)
        self.victim = h.seat
        c = self.choose(strategies.steal_item_nb, enums.DEC_STEAL_ITEM, list(h.items), who, self.tables, who, h.seat)
        q = self.choose(strategies.steal_square_nb, enums.DEC_STEAL_SQUARE, self.fly_squares(h), who, self.tables,
                        self.costs, who, h.seat)
        self.victim = -1
        h.items.remove(c)
        self.put_chit(self.chits[c], q, enums.LOC_FLOOR)
        self.emit(enums.EV_STOLEN, h.seat, c, q, who)

    def fly_squares(self, h) -> list[int]:
        """Free squares at movement cost 10 from the hero (climbing allowed), or at the largest cost below 10 that
        has one, by square number."""
        costs = self.board.dist[FREE_CLIMBING, h.square]
        for reach in range(ROBBER_FLY_REACH, 0, -1):
            squares = [int(q) for q in np.flatnonzero(costs == reach) if self.free(int(q))]
            if squares:
                return squares
        return []

    def rust(self, h) -> None:
        """No damage: the player on the right picks one of the hero's metal items; it is removed from the game."""
        metal = [c for c in h.items if self.item_of(c).metal]
        if not metal:
            return
        who = self.right_of(h)
        self.victim = h.seat
        c = self.choose(strategies.rust_nb, enums.DEC_RUST, metal, who, who, h.seat)
        self.victim = -1
        h.items.remove(c)
        self.chits[c].loc, self.chits[c].owner = enums.LOC_GONE, -1
        self.emit(enums.EV_RUSTED, h.seat, c, who)

    # --- Dying -------------------------------------------------------------------------------------------------------

    def monster_leaves(self, h, ch) -> None:
        self.lift_chit(ch, enums.LOC_GONE)
        self.emit(enums.EV_MONSTER_GONE, h.seat, ch.id)

    def hero_dies(self, h, f: Fight) -> None:
        """A "-1" chit; placed outside at full hit points to re-enter through the front doors; the monster that
        killed it leaves the game (the Specter stays). The second time, the hero is out of the game."""
        f.over = True
        if not f.monster.stays:
            self.monster_leaves(h, f.chit)
        h.deaths += 1
        h.held = False                      # a death ends a ghoul's hold (the first re-enters at full strength)
        self.mcnt[h.seat, f.chit.index, layout.MC_HERO_DEATHS] += 1
        if h.deaths >= 2:                   # "dead and out of the game": no "-1" chit to take
            h.out = True
            self.move_hero(h, -1)
            self.emit(enums.EV_DEATH, h.seat, h.deaths, -1)
            self.emit(enums.EV_OUT, h.seat)
            return
        h.drains += 1
        outside = [int(q) for q in self.board.outside if self.hero_on[int(q)] < 0]
        q = self.choose(strategies.respawn_nb, enums.DEC_RESPAWN, outside, h.seat, self.tables, h.seat)
        self.move_hero(h, q)
        h.hp = h.card.hp
        self.emit(enums.EV_DEATH, h.seat, h.deaths, q)
