"""Othello's own tools from Python: perft and the exact endgame solver."""

from __future__ import annotations

import pytest

import gamelab


def test_perft_matches_the_reference_table(data):
    table = {}
    for line in (data / "othello" / "perft.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            depth, standard = line.split()[:2]
            table[int(depth)] = int(standard)
    for depth in range(1, 8):
        assert gamelab.othello.perft(depth) == table[depth]
    assert gamelab.othello.perft(7, threads=1) == table[7]
    # The four first moves are images of each other.
    assert 4 * gamelab.othello.perft(2, gamelab.Othello("f5")) == table[3]
    with pytest.raises(ValueError, match="at most 20"):
        gamelab.othello.perft(21)
    with pytest.raises(ValueError, match="threads: expected a number of threads"):
        gamelab.othello.perft(2, threads=0)


def test_the_solver_solves_ffo_positions_on_any_thread_count(data):
    positions = gamelab.othello.ffo_positions(data / "othello" / "ffo1-39.txt")
    assert [p.id for p in positions[:3]] == [1, 2, 3]
    for p in positions[:8]:
        one = gamelab.othello.solve(p.position, threads=1)
        two = gamelab.othello.solve(p.position, threads=2)
        assert one.score == two.score == p.score, p.id
        after = p.position.after(one.best_move)
        assert -gamelab.othello.solve(after).score == p.score


def test_solver_limits():
    with pytest.raises(ValueError, match="at most 36"):
        gamelab.othello.solve(gamelab.Othello())
    with pytest.raises(ValueError, match="this is an Othello function"):
        gamelab.othello.solve(gamelab.TicTacToe())
    with pytest.raises(ValueError, match="time_limit: expected a number of seconds above 0"):
        gamelab.othello.solve(gamelab.Othello(), time_limit=-1)


def test_a_deadline_gives_a_timeout(data):
    hard = next(p for p in gamelab.othello.ffo_positions(data / "othello" / "ffo40-59.txt") if p.id == 49)
    with pytest.raises(TimeoutError, match="not solved in the time limit"):
        gamelab.othello.solve(hard.position, time_limit=0.05)


def test_outside_engines_play_in_python_matches(tmp_path):
    from conftest import ROOT, gamelab_bin

    spec = f"nboard:cmd=({gamelab_bin()} nboard --ai engine:level=1)"
    outside = gamelab.match(spec, "greedy", game="othello", games=3, openings=4, threads=1)
    inside = gamelab.match("engine:level=1", "greedy", game="othello", games=3, openings=4)
    assert outside.digest == inside.digest and outside.forfeits is None
    gtp = gamelab.match(spec.replace("nboard", "gtp"), "greedy", game="othello", games=3, openings=4, threads=1)
    assert gtp.digest == inside.digest and gtp.forfeits is None
    script = ROOT / "crates" / "cli" / "tests" / "fixtures" / "misbehaving-nboard.sh"
    failing = f"nboard:cmd=({script} illegal {tmp_path / 'failed'} {gamelab_bin()})"
    result = gamelab.match(failing, "greedy", game="othello", games=2, threads=1, records=True)
    assert result.forfeits["a"] == 1 and "not legal here" in result.forfeits["first"]["reason"]
    assert result.records[0]["forfeit"] and "forfeited 1 game" in str(result)
    with pytest.raises(gamelab.AgentError, match="the match stopped"):
        gamelab.match(failing.replace("illegal", "crash").replace("failed", "again") + ",on_failure=stop", "greedy", game="othello", games=2, threads=1)
    with pytest.raises(gamelab.AgentError, match="gave up instead of moving"):
        gamelab.agent(failing.replace("failed", "once-more").replace("illegal", "garbage"), "othello").choose(gamelab.Othello())


def test_a_solve_counts_the_nodes_of_a_new_solver(data):
    # The solver kept between calls forgets what it solved: the same position solved
    # again on one thread counts the same nodes (a warm table would count fewer).
    p = next(p for p in gamelab.othello.ffo_positions(data / "othello" / "ffo1-39.txt") if p.id == 5)
    first = gamelab.othello.solve(p.position, threads=1)
    again = gamelab.othello.solve(p.position, threads=1)
    assert first == again
    assert first.nodes > 1000


def test_the_opening_book_answers_in_its_positions_and_their_images(tmp_path):
    start = gamelab.othello.book(gamelab.Othello())
    assert start is not None and start.games > 100_000
    assert start.move == start.line[0] and len(start.line) >= 10
    # f5 and d3 are images of each other: the same value, the image of the move.
    after_f5 = gamelab.othello.book(gamelab.Othello("f5"))
    after_d3 = gamelab.othello.book(gamelab.Othello("d3"))
    assert after_f5.value == after_d3.value and after_f5.games == after_d3.games
    assert after_f5.value == -start.value
    # The engine plays the book's move.
    pos = gamelab.Othello("f5d6")
    hit = gamelab.othello.book(pos)
    engine = gamelab.agent("engine:level=2,book=shipped", "othello")
    assert engine.choose(pos) == hit.move
    assert engine.explain(pos).startswith("book: ")
    # Far from any game's opening: not in the book.
    assert gamelab.othello.book(gamelab.Othello("f5f4e3f6g5")) is None
    bad = tmp_path / "bad.glbook"
    bad.write_bytes(b"nothing")
    with pytest.raises(ValueError, match="not an opening book"):
        gamelab.othello.book(pos, bad)


def test_an_engine_deepens_level_by_level_to_the_exact_values(data):
    # FFO #1 (14 empties): the moves' 13 are within level 7's exact reach.
    p = gamelab.othello.ffo_positions(data / "othello" / "ffo1-39.txt")[0]
    engine = gamelab.agent("engine:threads=1", "othello")
    levels = engine.deepen(p.position)
    assert [level["level"] for level in levels] == list(range(1, 8))
    last = levels[-1]["moves"]
    assert set(last) == set(p.position.legal_moves())
    assert all(v["exact"] and v["line"][0] == mv for mv, v in last.items())
    assert all(1 <= v["level"] <= 7 for v in last.values())
    assert max(v["score"] for v in last.values()) == p.score
    for mv, v in last.items():
        assert -gamelab.othello.solve(p.position.after(mv)).score == v["score"]
    assert all(level["nodes"] > 0 for level in levels)
    # The same levels, each given to `on_level` as it comes.
    seen = []
    again = engine.deepen(p.position, on_level=seen.append)
    assert seen == again and [level["level"] for level in seen] == list(range(1, 8))
    # An exception in `on_level` stops the search (the start is far from exact) and is
    # raised; the agent is fine afterwards.
    def enough(level):
        raise ValueError(f"enough at level {level['level']}")
    with pytest.raises(ValueError, match="enough at level 1"):
        engine.deepen(gamelab.Othello(), on_level=enough)
    # A time limit ends it at the last level done; the agent plays on afterwards.
    start = gamelab.Othello()
    timed = engine.deepen(start, time_limit=0.2)
    assert timed and all(len(level["moves"]) == 4 for level in timed)
    # Each move at its level, or (a last level cut short) the next.
    for level in timed:
        assert all(v["level"] in (level["level"], level["level"] + 1) for v in level["moves"].values())
    assert engine.choose(start) in start.legal_moves()
    # An AI that values moves once gives one level; one that values none, None.
    once = gamelab.agent("minimax:depth=2", "othello").deepen(start)
    assert len(once) == 1 and once[0]["level"] is None and once[0]["nodes"] is None
    assert gamelab.agent("random", "othello").deepen(start) is None
    with pytest.raises(ValueError, match="time_limit: expected a number of seconds above 0"):
        engine.deepen(start, time_limit=float("nan"))


def test_an_engine_gives_its_best_lines_as_the_analysis_of_every_move_ranks_them(data):
    # FFO #1 (14 empties): exact from level 7, every move's value and every line's.
    p = gamelab.othello.ffo_positions(data / "othello" / "ffo1-39.txt")[0]
    every = gamelab.agent("engine:threads=1", "othello").deepen(p.position)
    lines = gamelab.agent("engine:threads=1", "othello").deepen(p.position, lines=2)
    assert [level["level"] for level in lines] == list(range(1, 8))
    assert all(len(level["moves"]) == 2 for level in lines)
    # Best first, each line legal from the position, the first the best move's value.
    ranked = sorted(every[-1]["moves"].items(), key=lambda mv: -mv[1]["score"])
    best = list(lines[-1]["moves"].items())
    assert [v["score"] for _, v in best] == [v["score"] for _, v in ranked[:2]]
    assert best[0][1]["score"] == p.score
    for mv, v in best:
        assert v["exact"] and v["line"][0] == mv
        after = p.position
        for m in v["line"]:
            after = after.after(m)
    # Agents that value every move once give their best lines the same way.
    once = gamelab.agent("minimax:depth=2", "othello").deepen(gamelab.Othello(), lines=1)
    assert len(once) == 1 and len(once[0]["moves"]) == 1
    for bad in (0, 65):
        with pytest.raises(ValueError, match="lines: expected a number of lines from 1 to 64"):
            gamelab.agent("engine", "othello").deepen(gamelab.Othello(), lines=bad)
