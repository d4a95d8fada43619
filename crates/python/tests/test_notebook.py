"""The example notebooks run top to bottom in a fresh kernel."""

from __future__ import annotations

import pathlib

import nbformat
from nbclient import NotebookClient

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def run(name: str) -> tuple[set, str]:
    """Runs a notebook; the kinds of its outputs and their text."""
    nb = nbformat.read(EXAMPLES / name, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = {mime for o in outputs for mime in o.get("data", {})}
    return kinds, "".join(o.get("text", "") for o in outputs)


def test_the_getting_started_notebook_runs():
    kinds, text = run("getting-started.ipynb")
    # Positions drew themselves, results showed their tables, the chart came out.
    assert {"image/svg+xml", "text/html", "image/png"} <= kinds
    assert "same games as ai2: True" in text


def test_the_ecosystem_notebook_shows_each_bridge():
    kinds, text = run("ecosystem.ipynb")
    assert "image/svg+xml" in kinds and "text/html" in kinds
    assert "red: reward +1" in text  # alphabeta beat random moves in PettingZoo
    assert text.count("Passed API test") == 3
    assert "random learner against ai14s: mean reward -" in text
    for game in ("ttt", "othello", "connect4"):
        assert f"{game}".ljust(9) in text
    assert text.count("disagreements: 0") == 3
    assert "MCTSBot against ai14s" in text and "gamelab engine (black)" in text
