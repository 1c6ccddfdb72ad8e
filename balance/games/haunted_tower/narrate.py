"""Narration of one Haunted Tower game: readable English with a compact map view, or JSON lines (schema in
``docs/trace.md``).

The game told is a reference-engine game (:mod:`.reference`), checked against the kernel's trace of the same game by
``balance.games.driver.replay`` (:func:`kernel_disagreement`), which hands back :func:`replay_result`: the game with
the scenario's names, what the narration reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from ..driver import first_event_difference, json_lines
from ..trace_header import header, header_lines
from . import enums
from . import layout
from .board import Board, render
from .reference import ReferenceGame, Snapshot


@dataclass
class Replay:
    """A reference game with the names needed to tell it: the scenario's heroes, monsters, items and strategies."""

    game: ReferenceGame
    board: Board
    heroes: tuple[str, ...]              # hero names by index
    monsters: tuple[str, ...]
    items: tuple[str, ...]
    strategies: tuple[str, ...]          # strategy name by seat
    chits: tuple[tuple[int, int, int], ...]    # (colour, content kind, index) by chit id

    def hero(self, seat: int) -> str:
        return f"{self.heroes[self.game.heroes[seat]]} (seat {seat})"

    def chit(self, c: int) -> str:
        colour, kind, index = self.chits[c]
        what = self.monsters[index] if kind == enums.CONTENT_MONSTER else self.items[index]
        return f"the {what} ({enums.COLOUR_NAMES[colour]} chit)"

    def content(self, kind: int, index: int) -> str:
        return self.monsters[index] if kind == enums.CONTENT_MONSTER else self.items[index]

    def square(self, q: int) -> str:
        if q < 0:
            return "nowhere"
        b = self.board
        return f"Tower {int(b.level[q])} ({int(b.row[q])},{int(b.col[q])})"


