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

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "playthroughs"
PLAYTHROUGHS = {
    "spooky_tower_default_seed3.jsonl": ["replay", "--seed", "3", "--format", "jsonl"],
    "spooky_tower_rulebook_4p_seed8.jsonl": ["replay", str(ROOT / "scenarios" / "spooky_tower_rulebook.toml"),
                                             "--seed", "8", "--players", "4", "--format", "jsonl"],
}


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthrough_unchanged(name):
    args = PLAYTHROUGHS[name]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.exit_code == 0
    saved = (HERE / name).read_text().splitlines()
    now = res.output.splitlines()
    diff = list(difflib.unified_diff(saved, now, "saved", "now", lineterm="", n=2))
    assert not diff, (f"playthrough {name} changed; if intended, regenerate with "
                      f"`balance {' '.join(args)} > tests/playthroughs/{name}`:\n" + "\n".join(diff[:60]))
