"""Every notebook executes top to bottom with only the public API (so none can rot), and shows each figure once."""
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOK = NOTEBOOKS / "01_quickstart.ipynb"
STUDY = NOTEBOOKS / "02_balance_study.ipynb"
HAUNTED = NOTEBOOKS / "03_haunted_tower.ipynb"
CLIMBING = NOTEBOOKS / "04_climbing_tower.ipynb"


def execute(path: Path, timeout: int = 900) -> tuple[str, int]:
    """Run the notebook; returns its printed and displayed text and its number of images. Fails on an error, on a
    cell that shows more than one image (each cell draws at most one figure: two images are one figure shown twice,
    as a pyplot figure a cell returns is), and on an import from inside the package."""
    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert not [c.source for c in code if re.search(r"from balance\.|import balance\.|balance\._", c.source)]
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for cell in code for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    shown_twice = [cell.source for cell in code
                   if sum("image/png" in o.get("data", {}) for o in cell.get("outputs", [])) > 1]
    assert shown_twice == []
    text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    return text, sum("image/png" in o.get("data", {}) for o in outputs)


def test_every_notebook_is_tested():
    assert sorted(NOTEBOOKS.glob("*.ipynb")) == [NOTEBOOK, STUDY, HAUNTED, CLIMBING]


def test_quickstart_notebook_executes():
    text, images = execute(NOTEBOOK, timeout=600)
    assert "Seats" in text and "Victory kinds" in text
    assert images >= 2


def test_study_notebook_executes():
    """The study notebook: compare, sweep, a sequential question, a tournament and a check, top to bottom."""
    text, images = execute(STUDY)
    assert "Findings" in text and "is the strongest" in text and "pass 0" in text
    assert images == 5


@pytest.mark.parametrize("path, needles, figures", [
    (HAUNTED, ["3 to 6 players", "fighter", "magic_user", "fights", "of them lost", "basilisk"], 4),
    (CLIMBING, ["20,000 games of Climbing Tower", "BOSS side", "420 towers played", "tower", "purple_2"], 3),
])
def test_game_notebook_answers_its_questions(path, needles, figures):
    """The Haunted Tower's (heroes by player count, monsters' deadliness) and Climbing Tower's (the BOSS side,
    tower cards pooled, each card's causal worth)."""
    text, images = execute(path)
    for needle in needles:
        assert needle in text, needle
    assert images == figures
