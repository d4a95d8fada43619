"""Othello's own tools: perft and the exact endgame solver (`gamelab perft`, `gamelab
ffo`), the FFO test suites, and the engine's opening book.

    pos = gamelab.Othello("f5d6c3d3c4f4f6f3e6e7")
    gamelab.othello.perft(6, pos)
    gamelab.othello.solve(gamelab.Othello(ffo_board))   # exact score and best move
    gamelab.othello.book(gamelab.Othello("f5d6"))        # the book's move, value, games
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Union

from . import _gamelab
from ._gamelab import Position

__all__ = ["BookMove", "EndgameSolution", "FfoPosition", "book", "ffo_positions", "perft", "solve"]


def perft(depth: int, position: Optional[Position] = None, *, threads: Optional[int] = None) -> int:
    """The leaves of the game tree `depth` plies below `position` (the start by default;
    a pass counts as a ply), on `threads` threads (None: every core)."""
    return _gamelab._perft(depth, position, threads=threads)


@dataclass(frozen=True)
class EndgameSolution:
    """The exact final disc difference for the side to move (empty squares to the
    winner), a best move (None when the game is over), and the nodes searched."""

    score: int
    best_move: Optional[str]
    nodes: int


def solve(position: Position, *, threads: Optional[int] = None, time_limit: Optional[float] = None) -> EndgameSolution:
    """Solves `position` exactly (at most 36 empty squares). The score and the move do not
    depend on `threads` (None: every core); the node count does. `time_limit` in seconds
    raises TimeoutError when it passes first; Ctrl-C raises KeyboardInterrupt. The
    solver's threads and tables (up to about 150 MB, from 21 empty squares) are kept for
    the next call, which clears them first: its nodes are those of a new solver."""
    score, best, nodes = _gamelab._solve_endgame(position, threads=threads, time_limit=time_limit)
    return EndgameSolution(score, best, nodes)


@dataclass(frozen=True)
class FfoPosition:
    """One position of an FFO suite: its id, the position, its exact score for the side
    to move and the best move the file gives."""

    id: int
    position: Position
    score: int
    best_move: str


def ffo_positions(path: Union[str, os.PathLike]) -> list[FfoPosition]:
    """The positions of an FFO suite file (`<id> <64 squares> <side> <score> <move>` a
    line, as in gamelab's data directory), in the file's order. Files past 16 MiB are
    refused (ValueError), as the command line refuses them."""
    return [FfoPosition(*p) for p in _gamelab._ffo_read(os.fspath(path))]


@dataclass(frozen=True)
class BookMove:
    """The opening book's answer: its move, the position's value in discs for the side to
    move (depth-14 searches minimaxed over the book, for the shipped one), how many WTHOR
    games reached the position, and the book's line from it (its moves while they stay in
    the book)."""

    move: str
    value: float
    games: int
    line: list[str]


def book(position: Position, path: Union[str, os.PathLike, None] = None) -> Optional[BookMove]:
    """What the engine's opening book plays in `position` (any of its symmetric images),
    or None when the position is not in it: the shipped book, or the file `gamelab
    build-book` wrote to `path`. The engine plays these moves at levels 1-13 when given the
    book (`engine:book=shipped`)."""
    found = _gamelab._book_probe(position, path)
    return None if found is None else BookMove(*found)