def event_fields(row: Sequence[int], r: Replay | None = None) -> dict:
    """The named fields of one event row ``(kind, player, a, b, c)`` (everything but "type", "turn", "player"). With a
    :class:`Replay`, chits, monsters and items are also named."""
    kind, _, a, b, c = (int(x) for x in row)
    if kind == enums.EV_ROUND:
        return {"round": a, "starts": b}
    if kind == enums.EV_ROLLOFF:
        return {"roll": a, "purpose": "set-up" if b == 0 else "round"}
    if kind == enums.EV_DEAL:
        return {"chit": a}
    if kind == enums.EV_PLACE:
        return {"chit": a, "square": b}
    if kind == enums.EV_TURN:
        return {"round": b}
    if kind == enums.EV_TRADE_IN:
        return {"paid": "two_blue" if a == enums.TRADE_TWO_BLUE else "one_purple", "drains": b}
    if kind == enums.EV_POTION:
        return {"chit": a, "hp": b}
    if kind == enums.EV_HELD:
        return {}
    if kind == enums.EV_MOVE_ROLL:
        return {"d6": a, "movement": b}
    if kind == enums.EV_MOVE:
        return {"from": a, "to": b, "cost": c}
    if kind == enums.EV_REVEAL:
        out = {"chit": a, "content": "monster" if b == enums.CONTENT_MONSTER else "item", "index": c}
        return out | ({"name": r.content(b, c)} if r else {})
    if kind in (enums.EV_CANNOT_USE, enums.EV_LEAVE, enums.EV_IMMUNE, enums.EV_USED_UP, enums.EV_FLY_AWAY,
                enums.EV_MONSTER_GONE):
        return {"chit": a}
    if kind == enums.EV_RUSTED:
        return {"chit": a, "chosen_by": b}
    if kind == enums.EV_STOLEN:
        return {"chit": a, "square": b, "chosen_by": c}
    if kind == enums.EV_WEAPON:
        return {"chit": None if a < 0 else a} | ({"name": r.content(*r.chits[a][1:]) if a >= 0 else "own weapon"}
                                                 if r else {})
    if kind == enums.EV_STEP:
        return {"square": a, "cost": b}
    if kind == enums.EV_TAKE:
        return {"chit": a, "gave_up": None if b < 0 else b}
    if kind == enums.EV_DROP:
        return {"chit": a, "square": b}
    if kind in (enums.EV_FIGHT, enums.EV_KILL):
        return {"chit": a, "monster": b} | ({"name": r.monsters[b]} if r else {})
    if kind == enums.EV_INITIATIVE:
        first = {1: "hero", 0: "monster", -1: "tie"}[c]
        return {"hero_roll": None if a < 0 else a, "monster_roll": None if b < 0 else b, "first": first}
    if kind == enums.EV_RUN:
        return {"roll": a, "escaped": bool(b)}
    if kind == enums.EV_BACK:
        return {"square": a}
    if kind in (enums.EV_ATTACK, enums.EV_MONSTER_ATTACK):
        return {"d6": a, "total": b, "hit": bool(c)}
    if kind == enums.EV_DAMAGE:
        return {"damage": a, "monster_hp": b}
    if kind == enums.EV_HIT_ROLL:
        return {"d10": a, "outcome": enums.HIT_NAMES[b]}
    if kind == enums.EV_WOUND:
        return {"lost": a, "hp": b}
    if kind == enums.EV_DRAIN:
        return {"drains": a}
    if kind == enums.EV_DEATH:
        return {"deaths": a, "restarts_on": None if b < 0 else b}
    if kind == enums.EV_OUT:
        return {}
    if kind == enums.EV_TRADE:
        return {"partner": a, "gave": b, "received": None if c < 0 else c, "accepted": c >= 0}
    if kind == enums.EV_WIN:
        return {"victory": enums.VICTORY_NAMES[a], "winners": [p for p in range(8) if (b >> p) & 1]}
    if kind == enums.EV_CAP:
        return {"turns": a, "cap": "fight" if b == 1 else "turns"}
    if kind == enums.EV_SCORE:
        return {"points": a}
    if kind == enums.EV_ILLEGAL:
        return {"decision": enums.DECISION_NAMES[a] if 0 < a < len(enums.DECISION_NAMES) else a, "answer": b}
    return {"a": a, "b": b, "c": c}


def describe_event(row: Sequence[int], r: Replay | None = None) -> str:
    """One event as ``name(player=.., field=..)``, for mismatch messages."""
    fields = event_fields(row, r)
    kind = int(row[0])
    name = enums.EVENT_NAMES[kind] if 0 <= kind < len(enums.EVENT_NAMES) else f"event#{kind}"
    return f"{name}(player={int(row[1])}" + "".join(f", {k}={v}" for k, v in fields.items()) + ")"


def snapshot_record(snap: Snapshot, r: Replay) -> dict:
    """The JSON snapshot after a hero turn (docs/trace.md)."""
    return {"type": "snapshot", "turn": snap.turn, "round": snap.round,
            "heroes": [{"seat": h.seat, "hero": r.heroes[h.hero], "square": None if h.square < 0 else h.square,
                        "level": None if h.square < 0 else int(r.board.level[h.square]), "hp": h.hp,
                        "attack": h.attack, "drains": h.drains, "deaths": h.deaths, "out": h.out, "held": h.held,
                        "items": [r.items[r.chits[c][2]] for c in h.items],
                        "uses_left": [u if u > 0 else None for u in h.uses], "kept": list(h.kept),
                        "standups": h.standups, "points": h.points} for h in snap.heroes],
            "chits_left": {"1": snap.chits_left[0], "2": snap.chits_left[1], "3": snap.chits_left[2]}}


