"""The Haunted Tower components as validated settings: the monster table, items, heroes, chits, scoring and the map.

The monster table and the scoring table are the rulebook's, exactly as printed (``docs/sources/haunted_tower_rulebook
.txt``, Monster Listing and Winning). Everything the rulebook does not list (the heroes' numbers, the chits' contents,
the items' bonuses, the map) is reconstructed and marked ``ASSUMED`` here, in the default scenario file and in
``docs/rules/haunted_tower.md`` (section 1, with the reasoning); every one of them is a scenario setting, so a designer
who owns the box types in the real components without touching code. ``compile.py`` turns these settings into the
kernel's arrays; the open rule points are in :class:`HauntedTowerRules`.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import enums

Hit = Literal["normal", "double", "stone", "slowed", "held"]
Damage = Literal["normal", "double", "energy_drain", "double_energy_drain", "steal_item", "rust"]
By = Literal["magic", "magical_weapon", "silver", "holy_water"]
Ability = Literal["none", "magic", "undead_bonus", "extra_weapon_slot", "run_bonus", "damage_bonus",
                  "initiative_bonus", "movement_bonus"]
Slot = Literal["armor", "weapon", "shield", "other"]
D10 = 10                                # faces of the ten-sided die ("The '0' is counted as a 10")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Monster(_Strict):
    """One line of the Monster Listing, with the special ability as data."""

    name: str = Field(min_length=1, description="Monster name, as chits and the other tables refer to it.")
    hp: int = Field(ge=1, le=50, description="Hit points.")
    attack: int = Field(ge=0, le=20, description="Attack number (also what a hero must roll to run away).")
    ac: int = Field(ge=0, le=30, description="Armour class.")
    undead: bool = Field(default=False, description="Listed as Undead.")
    standups: int = Field(default=1, ge=0, le=30, description="Stand-ups in the box: at most this many chits.")
    damage: Damage = Field(default="normal", description="What a hit does: normal or double hit points, an energy "
                                                          "drain, the robber fly's theft, the rust monster's rust.")
    hit_roll: list[Hit] = Field(default_factory=list, description="The 1d10 table a hit hero rolls, one entry for "
                                                                  "each face 1-10 (empty: no roll).")
    initiative: Literal["roll", "always_loses"] = Field(default="roll", description="Zombies always lose it.")
    initiative_bonus: int = Field(default=0, ge=-6, le=6, description="Added to its initiative roll (pit viper +1).")
    damaged_only_by: list[By] = Field(default_factory=list,
                                      description="'Can only be damaged by ...' (empty: anything damages it).")
    ignores_metal: bool = Field(default=False, description="Bonuses of metal items do not count against it "
                                                           "(rust monster).")
    stays: bool = Field(default=False, description="Stays on the board when a hero runs away or dies, and meets "
                                                   "every hero at full strength (the Specter).")

    @field_validator("hit_roll")
    @classmethod
    def _ten_faces(cls, v):
        if v and len(v) != D10:
            raise ValueError(f"a 1d10 table of {len(v)} entries (allowed: none, or one for each of the {D10} faces)")
        return v

    @model_validator(mode="after")
    def _one_kind_of_damage(self):
        if self.hit_roll and self.damage not in ("normal", "double"):
            raise ValueError(f"hit_roll=...: a 1d10 table with damage {self.damage!r} (allowed: a table only with "
                             "normal or double damage)")
        return self


class Item(_Strict):
    """A magical item chit: its slot, bonuses, flags, uses and who may use it."""

    name: str = Field(min_length=1, description="Item name, as chits refer to it.")
    slot: Slot = Field(description="armor (gold shield), weapon (red swords), shield, other (orange bottle).")
    attack_bonus: int = Field(default=0, ge=-5, le=10, description="Added to the attack roll when it attacks.")
    damage_bonus: int = Field(default=0, ge=-1, le=10, description="Added to the damage of a hit with it.")
    ac_bonus: int = Field(default=0, ge=0, le=10, description="Added to the armour class while carried.")
    heal: int = Field(default=0, ge=0, le=50, description="Hit points a potion restores (up to the maximum).")
    metal: bool = Field(default=False, description="Metal: useless against the rust monster, which can eat it.")
    magical: bool = Field(default=True, description="A magical weapon (damages what only magical weapons may).")
    silver: bool = Field(default=False, description="A silver weapon.")
    holy: bool = Field(default=False, description="Holy water: damages what only holy water may.")
    magic: bool = Field(default=False, description="An attack with it counts as magic (a wand).")
    attack: bool = Field(default=False, description="May be used to attack (every weapon; holy water, wands).")
    uses: int = Field(default=0, ge=0, le=20, description="Uses before it leaves the game (0: unlimited).")
    usable_by: list[str] = Field(default_factory=list, description="Heroes who may use it (empty: every hero).")
    bane: str | None = Field(default=None, description="A monster it harms whatever its immunity (the stake).")
    bane_damage: int = Field(default=0, ge=0, le=20, description="Extra damage to its bane monster.")

    @model_validator(mode="after")
    def _consistent(self):
        if self.slot == "weapon" and not self.attack:
            object.__setattr__(self, "attack", True)       # every weapon attacks; not a choice
        if self.heal and self.attack:
            raise ValueError(f"heal={self.heal}: an item that both heals and attacks (allowed: one use per item)")
        return self


class Hero(_Strict):
    """A hero card: speed, hit points, attack number, armour class and one special ability."""

    name: str = Field(min_length=1)
    speed: int = Field(ge=0, le=20, description="Movement points before the 1d6.")
    hp: int = Field(ge=1, le=50, description="Hit points (restored in full after a death).")
    attack: int = Field(ge=-5, le=20, description="Attack number.")
    ac: int = Field(ge=0, le=30, description="Armour class without magical items.")
    ability: Ability = Field(default="none", description="The special ability's kind.")
    ability_value: int = Field(default=0, ge=0, le=10, description="Its number (a bonus, or extra slots).")


class Scoring(_Strict):
    """The rulebook's scoring table (Winning)."""

    standup: int = Field(default=1, ge=0, le=100, description="Each monster stand-up.")
    blue_chit: int = Field(default=1, ge=0, le=100, description="Each blue-backed chit.")
    purple_chit: int = Field(default=2, ge=0, le=100, description="Each purple-backed chit (the Specter's too).")
    bane_kill: int = Field(default=4, ge=0, le=100, description="Killing a monster with its bane (the vampire "
                                                                "with the stake).")
    specter_damage: int = Field(default=5, ge=0, le=100, description="Damaging the Specter of Sir Jameson.")
    specter_kill: int = Field(default=15, ge=0, le=100, description="Killing the Specter of Sir Jameson.")


