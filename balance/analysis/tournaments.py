"""``balance tournament``: every strategy variant against the others, at every seating, and ratings from it.

A competitive game plays every table of distinct variants (every multiset with at least two different variants
when there are fewer variants than seats), each at every distinct order of its seats, on the same seed and game
indices, so that seat effects cancel and every seating sees the same shuffles and dice. Decided games (one winner)
feed a Bradley-Terry (Luce) fit (``balance.analysis.ratings``); ties and unfinished games are counted and left out.

A co-operative game (``GameSpec.cooperative``) has no winner among its players: every team of variants (each
multiset, same-strategy teams included) plays at every seating, and each team is rated by its win rate; each
variant by the mean win rate of the teams it is in.
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..scenario.layers import override_name
from ..scenario.model import Scenario, ScenarioError, load_scenario
from ..stats.intervals import wilson
from .shown import Shown

FIRST_ROUND = 1_000
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Variant:
    """One contestant: a strategy with some parameters changed; ``label`` as written on the command line."""

    label: str
    strategy: str
    params: dict


def parse_variants(text: str | list, label: str = "--strategies") -> list[Variant]:
    """``"a,b,c:param=value:other=value"`` (or a list of such items) as variants; a bad item raises ScenarioError."""
    from ..scenario.layers import parse_value
    items = [s.strip() for s in (text.split(",") if isinstance(text, str) else text)]
    out: list[Variant] = []
    for item in items:
        name, *pairs = item.split(":")
        params = {}
        for pair in pairs:
            key, eq, value = pair.partition("=")
            if not eq or not key:
                raise ScenarioError(label, f"{item!r}: not a strategy variant (allowed: name or "
                                    "name:param=value[:param=value], items separated by commas)")
            params[key.strip()] = parse_value(value.strip())
        if not name or item in [v.label for v in out]:
            raise ScenarioError(label, f"{item!r}: an empty or repeated item (allowed: distinct strategy variants)")
        out.append(Variant(item, name.strip(), params))
    if len(out) < 2:
        raise ScenarioError(label, f"{text!r}: needs at least two variants (allowed: two or more, such as "
                            "random,collector)")
    return out


def tables(k: int, players: int, cooperative: bool) -> list[tuple[int, ...]]:
    """The tables to play, as sorted tuples of variant indices (see the module docstring)."""
    if cooperative:
        return list(itertools.combinations_with_replacement(range(k), players))
    if k >= players:
        return list(itertools.combinations(range(k), players))
    return [t for t in itertools.combinations_with_replacement(range(k), players) if len(set(t)) > 1]


def seatings(table: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct order of a table's seats, sorted."""
    return sorted(set(itertools.permutations(table)))


@dataclass
class _Seating:
    table: int
    order: tuple[int, ...]
    stepper: object                  # its ``reduced``: stepper.winner_counts summed over the games played

    @property
    def won_alone(self) -> np.ndarray:
        """[P] games each seat won alone."""
        return self.stepper.reduced[:-2]

    @property
    def ties(self) -> int:
        return int(self.stepper.reduced[-2])

    @property
    def none(self) -> int:
        return int(self.stepper.reduced[-1])


@dataclass
class Tournament(Shown):
    """The tournament's tables: ``ratings`` (one row per variant, ranked), ``matrix`` (competitive: how often the
    row's variant won the games it played with the column's; co-operative with two seats: the team win rate of each
    pairing), ``tables`` (one row per table), and ``meta``."""

    FINDINGS = "balance.analysis.tournament_findings:findings"
    # A tournament shows itself (figures, text, Markdown), as a Results does: the views live in balance.present, the
    # layer above, and are imported when asked for (this layer's only upward import).
    PLOTS = "balance.present.tournaments_view:TournamentPlots"
    SUMMARY = "balance.present.tournaments_view:summary"
    MARKDOWN = "balance.present.tournaments_view:markdown"

    variants: list[Variant]
    cooperative: bool
    ratings: pd.DataFrame
    matrix: pd.DataFrame
    tables: pd.DataFrame
    meta: dict = field(default_factory=dict)
    pair_games: pd.DataFrame | None = None     # competitive: games the row's and the column's variants shared
    rating_cov: pd.DataFrame | None = None     # competitive: the covariance of the fitted ratings

    @property
    def gaps(self) -> pd.DataFrame:
        """Every pair of variants, the higher-ranked first: the difference of their ratings (competitive; its 95%
        interval from the fit's covariance) or of their teams' mean win rates (co-operative; the two intervals'
        standard errors combined as independent), and whether that interval excludes zero."""
        r = self.ratings
        col = "team_win_rate" if self.cooperative else "rating"
        rows = []
        for i in range(len(r)):
            for j in range(i + 1, len(r)):
                a, b = r.iloc[i], r.iloc[j]
                if self.cooperative:
                    var = sum(((x.ci_high - x.ci_low) / (2 * Z95)) ** 2 for x in (a, b))
                else:
                    c = self.rating_cov
                    var = c.at[a.strategy, a.strategy] + c.at[b.strategy, b.strategy] - 2 * c.at[a.strategy, b.strategy]
                d, half = float(a[col] - b[col]), Z95 * math.sqrt(max(float(var), 0.0))
                rows.append({"higher": a.strategy, "lower": b.strategy, "gap": d, "ci_low": d - half,
                             "ci_high": d + half, "clear": bool(d - half > 0)})
        return pd.DataFrame(rows, columns=["higher", "lower", "gap", "ci_low", "ci_high", "clear"])

    def to_dict(self) -> dict:
        from ..stats.results import json_safe
        return json_safe({"findings": list(self.findings["text"]), "cooperative": self.cooperative,
                          "ratings": self.ratings.to_dict(orient="records"),
                          "matrix": self.matrix.reset_index().to_dict(orient="records"),
                          "tables": self.tables.to_dict(orient="records"), **self.meta})