def records(r: Replay) -> Iterator[dict]:
    """The game header, every event, and a snapshot after every hero turn (before the next round, turn, cap or
    score event, and at the end)."""
    g = r.game
    yield header(g.scenario, g.seed, g.game, r.strategies) | {"heroes": [r.heroes[h] for h in g.heroes]}
    turn = told = 0
    for row in g.events:
        kind = int(row[0])
        if turn > told and kind in (enums.EV_TURN, enums.EV_ROUND, enums.EV_CAP, enums.EV_SCORE):
            yield snapshot_record(g.snapshots[turn - 1], r)
            told = turn
        if kind == enums.EV_TURN:
            turn = int(row[2])
        yield {"type": enums.EVENT_NAMES[kind], "turn": turn, "player": None if row[1] < 0 else int(row[1])} | \
            event_fields(row, r)
    if turn > told:
        yield snapshot_record(g.snapshots[turn - 1], r)


def narrate_jsonl(r: Replay) -> Iterator[str]:
    """JSON lines: one record per line."""
    return json_lines(records(r))


# --- English -----------------------------------------------------------------------------------------------------

def _line(row, r: Replay) -> str | None:
    kind, p, a, b, c = (int(x) for x in row)
    who = r.hero(p) if p >= 0 else ""
    if kind == enums.EV_ROUND:
        return f"Round {a}: {r.hero(b)} starts"
    if kind == enums.EV_ROLLOFF:
        return None
    if kind == enums.EV_DEAL:
        return None
    if kind == enums.EV_PLACE:
        return None
    if kind == enums.EV_TURN:
        return f"Turn {a}: {who}"
    if kind == enums.EV_TRADE_IN:
        return f"  trades in {'two blue' if a == enums.TRADE_TWO_BLUE else 'one purple'} monster chit(s): {b} '-1' left"
    if kind == enums.EV_POTION:
        return f"  drinks {r.chit(a)}: {b} hit points"
    if kind == enums.EV_HELD:
        return "  is held by a ghoul and does not move"
    if kind == enums.EV_MOVE_ROLL:
        return f"  rolls {a}: {b} movement points"
    if kind == enums.EV_MOVE:
        return f"  moves from {r.square(a)} to {r.square(b)} ({c} points)" if a != b else "  stays where it is"
    if kind == enums.EV_REVEAL:
        return f"  turns over a {enums.COLOUR_NAMES[r.chits[a][0]]} chit: {r.content(b, c)}"
    if kind == enums.EV_CANNOT_USE:
        return f"  cannot use {r.chit(a)}: it stays on the floor"
    if kind == enums.EV_TAKE:
        return f"  takes {r.chit(a)}" + (f", giving up {r.chit(b)}" if b >= 0 else "")
    if kind == enums.EV_LEAVE:
        return f"  leaves {r.chit(a)} on the floor"
    if kind == enums.EV_DROP:
        return f"  drops {r.chit(a)} on {r.square(b)}"
    if kind == enums.EV_FIGHT:
        return f"  fights the {r.monsters[b]}"
    if kind == enums.EV_INITIATIVE:
        if a < 0:
            return "    the monster always loses the initiative"
        return f"    initiative {a} against {b}: " + {1: "the hero first", 0: "the monster first", -1: "tie"}[c]
    if kind == enums.EV_RUN:
        return f"    tries to run (rolls {a}): " + ("escapes" if b else "caught")
    if kind == enums.EV_BACK:
        return f"    backs up to {r.square(a)}"
    if kind == enums.EV_WEAPON:
        return f"    weapon: {r.chit(a) if a >= 0 else 'its own'}"
    if kind == enums.EV_STEP:
        return None
    if kind == enums.EV_ATTACK:
        return f"    attacks: {a} -> {b}, " + ("hits" if c else "misses")
    if kind == enums.EV_IMMUNE:
        return "    the blow cannot harm it"
    if kind == enums.EV_DAMAGE:
        return f"    {a} damage; the monster has {b} hit points left"
    if kind == enums.EV_USED_UP:
        return f"    {r.chit(a)} is used up"
    if kind == enums.EV_MONSTER_ATTACK:
        return f"    the monster attacks: {a} -> {b}, " + ("hits" if c else "misses")
    if kind == enums.EV_HIT_ROLL:
        return f"    the hero rolls {a} on the monster's table: {enums.HIT_NAMES[b]}"
    if kind == enums.EV_WOUND:
        return f"    loses {a} hit point{'s' if a != 1 else ''}: {b} left"
    if kind == enums.EV_DRAIN:
        return f"    energy drain: '-1' chits {a}"
    if kind == enums.EV_STOLEN:
        return f"    the robber fly carries {r.chit(a)} to {r.square(b)} (chosen by {r.hero(c)})"
    if kind == enums.EV_FLY_AWAY:
        return "    the robber fly finds nothing to steal and goes away"
    if kind == enums.EV_RUSTED:
        return f"    the rust monster eats {r.chit(a)} (chosen by {r.hero(b)})"
    if kind == enums.EV_KILL:
        return f"    kills the {r.monsters[b]}"
    if kind == enums.EV_DEATH:
        return f"  {who} dies" + (f" and restarts on {r.square(b)}" if b >= 0 else "")
    if kind == enums.EV_OUT:
        return f"  {who} is out of the game"
    if kind == enums.EV_MONSTER_GONE:
        return f"    the {r.content(*r.chits[a][1:])} leaves the game"
    if kind == enums.EV_TRADE:
        return (f"  trades {r.chit(b)} to {r.hero(a)} for {r.chit(c)}" if c >= 0
                else f"  offers {r.chit(b)} to {r.hero(a)}, who refuses")
    if kind == enums.EV_WIN:
        names = ", ".join(r.hero(s) for s in range(r.game.n_players) if (b >> s) & 1)
        return f"The game ends ({enums.VICTORY_NAMES[a]}): {names} win{'s' if bin(b).count('1') == 1 else ''}"
    if kind == enums.EV_CAP:
        return f"The {'fight' if b else 'turn'} cap ends the game after {a} hero turns: unfinished."
    if kind == enums.EV_SCORE:
        return f"  {who}: {a} points"
    if kind == enums.EV_ILLEGAL:
        return f"  ILLEGAL answer to {enums.DECISION_NAMES[a]}: {b}"
    return f"  {describe_event(row, r)}"


