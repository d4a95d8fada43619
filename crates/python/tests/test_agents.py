"""gamelab's AIs from Python: the registry, specs, moves, distributions, traces; and the
random stream Python agents draw from."""

from __future__ import annotations

import pytest

import gamelab
from conftest import cli


def test_every_game_lists_its_ais_with_parameters():
    for info in gamelab.catalogue():
        ais = gamelab.ais(info["name"])
        assert ais and all({"name", "summary", "params", "aliases"} <= set(a) for a in ais)
        for a in ais:
            for p in a["params"]:
                assert p["kind"] in {"float", "int", "bool", "choice", "text", "file", "program"}
    ai12s = next(a for a in gamelab.ais("ttt") if a["name"] == "ai12s")
    assert any(p["name"] == "ver" for p in ai12s["params"])
    assert gamelab.TicTacToe.ais() == gamelab.ais("ttt")


def test_specs_are_checked_with_the_command_lines_messages():
    with pytest.raises(gamelab.SpecError) as e:
        gamelab.agent("ai99")
    assert str(e.value) in cli("move", "ai99", ok=False).stderr
    with pytest.raises(ValueError) as e:
        gamelab.agent("ai12s:ver=9")
    assert str(e.value) in cli("move", "ai12s:ver=9", ok=False).stderr
    for bad in ["engine:level=nan", "engine:level=1e308", "mcts:c=-1"]:
        with pytest.raises(gamelab.SpecError):
            gamelab.agent(bad, "othello" if bad.startswith("engine") else "ttt")
    with pytest.raises(gamelab.PositionError):
        gamelab.agent("ai2", "chess")
    # AIs inside AIs without end: an error, not a crash of the interpreter.
    deep = "mcts:playout=(" * 2000 + "greedy" + ")" * 2000
    with pytest.raises(gamelab.SpecError, match="nested more than 8 deep"):
        gamelab.agent(deep, "othello")


def test_an_agent_plays_what_the_command_line_says():
    pos = gamelab.TicTacToe("1,1")
    ai = gamelab.agent("ai14s")
    policy = ai.policy(pos)
    assert policy and abs(sum(policy.values()) - 1) < 1e-12
    out = cli("move", "ai14s", "1,1").stdout
    # `gamelab move` prints moves as the articles do: `(0, 0)` for `0,0`.
    articles = ", ".join(f"({mv.replace(',', ', ')})" for mv in policy)
    assert f"best moves [{articles}]" in out
    assert ai.best_moves(pos) == list(policy)
    assert ai.choose(pos, seed=3) in policy
    assert {ai.choose(pos, seed=s) for s in range(40)} == set(policy)
    # The stream is (seed, ply, side): the same move for the same seed, every time.
    assert [ai.choose(pos, seed=s) for s in range(20)] == [ai.choose(pos, seed=s) for s in range(20)]


def test_traces_scores_and_values():
    pos = gamelab.TicTacToe()
    trace = gamelab.agent("ai14s").explain(pos)
    assert trace is not None and "best moves" in trace
    assert gamelab.agent("ai2").explain(pos) is None
    scores = gamelab.agent("ai14s").move_scores(pos)
    assert scores["1,1"] == max(scores.values())
    engine = gamelab.agent("engine:level=2", "othello")
    othello = gamelab.Othello()
    assert engine.value(othello) is not None
    assert set(engine.move_scores(othello)) == set(othello.legal_moves())
    assert gamelab.agent("engine:time=0.05", "othello").policy(othello) is None


def test_mcts_deepens_by_doubling_its_iterations_until_every_move_is_proven():
    levels = gamelab.agent("mcts:iterations=500").deepen(gamelab.TicTacToe())
    assert [level["level"] for level in levels] == list(range(1, len(levels) + 1))
    assert [level["nodes"] for level in levels[:3]] == [500, 1000, 2000]
    last = levels[-1]["moves"]
    assert len(last) == 9 and all(v["exact"] for v in last.values())
    # Tic-tac-toe is a draw: no first move wins, and the centre does not lose.
    assert max(v["score"] for v in last.values()) == 0
    assert last["1,1"]["score"] == 0


def test_agents_refuse_other_games_and_finished_positions():
    with pytest.raises(ValueError, match="is an AI of ttt; this position is of othello"):
        gamelab.agent("ai2").choose(gamelab.Othello())
    with pytest.raises(ValueError, match="already over"):
        gamelab.agent("ai2").choose(gamelab.TicTacToe("0,0 1,0 0,1 1,1 0,2"))


def test_an_agent_follows_the_positions_board_structure():
    ai = gamelab.agent("ai14s")
    for board in gamelab.catalogue()[0]["boards"]:
        pos = gamelab.TicTacToe("1,1", board=board)
        assert ai.policy(pos) == ai.policy(gamelab.TicTacToe("1,1"))


def test_streams_are_seeded_and_follow_random_random():
    a, b = gamelab.Stream(seed=5, game=2), gamelab.Stream(seed=5, game=2)
    draws = [a.randrange(10) for _ in range(50)]
    assert draws == [b.randrange(10) for _ in range(50)]
    assert set(draws) <= set(range(10)) and len(set(draws)) > 5
    assert draws != [gamelab.Stream(seed=6, game=2).randrange(10) for _ in range(50)]
    s = gamelab.Stream(1)
    assert 0 <= s.random() < 1
    assert 3 <= s.randint(3, 5) <= 5
    assert s.randrange(10, 20, 5) in (10, 15)
    assert 2.0 <= s.uniform(2, 3) <= 3.0
    items = list(range(10))
    s.shuffle(items)
    assert sorted(items) == list(range(10))
    assert len(set(s.sample(range(100), 7))) == 7
    assert 0 <= s.getrandbits(5) < 32
    # A choice among one draws nothing, as gamelab's AIs do with a forced move.
    c, d = gamelab.Stream(9), gamelab.Stream(9)
    assert c.choice(["only"]) == "only"
    assert c.randrange(1000) == d.randrange(1000)
    with pytest.raises(IndexError):
        s.choice([])
    with pytest.raises(ValueError):
        s.randrange(0)
    with pytest.raises(ValueError):
        gamelab.Stream(side=2)
