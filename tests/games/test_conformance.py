"""Every game in the registry honours the same contract with the shared layers (pgx's shared conformance check):
the outputs its GameSpec promises, in the shapes and ranges promised; the same games on any split; the reference
engine agreeing with the kernel; narration; rule code compiled without Numba's runtime; its scenario file writing
out its defaults. A new game is added to this test by adding it to balance.games.NAMES (docs/adding_a_game.md)."""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import numba.core.registry
import numpy as np
import pytest

from balance.games import categories, counter_groups, registry
from balance.scenario import load_scenario
from chunk_split import assert_same_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(registry())
ALLOCATING = {"simulate_nb", "trace_game_nb", "simulate_look_nb", "trace_look_nb"}   # the drivers that allocate


def _scenario(game: str):
    spec = registry()[game]
    return load_scenario({**spec.default_scenario(), "games": 300, "seed": 4})


def _chunk(sc, game0=0, n=300, blocks=1):
    spec = sc.spec()
    return spec.run_chunk(spec.compile_scenario(sc), seed=sc.seed, rotate=sc.seat_rotation, game0=game0,
                          n_games=n, n_blocks=blocks)


@pytest.mark.parametrize("game", GAMES)
def test_outputs_have_the_promised_shapes_and_ranges(game):
    sc = _scenario(game)
    spec = sc.spec()
    out = _chunk(sc)
    G, P = 300, sc.players
    assert np.array_equal(out["game"], np.arange(G))
    assert ((0 <= out["victory"]) & (out["victory"] < len(spec.victory_names))).all()
    mask = out["win_mask"] if "win_mask" in out else np.where(out["winner"] >= 0, 1 << out["winner"].astype(int), 0)
    won = mask != 0
    assert ((out["winner"] >= 0) == won).all()
    assert (won <= (out["victory"] != 0)).all()                  # no winner in an unfinished game
    if spec.cooperative:
        assert set(np.unique(mask)) <= {0, (1 << P) - 1}
    else:
        assert ((mask[won] >> out["winner"][won]) & 1).all()
    assert out["final"].shape == (G, P, len(spec.player_counter_names))
    assert out["seat_strategy"].shape == (G, P)
    for g in counter_groups(spec, sc):
        arr = out[g.chunk_key]
        assert arr.shape[0] == G and arr.shape[1] in (1, P)
        assert arr.shape[2:] == (len(g.labels(sc)), len(g.counter_names))
    for c in categories(spec, sc):
        labels = c.labels(sc)
        assert ((-1 <= out[c.chunk_key]) & (out[c.chunk_key] < len(labels))).all()
        assert (out[c.chunk_key] >= 0).any() or not labels


@pytest.mark.parametrize("game", GAMES)
def test_the_same_games_on_any_split(game):
    sc = _scenario(game)
    whole = _chunk(sc, n=300, blocks=1)
    parts = [_chunk(sc, game0=a, n=b - a, blocks=2) for a, b in ((0, 113), (113, 300))]
    assert_same_games(whole, *parts)


@pytest.mark.parametrize("game", GAMES)
def test_the_tallies_from_the_kernels_per_block_sums_equal_those_from_the_rows(game):
    """The kernel sums each counter group per block as it plays (``<key>_sums``) and the aggregator adds those sums
    (stats.tally): every table the game fills (counter groups, roles, final counters, categories) comes out as from
    the rows, in any number of blocks and chunks."""
    from balance.games import SUMS_SUFFIX
    from balance.stats.aggregate import Aggregator
    sc = _scenario(game)
    chunk = _chunk(sc, n=300, blocks=3)
    groups = {g.chunk_key for g in counter_groups(sc.spec(), sc)}      # two groups may read one array
    assert {k for k in chunk if k.endswith(SUMS_SUFFIX)} <= {k + SUMS_SUFFIX for k in groups}
    rows_only = {k: v for k, v in chunk.items() if not k.endswith(SUMS_SUFFIX)}
    lineup = [s.strategy for s in sc.seats]
    dicts = []
    for chunks in ([rows_only], [chunk], [_chunk(sc, n=300, blocks=1)], [_chunk(sc, n=120, blocks=5),
                                                                          _chunk(sc, game0=120, n=180, blocks=2)]):
        agg = Aggregator(sc.spec(), lineup, sc.turn_cap, scenario=sc)
        for c in chunks:
            agg.update(c)
        dicts.append(agg.tallies.to_dict())
    assert all(d == dicts[0] for d in dicts[1:])
    assert dicts[0]["games"] == 300 and sum(dicts[0]["seat_wins"]) > 0
    assert all(np.any(g["totals_won"]) and np.any(g["unused_wins"]) for g in dicts[0]["groups"])


@pytest.mark.parametrize("game", GAMES)
def test_chunks_of_any_length_play_into_a_kept_pool_of_arrays(game):
    """The runner keeps one ``ChunkBuffers`` pool for a run whose chunk lengths follow the machine's speed: a chunk
    that fits plays into the pool's first rows, a longer one replaces the pool with GROW times its rows, and every
    chunk holds the games fresh arrays would."""
    from balance.games import ChunkBuffers
    sc = _scenario(game)
    spec = sc.spec()
    compiled = spec.compile_scenario(sc)
    pool = ChunkBuffers()
    game0, rows = 0, []
    for n in (40, 100, 60, 150, 151):
        before = dict(pool)
        chunk = spec.run_chunk(compiled, seed=sc.seed, rotate=sc.seat_rotation, game0=game0, n_games=n, n_blocks=2,
                               out=pool)
        rows.append(pool["game"].shape[0])
        fits = bool(before) and before["game"].shape[0] >= n
        assert all(np.shares_memory(chunk[k], pool[k]) for k in pool), "a chunk is played into the pool"
        assert all((pool[k] is before[k]) == fits for k in before), "the pool is replaced only when too short"
        assert_same_games(_chunk(sc, game0=game0, n=n, blocks=2), chunk)
        game0 += n
    assert rows == [60, 150, 150, 150, 226]


