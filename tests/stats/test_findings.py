"""Findings (balance/analysis/stats/findings.py): the numbers in the sentences are the tables' numbers, their intervals
are right, balanced tables say so, and the games worth watching are the games their replay commands play."""
from __future__ import annotations

import math

import numpy as np
import pytest

import balance
from balance.scenario import load_scenario
from balance.stats.findings import gap_interval


def test_gap_interval_of_two_seats_uses_the_multinomial_covariance():
    d, lo, hi = gap_interval(0.4, 1000, 0.3, 1000, same_games=True)
    half = 1.959963984540054 * math.sqrt((0.4 * 0.6 + 0.3 * 0.7 + 2 * 0.4 * 0.3) / 1000)
    assert d == pytest.approx(0.1) and lo == pytest.approx(0.1 - half) and hi == pytest.approx(0.1 + half)
    d, lo, hi = gap_interval(0.4, 1000, 0.3, 4000, same_games=False)
    half = 1.959963984540054 * math.sqrt(0.4 * 0.6 / 1000 + 0.3 * 0.7 / 4000)
    assert lo == pytest.approx(0.1 - half) and hi == pytest.approx(0.1 + half)


def test_gap_interval_of_two_seats_covers_in_simulation():
    # three seats, one winner a game: the interval of p0 - p2 covers the true 0.1 about 95% of the time
    rng = np.random.default_rng(5)
    p = np.array([0.4, 0.3, 0.3])
    cover = 0
    for _ in range(2000):
        wins = rng.multinomial(500, p)
        _, lo, hi = gap_interval(wins[0] / 500, 500, wins[2] / 500, 500, same_games=True)
        cover += lo <= 0.1 <= hi
    assert 0.93 <= cover / 2000 <= 0.97


@pytest.fixture(scope="module")
def spooky():
    return balance.simulate(games=20_000, seed=3, progress=False)


def test_the_seat_gap_finding_comes_first_with_the_seat_tables_numbers(spooky):
    f = spooky.findings
    row = f.iloc[0]
    seats = spooky.seats.set_index("seat")["win_rate"]
    assert row["kind"] == "seat_gap"
    assert row["estimate"] == pytest.approx(seats.max() - seats.min())
    assert row["text"].startswith(f"Seat {seats.idxmax()} wins {100 * (seats.max() - seats.min()):.1f} points more "
                                  f"often than seat {seats.idxmin()}")
    assert row["ci_low"] > 0 and "usual fixes" in row["text"]
    assert list(f["weight"]) == sorted(f["weight"], reverse=True)
    assert {"length", "dominant_victory", "lift"} <= set(f["kind"])


def test_a_balanced_table_says_there_is_no_clear_seat_imbalance():
    r = balance.simulate("scenarios/spooky_tower.toml", games=4000, seed=3, players=2, seat_rotation=True,
                         strategy="random", progress=False)
    seat = r.findings[r.findings["kind"] == "seat_gap"].iloc[0]
    if seat["ci_low"] > 0:      # a real first-player edge at 2 players: then it must be stated as one
        assert "more often than seat" in seat["text"]
    else:
        assert seat["text"].startswith("No clear seat imbalance")


def test_the_games_worth_watching_are_the_games_their_commands_replay(spooky):
    s = load_scenario(None)
    watch = spooky.tallies.watch
    assert spooky.watch_lines()[0] == f"the longest game: {watch['longest'][0]:,} turns: balance replay --seed 3 " \
                                      f"--game {watch['longest'][1]}"
    for name in ("longest", "shortest"):
        turns, game = watch[name]
        assert s.spec().reference(s, 3, game).turns == turns
    r = balance.simulate(games=20_000, seed=3, progress=False, chunk_size=3_001)
    assert r.tallies.watch == watch


