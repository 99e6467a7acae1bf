"""The notebook tutorial (examples/tutorial.ipynb) runs from top to bottom
in a fresh kernel, every cell without an error (nbclient), and shows what
it says it shows."""

import os
import pathlib

import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "examples" / "tutorial.ipynb"
NEEDS = ("nbformat", "nbclient", "ipykernel", "pandas", "matplotlib")


def test_the_tutorial_notebook_runs_every_cell(tmp_path):
    # ./scripts/test installs these (the package's `notebook` extra) and
    # sets CARCASSONNE_TEST_NOTEBOOK=1: there a missing one fails.
    for name in NEEDS:
        if os.environ.get("CARCASSONNE_TEST_NOTEBOOK") == "1":
            __import__(name)
        else:
            pytest.importorskip(name, reason=f"{name} is not installed (pip install './python[notebook]')")
    import nbclient
    import nbformat

    nb = nbformat.read(NOTEBOOK, as_version=4)
    # The kernel runs in tmp_path: the notebook writes under results/ there.
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    text = "\n".join(
        o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
        for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs)
    assert "games finished, mean reward" in text, text
    assert "legal actions in all" in text, text
    images = sum("image/png" in o.get("data", {}) for cell in nb.cells if cell.cell_type == "code"
                 for o in cell.outputs)
    assert images == 2, f"{images} figures"
    runs = list((tmp_path / "results").glob("tutorial-*"))
    assert len(runs) == 1
    assert (runs[0] / "tournament" / "summary.csv").is_file()
    assert list((runs[0] / "selfplay" / "examples").glob("game-*.safetensors.gz"))
