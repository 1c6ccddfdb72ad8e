"""The mutation lists (``mutants/<game>.toml``) stay in step with the code: every mutation still applies.

``make mutants`` applies each mutation alone and runs the suite against it (``mutants/run.py``); that takes tens of
minutes, so it is not part of ``make test``. What is checked here, in a second, is that each mutation's text still
occurs exactly once in the file it edits, so that a refactor cannot silently turn a mutation into a no-op, and that
the lists are well formed.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def harness():
    spec = importlib.util.spec_from_file_location("mutants_run", ROOT / "mutants" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants_run"] = module          # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module


def test_every_mutation_applies_exactly_once():
    run = harness()
    lists = run.all_lists()
    assert run.check_applies(lists) == sum(len(gl.mutants) for gl in lists)


def test_each_game_has_at_least_30_mutations_of_every_kind_that_applies():
    run = harness()
    for gl in run.all_lists():
        kinds = {m.kind for m in gl.mutants}
        assert len(gl.mutants) >= 30, gl.game
        assert {"rule", "component", "strategy", "kernel"} <= kinds, (gl.game, kinds)
        for path in gl.fast:                     # a file, or one test in it (pytest's node id)
            assert (ROOT / path.split("::")[0]).is_file(), f"{gl.game}: fast-tier test file {path} is missing"


def test_a_rule_mutation_must_edit_both_engines(tmp_path):
    run = harness()
    bad = tmp_path / "spooky_tower.toml"
    bad.write_text('[suite]\nfast = ["tests/x.py"]\nengines = ["a.py", "b.py"]\n'
                   '[[mutant]]\nid = "m"\nkind = "rule"\nwhat = "w"\n'
                   '[[mutant.edit]]\nfile = "a.py"\nfind = "x"\nreplace = "y"\n')
    with pytest.raises(run.MutantListError, match="edits both engines"):
        run.load_list(bad)


def test_a_mutation_whose_text_is_gone_is_reported(tmp_path):
    run = harness()
    m = run.Mutant("g", "m", "kernel", "w", (run.Edit("f.py", "needle", "pin"),))
    (tmp_path / "f.py").write_text("haystack\n")
    with pytest.raises(run.MutantListError, match="occurs 0 times"):
        run.mutated_text(tmp_path, m)
    (tmp_path / "f.py").write_text("needle needle\n")
    with pytest.raises(run.MutantListError, match="occurs 2 times"):
        run.mutated_text(tmp_path, m)
