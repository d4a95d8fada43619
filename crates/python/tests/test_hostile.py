"""Hostile and careless input from Python: every bad spec, position, move, number, record,
model or file raises one of the package's exceptions (ValueError and its subclasses,
OSError, TypeError, gamelab.AgentError) with a message; none crashes the interpreter or
escapes as a Rust panic (pyo3's PanicException is a BaseException, which these checks
do not catch, so one would fail the test)."""

from __future__ import annotations

import math

import pytest

import gamelab
from gamelab import othello, ttt

EXPECTED = (ValueError, OSError, TypeError, OverflowError, gamelab.AgentError)

NESTED = "mcts:playout=(" * 2000 + "greedy" + ")" * 2000


def refused(call, *args, **kwargs) -> str:
    """Runs the call, which must raise one of the package's exceptions; its message."""
    with pytest.raises(EXPECTED) as raised:
        call(*args, **kwargs)
    message = str(raised.value)
    assert message, f"{call.__name__} raised {raised.type.__name__} with no message"
    return message


@pytest.mark.parametrize(
    "spec, game",
    [
        (NESTED, "othello"),
        (NESTED, "ttt"),
        ("", "ttt"),
        ("\x00", "ttt"),
        ("random:", "ttt"),
        ("mcts:iterations=-1", "ttt"),
        ("mcts:iterations=nan", "ttt"),
        ("mcts:iterations=1e300", "ttt"),
        ("mcts:iterations=99999999999999999999999999", "ttt"),
        ("engine:level=inf", "othello"),
        ("engine:model=/dev/zero", "othello"),
        ("engine:model=/", "othello"),
        ("regression:model=/dev/zero", "ttt"),
        ("alphabeta:depth=-3", "connect4"),
        ("x" * 100_000, "ttt"),
        ("ai2", "no-such-game"),
    ],
)
def test_bad_specs_are_refused(spec, game):
    message = refused(gamelab.agent, spec, game)
    assert len(message) < 2_000, "the message quotes at most a little of the spec"


@pytest.mark.parametrize(
    "game, text",
    [
        ("othello", "x" * 100_000),
        ("othello", "---------------------------OX------XO---------------------------"),
        ("ttt", "xxxxxxxxx"),
        ("ttt", "\udcff"),
        ("connect4", "zzzz"),
        ("connect4", "a" * 7),
        ("othello", "f5" * 40),
        ("no-such-game", ""),
    ],
)
def test_bad_positions_are_refused(game, text):
    refused(gamelab.position, game, text)


@pytest.mark.parametrize("move", ["z9", "", "\x00", "a" * 10_000, None, 10**30, -1, 1.5, [], math.nan])
def test_bad_moves_are_refused_and_change_nothing(move):
    position = gamelab.position("othello")
    before = position.board
    refused(position.play, move)
    assert position.board == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": -1},
        {"games": 0},
        {"games": 10**30},
        {"games": math.nan},
        {"games": "many"},
        {"seed": -1},
        {"seed": 2**70},
        {"threads": 0},
        {"threads": 10**9},
        {"openings": -1},
        {"openings": 10**9},
        {"openings": [["nonsense"]]},
        {"clock": "forever"},
        {"clock": "nan+0"},
        {"balanced": math.nan, "openings": 4},
        {"game": "no-such-game"},
    ],
)
def test_bad_match_settings_are_refused(kwargs):
    refused(gamelab.match, "ai2", "ai2", **kwargs)


@pytest.mark.parametrize("ais", [[], ["ai2"], ["ai2", "ai2"], ["ai2", NESTED]])
def test_bad_tournaments_are_refused(ais):
    refused(gamelab.tournament, ais, games=1)


@pytest.mark.parametrize(
    "content",
    [b"not json at all\n", b"\xff\xfe\x00\x01", b'{"game": "ttt", "moves": [[9, 9]]}\n', b"{" * 100_000],
)
def test_bad_record_files_are_refused(tmp_path, content):
    path = tmp_path / "records.jsonl"
    path.write_bytes(content)
    refused(gamelab.load_records, path)


def test_files_that_are_not_files_are_refused(tmp_path):
    refused(gamelab.load_records, tmp_path)
    refused(gamelab.load_records, tmp_path / "missing.jsonl")
    refused(ttt.load_model, "/dev/zero")
    refused(ttt.load_model, tmp_path)
    refused(ttt.read_dataset, tmp_path / "missing.csv")
    # Bounded: an endless input ends in an error, not in a full memory.
    refused(othello.ffo_positions, "/dev/zero")


@pytest.mark.parametrize("content", [b"", b"garbage", b"\x00" * 64, b"GLMODEL" + b"\xff" * 100])
def test_bad_models_and_datasets_are_refused(tmp_path, content):
    model = tmp_path / "model.json"
    model.write_bytes(content)
    refused(ttt.load_model, model)
    dataset = tmp_path / "data.csv"
    dataset.write_bytes(content + b"\n1,2,3\nx,y\n")
    refused(ttt.read_dataset, dataset)


@pytest.mark.parametrize("limit", [math.nan, -1.0, math.inf, 1e300, "soon"])
def test_bad_time_limits_are_refused(limit):
    agent = gamelab.agent("mcts:iterations=100", "ttt")
    refused(agent.deepen, gamelab.position("ttt"), time_limit=limit)


@pytest.mark.parametrize("depth", [-1, 10**30, 1_000])
def test_bad_perft_depths_are_refused(depth):
    refused(othello.perft, depth)


def test_an_open_position_is_not_solved_for_ever():
    # 60 empty squares: far past what the exact solver takes; refused, not run for ever.
    refused(othello.solve, gamelab.position("othello"))


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.randrange(0),
        lambda s: s.randrange(10, 0),
        lambda s: s.randint(5, 1),
        lambda s: s.choice([]),
        lambda s: s.sample([1, 2], 3),
        lambda s: s.getrandbits(-1),
    ],
)
def test_random_streams_refuse_what_pythons_random_refuses(call):
    # Python's own random raises IndexError for a choice from nothing.
    with pytest.raises(EXPECTED + (IndexError,)):
        call(gamelab.Stream(0))
