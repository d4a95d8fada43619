"""Article 002's pipeline from Python: records → dataset → fit → model → an AI; the same
files as `gamelab records`, `dataset` and `train`."""

from __future__ import annotations

import json

import numpy as np
import pytest

import gamelab
from conftest import cli


def test_datasets_and_models_are_the_command_lines(tmp_path):
    records = tmp_path / "games.jsonl"
    cli("records", "ai2", "ai2", "-n", "300", "--seed", "4", "--out", str(records))
    result = gamelab.match("ai2", "ai2", games=300, seed=4, records=True)
    assert [json.dumps(r, separators=(",", ":")) for r in result.records] == records.read_text().splitlines()

    for symmetries in (False, True):
        flag = ["--symmetries"] if symmetries else []
        theirs = tmp_path / f"cli-{symmetries}.csv"
        cli("dataset", str(records), "--out", str(theirs), *flag)
        mine = tmp_path / f"py-{symmetries}.csv"
        data = gamelab.ttt.dataset(result, symmetries=symmetries)
        data.to_csv(mine)
        assert mine.read_text() == theirs.read_text()
        assert gamelab.ttt.dataset(records, symmetries=symmetries).targets == data.targets

    model_file = tmp_path / "cli-model.json"
    cli("train", str(theirs), "--out", str(model_file))
    model = gamelab.ttt.read_dataset(theirs).fit()
    saved = tmp_path / "py-model.json"
    model.save(saved)
    assert json.loads(saved.read_text()) == json.loads(model_file.read_text())
    assert gamelab.ttt.load_model(saved).weights == model.weights


def test_numpy_arrays_and_a_learned_ai():
    data = gamelab.ttt.dataset(gamelab.match("ai2", "ai2", games=2000, records=True), symmetries=True)
    x, y = data.to_numpy()
    assert x.shape == (len(data), 216) and y.shape == (len(data),)
    assert (x.sum(axis=1) == 8).all(), "one pattern per line"
    assert data.columns[0] == "h1-0" and data.target_name == "ave"
    model = data.fit(ridge=1e-3)
    w = model.to_numpy()
    # The model's prediction is the linear form of the one-hot rows.
    assert np.allclose(x @ w + model.intercept, [model.predict(a) for a in data.active])
    assert model.rmse == pytest.approx(float(np.sqrt(np.mean((x @ w + model.intercept - y) ** 2))), rel=1e-6)


def test_learned_models_play(tmp_path):
    data = gamelab.ttt.dataset(gamelab.match("ai2", "ai2", games=5000, records=True), symmetries=True)
    path = tmp_path / "model.json"
    data.fit().save(path)
    result = gamelab.match(f"regression:model={path}", "ai2", games=500)
    assert result.total.win > 0.8 * result.total.games


def test_learning_errors():
    with pytest.raises(ValueError, match="this match kept no records"):
        gamelab.ttt.dataset(gamelab.match("ai2", "ai2", games=10))
    with pytest.raises(ValueError, match="targets are `average`"):
        gamelab.ttt.dataset([], targets="best")
    with pytest.raises(ValueError, match="unknown feature set"):
        gamelab.ttt.dataset([], features="chess")
    with pytest.raises(ValueError, match="no examples"):
        gamelab.ttt.dataset([]).fit()
    data = gamelab.ttt.dataset(gamelab.match("ai2", "ai2", games=10, records=True))
    for ridge in (-1.0, float("nan"), 1e300):
        with pytest.raises(ValueError, match="ridge: expected a ridge penalty from 0 to 1000000"):
            data.fit(ridge=ridge)
    with pytest.raises(ValueError, match="the ridge term must be positive"):
        data.fit(ridge=0.0)
    with pytest.raises(ValueError, match="line 1"):
        gamelab.ttt.dataset(['{"not": "a record"}'])
    with pytest.raises(OSError):
        gamelab.ttt.load_model("/nonexistent/model.json")