def _seat_scenario(base: dict, variants: list[Variant], order: tuple[int, ...]) -> Scenario:
    d = {k: v for k, v in base.items() if k not in ("seats", "strategy")}
    d.update(seat_rotation=False, seats=[{"name": variants[i].strategy, **variants[i].params} for i in order])
    return load_scenario(d)


def _check_variant(base: dict, v: Variant, label: str = "--strategies") -> None:
    """A variant the game cannot play, as one line naming it (``label``: where the variants came from)."""
    d = {k: x for k, x in base.items() if k not in ("seats", "strategy")}
    try:
        load_scenario(d | {"strategy": {"name": v.strategy, **v.params}})
    except ScenarioError as err:        # each problem a line naming the variant
        raise ScenarioError.every([ScenarioError(label, f"{v.label}: " + line.split(": ", 1)[-1].replace(
            "strategy.", "", 1)) for line in err.lines]) from None


def tournament(scenario=None, strategies="", *, games: int | None = None, seed=None, players=None, threads=None,
               chunk_size=None, target_ci=None, max_games: int = 1_000_000, sets: dict | None = None,
               client=None) -> Tournament:
    """Play the tournament of ``strategies`` (see :func:`parse_variants`) on ``scenario``'s rules and components.

    ``games``: games per table (default: the scenario's), split evenly over its seatings (each at least 1). With
    ``target_ci``, tables play 1,000 games, then twice as many, until every variant's (co-operative: every team's)
    win-rate interval is at most that wide, or ``max_games`` per table. ``client``: a ``dask.distributed.Client``
    whose workers play the seatings' games, each seating's range of games a task (the same numbers as here)."""
    from ..run.runner import DEFAULT_CHUNK
    from ..run.stepper import Stepper, play_together, winner_counts

    if games is not None and target_ci is not None:
        raise ValueError(f"games={games} with target_ci={target_ci}: give one of them")
    base = load_scenario(scenario, seed=seed, players=players, **(sets or {}))
    spec = base.spec()
    label = override_name("strategies", strategies)     # --strategies, or the Python keyword
    variants = parse_variants(strategies, label) if not isinstance(strategies, list) or \
        isinstance(strategies[0], str) else strategies
    base_dict = base.to_dict()
    for v in variants:
        _check_variant(base_dict, v, label)
    coop = spec.cooperative
    plays = []
    counts = functools.partial(winner_counts, players=base.players)
    for t, table in enumerate(tables(len(variants), base.players, coop)):
        for order in seatings(table):
            sc = _seat_scenario(base_dict, variants, order)
            plays.append(_Seating(t, order, Stepper(sc, threads, chunk_size or DEFAULT_CHUNK, reduce=counts)))
    table_list = tables(len(variants), base.players, coop)
    per_table = {t: sum(1 for p in plays if p.table == t) for t in range(len(table_list))}

    def play(n_table: int) -> None:
        play_together([(p.stepper, max(1, math.ceil(n_table / per_table[p.table]))) for p in plays], client)

    if target_ci is None:
        n = games or base.games
        play(n)
    else:
        n = FIRST_ROUND
        while True:
            play(n)
            ratings, _, table_frame, _, _ = _frames(variants, plays, table_list, coop)
            width = table_frame["ci_high"] - table_frame["ci_low"] if coop else \
                ratings["win_ci_high"] - ratings["win_ci_low"]
            if width.max() <= target_ci or n >= max_games:
                break
            n = min(2 * n, max_games)
    ratings, matrix, table_frame, pair_games, cov = _frames(variants, plays, table_list, coop)
    meta = {"scenario": base.name, "game": spec.name, "title": spec.title, "players": base.players,
            "seed": base.seed, "games_per_table": n, "games": int(sum(p.stepper.played for p in plays)),
            "seatings": len(plays), "ties": int(sum(p.ties for p in plays)),
            "unfinished": int(sum(p.none for p in plays)) if not coop else None, "target_ci": target_ci}
    return Tournament(variants, coop, ratings, matrix, table_frame, meta, pair_games, cov)


