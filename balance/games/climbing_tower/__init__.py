"""Climbing Tower, vol. 1 "Skull Tower": two players co-operate to climb a tower of random cards, play cards that
match colour or number, defeat skeletons for gold, build their shared deck between rounds and beat the BOSS on the
top floor within the round limit. They may communicate only while both pawns stand on one floor."""
from __future__ import annotations

from .. import CategorySpec, Contrast, CounterGroup, GameSpec, ParamSpec, StrategySpec, lazy
from . import enums
from .components import ClimbingTowerComponents, ClimbingTowerRules, check_tower


def _weights(arrow: float, sword: float) -> tuple[ParamSpec, ...]:
    return (ParamSpec("arrow_weight", arrow, 0.0, 10.0, "Worth of each floor a card's arrows would climb."),
            ParamSpec("sword_weight", sword, 0.0, 10.0, "Worth of each skeleton (or BOSS hit) a card's swords would "
                                                         "take where the pawn stands."),
            ParamSpec("team_weight", 1.0, 0.0, 10.0, "Worth added to a card the partner could follow, when the "
                                                     "partner's hand is visible (both pawns on one floor)."),
            ParamSpec("spare", 0.0, 0.0, 1.0, "Chance that a sword which could defeat a skeleton spares it (keeps it "
                                              "standing for a later round's gold); 0: every sword defeats what it "
                                              "can."))


STRATEGIES = {
    "random": StrategySpec(
        "random", 0, "Uniform baseline: every legal row (action and card; build action and card) equally likely "
                     "(docs/strategies.md)."),
    "climber": StrategySpec(
        "climber", 1, "Arrows first: plays the card that climbs most; buys Level 3, then the Level 2 pile richest in "
                      "arrows.", _weights(2.0, 1.0)),
    "skeleton_farmer": StrategySpec(
        "skeleton_farmer", 2, "Gold first: plays the card that defeats most skeletons where it stands; buys Level 3, "
                              "then the Level 2 pile richest in swords.", _weights(1.0, 2.0)),
    "deck_thinner": StrategySpec(
        "deck_thinner", 3, "Removes its weakest card with U while the deck holds more than `keep` cards, then "
                           "buys; plays as the weights say.",
        _weights(1.5, 1.5) + (ParamSpec("keep", 6.0, 0.0, 40.0, "Deck size above which it removes a card with U "
                                                                "before buying."),)),
    "lookahead": StrategySpec(
        "lookahead", 4,
        "Plays by simulation: at each turn with a choice it plays every legal row out `playouts` times to the end of "
        "the game, what the seat cannot see re-dealt at random (the draw pile, the partner's hand unless the players "
        "may communicate, the supply piles' order) and both seats on the `base` strategy, and takes the row the team "
        "won with most often; swords and the build phase go to the base strategy (docs/strategies.md).",
        (ParamSpec("playouts", 64.0, 1.0, 512.0, "Playouts per legal row (rounded)."),
         ParamSpec("base", 1.0, 0.0, 3.0, "Base strategy of the playouts and of the other decisions, by kind: "
                                          "0 random, 1 climber, 2 skeleton_farmer, 3 deck_thinner (its defaults)."))),
}


def check(scenario, resolve) -> dict:
    check_tower(scenario.components, scenario.rules)
    return {}


def compile_scenario(scenario):
    """Kernel inputs for a validated scenario: (initial state, initial parameters, lineup
    kinds, lineup parameters, rotate)."""
    import numpy as np
    from . import layout
    from .compile import compile_rules
    initial_state, initial_params = compile_rules(scenario.components, scenario.rules)
    kinds, params = scenario.strategy_lineup()
    p = np.zeros((2, layout.N_PARAMS), np.float64)
    p[:, :params.shape[1]] = params[:, :layout.N_PARAMS]
    return initial_state, initial_params, np.ascontiguousarray(kinds, np.int64), p, bool(scenario.seat_rotation)


