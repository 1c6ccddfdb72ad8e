"""Narration of one Spooky Tower game: readable English, or JSON lines (schema in ``docs/trace.md``).

The game told is a reference-engine game (:mod:`.reference`). ``driver.replay`` plays it and also has the kernel play
the same seed, and refuses to narrate a game the two engines disagree on (:func:`kernel_disagreement`).
"""
from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from ..driver import first_event_difference, json_lines
from ..trace_header import header, header_lines
from . import enums
from .reference import CardBook, ReferenceGame, Snapshot

KIND_NAMES = {0: "random", 1: "ghost_hunter", 2: "collector", 3: "clock_rusher", 9: "scripted"}


def _fx(code: int) -> str:
    return enums.EFFECT_NAMES[code] if 0 <= code < enums.N_EFFECTS else f"effect#{code}"


def _fx_list(codes: Sequence[int]) -> list[str]:
    return [_fx(c) for c in codes]


def event_fields(row: Sequence[int], book: CardBook | None = None) -> dict:
    """The named fields of one event row ``(kind, player, a, b, c)`` (everything but "type", "turn", "player").

    With a :class:`CardBook`, reveal and Grimoire events also list the card's printed effects.
    """
    kind, _, a, b, c = (int(x) for x in row)
    if kind == enums.EV_TURN:
        return {"round": b, "extra": bool(c)}
    if kind in (enums.EV_ROLL, enums.EV_REROLL):
        return {"dice": [a, b]}
    if kind == enums.EV_TAKE:
        return {"value": a, "card": b, "by_effect": bool(c)}
    if kind == enums.EV_FLIP:
        return {"value": a, "cards": b, "by_effect": bool(c)}
    if kind == enums.EV_REVEAL:
        out = {"card": a, "value": b}
        if book is not None:
            out["photo"] = _fx_list(book.photo[a])
        return out
    if kind == enums.EV_EFFECT:
        return {"effect": _fx(a), "source": enums.SOURCE_NAMES[b], "source_id": c}
    if kind == enums.EV_CLOCK:
        return {"position": a, "dial_effect": _fx(b)}
    if kind == enums.EV_GRIMOIRE:
        out = {"card": a, "n_effects": b}
        if book is not None:
            out["effects"] = _fx_list(book.grimoire[a])
        return out
    if kind == enums.EV_GHOST:
        return {"captured": a}
    if kind == enums.EV_CLUE:
        return {"clues": a}
    if kind == enums.EV_PET:
        return {"victim": None if a < 0 else a}
    if kind == enums.EV_FRAGMENT:
        return {"fragments": a}
    if kind == enums.EV_PARK:
        return {"park_card": a, "requirement": b}
    if kind == enums.EV_LOST:
        return {"effect": _fx(a)}
    if kind == enums.EV_STUCK:
        return {"clock_moves": bool(a)}
    if kind == enums.EV_WIN:
        return {"victory": enums.VICTORY_NAMES[a]}
    if kind == enums.EV_CAP:
        return {"turns": a}
    return {}          # token, extra_turn, park_skip: the type says it all


def describe_event(row: Sequence[int], book: CardBook | None = None) -> str:
    """One event decoded by name, e.g. ``effect(player=1, effect='clock', source='photo', source_id=15)``."""
    kind = int(row[0])
    name = enums.EVENT_NAMES[kind] if 0 <= kind < len(enums.EVENT_NAMES) else f"event#{kind}"
    fields = ", ".join(f"{k}={v!r}" for k, v in event_fields(row, book).items())
    return f"{name}(player={int(row[1])}{', ' if fields else ''}{fields})"


# --- JSON lines ----------------------------------------------------------------------------------------------------

def snapshot_record(snap: Snapshot) -> dict:
    """A snapshot as its JSON object (see docs/trace.md)."""
    return {
        "type": "snapshot", "turn": snap.turn,
        "players": [{"seat": p, "cards": {str(v): list(cards) for v, cards in enumerate(seat.cards) if cards},
                     "ghosts": seat.ghosts, "pets": seat.pets, "fragments": seat.fragments, "clues": seat.clues,
                     "token": seat.token} for p, seat in enumerate(snap.seats)],
        "town": {str(v): n for v, n in enumerate(snap.town) if v > 0},
        "clock": snap.clock, "grimoire_left": snap.grimoire_left, "park_left": snap.park_left,
        "pets_left": snap.pets_left, "fragments_left": snap.fragments_left,
    }


