"""`balance tune` end to end: --json parses and holds the confirmation and the fragment, --out writes a fragment that
loads back to the tuned lineup, and a request that cannot be met is one line with exit code 2."""
from __future__ import annotations

import json

import pytest

from balance import load_scenario

SPOOKY = "scenarios/spooky_tower.toml"
POOR = ["--set", "strategy=ghost_hunter", "--set", "seats.0.take_weight=10"]
SMALL = ["-n", "2000", "--first-round", "300", "--candidates", "4", "--threads", "1"]


def test_json_parses_and_holds_the_confirmation_and_the_fragment(cli, tmp_path):
    out = tmp_path / "tuned.toml"
    res = cli("tune", SPOOKY, "--seat", "0", *POOR, *SMALL, "--json", "-o", out)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["kind"] == "tune" and d["confirmed"]
    c = d["confirmation"]
    assert c["seed"] == 1 and c["games"] == 2000 and c["gain"] == pytest.approx(c["after"] - c["before"])
    assert d["meta"]["search_seed"] != 1 and d["findings"]
    assert [r["parameter"] for r in d["tuned"]] == ["flip_min_ev", "take_weight", "reroll_below", "steal_leader"]
    assert d["fragment"] == out.read_text()
    tuned = load_scenario(out)
    assert tuned.seats[0].params == {r["parameter"]: r["after"] for r in d["tuned"]}
    assert tuned.seats[1].params["take_weight"] == 0.5


def test_the_terminal_summary_puts_the_findings_first_and_shows_the_fragment(cli):
    res = cli("tune", SPOOKY, "--seat", "0", *POOR, *SMALL)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[2] == "Findings" and "seat 0's win rate" in lines[3]
    assert "Tuned scenario (--out FILE writes it):" in res.stdout and 'extends = "scenarios/spooky_tower.toml"' in \
        res.stdout


@pytest.mark.parametrize("args, line", [
    ([SPOOKY, "--seat", "0"], "scenarios/spooky_tower.toml: --seat 0: seat 0 plays random, which has no parameters "
                              "to tune"),
    ([SPOOKY, "--seat", "7", "--set", "strategy=collector"], "scenarios/spooky_tower.toml: --seat 7: no such seat "
                                                             "(allowed: 0 to 2"),
    ([SPOOKY, "--role", "magic_user"], "scenarios/spooky_tower.toml: --role magic_user: Spooky Tower has no roles"),
    (["scenarios/haunted_tower.toml", "--role", "wizard"], "--role wizard: no such hero (allowed: fighter, dwarf, elf, "
                                                           "magic_user, cleric, thief)"),
    (["scenarios/climbing_tower.toml", "--seat", "0", "--team"], "--seat with --team: give one of them"),
    ([SPOOKY, "--team"], "--team: Spooky Tower is not co-operative"),
    ([SPOOKY], "say whose win rate to raise (allowed: --seat N, --role NAME, or --team)"),
])
def test_a_request_that_cannot_be_met_is_one_line_with_exit_code_2(cli, args, line):
    res = cli("tune", *args)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: ") and line in res.stderr