def test_haunted_tower_findings_name_heroes_the_deadliest_monster_and_the_lopsided_game():
    r = balance.simulate("scenarios/haunted_tower.toml", games=3000, progress=False)
    kinds = set(r.findings["kind"])
    assert "role_gap" in kinds and any("The heroes are far from even" in t for t in r.findings["text"])
    assert "adjusted for the 15 pairs of 6 heroes" in r.findings.set_index("kind").loc["role_gap", "text"]
    # the monster that kills heroes most often per encounter, besides the Specter (whom the game is about)
    monsters = r.group("monster").set_index("monster")
    rate = monsters["deaths_per_encounters"].drop("specter").dropna()
    threat = r.findings[r.findings["kind"].isin(["strongest_thing", "strong_thing"])]
    assert len(threat) == 1
    assert threat["text"].iloc[0].startswith(f"Of the {len(rate)} monsters met besides specter, the {rate.idxmax()} ")
    assert threat["estimate"].iloc[0] == pytest.approx(rate.max())
    assert any(line.startswith("the most lopsided win: by ") and "scenarios/haunted_tower.toml --seed 1" in line
               for line in r.watch_lines())


def test_things_the_rules_never_let_be_used_are_not_called_never_used():
    """Climbing Tower's Level 1 cards start in the deck and are never for sale: "the team never bought purple_1" would
    be a false alarm in every run. Without the group's cannot_use, the same tallies do raise it."""
    from balance.stats.tallies import GroupTallies
    from balance.stats.findings import findings
    r = balance.simulate("scenarios/climbing_tower.toml", games=2000, progress=False)
    level1 = {c.name for c in load_scenario("scenarios/climbing_tower.toml").components.level(1)}
    card = next(g for g in r.tallies.groups if g.name == "card")
    assert set(card.cannot_use) == level1 and len(level1) == 6
    texts = [f.text for f in findings(r, limit=100) if f.kind == "never_used"]
    assert not any(name in t for t in texts for name in level1), texts
    saved = card.to_dict()
    assert GroupTallies.from_dict(saved).to_dict() == saved and saved["cannot_use"] == sorted(level1, key=[
        c.name for c in load_scenario("scenarios/climbing_tower.toml").components.cards].index)
    assert "cannot_use" not in next(g for g in r.tallies.groups if g.name == "skill").to_dict()
    card.cannot_use = ()
    texts = [f.text for f in findings(r, limit=100) if f.kind == "never_used"]
    assert any("never bought purple_1" in t for t in texts), texts