def run_chunk(compiled, *, seed: int, rotate: bool, game0: int, n_games: int, n_blocks: int,
              out: dict | None = None, counter_rows: bool = True) -> dict:
    """Play one chunk of games; the per-game outcome arrays the shared layers expect (team counters have one
    seat), and the card counters, 120 a game, summed per block (``cards_sums``, for the aggregator; the skill and team
    counters, 15 a game, are tallied from the rows: each group summed in the kernel costs its compile).
    ``counter_rows=False``: the card counters only summed, the per-game ``cards`` left empty
    (``kernel_common.counter_sums``)."""
    import numpy as np
    from ..kernel_common import chunk_arrays, counter_sums, lookahead_flag
    from . import layout
    from .rules import simulate_nb

    initial_state, initial_params, kinds, params, _rotate = compiled    # `rotate` says how this chunk seats them
    n_cards = int(initial_state[layout.N_CARDS])
    out = chunk_arrays(out, game0, n_games, lambda n: {
        "game": np.empty(n, np.int64), "winner": np.empty(n, np.int8),
        "win_mask": np.empty(n, np.int8), "victory": np.empty(n, np.int8),
        "turns": np.empty(n, np.int32), "rounds": np.empty(n, np.int32),
        "seat_strategy": np.empty((n, 2), np.int8), "final": np.empty((n, 2, layout.N_FINAL), np.int16),
        "cards": np.empty((n, 1, n_cards, layout.N_CC), np.int16),
        "skills": np.empty((n, 1, layout.N_SKILLS, layout.N_SK), np.int16),
        "team": np.empty((n, 1, 1, layout.N_TEAM), np.int16),
        "tower": np.empty(n, np.int16), "boss_side": np.empty(n, np.int16),
        "draws": np.empty(n, np.int64),
    })
    n_blocks = max(1, n_blocks)
    simulate_nb(initial_state, initial_params, kinds, params, bool(rotate), np.uint64(seed), game0, n_games, n_blocks,
                out["winner"], out["win_mask"], out["victory"], out["turns"], out["rounds"], out["seat_strategy"],
                out["final"], out["skills"], out["team"], out["tower"], out["boss_side"], out["draws"],
                *counter_sums(out, n_blocks, "cards", rows=counter_rows), bool(counter_rows),
                lookahead_flag(kinds, STRATEGIES["lookahead"].kind))
    return out


def default_scenario() -> dict:
    """The embedded default: a climber and a skeleton farmer on random towers, Hard supply, seats rotating."""
    return {"name": "Climbing Tower (reconstructed cards, embedded default)", "game": "climbing_tower",
            "players": 2, "games": 200_000, "seed": 1, "seat_rotation": True,
            "seats": [{"name": "climber"}, {"name": "skeleton_farmer"}]}


def assumptions(scenario) -> list[tuple[str, str, str]]:
    """The open-rule settings and reconstructed components in force, each with its reason
    (docs/rules/climbing_tower.md)."""
    from ..assumptions import component_row, rule_rows
    rows = rule_rows(scenario.rules)
    default = ClimbingTowerComponents()
    for key, what in (("cards", "the 24 play cards' colours, numbers and icons"),
                      ("tower", "the tower cards' floors, skeletons and skills"),
                      ("boss", "the BOSS card's sides and how the BOSS is defeated")):
        own = getattr(scenario.components, key) != getattr(default, key)
        rows.append(component_row(key, own, what, "docs/rules/climbing_tower.md"))
    return rows


def draw_map(scenario, level=None) -> str:
    """The scenario's tower as text, or one tower card of it (1 the bottom card, the BOSS card last)."""
    from .narrate import draw_tower
    return draw_tower(scenario.components, scenario.rules, level)