def _m(name, hp, attack, ac, standups, **kw) -> Monster:
    return Monster(name=name, hp=hp, attack=attack, ac=ac, standups=standups, **kw)


UNDEAD_IMMUNE = ["magic", "magical_weapon", "holy_water"]


def monster_table() -> list[Monster]:
    """The Monster Listing as printed (names in the singular); stand-ups from Putting Together the Game."""
    return [
        _m("basilisk", 5, 6, 8, 1, hit_roll=["normal"] * 4 + ["double"] * 5 + ["stone"]),
        _m("black_widow_spider", 2, 3, 6, 2, hit_roll=["normal"] * 7 + ["double"] * 3),
        _m("bone_golem", 4, 6, 10, 1, damage="double"),
        _m("carrion_crawler", 3, 4, 5, 1, hit_roll=["normal"] * 6 + ["slowed"] * 4),
        _m("dire_wolf", 4, 5, 6, 2),
        _m("displacer_beast", 4, 5, 9, 1),
        _m("gargoyle", 4, 5, 7, 2, damaged_only_by=["magical_weapon", "magic"]),
        _m("ghoul", 2, 3, 6, 4, undead=True, hit_roll=["normal"] * 7 + ["held"] * 3),
        _m("giant_bat", 2, 2, 6, 2),
        _m("giant_rat", 1, 1, 5, 1),
        _m("giant_vampire_bat", 2, 3, 6, 2, damage="double"),
        _m("mummy", 5, 6, 8, 1, undead=True, damaged_only_by=list(UNDEAD_IMMUNE)),
        _m("pit_viper", 2, 2, 6, 2, initiative_bonus=1, hit_roll=["normal"] * 7 + ["double"] * 3),
        _m("robber_fly", 2, 2, 6, 1, damage="steal_item"),
        _m("rust_monster", 3, 5, 8, 1, damage="rust", ignores_metal=True),
        _m("skeleton", 1, 1, 5, 6, undead=True),
        _m("specter", 8, 6, 10, 1, damage="double_energy_drain", damaged_only_by=list(UNDEAD_IMMUNE), stays=True),
        _m("tiger_beetle", 3, 5, 9, 2),
        _m("vampire", 6, 5, 8, 1, undead=True, damage="double_energy_drain", damaged_only_by=list(UNDEAD_IMMUNE)),
        _m("werewolf", 4, 4, 7, 2, damaged_only_by=["silver", "magical_weapon", "magic"]),
        _m("wight", 4, 3, 6, 3, undead=True, damage="energy_drain",
           damaged_only_by=["silver", "magic", "magical_weapon", "holy_water"]),
        _m("wolf", 2, 3, 5, 0),
        _m("wraith", 4, 4, 7, 1, undead=True, damage="energy_drain",
           damaged_only_by=["silver", "magic", "magical_weapon", "holy_water"]),
        _m("zombie", 2, 2, 4, 2, undead=True, initiative="always_loses"),
    ]