def records(game: ReferenceGame) -> Iterator[dict]:
    """The game as JSON-ready dicts: a "game" header, every event, and a snapshot after each turn."""
    yield header(game.scenario, game.seed, game.game, [KIND_NAMES.get(k, f"kind{k}") for k in game.kinds])
    turn = 0
    for row in game.events:
        kind, player = int(row[0]), int(row[1])
        if kind in (enums.EV_TURN, enums.EV_CAP) and turn > 0:
            yield snapshot_record(game.snapshots[turn - 1])
        if kind == enums.EV_TURN:
            turn = int(row[2])
        yield {"type": enums.EVENT_NAMES[kind], "turn": turn, "player": None if player < 0 else player,
               **event_fields(row, game.book)}
    if turn > 0 and (not game.events or game.events[-1][0] != enums.EV_CAP):
        yield snapshot_record(game.snapshots[turn - 1])


def narrate_jsonl(game: ReferenceGame) -> Iterator[str]:
    """The game as JSON lines: one object per line, no newline characters (schema in docs/trace.md)."""
    return json_lines(records(game))


# --- English -------------------------------------------------------------------------------------------------------

def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def card_name(book: CardBook, card: int) -> str:
    """A card as a designer names it: its Building and its Photo ("Building 7 card (Photo: ghost, clock)"), not the
    internal id the trace keeps."""
    return f"Building {book.value[card]} card (Photo: {', '.join(_fx_list(book.photo[card])) or 'nothing'})"


def _source(book: CardBook, src: int, sid: int) -> str:
    if src == enums.SRC_BONUS:
        return f"Building {book.value[sid]} bonus"
    if src == enums.SRC_PHOTO:
        return f"Photo of a Building {book.value[sid]} card ({', '.join(_fx_list(book.photo[sid])) or 'nothing'})"
    if src == enums.SRC_DIAL:
        return f"clock dial, step {sid}"
    if src == enums.SRC_GRIMOIRE:
        return f"Grimoire card ({', '.join(_fx_list(book.grimoire[sid])) or 'nothing'})"
    return "no legal action"


def _snapshot_line(snap: Snapshot, names: Sequence[str]) -> str:
    """After a turn: each seat's House (cards held, by Building value; 4x2 is two cards of value 4), ghosts and Ghost
    Pets, Amulet fragments, clues and Reroll token; then the Town (cards left in each Building's stack, by value), the
    clock hand and what is left of the Grimoire, the Park, the Ghost Pets and the fragments."""
    seats = []
    for name, seat in zip(names, snap.seats):
        held = [f"{v}x{len(c)}" if len(c) > 1 else str(v) for v, c in enumerate(seat.cards) if c]
        seats.append(f"{name}: House [{' '.join(held)}], {seat.ghosts} ghosts + {seat.pets} pets, "
                     f"{seat.fragments} fragments, {seat.clues} clue{'' if seat.clues == 1 else 's'}, "
                     f"token {'up' if seat.token else 'down'}")
    town = " ".join(f"{v}:{n}" for v, n in enumerate(snap.town) if v > 0)
    return (f"  = {' | '.join(seats)} || Town, cards left by value [{town}]; clock at {snap.clock}; left: "
            f"Grimoire {snap.grimoire_left}, Park {snap.park_left}, pets {snap.pets_left}, "
            f"fragments {snap.fragments_left}")


