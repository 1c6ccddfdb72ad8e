"""What `balance tune` tunes and for whom: the parameter box (which lineup slots' strategy parameters, each between
its documented low and high) and the objective (whose wins count, in which games).

A *slot* is an entry of the scenario's lineup (its ``seats``, first slot 0): the strategy and parameters one player
brings. Without seat rotation slot N sits at seat N; with it, slot N moves round the table from game to game (the
kernels' ``seat_strategy`` says where). A *block* is a set of slots that share one parameter vector: `--seat N` tunes
slot N, `--team` every slot with parameters (slots of one strategy with equal parameters tuned together), `--role`
the slot that plays that role (The Haunted Tower: a hero), or slot N with ``--seat`` where several slots play it.

The objective is a per-game 0/1 value, counted in some games only: slot N's win (wherever it sits), the team's win
(co-operative games), or a role's win in the games where the role plays, with ``--seat`` only those where slot N
plays it. Which games count depends on the seating alone, never on a strategy's parameters, so every candidate is
judged on the same games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...scenario.model import Scenario, Seat
from ..studies.groups import win_mask


class TuneError(ValueError):
    """A tuning request that cannot be met: one line naming the option, the bad value and what is allowed."""


@dataclass(frozen=True)
class Param:
    """One tuned coordinate: a parameter of a block's strategy, its box and the grid its values are rounded to."""

    key: str                 # "seats.0.take_weight" (the first slot of its block), as --set names it
    block: int
    name: str
    default: float           # the scenario's value
    low: float
    high: float

    @property
    def step(self) -> float:
        """The grid of candidate values: a power of ten about a hundredth of the range (0.1 for 0..10)."""
        return 10.0 ** math.floor(math.log10((self.high - self.low) / 100.0)) if self.high > self.low else 1.0

    def value(self, u: float, centre: float | None = None, width: float = 1.0) -> float:
        """The value at ``u`` in [0, 1) of the box, or of a box ``width`` times as wide around ``centre`` (moved
        inside the box where it would stick out), rounded to the grid and kept inside the box."""
        span = (self.high - self.low) * width
        lo = self.low if centre is None else min(max(centre - span / 2, self.low), self.high - span)
        x = lo + u * span
        digits = max(0, -int(math.floor(math.log10(self.step))))
        return float(min(self.high, max(self.low, round(round(x / self.step) * self.step, digits))))


@dataclass(frozen=True)
class Objective:
    """Per game: whether the tuned player won (``y``) and whether the game counts (``counted``), from a chunk's
    per-game arrays. A module-level class, so that a Dask worker can run it."""

    cooperative: bool
    slot: int | None = None      # only the seat that lineup slot plays
    role: int | None = None      # only the seat that plays this role

    def __call__(self, chunk: dict) -> tuple[np.ndarray, np.ndarray]:
        g = len(chunk["victory"])
        mask = win_mask(chunk, g)
        if self.cooperative and self.role is None:
            return (mask != 0).astype(np.int8), np.ones(g, bool)
        pick = np.ones((g, np.asarray(chunk["seat_strategy"]).shape[1]), bool)
        if self.slot is not None:
            pick &= np.asarray(chunk["seat_strategy"][:g]) == self.slot
        if self.role is not None:
            pick &= np.asarray(chunk["seat_role"][:g]) == self.role
        counted = pick.any(axis=1)
        seat = pick.argmax(axis=1)
        won = (mask != 0) if self.cooperative else ((mask >> seat) & 1).astype(bool)
        return (won & counted).astype(np.int8), counted


@dataclass(frozen=True)
class Target:
    """What is tuned (``blocks`` of slots, ``params``) and judged by what (``objective``); ``what`` says it."""

    what: str                    # "seat 2 (collector)", "the magic_user (seat 1, cautious_looter)", "the team"
    metric: str                  # "seat 2's win rate", "the magic_user's win rate ...", "the team's win rate"
    blocks: tuple[tuple[int, ...], ...]
    params: tuple[Param, ...]
    objective: Objective

    def seats(self, base: Scenario, values: np.ndarray) -> list[Seat]:
        """The lineup with ``values`` (one per param) in the tuned slots."""
        seats = list(base.seats)
        for block, slots in enumerate(self.blocks):
            mine = {p.name: float(v) for p, v in zip(self.params, values) if p.block == block}
            for slot in slots:
                seats[slot] = Seat(strategy=seats[slot].strategy, params={**seats[slot].params, **mine})
        return seats

    def scenario(self, base: Scenario, values: np.ndarray, seed: int | None = None) -> Scenario:
        """``base`` with ``values`` in the tuned slots (each within its documented range, so the scenario stays
        valid), on ``seed`` if given."""
        update = {"seats": self.seats(base, values)}
        if seed is not None:
            update["seed"] = int(seed)
        return base.model_copy(update=update)

    def defaults(self) -> np.ndarray:
        return np.array([p.default for p in self.params])