NOT_MAGIC_USER = ["fighter", "dwarf", "elf", "cleric", "thief"]
BLADE_USERS = ["fighter", "dwarf", "elf", "thief"]


def item_list() -> list[Item]:
    """ASSUMED: the magical items (no public source lists the chits; docs/rules/haunted_tower.md, section 1)."""
    def w(name, **kw):
        return Item(name=name, slot="weapon", metal=kw.pop("metal", True), **kw)

    return [
        Item(name="potion_of_healing", slot="other", heal=3, uses=1, magical=True),
        Item(name="potion_of_extra_healing", slot="other", heal=8, uses=1, magical=True),
        Item(name="holy_water", slot="other", holy=True, attack=True, uses=1, magical=False),
        Item(name="holy_water_flask", slot="other", holy=True, attack=True, uses=3, magical=False),
        Item(name="wand_of_magic_missiles", slot="other", magic=True, attack=True, attack_bonus=2, uses=3,
             usable_by=["magic_user", "elf"]),
        Item(name="ring_of_protection", slot="other", ac_bonus=1),
        w("silver_dagger", silver=True, magical=False),
        w("sword_plus_1", attack_bonus=1, usable_by=list(BLADE_USERS)),
        w("sword_plus_2", attack_bonus=2, damage_bonus=1, usable_by=list(BLADE_USERS)),
        w("silver_sword_plus_1", attack_bonus=1, silver=True, usable_by=list(BLADE_USERS)),
        w("mace_plus_1", attack_bonus=1, usable_by=list(NOT_MAGIC_USER)),
        w("staff", attack_bonus=1, metal=False, usable_by=["magic_user", "cleric", "elf"]),
        w("stake", metal=False, magical=False, bane="vampire", bane_damage=5),
        Item(name="shield_plus_1", slot="shield", ac_bonus=1, metal=True,
             usable_by=["fighter", "dwarf", "elf", "cleric"]),
        Item(name="shield_plus_2", slot="shield", ac_bonus=2, metal=True,
             usable_by=["fighter", "dwarf", "elf", "cleric"]),
        Item(name="leather_armor_plus_1", slot="armor", ac_bonus=1, usable_by=list(NOT_MAGIC_USER)),
        Item(name="chain_mail_plus_1", slot="armor", ac_bonus=2, metal=True,
             usable_by=["fighter", "dwarf", "elf", "cleric"]),
        Item(name="plate_mail_plus_1", slot="armor", ac_bonus=3, metal=True, usable_by=["fighter", "dwarf", "cleric"]),
    ]


def hero_list() -> list[Hero]:
    """ASSUMED: the six heroes (the D&D basic classes; docs/rules/haunted_tower.md, section 1)."""
    return [
        Hero(name="fighter", speed=3, hp=8, attack=4, ac=7, ability="damage_bonus", ability_value=1),
        Hero(name="dwarf", speed=2, hp=9, attack=4, ac=7, ability="extra_weapon_slot", ability_value=1),
        Hero(name="elf", speed=3, hp=6, attack=3, ac=6, ability="magic"),
        Hero(name="magic_user", speed=3, hp=5, attack=2, ac=5, ability="magic"),
        Hero(name="cleric", speed=3, hp=7, attack=3, ac=7, ability="undead_bonus", ability_value=2),
        Hero(name="thief", speed=4, hp=6, attack=3, ac=6, ability="run_bonus", ability_value=2),
    ]


