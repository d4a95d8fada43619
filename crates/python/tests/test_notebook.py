"""The example notebook runs top to bottom in a fresh kernel."""

from __future__ import annotations

import pathlib

import nbformat
from nbclient import NotebookClient

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "examples" / "getting-started.ipynb"


def test_the_getting_started_notebook_runs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = {mime for o in outputs for mime in o.get("data", {})}
    # Positions drew themselves, results showed their tables, the chart came out.
    assert {"image/svg+xml", "text/html", "image/png"} <= kinds
    text = "".join(o.get("text", "") for o in outputs)
    assert "same games as ai2: True" in text