def _line(row, book: CardBook, names: Sequence[str]) -> str:
    kind, p, a, b, c = (int(x) for x in row)
    if kind == enums.EV_TURN:
        return f"Turn {a} (round {b}{', extra turn' if c else ''}): {names[p]}"
    if kind == enums.EV_ROLL:
        return f"  rolls {a} and {b}"
    if kind == enums.EV_REROLL:
        return f"  turns the Reroll token down and rerolls: {a} and {b}"
    if kind == enums.EV_TAKE:
        return f"  takes a {card_name(book, b)}" + (" (by an effect)" if c else "")
    if kind == enums.EV_FLIP:
        return f"  flips {_plural(b, 'card')} of Building {a}" + (" (by an effect)" if c else "")
    if kind == enums.EV_REVEAL:
        return f"    turns the {card_name(book, a)} Photo side up"
    if kind == enums.EV_EFFECT:
        return f"  * {_fx(a)}, from the {_source(book, b, c)}"
    if kind == enums.EV_CLOCK:
        return f"    the clock hand moves to {a}; the dial shows {_fx(b)}"
    if kind == enums.EV_GRIMOIRE:
        return f"    reveals a Grimoire card: {', '.join(_fx_list(book.grimoire[a])) or 'nothing'}"
    if kind == enums.EV_GHOST:
        return f"    captures {_plural(a, 'ghost')}"
    if kind == enums.EV_CLUE:
        return f"    gains a clue ({a} held)"
    if kind == enums.EV_PET:
        return "    takes a Ghost Pet from the centre" if a < 0 else f"    steals a Ghost Pet from {names[a]}"
    if kind == enums.EV_FRAGMENT:
        return f"    takes an Amulet fragment ({a} held)"
    if kind == enums.EV_TOKEN:
        return "    the Reroll token is available again"
    if kind == enums.EV_EXTRA:
        return "    earns an extra turn"
    if kind == enums.EV_PARK:
        return f"  goes to the Park: takes the top Park card (it needs {_plural(b, 'clue')})"
    if kind == enums.EV_PARK_SKIP:
        return "  gained clues but does not go to the Park"
    if kind == enums.EV_LOST:
        return f"    the {_fx(a)} effect cannot be applied: lost"
    if kind == enums.EV_STUCK:
        return "  no legal action: the clock moves" if a else "  no legal action, keeps the token: turn passes"
    if kind == enums.EV_WIN:
        return f"  {names[p]} WINS by {enums.VICTORY_NAMES[a]}!"
    if kind == enums.EV_CAP:
        return f"Turn cap reached after {a} turns: the game is unfinished."
    return f"  {describe_event(row, book)}"


def narrate_text(game: ReferenceGame, names: Sequence[str] | None = None) -> str:
    """The whole game in readable English, a compact snapshot line after each turn. `names`: one per seat."""
    names = list(names) if names is not None else [f"Seat {p}" for p in range(game.n_players)]
    if len(names) != game.n_players:
        raise ValueError(f"{len(names)} names for {game.n_players} players")
    seats = ", ".join(f"{n} ({KIND_NAMES.get(k, f'kind {k}')})" for n, k in zip(names, game.kinds))
    lines = header_lines("Spooky Tower", next(records(game)), seats)
    turn = 0
    for row in game.events:
        if row[0] in (enums.EV_TURN, enums.EV_CAP) and turn > 0:
            lines.append(_snapshot_line(game.snapshots[turn - 1], names))
        if row[0] == enums.EV_TURN:
            turn = row[2]
        lines.append(_line(row, game.book, names))
    if turn > 0 and (not game.events or game.events[-1][0] != enums.EV_CAP):
        lines.append(_snapshot_line(game.snapshots[turn - 1], names))
    if game.winner >= 0:
        lines.append(f"{names[game.winner]} won by {enums.VICTORY_NAMES[game.victory]} after {game.turns} turns "
                     f"({game.rounds} rounds).")
    return "\n".join(lines)


# --- replay: the reference game, checked against the kernel (driver.replay) ---------------------------------------

def kernel_disagreement(game: ReferenceGame, events: np.ndarray, state: np.ndarray) -> str | None:
    """Where a kernel trace (``rules.trace_game``'s events and final state) departs from a reference game: the
    first differing event, or the first differing final count; None when they agree."""
    from .layout import CNT, PL, SC

    problem = first_event_difference(events, game.events, lambda row: describe_event(row, game.book))
    if problem:
        return problem
    n = game.n_players
    final = state[PL:PL + n * enums.N_PL].reshape(n, enums.N_PL)
    if not np.array_equal(final, game.final):
        return f"final player counters differ: kernel {final.tolist()}, reference {game.final.tolist()}"
    scalars = state[SC:SC + enums.N_SC]
    if not np.array_equal(scalars, game.scalars):
        return f"final shared scalars differ: kernel {scalars.tolist()}, reference {game.scalars.tolist()}"
    counters = state[CNT:CNT + n * enums.N_VALUES * enums.N_CNT].reshape(n, enums.N_VALUES, enums.N_CNT)
    if not np.array_equal(counters, game.counters):
        return "final per-value counters differ"
    return None


def replay_result(game: ReferenceGame, scenario) -> ReferenceGame:
    """What ``replay`` hands back: the reference game itself (it knows its scenario)."""
    return game