def blue_chits() -> dict[str, int]:
    """ASSUMED: the 52 blue chits: 25 weaker monsters and 27 common items (docs/rules/haunted_tower.md, 1)."""
    return {"giant_rat": 1, "skeleton": 6, "zombie": 2, "giant_bat": 2, "black_widow_spider": 2, "pit_viper": 2,
            "ghoul": 4, "giant_vampire_bat": 2, "robber_fly": 1, "dire_wolf": 2, "carrion_crawler": 1,
            "potion_of_healing": 7, "holy_water": 4, "silver_dagger": 2, "sword_plus_1": 3, "mace_plus_1": 2,
            "shield_plus_1": 3, "leather_armor_plus_1": 2, "chain_mail_plus_1": 2, "staff": 1, "stake": 1}


def purple_chits() -> dict[str, int]:
    """ASSUMED: the 26 purple chits: 16 stronger monsters and 10 rare items, so that with the Specter's chit every
    room of the reconstructed map (27) gets one (docs/rules/haunted_tower.md, section 1)."""
    return {"basilisk": 1, "bone_golem": 1, "displacer_beast": 1, "gargoyle": 2, "mummy": 1, "rust_monster": 1,
            "tiger_beetle": 2, "vampire": 1, "werewolf": 2, "wight": 3, "wraith": 1,
            "sword_plus_2": 2, "silver_sword_plus_1": 1, "plate_mail_plus_1": 1, "shield_plus_2": 1,
            "ring_of_protection": 1, "potion_of_extra_healing": 2, "holy_water_flask": 1,
            "wand_of_magic_missiles": 1}


class HauntedTowerComponents(_Strict):
    """Every component of The Haunted Tower (docs/rules/haunted_tower.md, section 1)."""

    map: str = Field(default="fighters_academy.map",
                     description="The map file (ASSUMED reconstruction by default): a path relative to the "
                                 "scenario file, or the name of a map shipped in balance/data/haunted_tower/.")
    monsters: list[Monster] = Field(default_factory=monster_table, description="The Monster Listing.")
    items: list[Item] = Field(default_factory=item_list, description="ASSUMED: the magical items.")
    heroes: list[Hero] = Field(default_factory=hero_list, description="ASSUMED: the hero cards.")
    blue: dict[str, int] = Field(default_factory=blue_chits,
                                 description="ASSUMED: blue chits, monster or item name -> how many.")
    purple: dict[str, int] = Field(default_factory=purple_chits,
                                   description="ASSUMED: purple chits (the Specter's apart), name -> how many.")
    specter: str = Field(default="specter", description="The monster on the Specter of Sir Jameson's chit.")
    scoring: Scoring = Field(default_factory=Scoring)

    @model_validator(mode="after")
    def _consistent(self):
        names = [m.name for m in self.monsters] + [i.name for i in self.items]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise ValueError(f"{'monsters' if i < len(self.monsters) else 'items'}: two components named "
                                 f"{name!r} (allowed: each monster and item name once)")
        heroes = [h.name for h in self.heroes]
        if len(set(heroes)) != len(heroes):
            raise ValueError("heroes: two heroes with one name (allowed: each hero name once)")
        monsters = {m.name: m for m in self.monsters}
        for i, item in enumerate(self.items):
            for h in item.usable_by:
                if h not in heroes:
                    raise ValueError(f"items[{i}].usable_by={h!r}: no such hero (allowed: {', '.join(heroes)})")
            if item.bane is not None and item.bane not in monsters:
                raise ValueError(f"items[{i}].bane={item.bane!r}: no such monster")
        if self.specter not in monsters:
            raise ValueError(f"specter={self.specter!r}: no such monster (allowed: one of the monsters)")
        used: dict[str, int] = {}
        pools: dict[str, list[str]] = {}
        for pool in ("blue", "purple"):
            table = getattr(self, pool)
            for name, n in table.items():
                if name not in names:
                    raise ValueError(f"{pool}.{name}={n}: no monster or item of that name")
                if name == self.specter:
                    raise ValueError(f"{pool}.{name}={n}: the Specter has its own chit (allowed: other monsters "
                                     "and items)")
                if not 0 <= n <= 200:
                    raise ValueError(f"{pool}.{name}={n}: out of range (allowed: 0 to 200 chits)")
                used[name] = used.get(name, 0) + n
                if n > 0:
                    pools.setdefault(name, []).append((pool, n))
        for name, n in used.items():
            if name in monsters and n > monsters[name].standups:
                (pool, first), split = pools[name][0], " + ".join(f"{k} {m}" for k, m in pools[name])
                raise ValueError(f"{pool}.{name}={first}: {n} chits of {name} ({split}) but "
                                 f"{monsters[name].standups} stand-ups (allowed: at most one chit a stand-up, blue "
                                 "and purple together)")
        if monsters[self.specter].standups < 1:
            raise ValueError(f"specter={self.specter!r}: it has no stand-up (allowed: a monster with one)")
        return self


