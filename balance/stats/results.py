"""The results of a balance run: tables (pandas), text summary, JSON, files and plots, all from integer tallies.

A :class:`Results` is built by :meth:`balance.stats.Aggregator.finalize` (or read back with
:meth:`Results.load`). It holds the :class:`~balance.stats.Tallies`, the run's metadata and the per-game rows
kept for inspection. Every table is derived from the tallies on demand; nothing here depends on which game was played.
"""
from __future__ import annotations

import json
import os
import uuid
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.outputs import atomic_directory
from ..core.records import json_safe, package_version, scenario_hash  # noqa: F401  (json_safe, package_version: re-exported)
from . import findings as _findings
from . import team as _team
from .tallies import Tallies
from .frames import _group_frame, _means_frame, _rate_table  # noqa: F401  (_group_frame: tests)
from .intervals import (SeatTest, histogram_moments, histogram_quantile, mean_interval,
                              seat_equality_test, wilson)


class Results:
    """Aggregated outcomes of a run, with metadata (``meta``) and the kept per-game rows (``games``)."""

    LENGTHS = ("turns", "rounds")

    def __init__(self, tallies: Tallies, meta: dict | None = None, games: pd.DataFrame | None = None):
        self.tallies = tallies
        meta = dict(meta or {})
        meta.setdefault("game", tallies.game)
        meta.setdefault("lineup", list(tallies.lineup))
        meta.setdefault("turn_cap", tallies.turn_cap)
        meta.setdefault("seed", None)
        meta.setdefault("scenario", None)
        meta.setdefault("scenario_toml", None)
        meta.setdefault("timing", {})
        meta["games_played"] = tallies.games
        meta.setdefault("package_version", package_version())
        meta.setdefault("scenario_hash", scenario_hash(meta["scenario"] if meta["scenario"] is not None
                                                       else meta["scenario_toml"]))
        self.meta = json_safe(meta)
        self.games = games if games is not None else pd.DataFrame()
        self._group_cache: dict[str, pd.DataFrame] = {}

    def __str__(self) -> str:
        """``print(results)``: the summary a terminal shows (findings first, then the tables)."""
        return self.summary()

    def __repr__(self) -> str:
        return f"<Results {self.tallies.game}: {self.tallies.games} games, lineup {list(self.tallies.lineup)}>"

    @property
    def plot(self):
        """Figures: ``.plot.seats()``, ``.lengths()``, ``.victories()``, ``.cards()``, ``.win_rate_by_length()``
        (:class:`balance.present.plots.ResultPlots`, imported when asked for: see "views" below)."""
        from ..present.plots import ResultPlots
        return ResultPlots(self)

    # --- tables ----------------------------------------------------------------------------------------------
    @cached_property
    def seats(self) -> pd.DataFrame:
        """One row per seat: seat, strategy ("mixed" when rotation put several at it), games, wins, rate, 95% CI."""
        t = self.tallies
        names = []
        for s in range(len(t.lineup)):
            here = {t.lineup[j] for j in np.nonzero(t.seat_slot_games[s])[0]}
            names.append(here.pop() if len(here) == 1 else (t.lineup[s] if not here else "mixed"))
        keys = {"seat": np.arange(len(t.lineup)), "strategy": names}
        if t.role_name is not None:
            roles = []
            for s in range(len(t.lineup)):
                here = np.nonzero(t.seat_role_games[s])[0]
                roles.append(t.role_labels[here[0]] if len(here) == 1 else ("mixed" if len(here) else "-"))
            keys[t.role_name] = roles
        df = _rate_table(keys, t.seat_wins, t.seat_games)
        if t.points_counter:
            means = self.seat_means
            for col in (f"{t.points_counter}_mean", f"{t.points_counter}_ci_low", f"{t.points_counter}_ci_high"):
                df[col] = means[col]
        return df

    @cached_property
    def slots(self) -> pd.DataFrame:
        """One row per lineup entry (strategy slot), wherever it sat."""
        t = self.tallies
        return _rate_table({"slot": np.arange(len(t.lineup)), "strategy": list(t.lineup)}, t.slot_wins, t.slot_games)

    @cached_property
    def strategy_seats(self) -> pd.DataFrame:
        """The strategy x seat table: one row per (distinct strategy, seat) it sat at, with games, wins, win rate and
        Wilson 95% interval, so a seat's advantage and a strategy's strength can be read apart when the lineup
        rotates. Empty for results saved before this tally was kept."""
        t = self.tallies
        if t.seat_slot_wins is None:
            return pd.DataFrame(columns=["strategy", "seat", "games", "wins", "win_rate", "ci_low", "ci_high"])
        order = list(dict.fromkeys(t.lineup))
        rows = {"strategy": [], "seat": [], "games": [], "wins": []}
        for name in order:
            cols = [j for j, s in enumerate(t.lineup) if s == name]
            for seat in range(len(t.lineup)):
                games = int(t.seat_slot_games[seat, cols].sum())
                if games:
                    rows["strategy"].append(name)
                    rows["seat"].append(seat)
                    rows["games"].append(games)
                    rows["wins"].append(int(t.seat_slot_wins[seat, cols].sum()))
        return _rate_table({"strategy": rows["strategy"], "seat": np.asarray(rows["seat"], dtype=np.int64)},
                           rows["wins"], rows["games"])

    @property
    def rotates(self) -> bool:
        """Whether several strategies shared a seat (a mixed lineup with seat rotation): only then do the
        Strategies and Strategy x seat tables say more than the Seats table."""
        t = self.tallies
        return len(set(t.lineup)) > 1 and bool(((t.seat_slot_games > 0).sum(axis=1) > 1).any())

    @cached_property
    def strategies(self) -> pd.DataFrame:
        """One row per distinct strategy name, summed over its lineup slots (rate per appearance)."""
        t = self.tallies
        order = list(dict.fromkeys(t.lineup))
        idx = np.array([order.index(s) for s in t.lineup])
        wins = np.array([t.slot_wins[idx == i].sum() for i in range(len(order))], dtype=np.int64)
        games = np.array([t.slot_games[idx == i].sum() for i in range(len(order))], dtype=np.int64)
        return _rate_table({"strategy": order}, wins, games)

    # --- the team (co-operative games), categories and contrasts (stats.team) -----------------------------------
    @cached_property
    def team(self) -> pd.DataFrame:
        """A co-operative game's result, one row: lineup, games, wins, win rate with its Wilson 95% interval, and the
        rounds of won games (mean with its t 95% interval, median). Empty for a competitive game."""
        return _team.team_frame(self.tallies) if self.tallies.cooperative else pd.DataFrame()

    @cached_property
    def endings(self) -> pd.DataFrame:
        """Why games end, won or lost: one row per victory kind with its won and lost games, its share of all games
        and its share of the lost games (Wilson 95% each). Empty for a game that does not tally wins per kind."""
        return _team.endings_frame(self.tallies) if self.tallies.victory_wins is not None else pd.DataFrame()

    @cached_property
    def categories(self) -> dict[str, pd.DataFrame]:
        """Every category's table (see :meth:`category`), by name; empty for a game without categories."""
        return {c.name: _team.category_frame(c) for c in self.tallies.categories}

    def category(self, name: str) -> pd.DataFrame:
        """One row per label of a category (``GameSpec.categories``; Climbing Tower: "tower"), in label order:
        games, wins, win rate with its Wilson 95% interval, finished games, mean rounds, mean rounds of won games."""
        if name not in self.categories:
            raise KeyError(f"no category {name!r}; this game has {', '.join(self.categories) or 'none'}")
        return self.categories[name]

    @cached_property
    def contrasts(self) -> pd.DataFrame:
        """The scenario and each contrast variant played beside it (``GameSpec.contrasts``,
        ``balance.run.contrasts``): games, wins, win rate (Wilson 95%) and the difference from the scenario with
        Newcombe's unpaired 95% interval. Empty when no contrast was played."""
        records = self.meta.get("contrasts")
        return _team.contrast_frame(self.tallies, records) if records else pd.DataFrame()

    def with_contrasts(self, records: list[dict], timing: dict | None = None) -> Results:
        """These results with the contrast variants' records (``balance.run.contrasts.play``) in the meta, and the
        timing that counts their games."""
        meta = dict(self.meta, contrasts=records) | ({"timing": timing} if timing is not None else {})
        return Results(self.tallies, meta=meta, games=self.games)

    @property
    def headline_titles(self) -> tuple[str, str]:
        """The titles of the two tables a short summary shows: who wins, and how games end."""
        return ("Team", "Endings") if self.tallies.cooperative else ("Seats", "Victory kinds")

    @cached_property
    def seat_test(self) -> SeatTest:
        """Chi-square test that all seats win equally often among finished games: (chi2, dof, p_value)."""
        return seat_equality_test(self.tallies.seat_wins, self.tallies.seat_finished)

    @cached_property
    def victories(self) -> pd.DataFrame:
        """One row per victory kind (including "unfinished"): kind, games, share of all games, 95% CI."""
        t = self.tallies
        games = t.victory_games
        lo, hi = wilson(games, t.games)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = games / t.games
        return pd.DataFrame({"kind": list(t.victory_names), "games": games, "share": share,
                             "ci_low": lo, "ci_high": hi})

    def _hist(self, which: str, victory: str | None = None) -> np.ndarray:
        if which not in self.LENGTHS:
            raise ValueError(f"which must be one of {self.LENGTHS}, not {which!r}")
        h = getattr(self.tallies, f"{which}_hist")
        return h.sum(axis=0) if victory is None else h[list(self.tallies.victory_names).index(victory)]

    @cached_property
    def lengths(self) -> pd.DataFrame:
        """Rows "turns" and "rounds" over all games: games, mean with t 95% CI, median, p10, p90 (inverted CDF)."""
        rows = []
        for which in self.LENGTHS:
            h = self._hist(which)
            n, s, ss = histogram_moments(h)
            mean, lo, hi = mean_interval(n, s, ss)
            p10, med, p90 = (np.nan,) * 3 if n == 0 else histogram_quantile(h, [0.1, 0.5, 0.9]).astype(float)
            rows.append({"measure": which, "games": n, "mean": mean, "mean_ci_low": lo, "mean_ci_high": hi,
                         "median": med, "p10": p10, "p90": p90})
        if self.tallies.cooperative:        # the rounds the team needed to win
            h = _team.won_rounds_histogram(self.tallies)
            n, s, ss = histogram_moments(h)
            mean, lo, hi = mean_interval(n, s, ss)
            p10, med, p90 = (np.nan,) * 3 if n == 0 else histogram_quantile(h, [0.1, 0.5, 0.9]).astype(float)
            rows.append({"measure": "rounds_won", "games": n, "mean": mean, "mean_ci_low": lo, "mean_ci_high": hi,
                         "median": med, "p10": p10, "p90": p90})
        return pd.DataFrame(rows)

    def length_histogram(self, which: str = "turns", victory: str | None = None) -> pd.DataFrame:
        """Games per length (from the shortest to the longest game played), optionally for one victory kind."""
        h = self._hist(which, victory)
        nz = np.nonzero(h)[0]
        lo, hi = (0, -1) if nz.size == 0 else (nz[0], nz[-1])
        return pd.DataFrame({"length": np.arange(lo, hi + 1, dtype=np.int64), "games": h[lo:hi + 1]})

    def win_rate_by_length(self, which: str = "rounds") -> pd.DataFrame:
        """For each length with games: games, then per seat its wins and win share of the games of that length."""
        h = self._hist(which)
        wins = getattr(self.tallies, f"seat_wins_by_{which}")
        keep = np.nonzero(h)[0]
        df = pd.DataFrame({"length": keep.astype(np.int64), "games": h[keep]})
        for s in range(wins.shape[1]):
            df[f"seat{s}_wins"] = wins[keep, s]
            df[f"seat{s}_share"] = wins[keep, s] / h[keep]
        return df

    def group(self, name: str | None = None) -> pd.DataFrame:
        """One row per thing of a counter group (default: the first, Spooky Tower's Building values; The Haunted
        Tower: "monster", "item"): per-game rate of each counter, the same split by whether the seat won, ratios to
        the group's base counter, and the win rate of the seats that used the thing against those that did not,
        with the difference's Newcombe 95% interval."""
        groups = {g.name: g for g in self.tallies.groups}
        if name is not None and name not in groups:
            raise KeyError(f"no counter group {name!r}; this game has {', '.join(groups)}")
        return self._group_table(self.tallies.groups[0].name if name is None else name)

    def _group_table(self, name: str) -> pd.DataFrame:
        t = self.tallies
        if name not in self._group_cache:
            self._group_cache[name] = _group_frame(t, next(g for g in t.groups if g.name == name))
        return self._group_cache[name]

    @property
    def cards(self) -> pd.DataFrame:
        """The first counter group's table (Spooky Tower: one row per Building value), see :meth:`group`."""
        return self.group()

    @property
    def items(self) -> pd.DataFrame:
        """The game-neutral name of :attr:`cards`."""
        return self.cards

    @cached_property
    def seat_means(self) -> pd.DataFrame:
        """One row per seat: the mean per game of each of its final counters (points, kills, deaths ...), and for the
        points counter its Student-t 95% interval."""
        t = self.tallies
        return _means_frame(t, {"seat": np.arange(len(t.lineup))}, t.seat_final_sum, t.seat_final_sq, t.seat_games)

    @cached_property
    def roles(self) -> pd.DataFrame:
        """One row per role (The Haunted Tower: per hero): seat-games played, wins (a tie counts for each tied seat),
        win rate with its Wilson 95% interval, and the mean per game of each final counter (points with a 95%
        interval). Empty for a game without roles."""
        t = self.tallies
        if t.role_name is None:
            return pd.DataFrame()
        df = _rate_table({t.role_name: list(t.role_labels)}, t.role_wins, t.role_games)
        means = _means_frame(t, {}, t.role_final_sum, t.role_final_sq, t.role_games)
        return pd.concat([df, means], axis=1)

    @cached_property
    def score_lines(self) -> pd.DataFrame:
        """For a points game: each scoring line's mean points per seat and game and its share of all points."""
        t = self.tallies
        if not t.score_lines or t.seat_final_sum is None:
            return pd.DataFrame()
        names = list(t.player_counter_names)
        total = t.seat_final_sum[:, names.index(t.points_counter)].sum() if t.points_counter else 0
        sums = np.array([t.seat_final_sum[:, names.index(line)].sum() for line in t.score_lines], dtype=np.float64)
        seat_games = max(int(t.seat_games.sum()), 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return pd.DataFrame({"line": list(t.score_lines), "points_per_seat_game": sums / seat_games,
                                 "share_of_points": sums / total if total else np.nan})

    # --- views: text and figures ----------------------------------------------------------------------------
    # Results shows itself (text for a terminal, figures), as a pandas DataFrame plots itself. The views live in
    # balance.present, the layer above, and are imported when asked for: this layer's only upward imports.
    def display_tables(self, short: bool = False) -> dict[str, pd.DataFrame]:
        """The main tables as rounded display strings, keyed by title (used by :meth:`summary` and reports);
        ``short``: a category of many labels shows only its lowest and highest win rates (the terminal)."""
        from ..present import summary
        return summary.display_tables(self, short)

    def seat_test_line(self) -> str:
        """The seat-equality test in words."""
        from ..present import summary
        return summary.seat_test_line(self)

    def heading(self) -> str:
        """The scenario's name, then what was played."""
        from ..present import summary
        return summary.heading(self)

    def summary(self) -> str:
        """Plain text for a terminal: the findings first, games worth watching, then the aligned tables."""
        from ..present import summary
        return summary.summary(self)

    def speed_line(self) -> str:
        """How long the run took and how fast the kernel played (compile and load time excluded)."""
        from ..present import summary
        return summary.speed_line(self)

    def target_line(self) -> str:
        """Whether a --target-ci run reached its precision, and after how many games."""
        from ..present import summary
        return summary.target_line(self)

    # --- statistics read first ----------------------------------------------------------------------------------
    @cached_property
    def findings(self) -> pd.DataFrame:
        """What to read first (``stats.findings``): kind, text, estimate and 95% interval, weight; heaviest first.
        Every result of the API gives its findings in this form (``stats.findings.COLUMNS``)."""
        return _findings.frame(_findings.findings(self))

    def watch_lines(self) -> list[str]:
        """Games worth watching (the longest, the shortest, the most lopsided), each with its replay command."""
        args = self.meta.get("replay_args")
        return _findings.watch_lines(self, "SCENARIO (this run's scenario: `balance show` with the run's options)"
                                     if args is None else args)

    def ci_width_max(self) -> float:
        """Widest 95% win-rate interval among the seats."""
        return self.tallies.ci_width_max()

    def to_dict(self) -> dict:
        """JSON-safe dict: meta, seat test, every table as a list of records, and the raw tallies."""
        rec = lambda df: json_safe(df.to_dict(orient="records"))  # noqa: E731
        if self.tallies.cooperative:        # the team's result instead of seat balance
            return json_safe({
                "meta": self.meta, "team": rec(self.team), "endings": rec(self.endings),
                "lengths": rec(self.lengths), "per_player": rec(self.seat_means),
                "groups": {g.name: rec(self.group(g.name)) for g in self.tallies.groups},
                "categories": {k: rec(v) for k, v in self.categories.items()}, "contrasts": rec(self.contrasts),
                "games_kept": len(self.games), "tallies": self.tallies.to_dict()})
        return json_safe({
            "meta": self.meta, "seat_test": self.seat_test._asdict(), "seats": rec(self.seats),
            "slots": rec(self.slots), "strategy_seats": rec(self.strategy_seats), "strategies": rec(self.strategies),
            "victories": rec(self.victories),
            "lengths": rec(self.lengths), "cards": rec(self.cards), "games_kept": len(self.games),
            "tallies": self.tallies.to_dict()})

    def to_parquet(self, path: str | os.PathLike) -> Path:
        """Write the seats table (the team table in a co-operative game) as Parquet, atomically, whatever else the
        run kept; returns the path. The kept per-game rows have their own file (:meth:`games_to_parquet`)."""
        return _write_parquet(self.team if self.tallies.cooperative else self.seats, path)

    def games_to_parquet(self, path: str | os.PathLike) -> Path:
        """Write the kept per-game rows (``run --keep-games N``) as Parquet, atomically; returns the path."""
        return _write_parquet(self.games, path)

    # what save() writes: a folder holding only these is replaced. games.parquet only when games were kept.
    FILES = ("results.parquet", "games.parquet", "meta.json")

    def save(self, directory: str | os.PathLike) -> Path:
        """Write ``results.parquet`` (always the seats table; the team table in a co-operative game), the kept
        per-game rows as ``games.parquet`` (only when some were kept) and ``meta.json`` (meta plus tallies) into
        ``directory``, atomically.

        ``directory`` must be new, empty or an earlier save (``outputs.check_output_dir``); anything else raises
        :class:`~balance.core.outputs.OutputDirError` before a file is written."""
        directory = Path(directory)
        with atomic_directory(directory, self.FILES) as tmp:
            self.to_parquet(tmp / "results.parquet")
            if len(self.games):
                self.games_to_parquet(tmp / "games.parquet")
            meta = dict(self.meta, tallies=self.tallies.to_dict())
            (tmp / "meta.json").write_text(json.dumps(json_safe(meta), indent=2, sort_keys=True))
        return directory

    @classmethod
    def load(cls, directory: str | os.PathLike) -> Results:
        """Read back what :meth:`save` wrote (a folder saved before games.parquet, whose results.parquet held the
        kept games, is read too)."""
        directory = Path(directory)
        meta = json.loads((directory / "meta.json").read_text())
        tallies = Tallies.from_dict(meta.pop("tallies"))
        old = meta.pop("parquet_content", None)
        games = (pd.read_parquet(directory / "games.parquet") if (directory / "games.parquet").exists() else
                 pd.read_parquet(directory / "results.parquet") if old == "games" else None)
        return cls(tallies, meta=meta, games=games)


def _write_parquet(df: pd.DataFrame, path: str | os.PathLike) -> Path:
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{uuid.uuid4().hex[:8]}")
    try:
        df.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
