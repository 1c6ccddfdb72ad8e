"""The reference engine's Movement, Encountering a Chit and Magical Items (a mixin of :class:`engine.Table`): a
hero's move, the chits it may encounter, the items it finds, carries, drops, drinks and trades."""
from __future__ import annotations

from ..board import CLIMB_FROM, EDGE_UP
from .. import enums
from .. import layout
from .. import strategies
from ..components import Item
from .pieces import Chit, Hero

# "one kind of armor, two weapons, one shield" (Magical Items)
SLOT_LIMIT = {enums.SLOT_ARMOR: 1, enums.SLOT_WEAPON: 2, enums.SLOT_SHIELD: 1}


class Movement:
    """Movement, Encountering a Chit and Magical Items: the methods :class:`engine.Table` plays them with."""

    # --- Magical Items: potions ------------------------------------------------------------------------------------

    def item_of(self, c: int) -> Item:
        return self.item_table[self.chits[c].index]

    def potions(self, h: Hero) -> list[int]:
        return [c for c in h.items if self.item_of(c).heal > 0]

    def drink_at_start(self, h: Hero) -> None:
        """At the start of its turn the hero may drink one potion it carries."""
        potions = self.potions(h)
        if potions:
            c = self.choose(strategies.potion_nb, enums.DEC_POTION, [-1] + potions, h.seat, h.seat)
            if c >= 0:
                self.drink(h, c)

    def drink(self, h: Hero, c: int) -> None:
        """A potion heals its hit points, up to the hero's maximum."""
        h.hp = min(h.card.hp, h.hp + self.item_of(c).heal)
        self.emit(enums.EV_POTION, h.seat, c, h.hp)
        self.use_once(h, c)

    def use_once(self, h: Hero, c: int) -> None:
        """Limited Uses: a limited item loses a use; after its last it is removed from the game."""
        ch = self.chits[c]
        if self.item_of(c).uses == 0:
            return
        ch.uses -= 1
        if ch.uses <= 0:
            h.items.remove(c)
            ch.loc, ch.owner = enums.LOC_GONE, -1
            self.emit(enums.EV_USED_UP, h.seat, c)

    # --- Movement ------------------------------------------------------------------------------------------------

    def chit_count(self, h: Hero) -> int:
        """Climbing: blue chits plus two for each purple chit (the items it carries, the monster chits it kept)."""
        return sum(2 if self.chits[c].purple_backed else 1 for c in h.items + h.kept)

    def climbing_table(self, h: Hero) -> int:
        """The table of board.dist the hero moves under: leaving Tower 1 needs `climb_from_1` chits or an empty
        Tower 1, leaving Tower 2 `climb_from_2` chits or an empty Tower 2; going down is always allowed."""
        count = self.chit_count(h)
        up1 = count >= self.rules.climb_from_1 or self.gate_open(1)
        up2 = count >= self.rules.climb_from_2 or self.gate_open(2)
        return CLIMB_FROM.index(tuple(lv for lv, ok in ((1, up1), (2, up2)) if ok))

    def cost(self, a: int, b: int, table: int | None = None) -> int:
        return int(self.board.dist[self.climb if table is None else table, a, b])

    def move(self, h: Hero) -> None:
        """Speed + 1d6 (+ a movement bonus) points; the hero stops on any square it can reach that holds no other
        hero and no chit (staying put is legal). A hero held by a ghoul does not move this turn."""
        if h.held:
            h.held = False
            self.mp, self.climb = 0, self.climbing_table(h)
            self.emit(enums.EV_HELD, h.seat)
            return
        roll = self.die(6)
        self.mp = h.card.speed + roll + h.ability(enums.AB_MOVE_BONUS)
        self.climb = self.climbing_table(h)
        self.emit(enums.EV_MOVE_ROLL, h.seat, roll, self.mp)
        if self.searches(h.seat):
            q = self.look_move(h.seat)
        else:
            q = int(self.decide(strategies.move_nb, h.seat, self.tables, self.costs, h.seat))
        start = h.square
        if not (0 <= q < self.board.n_squares and self.cost(start, q) <= self.mp and self.chit_on[q] < 0
                and self.hero_on[q] in (-1, h.seat)):
            self.illegal(h.seat, enums.DEC_MOVE, q)
        spent = self.cost(start, q)
        self.path = self.shortest_path(start, q)
        self.left = self.mp - spent
        self.move_hero(h, q)
        self.emit(enums.EV_MOVE, h.seat, start, q, spent)
        for a, b in zip(self.path, self.path[1:]):
            self.emit(enums.EV_STEP, h.seat, b, self.cost(a, b))

    def shortest_path(self, a: int, b: int) -> list[int]:
        """The squares of the move, start first: a shortest path ("no doubling back"), each step the first
        neighbour in the map's order that stays on a shortest path."""
        board, t = self.board, self.climb
        path = [a]
        while path[-1] != b:
            here = path[-1]
            rest = self.cost(here, b)
            for k in range(board.nbr.shape[1]):
                nxt = int(board.nbr[here, k])
                if nxt < 0:
                    break
                if board.nbr_edge[here, k] == EDGE_UP and board.level[here] not in CLIMB_FROM[t]:
                    continue
                if int(board.nbr_cost[here, k]) + self.cost(nxt, b) == rest:
                    path.append(nxt)
                    break
        return path

    # --- Encountering a Chit ---------------------------------------------------------------------------------------

    def encounter_candidates(self, h: Hero) -> list[int]:
        """Chits on the squares adjacent to the hero, in the map's order; then, with a movement point left, chits
        directly behind a door; each chit once."""
        out: list[int] = []
        squares = self.adjacent(h.square)
        if self.left >= 1:
            squares += [int(x) for x in self.board.door_nbr[h.square] if x >= 0]
        for q in squares:
            c = self.chit_on[q]
            if c >= 0 and c not in out:
                out.append(c)
        return out

    def encounter(self, h: Hero) -> bool:
        """The hero may turn over one chit next to it: an item may be picked up, a monster attacks. Returns whether
        it encountered one."""
        candidates = self.encounter_candidates(h)
        if not candidates:
            return False
        if self.searches(h.seat):
            i = self.look_encounter(h.seat, candidates)
        else:
            i = int(self.decide(strategies.encounter_nb, h.seat, self.tables, self.costs, h.seat, cand=candidates))
        if not -1 <= i < len(candidates):
            self.illegal(h.seat, enums.DEC_ENCOUNTER, i)
        if i < 0:
            return False
        ch = self.chits[candidates[i]]
        h.encounters += 1
        if not ch.face_up:
            ch.face_up = True
            self.hidden_on[self.board.level[ch.square]] -= 1
            self.emit(enums.EV_REVEAL, h.seat, ch.id, ch.kind, ch.index)
        if ch.is_monster:
            self.fight(h, ch)
        else:
            self.offer_item(h, ch)
        return True

    # --- Magical Items ---------------------------------------------------------------------------------------------

    def usable(self, h: Hero, c: int) -> bool:
        """Heroes can't pick up magical items they can't use."""
        users = self.item_of(c).usable_by
        return not users or self.hero_names[h.index] in users

    def slot_of(self, c: int) -> int:
        return enums.SLOT_NAMES.index(self.item_of(c).slot)

    def slot_limit(self, h: Hero, slot: int) -> int | None:
        """How many items of a slot a hero may carry (None: any number); the dwarf's extra weapon slots."""
        if slot == enums.SLOT_OTHER:
            return None
        return SLOT_LIMIT[slot] + (h.ability(enums.AB_EXTRA_WEAPON) if slot == enums.SLOT_WEAPON else 0)

    def slot_has_room(self, h: Hero, slot: int, items: list[int] | None = None) -> bool:
        limit = self.slot_limit(h, slot)
        return limit is None or sum(1 for c in (h.items if items is None else items) if self.slot_of(c) == slot) \
            < limit

    def offer_item(self, h: Hero, ch: Chit) -> None:
        """Pick-up: leave the item, take it into a free slot, or take it and give up a carried item of that slot
        (which lies where the new one lay)."""
        if not self.usable(h, ch.id):
            self.put_chit(ch, ch.square, enums.LOC_FLOOR)
            self.emit(enums.EV_CANNOT_USE, h.seat, ch.id)
            return
        slot = self.slot_of(ch.id)
        options = [enums.TAKE_LEAVE]
        if self.slot_has_room(h, slot):
            options.append(enums.TAKE_FREE)
        else:
            options += [c for c in h.items if self.slot_of(c) == slot]
        choice = self.choose(strategies.take_nb, enums.DEC_TAKE, options, h.seat, h.seat, ch.id)
        if choice == enums.TAKE_LEAVE:
            self.put_chit(ch, ch.square, enums.LOC_FLOOR)
            self.emit(enums.EV_LEAVE, h.seat, ch.id)
            return
        square = ch.square
        self.lift_chit(ch, enums.LOC_HELD, h.seat)
        h.items.append(ch.id)
        self.icnt[h.seat, ch.index, layout.IC_TAKEN] += 1
        given = choice if choice >= 0 else -1
        self.emit(enums.EV_TAKE, h.seat, ch.id, given)
        if given >= 0:
            h.items.remove(given)
            self.put_chit(self.chits[given], square, enums.LOC_FLOOR)
            self.emit(enums.EV_DROP, h.seat, given, square)

    def drop(self, h: Hero) -> None:
        """Dropping a Chit: at the end of its movement the hero may drop one item on a free adjacent square."""
        squares = [q for q in self.adjacent(h.square) if self.free(q)]
        if not h.items or not squares:
            return
        c = self.choose(strategies.drop_nb, enums.DEC_DROP, [-1] + list(h.items), h.seat, self.tables, h.seat)
        if c < 0:
            return
        q = self.choose(strategies.drop_square_nb, enums.DEC_DROP_SQUARE, squares, h.seat, self.tables, h.seat, c)
        h.items.remove(c)
        self.put_chit(self.chits[c], q, enums.LOC_FLOOR)
        self.emit(enums.EV_DROP, h.seat, c, q)

    def offer_trade(self, h: Hero) -> None:
        """Trading (rule option): one of the hero's items for one of an adjacent hero's, if both may use what they
        get and neither ends with too many armour, weapon or shield chits; the other hero accepts or refuses."""
        rows = []
        for q in self.adjacent(h.square):
            partner = self.hero_on[q]
            if partner < 0:
                continue
            o = self.heroes[partner]
            for give in h.items:
                if not self.usable(o, give):
                    continue
                for get in o.items:
                    if self.usable(h, get) and self.trade_fits(h, give, get) and self.trade_fits(o, get, give):
                        rows.append((partner, give, get))
        if not rows:
            return
        i = int(self.decide(strategies.trade_offer_nb, h.seat, self.tables, h.seat,
                            cand=[x for row in rows for x in row], n_cand=len(rows)))
        if not -1 <= i < len(rows):
            self.illegal(h.seat, enums.DEC_TRADE_OFFER, i)
        if i < 0:
            return
        partner, give, get = rows[i]
        accepted = bool(self.decide(strategies.trade_accept_nb, partner, partner, h.seat, give, get))
        if accepted:                        # each receives its new item last; the gaps close
            o = self.heroes[partner]
            h.items.remove(give)
            o.items.remove(get)
            h.items.append(get)
            o.items.append(give)
            self.chits[give].owner, self.chits[get].owner = partner, h.seat
        self.emit(enums.EV_TRADE, h.seat, partner, give, get if accepted else -1)

    def trade_fits(self, h: Hero, give: int, get: int) -> bool:
        after = [c for c in h.items if c != give]
        return self.slot_has_room(h, self.slot_of(get), after)