class HauntedTowerRules(_Strict):
    """Who plays which hero, and the points the rulebook leaves open (docs/rules/haunted_tower.md, section 3)."""

    heroes: list[str] = Field(default_factory=lambda: ["fighter", "dwarf", "elf", "magic_user", "cleric", "thief"],
                              description="The heroes in play: seat s plays heroes[(s + shift) mod len] (at least "
                                          "one per player).")
    hero_rotation: bool = Field(default=True, description="Shift the heroes one seat every `players` games, so "
                                                          "every hero sits at every seat.")
    initiative_ties: Literal["reroll", "hero", "monster"] = Field(
        default="reroll", description="An initiative tie: both roll again, or the hero or the monster goes first.")
    ties: Literal["shared", "specter_killer"] = Field(
        default="shared", description="Tied for the most points: every tied seat wins, or the Specter's killer "
                                      "when among them.")
    out_hero_scores: bool = Field(default=True, description="A hero out of the game still scores its chits.")
    trading: bool = Field(default=False, description="Adjacent heroes may trade one item for one item.")
    blue_per_player: list[int] = Field(default_factory=lambda: [17, 13, 10, 8],
                                       description="Blue chits each player draws with 3, 4, 5, 6 players.")
    climb_from_1: int = Field(default=3, ge=0, le=100, description="Chits (blue equivalents) to leave Tower 1.")
    climb_from_2: int = Field(default=6, ge=0, le=100, description="Chits (blue equivalents) to leave Tower 2.")
    gate_opens: Literal["all_revealed", "no_chits"] = Field(
        default="all_revealed", description="A level counts as emptied for its gate once every chit on it is "
                                            "revealed, or only once no chit at all lies on it.")
    specter_damage_once: bool = Field(default=True, description="The Specter damage bonus once a game per hero.")

    @field_validator("blue_per_player")
    @classmethod
    def _four_counts(cls, v):
        if len(v) != enums.MAX_PLAYERS - enums.MIN_PLAYERS + 1 or any(not 0 <= n <= 100 for n in v):
            raise ValueError(f"{v} (allowed: four counts from 0 to 100, for 3, 4, 5 and 6 players)")
        return v


def check_lineup(components: HauntedTowerComponents, rules: HauntedTowerRules, players: int) -> None:
    """The scenario-wide checks a settings model cannot make alone (raise ValueError with 'key=value: problem')."""
    heroes = [h.name for h in components.heroes]
    for i, name in enumerate(rules.heroes):
        if name not in heroes:
            raise ValueError(f"rules.heroes[{i}]={name!r}: no such hero (allowed: {', '.join(heroes)})")
    if len(rules.heroes) < players:
        raise ValueError(f"rules.heroes={rules.heroes}: {len(rules.heroes)} heroes for {players} players (allowed: "
                         "at least one hero a player)")
    if len(set(rules.heroes)) != len(rules.heroes):
        raise ValueError(f"rules.heroes={rules.heroes}: a hero listed twice (allowed: each hero once; there is one "
                         "stand-up each)")
    need = rules.blue_per_player[players - enums.MIN_PLAYERS] * players
    have = sum(components.blue.values())
    if need > have:
        raise ValueError(f"rules.blue_per_player={rules.blue_per_player}: {players} players draw {need} blue chits "
                         f"but the pool holds {have} (allowed: at most {have // players} a player with this pool)")
