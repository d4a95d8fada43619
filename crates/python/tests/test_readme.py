"""The README's Python section is true: its code runs."""

from __future__ import annotations

import pathlib

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def test_the_readmes_python_example_runs():
    text = README.read_text()
    section = text[text.index("## Python") : text.index("## Commands")]
    blocks = section.split("```python\n")[1:]
    assert blocks
    for block in blocks:
        code = block.split("```")[0]
        exec(compile(code, "README.md", "exec"), {})
