"""numpy views of datasets and models (numpy is optional: only these need it)."""

from __future__ import annotations

from typing import Any


def _numpy():
    try:
        import numpy
    except ImportError:
        raise ImportError("to_numpy() needs numpy: pip install numpy") from None
    return numpy


def dataset_arrays(data: Any) -> tuple[Any, Any]:
    """`(X, y)`: the one-hot feature matrix (rows × features, 0/1 floats) and the targets."""
    np = _numpy()
    x = np.zeros((len(data), len(data.columns)), dtype=np.float64)
    for i, active in enumerate(data.active):
        x[i, active] = 1.0
    return x, np.asarray(data.targets, dtype=np.float64)


def model_weights(model: Any) -> Any:
    """The weights in the column order of the model's features."""
    np = _numpy()
    return np.asarray(model.weights, dtype=np.float64)
