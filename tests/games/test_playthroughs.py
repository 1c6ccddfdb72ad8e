"""Saved playthroughs (OpenSpiel's habit): seeded games replayed and diffed, so any change to the rules, the random
streams or the strategies shows up as a readable diff of events.

After an intended change, regenerate with the command in PLAYTHROUGHS and review the diff before committing.
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from click.testing import CliRunner

from balance.cli import main

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "playthroughs"
PLAYTHROUGHS = {
    "spooky_tower_default_seed3.jsonl": ["replay", "--seed", "3", "--format", "jsonl"],
    "spooky_tower_rulebook_4p_seed8.jsonl": ["replay", str(ROOT / "scenarios" / "spooky_tower_rulebook.toml"),
                                             "--seed", "8", "--players", "4", "--format", "jsonl"],
    # Heuristic strategies with non-default parameters, seats rotated (game 1), every rule option changed: building
    # scope flips by effect, takes before clues when three value-6 Photos reveal together, two extra turns stacked,
    # pets stolen, the Park, flip 8- reaching 1 and 8, flip 9+ reaching 9 and 12.
    "mixed_heuristics_4p_seed359_game1.jsonl": ["replay", str(HERE / "mixed_heuristics_4p.toml"), "--seed", "359",
                                                "--game", "1", "--format", "jsonl"],
    # Every component setting changed: Grimoire ghosts worth 2, Park cards worth 2 needing 3, 1, 2 clues, two Ghost
    # Pets (stolen, and one lost), five fragments (three held without a win at 4 to win; the reserve runs out), a
    # five-step dial (clue, extra turn, none, midnight), changed bonuses (value 7 clue, value 12 fragment + reroll,
    # none on 1) and ghost worths (8: 0, 10: 3, the winning capture), take 8- reaching 1 and 8, flip 8- reaching 1
    # and 8, flip 9+ reaching 9 and 12, 8 ghosts to win.
    "mixed_components_3p_seed2795.jsonl": ["replay", str(HERE / "mixed_components_3p.toml"), "--seed", "2795",
                                           "--format", "jsonl"],
    # The Haunted Tower's default table (the three heuristics, seats and heroes rotating): set-up, every hero turn,
    # fights of most monsters, items taken and swapped, deaths, a hero out, the Specter killed on Tower 3.
    "haunted_tower_default_seed3.jsonl": ["replay", str(ROOT / "scenarios" / "haunted_tower.toml"), "--seed", "3",
                                          "--format", "jsonl"],
    # Five players, every heuristic with other parameters plus random, every rule option changed (initiative ties
    # to the hero, the Specter's killer wins ties, out heroes do not score, trading, other gates and blue counts,
    # the Specter bonus each encounter): experience trade-ins, the rust monster eating items, a hero out, a win.
    "haunted_tower_options_5p_seed2.jsonl": ["replay", str(HERE / "haunted_tower_options_5p.toml"), "--seed", "2",
                                             "--format", "jsonl"],
    # Climbing Tower's default pair (climber and skeleton farmer) on a random tower: redraws, exchanges, a group that
    # stands again, a blocked round, Level 3 bought, the BOSS defeated.
    "climbing_tower_default_seed20.jsonl": ["replay", str(ROOT / "scenarios" / "climbing_tower.toml"), "--seed", "20",
                                            "--format", "jsonl"],
    # Every Climbing Tower rule option changed (climbing_tower_options.toml), a deck thinner with another keep and a
    # farmer with another sword weight: removals, skills, the BOSS side that needs both pawns.
    "climbing_tower_options_seed89.jsonl": ["replay", str(HERE / "climbing_tower_options.toml"), "--seed", "89",
                                            "--format", "jsonl"],
    # The 12 skeleton tokens run short (climbing_tower_short_supply.toml): cards placed with fewer tokens than they
    # show, topped up in the next-round phase, left behind with skeletons undefeated (no skill); spared skeletons.
    "climbing_tower_short_supply_seed2501_game4.jsonl": ["replay", str(HERE / "climbing_tower_short_supply.toml"),
                                                         "--seed", "2501", "--game", "4", "--format", "jsonl"],
}


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthrough_unchanged(name):
    args = PLAYTHROUGHS[name]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.exit_code == 0
    saved = (HERE / name).read_text().splitlines()
    now = res.stdout.splitlines()          # stdout only: a kernel compiling here says so on stderr
    diff = list(difflib.unified_diff(saved, now, "saved", "now", lineterm="", n=2))
    assert not diff, (f"playthrough {name} changed; if intended, regenerate with "
                      f"`balance {' '.join(args)} > tests/games/playthroughs/{name}`:\n" + "\n".join(diff[:60]))
