"""Shared helpers: the command line binary (the numbers must be the same as its), and
the repository's data."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
DATA = ROOT.parent / "shared" / "data"


def gamelab_bin() -> pathlib.Path:
    given = os.environ.get("GAMELAB_BIN")
    if given:
        return pathlib.Path(given)
    for profile in ("debug", "release"):
        candidate = ROOT / "target" / profile / "gamelab"
        if candidate.exists():
            return candidate
    pytest.skip("no gamelab binary: cargo build -p gamelab (or set GAMELAB_BIN)")


def cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    """Runs the command line; with `ok`, it must succeed."""
    done = subprocess.run([str(gamelab_bin()), *args], capture_output=True, text=True, timeout=600)
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def cli_json(*args: str) -> dict:
    return json.loads(cli(*args, "--json").stdout)


@pytest.fixture
def data() -> pathlib.Path:
    if not DATA.exists():
        pytest.skip(f"no reference data at {DATA}")
    return DATA