@pytest.mark.parametrize("game", GAMES)
def test_a_chunk_without_counter_rows_has_the_same_games_sums_and_tallies(game):
    """``counter_rows=False`` (what the runner asks): a counter group the kernel sums per block comes with its sums
    alone, its per-game array holding no games, and everything else as with the rows, the tallies included. A chunk
    played with rows into the arrays of one played without gets every row again (not written past the empty
    array), and so does a pool of arrays (``ChunkBuffers``) after a chunk without rows."""
    from balance.games import SUMS_SUFFIX, ChunkBuffers
    from balance.stats.aggregate import Aggregator
    sc = _scenario(game)
    spec = sc.spec()
    compiled = spec.compile_scenario(sc)

    def play(n=300, **kw):
        return spec.run_chunk(compiled, seed=sc.seed, rotate=sc.seat_rotation, game0=0, n_games=n, n_blocks=3, **kw)

    whole, lean = play(), play(counter_rows=False)
    summed = {k[:-len(SUMS_SUFFIX)] for k in whole if k.endswith(SUMS_SUFFIX)}
    assert whole.keys() == lean.keys()
    for key, value in whole.items():
        if key in summed:
            assert lean[key].shape == (0,) + value.shape[1:] and lean[key].dtype == value.dtype, key
        else:
            assert np.array_equal(lean[key], value), key
    lineup = [s.strategy for s in sc.seats]
    tallies = []
    for chunk in (whole, lean):
        agg = Aggregator(spec, lineup, sc.turn_cap, scenario=sc)
        agg.update(chunk)
        tallies.append(agg.tallies.to_dict())
    assert tallies[0] == tallies[1]
    again = play(out=lean)
    assert_same_games(whole, again)
    pool = ChunkBuffers()
    play(200, out=pool, counter_rows=False)
    assert_same_games(whole, play(out=pool))


def test_per_block_sums_of_the_wrong_shape_are_refused():
    from balance.stats.aggregate import Aggregator
    sc = _scenario("spooky_tower")
    chunk = _chunk(sc, n=50, blocks=2)
    chunk["counters_sums"] = chunk["counters_sums"][:, :3]
    with pytest.raises(ValueError, match=r"counters_sums: per-block sums are int64\[B, 4, 36\], not int64\[2, 3, 36\]"):
        Aggregator(sc.spec(), [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc).update(chunk)


@pytest.mark.parametrize("game", GAMES)
def test_reference_engine_agrees_and_the_game_narrates(game):
    sc = _scenario(game)
    spec = sc.spec()
    for g in (0, 1, 2):
        played = spec.replay(sc, seed=sc.seed, game=g)          # raises on any disagreement with the kernel
        text = spec.narrate_text(played)
        lines = list(spec.narrate_jsonl(played))
        assert len(text.splitlines()) > 10 and len(lines) > 10


@pytest.mark.parametrize("game", GAMES)
def test_rule_functions_compile_without_the_numba_runtime(game):
    package = importlib.import_module(f"balance.games.{game}")
    found = 0
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):     # subpackages (rules/ ...) too
        part = info.name[len(package.__name__) + 1:]
        if part.startswith("reference") or part == "narrate":
            continue
        module = importlib.import_module(info.name)
        for name, fn in vars(module).items():
            if (isinstance(fn, numba.core.registry.CPUDispatcher) and fn.__module__ == module.__name__
                    and name not in ALLOCATING):
                found += 1
                assert fn.targetoptions.get("_nrt") is False, f"{module.__name__}.{name} is compiled with the runtime"
    assert found > 20


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_scenario_writes_out_the_defaults(game):
    spec = registry()[game]
    sc = load_scenario(ROOT / "scenarios" / f"{game}.toml")
    assert sc.game == game
    assert sc.components == spec.components_model()
    assert sc.rules == spec.rules_model()


MODULES = {"__init__", "enums", "components", "compile", "layout", "narrate", "rules", "strategies", "reference"}
OPTIONAL_MODULES = {"board"}        # a game with a map


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folder_has_the_same_modules(game):
    folder = ROOT / "balance" / "games" / game
    found = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir()
                                                     if p.is_dir() and (p / "__init__.py").exists()}
    assert MODULES <= found, f"{game} lacks {sorted(MODULES - found)}"
    assert found - MODULES <= OPTIONAL_MODULES, f"{game} has modules no other game has: {sorted(found - MODULES)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_traces_a_game_through_one_signature_and_the_shared_driver(game):
    import inspect

    from balance.games.driver import replay

    rules = importlib.import_module(f"balance.games.{game}.rules")
    assert list(inspect.signature(rules.trace_game).parameters) == ["compiled", "seed", "game", "max_rows"]
    sc = _scenario(game)
    spec = sc.spec()
    events, state = rules.trace_game(spec.compile_scenario(sc), sc.seed, 3, 200_000)
    assert events.ndim == 2 and events.shape[1] == 5 and len(events) > 0
    played = replay(f"balance.games.{game}", sc, game=3)            # raises when the engines disagree
    assert spec.replay(sc, game=3) is not None and played is not None
    for name in ("kernel_disagreement", "narrate_text", "narrate_jsonl"):
        assert callable(getattr(importlib.import_module(f"balance.games.{game}.narrate"), name)), name
