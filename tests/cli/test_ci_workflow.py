"""The GitHub Actions workflow runs .ci/balance-check.sh; this runs that script on a scratch repository, as the
workflow would after a push that changed one scenario."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from balance.scenario.affected import affected

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "balance-check.sh"
WORKFLOW = ROOT / ".github" / "workflows" / "balance.yml"


def test_workflow_runs_the_script_and_publishes_its_outputs():
    text = WORKFLOW.read_text()
    runs = re.findall(r"^\s*run: (.*)$", text, re.M)
    assert '.ci/balance-check.sh "$BASE" balance-ci' in runs
    assert "actions/upload-artifact" in text and "path: balance-ci/" in text
    assert "pull_request" in text and "push" in text and "fetch-depth: 0" in text


def _git(repo: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def test_script_checks_and_reports_only_the_changed_scenarios(tmp_path):
    repo = tmp_path / "repo"
    (repo / "scenarios").mkdir(parents=True)
    claims = "\n[checks]\nlength_mean = [10, 200]\n"
    (repo / "scenarios" / "a.toml").write_text('game = "spooky_tower"\nname = "A"\ngames = 1500\n' + claims)
    (repo / "scenarios" / "b.toml").write_text('game = "spooky_tower"\nname = "B"\ngames = 1500\n' + claims)
    (repo / "scenarios" / "c.toml").write_text('extends = "b.toml"\nname = "C"\n')
    (repo / "scenarios" / "ac.toml").write_text('extends = "c.toml"\nname = "AC"\n')   # b two levels down
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    base = _git(repo, "rev-parse", "HEAD").strip()
    (repo / "scenarios" / "b.toml").write_text('game = "spooky_tower"\nname = "B"\ngames = 1500\n'
                                               "\n[checks]\nvictory_share = { amulet = [0.5, 0.9] }\n")
    _git(repo, "commit", "-qam", "change b")
    summary = tmp_path / "step_summary.md"
    env = dict(os.environ, BALANCE=str(Path(sys.executable).with_name("balance")), GITHUB_STEP_SUMMARY=str(summary))
    done = subprocess.run(["bash", str(SCRIPT), base, "out"], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr            # b's claim is false
    assert "checking: scenarios/ac.toml scenarios/b.toml scenarios/c.toml" in done.stdout  # ac, c extend b; a not
    out = repo / "out"
    assert {p.name for p in (out / "reports").iterdir()} == {"ac", "b", "c"}
    assert (out / "reports" / "b" / "index.html").exists()
    assert "## balance check: FAIL" in summary.read_text() and (out / "junit.xml").exists()
    quick = dict(env, BALANCE="true")                  # which scenarios, without playing them again
    again = subprocess.run(["bash", str(SCRIPT), "", "all"], cwd=repo, env=quick, capture_output=True, text=True)
    assert "checking: scenarios/a.toml scenarios/ac.toml scenarios/b.toml scenarios/c.toml" in again.stdout


def _steps() -> list[dict]:
    return yaml.safe_load(WORKFLOW.read_text())["jobs"]["balance"]["steps"]


def test_workflow_caches_pip_on_pyproject_and_the_numba_cache_on_the_sources(tmp_path):
    steps = _steps()
    uses = [step.get("uses", "").split("@")[0] for step in steps]
    setup = steps[uses.index("actions/setup-python")]
    assert setup["with"]["cache"] == "pip" and setup["with"]["cache-dependency-path"] == "pyproject.toml"
    restore, save = uses.index("actions/cache/restore"), uses.index("actions/cache/save")
    cache = steps[restore]
    install = next(i for i, step in enumerate(steps) if "pip install ." in step.get("run", ""))
    check = next(i for i, step in enumerate(steps) if ".ci/balance-check.sh" in step.get("run", ""))
    assert restore < install < check < save                      # restored before anything compiles
    assert "hashFiles('balance/**/*.py'" in cache["with"]["key"]
    assert "steps.python.outputs.python-version" in cache["with"]["key"] and setup["id"] == "python"
    # saved under the key restored, also when a claim fails (the check step's exit code fails the job)
    assert steps[save]["with"] == {"path": cache["with"]["path"], "key": "${{ steps.numba.outputs.cache-primary-key }}"}
    assert steps[save]["if"].startswith("always()") and cache["id"] == "numba"
    # the cached folder is where balance keeps its compiled kernels when NUMBA_CACHE_DIR is not set
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["HOME"] = str(tmp_path)
    where = subprocess.run([sys.executable, "-c", "import os, balance; print(os.environ['NUMBA_CACHE_DIR'])"],
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).parent == Path(cache["with"]["path"].replace("~", str(tmp_path)))
    # Numba matches a cached kernel to its source file's time: the installed package's files get one fixed time,
    # found from outside the checkout (-P), whose balance/ would otherwise be imported instead
    run = steps[install]["run"]
    assert "python -P -c 'import balance" in run and "touch -d 2000-01-01T00:00:00Z" in run


def test_affected_follows_the_loaders_extends_chain_and_the_files_a_scenario_loads(tmp_path):
    """`balance affected` (and `.ci/balance-check.sh`): a scenario is touched by its own file, by any file of its
    extends chain at any depth (in another folder too), by a file its game loads (a map); one that no longer loads
    is listed, so that `balance check` says why."""
    sc = tmp_path / "scenarios"
    (sc / "base").mkdir(parents=True)
    (sc / "base" / "root.toml").write_text('game = "spooky_tower"\n')
    (sc / "mid.toml").write_text('extends = "base/root.toml"\nseed = 2\n')
    (sc / "top.toml").write_text('extends = "mid.toml"\nplayers = 4\n')
    (sc / "other.toml").write_text('game = "spooky_tower"\n')
    shutil.copy(ROOT / "balance" / "data" / "haunted_tower" / "fighters_academy.map", sc / "my.map")
    (sc / "haunted.toml").write_text(f'extends = "{(ROOT / "scenarios" / "haunted_tower.toml").as_posix()}"\n'
                                     '[components]\nmap = "my.map"\n')
    (sc / "broken.toml").write_text('extends = "gone.toml"\n')
    every = [str(p) for p in sorted(sc.glob("*.toml"))]
    listed = lambda *changed: [Path(p).name for p in affected(every, [sc / c for c in changed])]  # noqa: E731
    assert listed("base/root.toml") == ["broken.toml", "mid.toml", "top.toml"]
    assert listed("mid.toml") == ["broken.toml", "mid.toml", "top.toml"]
    assert listed("top.toml", "other.toml") == ["broken.toml", "other.toml", "top.toml"]
    assert listed("my.map") == ["broken.toml", "haunted.toml"]
    assert listed() == ["broken.toml"]
    assert listed("README.md") == ["broken.toml"]
    done = subprocess.run([sys.executable, "-m", "balance", "affected", *every], cwd=tmp_path, text=True,
                          input="scenarios/base/root.toml\n", capture_output=True)
    assert done.returncode == 0, done.stderr
    assert [Path(p).name for p in done.stdout.split()] == ["broken.toml", "mid.toml", "top.toml"]
