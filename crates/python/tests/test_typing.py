"""The package is typed: the extension module's stub lists what the module has, and
type checkers see a class for every game of the catalogue."""

from __future__ import annotations

import ast
import pathlib

import gamelab
from gamelab import _gamelab

PACKAGE = pathlib.Path(gamelab.__file__).parent


def stub_names(tree: ast.Module) -> dict[str, set[str]]:
    """Top-level names of a stub, with the members of its classes."""
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {
                n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign)) and hasattr(n, "name")
            } | {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
    return names


def test_the_stub_matches_the_extension_module():
    assert (PACKAGE / "py.typed").exists()
    stub = stub_names(ast.parse((PACKAGE / "_gamelab.pyi").read_text()))
    public = {n for n in dir(_gamelab) if not n.startswith("__")} | {"__version__"}
    assert set(stub) == public
    for name, members in stub.items():
        obj = getattr(_gamelab, name)
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            runtime = {m for m in dir(obj) if not m.startswith("__") or m in {"__len__", "__copy__", "__deepcopy__"}}
            declared = {m for m in members if not m.startswith("__") or m in runtime}
            assert declared - {"__init__"} <= runtime | {"__eq__", "__hash__"}, name
            assert {m for m in runtime if not m.startswith("_")} <= members | {"_repr_svg_", "_repr_html_"}, name


def test_type_checkers_see_every_game_class():
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    typed = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            typed |= {n.name for n in node.body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")}
    assert typed == {g["class_name"] for g in gamelab.catalogue()}


def test_help_shows_the_docstrings():
    for obj in (gamelab.match, gamelab.Position, gamelab.Position.play, gamelab.Agent.choose, gamelab.Stream.choice,
                gamelab.ttt.dataset, gamelab.othello.solve, gamelab.Othello):
        assert obj.__doc__ and len(obj.__doc__) > 40, obj