def _snapshot_line(snap: Snapshot, r: Replay) -> str:
    """After a hero turn: each hero's Tower, hit points, attack, items carried and points so far (or "out"), then the
    chits still lying on each Tower."""
    parts = []
    for h in snap.heroes:
        if h.out:
            parts.append(f"{r.heroes[h.hero]} out")
            continue
        parts.append(f"{r.heroes[h.hero]}: Tower {int(r.board.level[h.square])}, {h.hp} hp, attack {h.attack}, "
                     f"{len(h.items)} item{'' if len(h.items) == 1 else 's'}, {h.points} points")
    left = ", ".join(f"Tower {t} {n}" for t, n in enumerate(snap.chits_left, 1))
    return "  = " + "; ".join(parts) + f" || chits left: {left}"


def map_view(snap: Snapshot, r: Replay, level: int) -> str:
    """One level drawn with the heroes (seat numbers 1-6), face-down chits ('b' blue, 'p' purple backs) and
    revealed chits ('!' an item on the floor, 'S' the Specter) on it."""
    return _draw(r, level, snap.board, [(h.seat, h.square) for h in snap.heroes])


def _draw(r: Replay, level: int, chits, heroes) -> str:
    marks = {}
    for c, q, up in chits:
        colour = r.chits[c][0]
        marks[q] = ("S" if colour == enums.SPECTER_CHIT else "!") if up else ("b" if colour == enums.BLUE else "p")
    for seat, q in heroes:
        if q >= 0:
            marks[q] = str(seat + 1)
    lines = render(r.board, marks, level).splitlines()
    return "\n".join("    " + line for line in lines if line)


