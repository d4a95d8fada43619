"""Tic-tac-toe's own tools: article 002's learning pipeline — game records → dataset of
line-pattern features → least squares → a model file that `regression:model=FILE` plays
by. The same code as `gamelab dataset` and `gamelab train`.

    result = gamelab.match("ai2", "ai2", games=5000, records=True)
    data = gamelab.ttt.dataset(result, symmetries=True)
    X, y = data.to_numpy()            # numpy arrays (numpy is optional)
    model = data.fit()
    model.save("model.json")
    gamelab.match("regression:model=model.json", "ai2", games=1000)
"""

from __future__ import annotations

import os
from typing import Any, Union

from . import _gamelab
from ._gamelab import Dataset, Model

__all__ = ["dataset", "load_model", "read_dataset"]


def dataset(
    records: Any,
    *,
    symmetries: bool = False,
    targets: str = "average",
    features: str = "ttt-lines-27",
) -> Dataset:
    """Article 002's dataset: every board reached in the games, its target the average
    outcome score of the games through it (o win 10, x win −10, draw 0; or
    `targets="backed-up"`), its features the one-hot patterns of the 8 lines
    (`features="ttt-lines-27"`, 216, or `"ttt-lines-27-by-turn"`, 432).

    `records`: a `MatchResult` played with `records=True`, a list of its record dicts,
    or the path of a records file (gamelab's JSON Lines or the article's CSV).
    `symmetries=True` adds the 8 images of every board (the article's own suggestion)."""
    from . import _records_text

    text, source = _records_text(records)
    return _gamelab._ttt_dataset(text, source, symmetries=symmetries, targets=targets, features=features)


def read_dataset(path: Union[str, os.PathLike]) -> Dataset:
    """A dataset CSV written by `Dataset.to_csv` or `gamelab dataset`."""
    return _gamelab._ttt_read_dataset(os.fspath(path))


def load_model(path: Union[str, os.PathLike]) -> Model:
    """A model file written by `Model.save` or `gamelab train`."""
    return _gamelab._ttt_load_model(os.fspath(path))
