"""The three strengths of play a finding is checked under: the scenario's strategies as written, the same strategies
with their parameters tuned, and lookahead players that search their decisions with those strategies as their base.

*Tuned*: each seat's strategy (a co-operative game: the team's) is tuned for its own win rate with the rest of the
table as written (``balance tune``), and a tuning enters only when its confirmation on fresh seeds shows a gain whose
95% interval lies above zero; the confirmed values are then played together. Or the caller names a tuned scenario (a
``balance tune -o`` fragment) and no tuning is run. *Lookahead*: every seat plays the game's lookahead strategy (the
strategy named by ``GameSpec.lookahead``) on its own strategy as the base, when the lookahead accepts that strategy as
a base, else on the lookahead's default base. A game without a lookahead strategy has no such level.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...scenario.model import Scenario, ScenarioError, load_scenario
from ..studies.study import as_scenario

AS_WRITTEN, TUNED, LOOKAHEAD = "as written", "tuned", "lookahead"
TUNE_CANDIDATES = 8             # a smaller search than `balance tune`'s default: one stage, eight candidates
TUNE_FIRST_ROUND = 1_000
TUNE_STAGES = 1


@dataclass
class Level:
    name: str                   # AS_WRITTEN, TUNED or LOOKAHEAD
    scenario: Scenario
    how: str                    # one line: what changed from the scenario as written


def lookahead_name(spec) -> str | None:
    """The game's lookahead strategy, or None."""
    return spec.lookahead if spec.lookahead in spec.strategies else None


def _with_seats(base: Scenario, seats: list[dict], name: str) -> Scenario:
    d = {k: v for k, v in base.to_dict().items() if k not in ("seats", "strategy")}
    return load_scenario(d | {"seats": seats, "name": f"{base.name}, {name}"})


def lookahead_level(base: Scenario, playouts: int | None) -> Level | None:
    """Every seat on the lookahead, its own strategy as the base where the lookahead takes it."""
    spec = base.spec()
    name = lookahead_name(spec)
    if name is None:
        return None
    look = spec.strategies[name]
    limits = {p.name: p for p in look.params}
    seats, words = [], []
    for seat in base.seats:
        kind = spec.strategies[seat.strategy].kind
        b = limits["base"]
        base_kind = kind if b.low <= kind <= b.high else int(b.default)
        chosen = next(s.name for s in spec.strategies.values() if s.kind == base_kind)
        params = {"base": base_kind} | ({"playouts": playouts} if playouts is not None else {})
        seats.append({"name": name, **params})
        words.append(f"{name}({chosen})")
    if playouts is not None:
        p = limits["playouts"]
        if not p.low <= playouts <= p.high:
            raise ScenarioError("--playouts", f"{playouts}: out of range (allowed: {p.low:g} to {p.high:g})")
    n = playouts if playouts is not None else int(limits["playouts"].default)
    return Level(LOOKAHEAD, _with_seats(base, seats, "lookahead players"),
                 f"every seat searches with {n} playouts a choice: " + ", ".join(words))


def tunable(base: Scenario) -> list[int]:
    """The seats whose strategies have parameters to tune."""
    spec = base.spec()
    return [s for s, seat in enumerate(base.seats) if spec.strategies[seat.strategy].params
            and seat.strategy != lookahead_name(spec)]


def tuned_scenario(base: Scenario, tuned) -> Scenario:
    """A scenario tuned before (path, dict or Scenario) on ``base``'s seed and games; one that is not a version of
    the same game at the same table raises ScenarioError."""
    sc = as_scenario(tuned, games=base.games, seed=base.seed)
    if sc.spec().name != base.spec().name or sc.players != base.players:
        raise ScenarioError("--tuned", f"{sc.name}: another game or player count than {base.name} (allowed: a "
                            "tuned version of the same scenario, such as `balance tune -o` writes)")
    return sc


def tuned_level(base: Scenario, tuned, threads=None, progress=None) -> tuple[Level | None, list]:
    """The tuned level and the tunings run for it (none when ``tuned`` names a scenario). ``tuned``: None to tune
    here, a scenario (path, dict or Scenario) tuned before, or False for no tuned level."""
    if tuned is False:
        return None, []
    if tuned is not None:
        sc = tuned_scenario(base, tuned)
        return Level(TUNED, sc, f"strategies from {sc.name}"), []
    from ..tuning import tune
    spec = base.spec()
    seats = tunable(base)
    if not seats:
        return None, []
    runs = [dict(team=True)] if spec.cooperative else [dict(seat=s) for s in seats]
    tunings, lineup, words = [], [{"name": s.strategy, **s.params} for s in base.seats], []
    for i, how in enumerate(runs):
        if progress is not None:
            progress(f"tuning {'the team' if spec.cooperative else 'seat ' + str(how['seat'])} ({i + 1} of "
                     f"{len(runs)})")
        t = tune(base, **how, candidates=TUNE_CANDIDATES, first_round=TUNE_FIRST_ROUND, stages=TUNE_STAGES,
                 threads=threads)
        tunings.append(t)
        c = t.confirmation
        if not t.confirmed or not float(c["gain_lo"].iloc[0]) > 0:
            continue
        for s in (range(len(lineup)) if spec.cooperative else [how["seat"]]):
            if s in seats:
                lineup[s] = {"name": t.scenario.seats[s].strategy, **t.scenario.seats[s].params}
        words.append(t.meta["target"])
    if not words:           # nothing to play: the level would be the scenario as written
        return None, tunings
    return Level(TUNED, _with_seats(base, lineup, "tuned"), "tuned and confirmed: " + ", ".join(words)), tunings