def test_unusable_things_survive_an_old_checkpoint_and_added_tallies():
    """A checkpoint saved before groups declared their unusable things, resumed, and tallies added to tallies that
    lack them, keep them: else a resumed Climbing Tower run would call its Level 1 cards never bought again."""
    from balance.stats.aggregate import Aggregator, Tallies
    sc = load_scenario("scenarios/climbing_tower.toml")

    def fresh():
        return Aggregator(sc.spec(), [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc)
    state = fresh().state()
    for g in state["tallies"]["groups"]:
        g.pop("cannot_use", None)                   # as saved before the field existed
    resumed = fresh()
    resumed.restore(state)
    card = next(g for g in resumed.tallies.groups if g.name == "card")
    assert len(card.cannot_use) == 6
    old = Tallies.from_dict(state["tallies"])
    assert next(g for g in old.groups if g.name == "card").cannot_use == ()
    old.add(fresh().tallies)
    assert next(g for g in old.groups if g.name == "card").cannot_use == card.cannot_use


def test_the_unfinished_finding_says_how_the_unfinished_games_ended():
    """A game may end unfinished otherwise than at the turn cap (The Haunted Tower's fight cap, where neither side
    can hurt the other): the finding splits the unfinished games by the game's per-seat end counters
    (GameSpec.unfinished_ends), and says "the turn cap" alone only when it was the only end."""
    from balance.stats.aggregate import Tallies
    from balance.stats.findings import findings
    r = balance.simulate("scenarios/haunted_tower.toml", games=200, turn_cap=120, progress=False)
    t = r.tallies
    unfinished = int(r.victories.set_index("kind").loc["unfinished", "games"])
    assert unfinished > 2 and set(t.unfinished_ends) == {"fight_cap"}

    def texts():
        return [f.text for f in findings(r, limit=100) if f.kind in ("unfinished", "length")]
    assert f"of games reached the turn cap unfinished ({unfinished:,} games;" in texts()[0] + texts()[1]
    k = t.player_counter_names.index("fight_cap")
    assert t.seat_final_sum[:, k].sum() == 0
    t.seat_final_sum[1, k] = 2                  # as if two of them had ended at the fight cap
    said = " ".join(texts())
    assert f"of games ended unfinished ({unfinished:,} games;" in said and "reached the turn cap" not in said
    assert f": {unfinished - 2:,} at the turn cap, 2 at the fight cap (100 combat rounds in a row in which neither " \
           "side could hurt the other); they have no winner." in said
    assert f"(the {unfinished:,} unfinished games included: {unfinished - 2:,} at the turn cap, 2 at the fight cap" \
        in said
    saved = t.to_dict()
    assert Tallies.from_dict(saved).unfinished_ends == t.unfinished_ends
    assert "unfinished_ends" not in balance.simulate(games=100, progress=False).tallies.to_dict()


# --- one form everywhere -------------------------------------------------------------------------------------------

def _one_form(found, as_dict: dict | None = None) -> None:
    """A result's ``findings``: a DataFrame of the shared columns, one sentence a row, its numbers as floats; the
    JSON keeps the sentences as a list."""
    import pandas as pd

    from balance.stats.findings import COLUMNS
    assert isinstance(found, pd.DataFrame) and list(found.columns) == COLUMNS and len(found) > 0
    assert all(isinstance(x, str) and x for x in found["text"]) and all(isinstance(x, str) and x for x in found["kind"])
    assert all(found[c].dtype.kind == "f" for c in COLUMNS[2:])
    stated = found.dropna(subset=["estimate", "ci_low", "ci_high"])
    assert ((stated["ci_low"] <= stated["estimate"] + 1e-12) & (stated["estimate"] <= stated["ci_high"] + 1e-12)).all()
    if as_dict is not None:
        assert as_dict["findings"] == list(found["text"])


@pytest.mark.parametrize("game", sorted(balance.games.registry()))
def test_every_result_gives_its_findings_in_one_form(game):
    spec = balance.games.get_game(game)
    base = load_scenario(None, game=game, games=400, seed=5)
    two = list(spec.strategies)[:2]
    kw = {"games": 400, "threads": 1}
    r = balance.simulate(base, progress=False, contrasts=False, threads=1)
    _one_form(r.findings)
    assert list(r.findings["weight"]) == sorted(r.findings["weight"], reverse=True)
    c = balance.compare(base, sets={"strategy": two[1]}, **kw)
    _one_form(c.findings, c.to_dict())
    assert "difference" in set(c.findings["kind"]) and c.findings["weight"].isna().all()
    s = balance.sweep(base, {"strategy": two}, **kw)
    _one_form(s.findings, s.to_dict())
    assert {"cells_differ"} <= set(s.findings["kind"])
    t = balance.tournament(base.to_dict(), ",".join(two), games=200, threads=1)
    _one_form(t.findings, t.to_dict())
    assert set(t.findings["kind"]) & {"strongest", "no_clear_extreme"}
    report = balance.check([f"scenarios/{game}.toml"], games=1000, threads=1)
    _one_form(report.findings, report.to_dict())


def test_the_card_study_gives_its_findings_in_one_form():
    v = balance.cards(load_scenario(None, games=300), games=300, threads=1)
    _one_form(v.findings, v.to_dict())
    assert v.findings["kind"][0] == "note" and len(set(v.findings["kind"]) - {"note"}) > 0
