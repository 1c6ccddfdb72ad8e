"""The Haunted Tower's monster table against the rulebook's own text: the Monster Listing is parsed from the copy in
docs/sources (not from the code), and every number and printed ability of the code's table and of the shipped
scenario must match it. A misprint in the table fails here, whether or not a game would show it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance.games.haunted_tower.components import monster_table
from balance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]
RULEBOOK = ROOT / "docs" / "sources" / "haunted_tower_rulebook.txt"
NAMES = {"Giant Bats": "giant_bat", "Giant Rats": "giant_rat", "Specter of Sir Jameson": "specter"}
KINDS = {"magic": "magic", "magical weapons": "magical_weapon", "silver": "silver", "silver weapons": "silver",
         "holy water": "holy_water"}


def listing() -> dict[str, dict]:
    text = RULEBOOK.read_text(encoding="utf-8")
    block = text[text.index("\nMonster Listing\n"):]
    out = {}
    for m in re.finditer(r"^\s+(?:\d+\.|•) ([A-Z][A-Za-z ]+)\. HP (\d+); Att (\d+); AC (\d+)(; Undead)?\.(.*)$",
                         block, re.M):
        name = NAMES.get(m[1], m[1].lower().replace(" ", "_"))
        out[name] = {"hp": int(m[2]), "attack": int(m[3]), "ac": int(m[4]), "undead": bool(m[5]),
                     "text": m[6].strip()}
    return out


LISTING = listing()


def printed_immunity(text: str) -> set[str]:
    m = re.search(r"Can only be damaged by ([^.]+)\.", text)
    if not m:
        return set()
    return {KINDS[w.strip()] for w in re.split(r", or |, | or ", m[1])}


def printed_damage(text: str) -> str:
    if "double energy drain" in text:
        return "double_energy_drain"
    if "energy drain" in text:
        return "energy_drain"
    if "do not take normal damage" in text:
        return "steal_item"
    if "does not cause normal damage" in text:
        return "rust"
    if re.search(r"(?:does|Does) double normal damage", text) and "roll 1d10" not in text:
        return "double"
    return "normal"


def printed_hit_roll(text: str) -> list[str]:
    faces = ["normal"] * 10
    for lo, hi, what in re.findall(r"On an? (\d+)(?:-(\d+))?, ([^.!]+)[.!]", text):
        kind = ("stone" if "stone" in what or "reduced to zero" in what else "double" if "double" in what else
                "slowed" if "-2 to hit" in what else "held" if "cannot move" in what else "normal")
        for face in range(int(lo), int(hi or lo) + 1):
            faces[face - 1] = kind
    return faces


def test_the_rulebook_lists_24_monsters():
    assert len(LISTING) == 24 and "specter" in LISTING and "zombie" in LISTING


@pytest.mark.parametrize("source", ["code", "scenario"])
def test_every_monster_matches_the_monster_listing(source):
    table = monster_table() if source == "code" else load_scenario(str(ROOT / "scenarios" / "haunted_tower.toml")
                                                                   ).components.monsters
    ours = {m.name: m for m in table}
    assert set(ours) == set(LISTING)
    for name, printed in LISTING.items():
        m, text = ours[name], printed["text"]
        assert (m.hp, m.attack, m.ac, m.undead) == (printed["hp"], printed["attack"], printed["ac"],
                                                    printed["undead"]), name
        assert set(m.damaged_only_by) == printed_immunity(text), name
        assert m.damage == printed_damage(text), name
        assert (list(m.hit_roll) or ["normal"] * 10) == printed_hit_roll(text), name      # [] is all normal
        assert m.initiative_bonus == (1 if "+1 on their initiative" in text else 0), name
        assert (m.initiative == "always_loses") == ("always lose the initiative" in text), name
        assert m.ignores_metal == ("cannot be used against the rust monster" in text), name