def setup_view(r: Replay, level: int = 1) -> str:
    """A level as the set-up left it: every placed chit face down, the heroes outside the front doors."""
    placed = [(e[2], e[3], False) for e in r.game.events if e[0] == enums.EV_PLACE]
    outside = [int(q) for q in r.board.outside]
    return _draw(r, level, placed, [(s, outside[s % len(outside)]) for s in range(r.game.n_players)])


def narrate_text(r: Replay) -> str:
    """The whole game in English: a snapshot line after every hero turn, and the map of a level whenever a hero
    first reaches it (and at the end)."""
    g = r.game
    seats = ", ".join(f"{r.hero(s)} plays {r.strategies[s]}" for s in range(g.n_players))
    lines = [*header_lines("The Haunted Tower", next(records(r)), seats),
             "Set-up: " + ", ".join(f"{sum(1 for e in g.events if e[0] == enums.EV_PLACE and e[1] == s)} chits placed "
                                    f"by seat {s}" for s in range(g.n_players)) + "; Tower 1:",
             setup_view(r)]
    seen_levels = {1}
    turn = told = 0
    for row in g.events:
        kind = row[0]
        if turn > told and kind in (enums.EV_TURN, enums.EV_ROUND, enums.EV_CAP, enums.EV_SCORE):
            told = turn
            snap = g.snapshots[turn - 1]
            lines.append(_snapshot_line(snap, r))
            for h in snap.heroes:
                lv = int(r.board.level[h.square]) if h.square >= 0 else 0
                if lv and lv not in seen_levels:
                    seen_levels.add(lv)
                    lines.append(f"  {r.heroes[h.hero]} reaches Tower {lv}:")
                    lines.append(map_view(snap, r, lv))
        if kind == enums.EV_TURN:
            turn = row[2]
        text = _line(row, r)
        if text is not None:
            lines.append(text)
    if g.snapshots:
        last = g.snapshots[-1]
        levels = sorted({int(r.board.level[h.square]) for h in last.heroes if h.square >= 0}) or [1]
        for lv in levels:
            lines.append(f"The end, Tower {lv}:")
            lines.append(map_view(last, r, lv))
    return "\n".join(lines)


# --- replay: the reference game, checked against the kernel (balance.games.driver.replay) ---------------------------

def kernel_disagreement(ref: ReferenceGame, events: np.ndarray, state: np.ndarray,
                        r: Replay | None = None) -> str | None:
    """Where a kernel trace departs from a reference game: the first differing event, then the final counts and the
    outcome; None if none. Events are told with the scenario's names when the game knows its scenario (or ``r`` is
    given)."""
    if r is None and ref.scenario is not None:
        r = replay_result(ref, ref.scenario)
    problem = first_event_difference(events, ref.events, lambda row: describe_event(row, r))
    if problem:
        return problem
    n = ref.n_players
    final = np.array([[state[layout.hs_at(p, k)] for k in layout.FINAL_FIELDS] for p in range(n)])
    if not np.array_equal(final, ref.final):
        return f"final counts differ: kernel {final.tolist()}, reference {ref.final.tolist()}"
    if (int(state[layout.WINNER]), int(state[layout.WIN_MASK]), int(state[layout.VICTORY])) != \
            (ref.winner, ref.win_mask, ref.victory):
        return "outcome differs"
    return None


def replay_result(ref: ReferenceGame, scenario) -> Replay:
    """What ``replay`` hands back: the reference game with the scenario's names (heroes, monsters, items,
    strategies, each chit's content) and its board."""
    from . import board_of
    from .compile import chit_contents

    c = scenario.components
    kinds = {st.kind: st.name for st in scenario.spec().strategies.values()}
    return Replay(game=ref, board=board_of(Path(scenario.resources["map"])),
                  heroes=tuple(h.name for h in c.heroes), monsters=tuple(m.name for m in c.monsters),
                  items=tuple(i.name for i in c.items),
                  strategies=tuple(kinds.get(k, f"kind {k}") for k in ref.kinds), chits=tuple(chit_contents(c)))
