"""The GitHub Actions workflow runs .ci/balance-check.sh; this runs that script on a scratch repository, as the
workflow would after a push that changed one scenario."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
    assert "checking: scenarios/b.toml scenarios/c.toml" in done.stdout  # c extends b; a did not change
    out = repo / "out"
    assert {p.name for p in (out / "reports").iterdir()} == {"b", "c"}
    assert (out / "reports" / "b" / "index.html").exists()
    assert "## balance check: FAIL" in summary.read_text() and (out / "junit.xml").exists()
    quick = dict(env, BALANCE="true")                  # which scenarios, without playing them again
    again = subprocess.run(["bash", str(SCRIPT), "", "all"], cwd=repo, env=quick, capture_output=True, text=True)
    assert "checking: scenarios/a.toml scenarios/b.toml scenarios/c.toml" in again.stdout