def _slot_params(base: Scenario, slot: int, option: str) -> None:
    spec = base.spec()
    seat = base.seats[slot]
    if not spec.strategies[seat.strategy].params:
        with_params = sorted(n for n, s in spec.strategies.items() if s.params)
        raise TuneError(f"{option}: seat {slot} plays {seat.strategy}, which has no parameters to tune (allowed: a "
                        f"seat whose strategy has parameters: {', '.join(with_params)}; --set seats.{slot}.strategy="
                        f"NAME changes it)")


def _params(base: Scenario, blocks: tuple[tuple[int, ...], ...]) -> tuple[Param, ...]:
    spec = base.spec()
    out = []
    for b, slots in enumerate(blocks):
        seat = base.seats[slots[0]]
        for p in spec.strategies[seat.strategy].params:
            out.append(Param(f"seats.{slots[0]}.{p.name}", b, p.name, float(seat.params[p.name]), p.low, p.high))
    return tuple(out)


def _seat_number(base: Scenario, seat: int, option: str = "--seat") -> int:
    if not 0 <= seat < base.players:
        raise TuneError(f"{option} {seat}: no such seat (allowed: 0 to {base.players - 1}, the scenario's "
                        f"{base.players} seats)")
    return seat


def target(base: Scenario, seat: int | None = None, role: str | None = None, team: bool = False,
           role_slots=None) -> Target:
    """The target of `--seat`, `--role` (with `--seat` where several slots play the role) or `--team`.
    ``role_slots(role index)``: the slots that play a role (found by playing a few games of ``base``)."""
    spec = base.spec()
    if team and (seat is not None or role is not None):
        raise TuneError(f"--team with {'--seat' if seat is not None else '--role'}: give one of them (allowed: "
                        "--seat N, --role NAME, or --team)")
    if team:
        if not spec.cooperative:
            raise TuneError(f"--team: {spec.title} is not co-operative, its players win alone (allowed: --seat N"
                            + (f" or --role {spec.role_name.upper()}" if spec.role_name else "") + ")")
        blocks: dict[tuple, list[int]] = {}
        for i, s in enumerate(base.seats):
            if spec.strategies[s.strategy].params:
                blocks.setdefault((s.strategy, tuple(sorted(s.params.items()))), []).append(i)
        if not blocks:
            raise TuneError(f"--team: no seat plays a strategy with parameters (allowed: seats of "
                            f"{', '.join(sorted(n for n, s in spec.strategies.items() if s.params))})")
        slots = tuple(tuple(v) for v in blocks.values())
        names = ", ".join(f"seat{'s' if len(b) > 1 else ''} {', '.join(map(str, b))} ({base.seats[b[0]].strategy})"
                          for b in slots)
        return Target(f"the team ({names})", "the team's win rate", slots, _params(base, slots),
                      Objective(True))
    if role is not None:
        if spec.role_name is None:
            raise TuneError(f"--role {role}: {spec.title} has no roles (allowed: --seat N"
                            + (" or --team)" if spec.cooperative else ")"))
        labels = [str(x) for x in spec.role_labels(base)]
        if role not in labels:
            raise TuneError(f"--role {role}: no such {spec.role_name} (allowed: {', '.join(labels)})")
        r = labels.index(role)
        played = sorted(role_slots(r))
        if not played:
            raise TuneError(f"--role {role}: no seat plays the {role} in this scenario (allowed: a {spec.role_name} "
                            "in play)")
        if seat is None:
            if len(played) > 1:
                raise TuneError(f"--role {role}: the {role} is played by seats {', '.join(map(str, played))} of the "
                                "lineup in turn (seat or role rotation); add --seat N to tune seat N's strategy, "
                                f"judged by the {role}'s win rate in the games seat N plays it (allowed: --seat "
                                f"{' or '.join(map(str, played))})")
            seat = played[0]
        elif _seat_number(base, seat) not in played:
            raise TuneError(f"--seat {seat} with --role {role}: seat {seat} never plays the {role} (allowed: "
                            f"--seat {' or '.join(map(str, played))})")
        _slot_params(base, seat, f"--role {role}")
        strat = base.seats[seat].strategy
        only = len(played) > 1
        metric = f"the {role}'s win rate" + (f" in the games seat {seat} plays it" if only else "")
        return Target(f"the {role} (seat {seat}, {strat})", metric, ((seat,),), _params(base, ((seat,),)),
                      Objective(spec.cooperative, seat if only else None, r))
    if seat is None:
        raise TuneError("tune: say whose win rate to raise (allowed: --seat N, --role NAME, or --team)")
    _seat_number(base, seat)
    _slot_params(base, seat, f"--seat {seat}")
    metric = "the team's win rate" if spec.cooperative else f"seat {seat}'s win rate"
    return Target(f"seat {seat} ({base.seats[seat].strategy})", metric, ((seat,),), _params(base, ((seat,),)),
                  Objective(spec.cooperative, None if spec.cooperative else seat))