def _frames(variants, plays, table_list, coop):
    K, labels = len(variants), [v.label for v in variants]
    rows = []
    for t, table in enumerate(table_list):
        mine = [p for p in plays if p.table == t]
        n = sum(p.stepper.played for p in mine)
        row = {"table": " + ".join(labels[i] for i in table), "games": n}
        if coop:
            wins = sum(int(p.stepper.agg.tallies.seat_wins[0]) for p in mine)
            lo, hi = wilson(wins, n)
            row.update(wins=wins, win_rate=wins / n, ci_low=float(lo), ci_high=float(hi))
        else:
            for k in range(K):
                row[f"wins {labels[k]}"] = int(sum(p.won_alone[[s for s, v in enumerate(p.order) if v == k]].sum()
                                                   for p in mine)) if k in table else None
            row["ties"] = sum(p.ties for p in mine)
            row["unfinished"] = sum(p.none for p in mine)
        rows.append(row)
    table_frame = pd.DataFrame(rows)
    if not coop:
        for label in labels:
            table_frame[f"wins {label}"] = table_frame[f"wins {label}"].astype("Int64")
    ratings, matrix, pair_games, cov = (_coop_frames if coop else _luce_frames)(variants, plays, table_list,
                                                                                table_frame, labels, K)
    return ratings, matrix, table_frame, pair_games, cov


def _luce_frames(variants, plays, table_list, table_frame, labels, K):
    from .ratings import fit_luce, intervals
    counts = np.zeros((len(plays), K))
    decided = np.zeros(len(plays))
    wins = np.zeros(K)
    games = np.zeros(K)
    together = np.zeros((K, K))
    won_with = np.zeros((K, K))
    for s, p in enumerate(plays):
        for seat, k in enumerate(p.order):
            counts[s, k] += 1
            wins[k] += p.won_alone[seat]
            games[k] += p.stepper.played
        decided[s] = p.won_alone.sum()
        present = sorted(set(p.order))
        for a in present:
            w = sum(p.won_alone[seat] for seat, k in enumerate(p.order) if k == a)
            for b in present:
                if a != b:
                    together[a, b] += p.stepper.played
                    won_with[a, b] += w
    theta, cov = fit_luce(counts, decided, wins)
    lo, hi = intervals(theta, cov)
    wl, wh = wilson(wins.astype(np.int64), games.astype(np.int64))
    ratings = pd.DataFrame({"strategy": labels, "rating": theta, "ci_low": lo, "ci_high": hi,
                            "games": games.astype(np.int64), "wins": wins.astype(np.int64), "win_rate": wins / games,
                            "win_ci_low": wl, "win_ci_high": wh})
    ratings = ratings.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    ratings.insert(0, "rank", np.arange(1, K + 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        matrix = pd.DataFrame(won_with / together, index=pd.Index(labels, name="strategy"), columns=labels)
    return (ratings, matrix, pd.DataFrame(together.astype(np.int64), index=matrix.index, columns=labels),
            pd.DataFrame(cov, index=labels, columns=labels))


def _coop_frames(variants, plays, table_list, table_frame, labels, K):
    rates = [[] for _ in range(K)]
    for t, table in enumerate(table_list):
        for k in set(table):
            rates[k].append((table_frame.loc[t, "win_rate"], table_frame.loc[t, "games"]))
    mean, lo, hi = [], [], []
    for k in range(K):
        r = np.array([x for x, _ in rates[k]])
        n = np.array([g for _, g in rates[k]], dtype=np.float64)
        m = float(r.mean())
        se = math.sqrt(float((r * (1 - r) / n).sum())) / len(r)     # the teams' games are independent runs
        mean.append(m), lo.append(m - 1.959963984540054 * se), hi.append(m + 1.959963984540054 * se)
    ratings = pd.DataFrame({"strategy": labels, "team_win_rate": mean, "ci_low": lo, "ci_high": hi,
                            "teams": [len(r) for r in rates]})
    ratings = ratings.sort_values("team_win_rate", ascending=False, kind="stable").reset_index(drop=True)
    ratings.insert(0, "rank", np.arange(1, K + 1))
    matrix = pd.DataFrame(np.nan, index=pd.Index(labels, name="strategy"), columns=labels)
    if len(table_list[0]) == 2:
        for t, (a, b) in enumerate(table_list):
            matrix.iloc[a, b] = matrix.iloc[b, a] = table_frame.loc[t, "win_rate"]
    return ratings, matrix, None, None
