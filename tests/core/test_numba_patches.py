"""Numba's compile patches (balance/core/numba_patches) change how a kernel is compiled, never what it computes: every
shipped scenario plays the same games with and without them. They are applied only on the Numba versions they were
verified on (the versions pyproject.toml allows) unless BALANCE_NUMBA_PATCHES=1, and never with
BALANCE_NUMBA_PATCHES=0."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from balance.core import numba_patches as patches
from balance.scenario import load_scenario

HERE = Path(__file__).resolve().parents[1]     # tests/, where patch_outputs.py is
ROOT = HERE.parent
GAMES = 300
# The games whose kernels the identical-output test compiles twice. Each kernel's compile without the patches costs
# 40 to 100 CPU seconds, so the suite compiles Spooky Tower's alone; BALANCE_PATCH_CHECK=all checks every game, as
# docs/numba.md asks before a new Numba is allowed.
CHECKED = ("spooky_tower", "haunted_tower", "climbing_tower") if os.environ.get("BALANCE_PATCH_CHECK") == "all" \
    else ("spooky_tower",)


def outputs(tmp_path: Path, *switches: str) -> list[dict]:
    """tests/patch_outputs.py with BALANCE_NUMBA_PATCHES set to each of `switches`, each in a new process with an
    empty Numba cache, the processes side by side (each compile runs on one core)."""
    running = []
    for switch in switches:
        env = dict(os.environ, BALANCE_NUMBA_PATCHES=switch, NUMBA_CACHE_DIR=str(tmp_path / f"cache-{switch}"))
        running.append(subprocess.Popen([sys.executable, str(HERE / "patch_outputs.py"), str(GAMES), *CHECKED], env=env,
                                        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    try:
        out = []
        for process in running:
            stdout, stderr = process.communicate(timeout=1800)
            assert process.returncode == 0, stderr[-3000:]
            out.append(json.loads(stdout.splitlines()[-1]))
        return out
    finally:
        for process in running:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_every_shipped_scenario_plays_the_same_games_with_and_without_the_patches(tmp_path):
    """Every output array of the first 300 games of each shipped scenario (each file in scenarios/ and each game's
    embedded default no file repeats), every game's kernel compiled into an empty cache with the patches and
    without them. The patches are forced on (BALANCE_NUMBA_PATCHES=1), so that this also tests them on a Numba
    they were not yet verified on."""
    on, off = outputs(tmp_path, "1", "0")
    assert on["patches"] is True and off["patches"] is False
    assert set(on["compile_s"]) == set(CHECKED)
    assert set(on["scenarios"]) == set(off["scenarios"])
    assert {name for name in on["scenarios"] if name.endswith(".toml")} == \
        {path.name for path in (ROOT / "scenarios").glob("*.toml") if load_scenario(path).game in CHECKED}
    for name, played in on["scenarios"].items():
        # the comparison can fail: the next seed's games differ in some output
        assert played["seed"] != played["next_seed"], name
        assert played["seed"].keys() == off["scenarios"][name]["seed"].keys(), name
        differ = [key for key, digest in played["seed"].items() if off["scenarios"][name]["seed"][key] != digest]
        assert not differ, f"{name}: {differ} differ with and without the patches"
        assert played == off["scenarios"][name], name


def state(tmp_path: Path, version: str | None = None, switch: str | None = None) -> tuple[dict, list[str]]:
    """In a new process (Numba's version reported as `version` where given, BALANCE_NUMBA_PATCHES=`switch` where
    given): whether the patches are applied, which of Numba's classes are patched, the rules' options; and the
    lines on standard error."""
    code = ("import json, numba\n"
            f"if {version!r}: numba.__version__ = {version!r}\n"
            "from numba.core import base, codegen\n"
            "from balance.core import jit as _jit, numba_patches as p\n"
            "print(json.dumps({'active': p.ACTIVE, 'installed': p.INSTALLED,\n"
            "    'finalize': hasattr(codegen.CPUCodeLibrary.finalize, '_balance_once'),\n"
            "    'abi': hasattr(base.BaseContext.get_abi_sizeof, '_balance_memo'),\n"
            "    'pipeline': 'pipeline_class' in _jit.RULES_OPTIONS,\n"
            "    'dispatcher': 'get_call_template' in vars(_jit.rules_jit_flat(lambda x: x, cache=False))}))\n")
    env = {k: v for k, v in os.environ.items() if k != patches.ENV}
    if switch is not None:
        env[patches.ENV] = switch
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1]), done.stderr.splitlines()


PATCHED = {"finalize": True, "abi": True, "pipeline": True, "dispatcher": True}
UNPATCHED = {"finalize": False, "abi": False, "pipeline": False, "dispatcher": False}


def test_the_patches_are_applied_on_a_verified_numba_unless_switched_off(tmp_path):
    got, err = state(tmp_path, version=patches.VERIFIED[0])
    assert got.pop("active") and all(got.pop("installed").values()) and got == PATCHED and err == []
    got, err = state(tmp_path, version=patches.VERIFIED[0], switch="0")
    assert not got.pop("active") and got.pop("installed") == {} and got == UNPATCHED and err == []


def test_a_numba_outside_the_verified_versions_compiles_without_the_patches_and_says_so_in_one_line(tmp_path):
    high = patches.VERIFIED[1] + ".0"
    got, err = state(tmp_path, version=high)
    assert not got.pop("active") and got.pop("installed") == {} and got == UNPATCHED
    assert len(err) == 1 and f"Numba {high} is outside" in err[0] and f"{patches.ENV}=1" in err[0], err
    got, err = state(tmp_path, version=high, switch="1")          # forced on, to test a new Numba
    assert got.pop("active") and all(got.pop("installed").values()) and got == PATCHED and err == []


def test_a_misspelt_switch_is_named_in_one_line_and_the_default_kept(tmp_path):
    got, err = state(tmp_path, switch="maybe")
    assert got["active"] == patches.verified(__import__("numba").__version__)
    assert [line for line in err if patches.ENV in line] == err and len(err) == 1 and "'maybe'" in err[0], err


@pytest.mark.parametrize("version, ok", [
    ("0.68.1", True), ("0.68.4", True), ("0.68.1+3.gabcdef", True), ("0.68.0", False), ("0.69.0", False),
    ("0.69.0rc1", False), ("0.68.2.dev0", False), ("1.68.1", False), ("0.61.0", False)])
def test_the_verified_versions(version, ok):
    assert patches.VERIFIED == ("0.68.1", "0.69")       # with the list above; widened as docs/numba.md says
    assert patches.verified(version) is ok


def test_pyproject_allows_exactly_the_verified_numba_versions():
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    numba = [r for r in requirements if re.match(r"numba\b", r)]
    assert numba == [f"numba>={patches.VERIFIED[0]},<{patches.VERIFIED[1]}"]


def test_a_switched_build_never_shares_the_plain_cache(tmp_path):
    """BALANCE_NUMBA_PATCHES set either way compiles into a cache folder of its own (without an explicit
    NUMBA_CACHE_DIR): a run with the patches off would otherwise load the kernels a plain run compiled with them."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", patches.ENV)}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "import os, balance; print(os.environ['NUMBA_CACHE_DIR'])"

    def folder(**extra):
        return subprocess.run([sys.executable, "-c", code], env={**env, **extra}, check=True, capture_output=True,
                              text=True, timeout=600).stdout.strip()
    plain, off, on = folder(), folder(**{patches.ENV: "0"}), folder(**{patches.ENV: "1"})
    assert Path(plain).parent == Path(off).parent == Path(on).parent == tmp_path / "balance" / "numba"
    assert off == plain + "-unpatched" and on == plain + "-patched"