def groups(scenario) -> tuple[CounterGroup, ...]:
    from . import layout
    cards = lambda sc: tuple(c.name for c in sc.components.cards)  # noqa: E731
    return (CounterGroup("card", layout.CARD_COUNTER_NAMES, layout.CC_BOUGHT, "cards", labels=cards,
                         ratio_base=layout.CC_DEALT, used_phrase="bought {}",
                         cannot_use=lambda sc: tuple(c.name for c in sc.components.level(1))),  # never for sale
            CounterGroup("card removed", layout.CARD_COUNTER_NAMES, layout.CC_REMOVED, "cards", labels=cards,
                         ratio_base=layout.CC_DEALT, used_phrase="removed {}"),
            CounterGroup("skill", layout.SKILL_COUNTER_NAMES, layout.SK_GAINED, "skills",
                         labels=lambda sc: enums.SKILL_KINDS, used_phrase="gained the {} skill"),
            CounterGroup("team", layout.TEAM_NAMES, layout.TM_BLOCKED, "team", labels=lambda sc: ("team",),
                         used_phrase="had a round blocked"))


def categories(scenario) -> tuple[CategorySpec, ...]:
    from .compile import tower_labels
    return (CategorySpec("tower", "tower", lambda sc: tower_labels(sc.components, sc.rules),
                         "tower cards bottom to top / BOSS side"),
            CategorySpec("BOSS side", "boss_side", lambda sc: tuple(b.name for b in sc.components.boss),
                         "the BOSS card's side up"))


def _other_supply(scenario):
    other = "easy" if scenario.rules.supply == "hard" else "hard"
    return f"{other.capitalize()} supply", {"rules.supply": other}


def _talk(scenario):
    if scenario.rules.communication == "same_floor":
        return "communication limit lifted", {"rules.communication": "always"}
    return "communication only on one floor", {"rules.communication": "same_floor"}


_reference = lazy("balance.games.climbing_tower.reference", "play_scenario")


def _replay(scenario, seed: int | None = None, game: int = 0):
    """Game `game` of a scenario's run by the reference engine, checked against the kernel's trace of the same game
    (``balance.games.driver.replay``): the ReferenceGame."""
    from ..driver import replay
    return replay(__name__, scenario, seed, game)


_narrate_text = lazy("balance.games.climbing_tower.narrate", "narrate_text")
_narrate_jsonl = lazy("balance.games.climbing_tower.narrate", "narrate_jsonl")
_searched = lazy("balance.games.climbing_tower.rules.simulate", "searched_decisions")

def remove_items(scenario) -> tuple[str, list[tuple[str, dict]]]:
    """Each card's icons emptied: it keeps its level, colour and number (so it is still dealt, bought and matched),
    but it has no swords and no arrows."""
    return "card", [(c.name, {f"components.cards.{c.name}.swords": 0, f"components.cards.{c.name}.arrows": 0})
                    for c in scenario.components.cards]


SPEC = GameSpec(
    name="climbing_tower", title="Climbing Tower", min_players=enums.PLAYERS, max_players=enums.PLAYERS,
    components_model=ClimbingTowerComponents, rules_model=ClimbingTowerRules, strategies=STRATEGIES,
    victory_names=enums.VICTORY_NAMES, player_counter_names=enums.FINAL_NAMES, counter_names=enums.CARD_COUNTER_NAMES,
    item_name="card", item_labels=(), compile_scenario=compile_scenario, run_chunk=run_chunk,
    default_scenario=default_scenario, assumptions=assumptions, groups=groups,
    draw_map=draw_map, reference=_reference, replay=_replay, narrate_text=_narrate_text, narrate_jsonl=_narrate_jsonl,
    summary_counters=("floor", "skeletons", "boss_hits", "cards_played", "redraws", "offers", "passes", "blocked"),
    list_keys={"components.cards": "name", "components.tower": "name", "components.boss": "name"},
    check=check, turn_cap=1000, cooperative=True, remove_items=remove_items, categories=categories,
    contrasts=(Contrast("supply", _other_supply, "Easy against Hard: the Level 2 supply option flipped."),
               Contrast("communication", _talk, "What the communication limit costs: the same strategies with the "
                                                "players' hands visible on every floor.")),
    lookahead="lookahead", lookahead_searched=_searched,
)
