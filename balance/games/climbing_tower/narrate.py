"""Narration of one Climbing Tower game: readable English, or JSON lines (schema in ``docs/trace.md``).

The game told is a reference-engine game (:mod:`.reference`). ``balance.games.driver.replay`` plays it, has the
kernel trace the same game, and refuses to narrate a game the two engines disagree on (:func:`kernel_disagreement`
says where they part).

Events count floors and seats from 0, as the kernel does; the English text counts them from 1, for people ("player
1" is seat 0, "floor 1" is the bottom floor).

:func:`draw_tower` draws a scenario's tower as text (``balance show-map``): tower cards bottom to top as the scenario
fixes them (the rulebook's first game for a random tower), each printed floor with its colour, its skeletons on each
side and the floor number it belongs to once same colours touching across cards are joined.

About 420 lines, over the 400 a module keeps to: the English, the JSON lines, the kernel comparison and the tower
drawing are each short and share this module's names for cards, stacks, sides and floors.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

from ..driver import first_event_difference, json_lines
from ..trace_header import header, header_lines
from . import enums
from .components import ClimbingTowerComponents, ClimbingTowerRules

if TYPE_CHECKING:
    from .reference import ReferenceGame, Snapshot

KIND_NAMES = {0: "random", 1: "climber", 2: "skeleton_farmer", 3: "deck_thinner", 9: "scripted"}
SIDE_NAMES = ("left", "right")
TURN_EVENTS = (enums.EV_REDRAW, enums.EV_OFFER, enums.EV_PLAY, enums.EV_PASS)     # each starts a turn (turns counted)
PLAY_EFFECTS = (enums.EV_SWORD, enums.EV_SPARE, enums.EV_BOSS_HIT, enums.EV_CLIMB)    # a played card's icons, after it


def _card(game: ReferenceGame | None, c: int):
    """A card by name (its id without a game); None for -1."""
    if c < 0:
        return None
    return game.card_names[c] if game is not None else c


def _skill(k: int) -> str | None:
    return enums.SKILL_KINDS[k] if 0 <= k < len(enums.SKILL_KINDS) else None


def _stack(game: ReferenceGame | None, k: int):
    """A stack of cards by name ("deck", a supply pile's name; its number without a game)."""
    if game is None:
        return k
    return "deck" if k == enums.STACK_DECK else game.pile_names[k]


def _victory(v: int) -> str:
    return enums.VICTORY_NAMES[v] if 0 <= v < len(enums.VICTORY_NAMES) else f"victory#{v}"


def event_fields(row: Sequence[int], game: ReferenceGame | None = None) -> dict:
    """The named fields of one event row ``(kind, player, a, b, c)`` (everything but "type", "round", "turn",
    "player"). Cards are named with a game (their ids without one); floors and positions count from 0."""
    kind, p, a, b, c = (int(x) for x in row)
    if kind == enums.EV_TOWER:
        name = (game.tower_list[b] if b >= 0 else "BOSS") if game is not None else b
        return {"position": a, "tower_card": name, "boss_side": game.boss_names[c] if game is not None else c}
    if kind == enums.EV_ROUND:
        return {"start": p, "deck": b}
    if kind == enums.EV_DEAL:
        return {"card": _card(game, a)}
    if kind == enums.EV_REDRAW:
        return {"discarded": _card(game, a), "drawn": _card(game, b)}
    if kind == enums.EV_OFFER:
        return {"card": _card(game, a)}
    if kind == enums.EV_EXCHANGE:
        return {"gets": [_card(game, a), _card(game, b)]}
    if kind == enums.EV_PLAY:
        return {"card": _card(game, a), "on": _card(game, b), "free": bool(c)}
    if kind in (enums.EV_SWORD, enums.EV_SPARE):
        return {"floor": a, "side": SIDE_NAMES[b], "standing": c}
    if kind == enums.EV_BOSS_HIT:
        return {"damage": a, "hp": b}
    if kind == enums.EV_CLIMB:
        return {"from": a, "to": b}
    if kind == enums.EV_BLOCKED:
        return {"hand": a}
    if kind == enums.EV_GOLD:
        return {"floor": a, "side": SIDE_NAMES[b], "gold": c}
    if kind == enums.EV_BONUS:
        return {"gold": a, "source": "skill" if b else "empty_hand"}
    if kind == enums.EV_BUY:
        return {"level": a, "card": _card(game, b), "pile": _stack(game, c)}
    if kind == enums.EV_SHUFFLE:
        return {"stack": _stack(game, a), "position": b, "card": _card(game, c)}
    if kind == enums.EV_REMOVE:
        return {"card": _card(game, a)}
    if kind == enums.EV_SKILL:
        return {"position": a, "skill": _skill(b)}
    if kind == enums.EV_PLACE:
        return {"position": a, "tokens": b, "missing": c}
    if kind == enums.EV_RETURN:
        return {"position": a, "tokens": b}
    if kind == enums.EV_END:
        return {"victory": _victory(a), "round": b, "boss_damage": c}
    return {}           # pass: the type says it all


def describe_event(row: Sequence[int], game: ReferenceGame | None = None) -> str:
    """One event decoded by name, e.g. ``sword(player=0, floor=4, side='left', standing=1)``."""
    kind = int(row[0])
    name = enums.EV_NAMES.get(kind, f"event#{kind}")
    fields = ", ".join(f"{k}={v!r}" for k, v in event_fields(row, game).items())
    return f"{name}(player={int(row[1])}{', ' if fields else ''}{fields})"


# --- JSON lines ----------------------------------------------------------------------------------------------------

def snapshot_record(snap: Snapshot, game: ReferenceGame) -> dict:
    """A snapshot as its JSON object (see docs/trace.md)."""
    return {
        "type": "snapshot", "round": snap.round, "turn": snap.turn, "start": snap.start,
        "players": [{"seat": p, "side": SIDE_NAMES[game.sides[p]], "floor": snap.floors[p],
                     "hand": [game.card_names[c] for c in snap.hands[p]], "face_down": _card(game, snap.face_down[p])}
                    for p in range(2)],
        "top": _card(game, snap.top), "draw_pile": snap.draw_pile, "standing": [list(x) for x in snap.standing],
        "fallen": [list(x) for x in snap.fallen], "missing": [list(x) for x in snap.missing],
        "gold": snap.gold, "supply_tokens": snap.supply_tokens, "boss_damage": snap.boss_damage,
        "skills": [enums.SKILL_KINDS[k] for k in snap.skills], "deck": snap.deck_size,
    }


def records(game: ReferenceGame) -> Iterator[dict]:
    """The game as JSON-ready dicts: a "game" header, every event (the ``shuffle`` rows of one stack as one record
    listing its cards top first), and a snapshot after each turn (right after the turn's last event)."""
    yield header(game.scenario, game.seed, game.game, [KIND_NAMES.get(k, f"kind{k}") for k in game.kinds]) | {
           "sides": [SIDE_NAMES[s] for s in game.sides], "tower": list(game.tower_names), "floors": game.floor_count,
           "boss_hp": game.boss_hp, "tower_label": game.tower}
    snaps = iter(game.snapshots)
    snap = next(snaps, None)
    rnd = turn = 0
    events = game.events
    for i, row in enumerate(events):
        kind, player = int(row[0]), int(row[1])
        if kind == enums.EV_ROUND:
            rnd = int(row[2])
        if kind in TURN_EVENTS:
            turn += 1
        head = {"type": enums.EV_NAMES[kind], "round": rnd, "turn": turn, "player": None if player < 0 else player}
        if kind == enums.EV_SHUFFLE:
            if int(row[3]) == 0:        # a stack's first card: the record lists the whole stack
                j = i
                while j < len(events) and events[j][0] == enums.EV_SHUFFLE and events[j][2] == row[2] and \
                        events[j][3] == j - i:
                    j += 1
                yield {**head, "stack": _stack(game, int(row[2])),
                       "order": [game.card_names[int(e[4])] for e in events[i:j]]}
        else:
            yield {**head, **event_fields(row, game)}
        while snap is not None and snap.events == i + 1:
            yield snapshot_record(snap, game)
            snap = next(snaps, None)


def narrate_jsonl(game: ReferenceGame) -> Iterator[str]:
    """The game as JSON lines: one object per line, no newline characters (schema in docs/trace.md)."""
    return json_lines(records(game))


# --- English -------------------------------------------------------------------------------------------------------

def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _who(p: int) -> str:
    return f"player {p + 1}"


def _floor(f: int) -> str:
    return f"floor {f + 1}"


def _place(game: ReferenceGame, pos: int) -> str:
    if pos == len(game.tower_names) - 1:
        return "the BOSS card"
    return f"tower card {game.tower_names[pos]}"


def _play_line(game: ReferenceGame, row, effects: list) -> str:
    """'player 1 plays red_3 on purple_3: 2 swords defeat 2 skeletons on floor 5 (left), climbs ...'."""
    _, p, a, b, c = row
    swords, arrows = game.card_icons[a]
    head = f"  {_who(p)} plays {game.card_names[a]}" + (f" on {game.card_names[b]}" if b >= 0 else "") + \
        (" (a free play: the free_play skill)" if c else "")
    parts = []
    climbs = [e for e in effects if e[0] == enums.EV_CLIMB]
    kills = [e for e in effects if e[0] == enums.EV_SWORD]
    spares = [e for e in effects if e[0] == enums.EV_SPARE]
    hits = [e for e in effects if e[0] == enums.EV_BOSS_HIT]
    climb_text = [f"climbs from {_floor(e[2])} to {_floor(e[3])}" for e in climbs]
    if climbs and effects and effects[0][0] == enums.EV_CLIMB:
        parts += climb_text
    if hits:
        last = hits[-1]
        parts.append(f"{_plural(swords, 'sword')}: {_plural(len(hits), 'hit')} on the BOSS "
                     f"({last[2]} of {last[3]} damage)" + (", the BOSS is defeated!" if last[2] >= last[3] else ""))
    elif kills:
        last = kills[-1]
        parts.append(f"{_plural(swords, 'sword')} defeat{'s' if swords == 1 else ''} "
                     f"{_plural(len(kills), 'skeleton')} on {_floor(last[2])} ({SIDE_NAMES[last[3]]}), "
                     f"{last[4]} still standing there")
    elif swords and not spares:
        parts.append(f"{_plural(swords, 'sword')} find{'s' if swords == 1 else ''} no target")
    if spares:
        parts.append(f"{_plural(len(spares), 'sword')} spare{'s' if len(spares) == 1 else ''} a skeleton on "
                     f"{_floor(spares[0][2])} ({SIDE_NAMES[spares[0][3]]})")
    if climbs and not (effects and effects[0][0] == enums.EV_CLIMB):
        parts += climb_text
    elif arrows and not climbs:
        parts.append("cannot climb higher")
    return head + (": " + ", ".join(parts) if parts else "")


def _line(game: ReferenceGame, row, effects: list) -> str | None:
    kind, p, a, b, c = row
    if kind == enums.EV_TOWER:
        what = "the BOSS card, side " + game.boss_names[c] if b < 0 else f"tower card {game.tower_list[b]}"
        return f"Tower position {a + 1}{' (bottom)' if a == 0 else ''}: {what}"
    if kind == enums.EV_PLACE:
        short = f" ({_plural(c, 'skeleton')} drawn there still without a token)" if c else ""
        return f"  {_plural(b, 'skeleton token')} placed on {_place(game, a)}{short}"
    if kind == enums.EV_ROUND:
        return f"Round {a} ({_who(p)} starts): a deck of {_plural(b, 'card')}"
    if kind == enums.EV_REDRAW:
        return f"  {_who(p)} redraws: discards {game.card_names[a]}, draws {game.card_names[b]}"
    if kind == enums.EV_OFFER:
        return f"  {_who(p)} offers an exchange: {game.card_names[a]} face down"
    if kind == enums.EV_EXCHANGE:
        return f"  exchange: player 1 takes {game.card_names[a]}, player 2 takes {game.card_names[b]}"
    if kind == enums.EV_PLAY:
        return _play_line(game, row, effects)
    if kind in PLAY_EFFECTS:
        return None                      # told on the play's line
    if kind == enums.EV_PASS:
        return f"  {_who(p)} passes (empty hand)"
    if kind == enums.EV_BLOCKED:
        return f"  {_who(p)} holds {_plural(a, 'card')} and cannot act: the round ends"
    if kind == enums.EV_GOLD:
        where = f"{_floor(a)} ({SIDE_NAMES[b]})"
        if c:
            return f"  {where}: {c} gold for the skeletons defeated"
        return f"  {where}: the group did not all fall; the fallen skeletons stand again, no gold"
    if kind == enums.EV_BONUS:
        return f"  {'bonus_gold skill' if b else 'both hands played out, empty-hand bonus'}: {a} gold"
    if kind == enums.EV_BUY:
        return (f"  {_who(p)} buys {game.card_names[b]} (Level {a}, {'Y' if a == 3 else 'R'}, "
                f"from {game.pile_names[c]})")
    if kind == enums.EV_REMOVE:
        return f"  {_who(p)} removes {game.card_names[a]} from the game (U)"
    if kind == enums.EV_SKILL:
        if b < 0:
            return f"  {_place(game, a)} is cleared and flipped: its skill is already known"
        return f"  {_place(game, a)} is cleared and flipped: the team gains the {enums.SKILL_KINDS[b]} skill"
    if kind == enums.EV_RETURN:
        return f"  {_place(game, a)} is left behind: {_plural(b, 'skeleton token')} back to the supply"
    if kind == enums.EV_END:
        if a == enums.WIN_BOSS:
            return f"The BOSS is defeated in round {b}: the team wins!"
        return f"The round limit is reached after round {b}: the team loses ({_victory(a)}, BOSS damage {c})."
    return f"  {describe_event(row, game)}"


def _snapshot_line(snap: Snapshot, game: ReferenceGame) -> str:
    standing = ", ".join(f"{f + 1}: {lr[0]}/{lr[1]}" for f, lr in enumerate(snap.standing) if lr[0] or lr[1])
    skills = ", ".join(enums.SKILL_KINDS[k] for k in snap.skills) or "none"
    floors = ", ".join(f"{_who(p)} on {_floor(snap.floors[p])}" for p in range(2))
    return (f"  = {floors} (BOSS on {_floor(game.floor_count - 1)}); skeletons left/right by floor: "
            f"{standing or 'none'}; gold {snap.gold}; BOSS damage {snap.boss_damage}; skills {skills}; "
            f"deck {snap.deck_size}")


def narrate_text(game: ReferenceGame, names: Sequence[str] | None = None) -> str:
    """The whole game in readable English: one line per event (a played card's line tells what its swords and
    arrows did; consecutive deals to one player share a line), and a compact state line after each round's last
    turn. `names`: one per seat, in place of "player 1" and "player 2" in the header."""
    if names is not None and len(names) != 2:
        raise ValueError(f"{len(names)} names for 2 players")
    seats = ", ".join(f"{_who(p)}{f' = {names[p]}' if names else ''} ({KIND_NAMES.get(k, f'kind {k}')}, "
                      f"{SIDE_NAMES[game.sides[p]]} side)" for p, k in enumerate(game.kinds))
    lines = [*header_lines("Climbing Tower", next(records(game)), seats),
             f"Tower, bottom to top: {', '.join(game.tower_names)} ({_plural(game.floor_count, 'floor')}; the BOSS "
             f"on {_floor(game.floor_count - 1)} takes {game.boss_hp} hits)"]
    events = [tuple(int(x) for x in row) for row in game.events]
    round_ends = {}                      # events told -> the snapshot after the last turn of a round
    for snap in game.snapshots:
        round_ends = {k: v for k, v in round_ends.items() if v.round != snap.round}
        round_ends[snap.events] = snap
    i = 0
    pending = None
    while i < len(events):
        row = events[i]
        if row[0] == enums.EV_SHUFFLE:
            j = i
            while j < len(events) and events[j][0] == enums.EV_SHUFFLE and events[j][2] == row[2]:
                j += 1
            what = "the common deck, shuffled" if row[2] == enums.STACK_DECK else f"supply pile {_stack(game, row[2])}"
            lines.append(f"  {what}, top first: {', '.join(game.card_names[e[4]] for e in events[i:j])}")
            i = j
            continue
        if row[0] == enums.EV_DEAL:
            j = i
            while j < len(events) and events[j][0] == enums.EV_DEAL and events[j][1] == row[1]:
                j += 1
            lines.append(f"  {_who(row[1])} is dealt {', '.join(game.card_names[e[2]] for e in events[i:j])}")
            i = j
            continue
        j = i + 1
        while row[0] == enums.EV_PLAY and j < len(events) and events[j][0] in PLAY_EFFECTS:
            j += 1
        line = _line(game, row, list(events[i + 1:j]))
        if line is not None:
            lines.append(line)
        i += 1
        if i in round_ends:
            pending = round_ends[i]
        if pending is not None and (i == len(events) or events[i][0] != enums.EV_BLOCKED):
            lines.append(_snapshot_line(pending, game))     # after the round's last turn (and its blocked player)
            pending = None
    return "\n".join(lines)


# --- the reference game against the kernel's trace --------------------------------------------------------------------

def kernel_outcome(state: np.ndarray, n_cards: int) -> dict:
    """The kernel's per-game outputs from its final state array, in the reference's names."""
    from . import layout

    return {
        "winner": int(state[layout.WINNER]), "victory": int(state[layout.VICTORY]), "turns": int(state[layout.TURN]),
        "rounds": int(state[layout.ROUND]),
        "tower": int(state[layout.TOWER_LABEL]), "boss_side": int(state[layout.BOSS_SIDE]),
        "final": state[layout.FINAL:layout.FINAL + 2 * layout.N_FINAL].reshape(2, layout.N_FINAL),
        "cards": state[layout.CCNT:layout.CCNT + n_cards * layout.N_CC].reshape(n_cards, layout.N_CC),
        "skills": state[layout.SKCNT:layout.SKCNT + layout.N_SKILLS * layout.N_SK].reshape(layout.N_SKILLS,
                                                                                           layout.N_SK),
        "team": state[layout.TEAM:layout.TEAM + layout.N_TEAM],
        "draws": int(sum(state[int(layout.stream_at(i)) + 1] for i in range(3))),
    }


def reference_outcome(game: ReferenceGame) -> dict:
    return {"winner": game.winner, "victory": game.victory, "turns": game.turns, "rounds": game.rounds,
            "tower": game.tower, "boss_side": game.boss_side, "final": game.final, "cards": game.cards,
            "skills": game.skills, "team": game.team, "draws": game.draws}


def kernel_disagreement(game: ReferenceGame, events: np.ndarray, state: np.ndarray) -> str | None:
    """Where a kernel trace (``rules.trace_game``'s events and final state) departs from a reference game: the first
    differing event (``driver.first_event_difference``), or the first differing final count; None when they
    agree."""
    problem = first_event_difference(events, game.events, lambda row: describe_event(row, game))
    if problem:
        return problem
    kernel = kernel_outcome(state, len(game.card_names))
    for key, ref in reference_outcome(game).items():
        if not np.array_equal(np.asarray(kernel[key]), np.asarray(ref)):
            k, r = np.asarray(kernel[key]), np.asarray(ref)
            return f"final {key} differ: kernel {k.tolist()}, reference {r.tolist()}"
    return None


def replay_result(game: ReferenceGame, scenario) -> ReferenceGame:
    """What ``driver.replay`` hands back: the reference game itself (it knows its scenario)."""
    return game


# --- the tower drawn as text ---------------------------------------------------------------------------------------

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


def draw_tower(c: ClimbingTowerComponents, r: ClimbingTowerRules, level: int | None = None) -> str:
    """The tower as text (module docstring), or only tower card `level` (1 the bottom card, the BOSS card last)."""
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
