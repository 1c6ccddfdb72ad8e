"""The quickstart notebook executes top to bottom with only the public API (so it can never rot)."""
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_quickstart.ipynb"


def test_quickstart_notebook_executes():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "Seats" in text and "Victory kinds" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2


STUDY = NOTEBOOK.with_name("02_balance_study.ipynb")


def test_study_notebook_executes():
    """The study notebook: compare, sweep, a sequential question, a tournament and a check, top to bottom."""
    nb = nbformat.read(STUDY, as_version=4)
    NotebookClient(nb, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(STUDY.parent)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "Findings" in text and "is the strongest" in text and "pass 0" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 5
