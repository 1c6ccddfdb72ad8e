"""The tower drawn as text (``balance show-map``): tower cards bottom to top as the scenario fixes them (the
rulebook's first game for a random tower), each printed floor with its colour, its skeletons on each side and the
floor number it belongs to once same colours touching across cards are joined."""
from __future__ import annotations

from .components import ClimbingTowerComponents, ClimbingTowerRules

FIRST_GAME = ("001", "003", "006")


def floors_of(c: ClimbingTowerComponents, tower: list[str], side: int) -> list[tuple[str, int, object, int]]:
    """Every printed floor bottom to top: (card name, floor number from 1, the Floor, card index)."""
    cards = [next(t for t in c.tower if t.name == n) for n in tower] + [c.boss[side]]
    out, number, last = [], 0, None
    for k, card in enumerate(cards):
        for fl in card.floors:
            if fl.colour != last:
                number += 1
            last = fl.colour
            out.append((card.name if k < len(tower) else f"BOSS {card.name}", number, fl, k))
    return out


def render(c: ClimbingTowerComponents, r: ClimbingTowerRules, level: int | None = None) -> str:
    tower = list(r.tower) if isinstance(r.tower, list) else list(FIRST_GAME[:r.tower_cards]) \
        if r.tower_cards <= len(FIRST_GAME) else [t.name for t in c.tower[:r.tower_cards]]
    sides = [0, 1] if r.boss_side == "random" else [0 if r.boss_side == "A" else 1]
    if level is not None and not 1 <= level <= len(tower) + 1:
        raise ValueError(f"no tower card {level} (allowed: 1 to {len(tower) + 1}, bottom to top, the BOSS last)")
    blocks = []
    for side in sides:
        rows = floors_of(c, tower, side)
        boss = c.boss[side]
        top = rows[-1][1]
        head = (f"; {'-'.join(tower)} / BOSS {boss.name}: {top} floors ({len(rows)} printed), "
                f"{sum(f.left + f.right for _, _, f, _ in rows)} skeletons; the BOSS takes {boss.hp} sword hits"
                f"{', all in one round' if boss.same_round else ''}"
                f"{', only with both pawns on its floor' if boss.both_pawns else ''}")
        lines = [head, f"{'card':<8} {'floor':>5}  {'colour':<8} {'left':<6} {'right'}"]
        for name, number, fl, k in reversed(rows):
            if level is not None and k != level - 1:
                continue
            joined = sum(1 for row in rows if row[1] == number) > 1
            what = "BOSS" if number == top else ""
            lines.append(f"{name:<8} {number:>5}{'*' if joined else ' '} {fl.colour:<8} {'S' * fl.left or '.':<6} "
                         f"{'S' * fl.right or '.':<6} {what}".rstrip())
        lines.append("; * a floor joined across two cards (same colour touching); S a skeleton; floors count from 1 "
                     "at the bottom, where both pawns start")
        blocks.append("\n".join(lines))
    note = "" if isinstance(r.tower, list) else \
        "; rules.tower is random: drawn here is the rulebook's first game, 001-003-006\n"
    return note + "\n\n".join(blocks) + "\n"
