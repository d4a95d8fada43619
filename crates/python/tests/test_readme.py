"""The Python examples users read are true: every ```python block of the README and of
docs/python.md runs."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("page", ["README.md", "docs/python.md"])
def test_every_python_example_runs(page):
    blocks = (ROOT / page).read_text().split("```python\n")[1:]
    assert blocks
    for block in blocks:
        code = block.split("```")[0]
        exec(compile(code, page, "exec"), {})
