"""Matches, tournaments, the divergence search and proofs from Python: the command line's
numbers, Python agents in the arena, and what happens when one fails."""

from __future__ import annotations

import pytest

import gamelab
from conftest import cli, cli_json


@pytest.mark.parametrize(
    "a,b,games",
    [("ai14s", "ai2", 5000), ("ai1", "ai1s", 3000), ("ai12s:ver=3", "ai6", 2000), ("ai2", "ai2", 100_000)],
)
def test_the_articles_tables_are_the_command_lines(a, b, games):
    result = gamelab.match(a, b, games=games, seed=7)
    expected = cli_json("match", a, b, "-n", str(games), "--seed", "7")
    got = result.to_dict()
    for report in (got, expected):
        report.pop("elapsed_ms")
    assert got == expected
    assert result.total.games == 2 * games == result.played
    assert result.first.win + result.first.lose + result.first.draw == games
    text = str(result)
    table = cli("match", a, b, "-n", str(games), "--seed", "7").stdout
    assert text.split("\n\n")[0] in table and text.split("\n\n")[1] in table


def test_exact_tables_are_the_command_lines():
    result = gamelab.match("ai14s", "ai2", exact=True)
    expected = cli_json("match", "ai14s", "ai2", "--exact")
    assert result.to_dict()["exact"] == expected["exact"]
    assert result.exact.total.lose == 0
    assert "(exact)" in str(result) and "93.61%" in str(result)
    with pytest.raises(ValueError, match="no fixed move distribution"):
        gamelab.match("ai14s", "mcts:time=0.01", exact=True)


def test_results_do_not_depend_on_threads():
    digests = {gamelab.match("ai5", "ai2", games=20_000, threads=t).digest for t in (1, 2, 3)}
    assert len(digests) == 1


def test_a_python_ai2_plays_exactly_gamelabs_ai2():
    def my_ai2(position, stream):
        return stream.choice(position.legal_moves())

    for opponent in ("ai2", "ai14s", "ai5"):
        mine = gamelab.match(my_ai2, opponent, games=3000, seed=11)
        theirs = gamelab.match("ai2", opponent, games=3000, seed=11)
        assert mine.digest == theirs.digest
        assert mine.first == theirs.first and mine.second == theirs.second
    assert mine.a == "my_ai2"


def test_a_python_agent_with_a_policy_gets_exact_tables():
    class Uniform:
        name = "uniform"

        def choose(self, position, stream):
            return stream.choice(position.legal_moves())

        def policy(self, position):
            moves = position.legal_moves()
            return {m: 1 / len(moves) for m in moves}

    mine = gamelab.match(Uniform(), "ai14s", exact=True)
    theirs = gamelab.match("ai2", "ai14s", exact=True)
    for side in ("first", "second", "total"):
        assert getattr(mine.exact, side).ratios() == pytest.approx(getattr(theirs.exact, side).ratios(), abs=1e-12)
    with pytest.raises(ValueError, match="has no fixed move distribution"):
        gamelab.match(lambda p: p.legal_moves()[0], "ai14s", exact=True)


def test_a_bad_policy_is_an_agent_error():
    class Bad:
        def choose(self, position):
            return position.legal_moves()[0]

        def policy(self, position):
            return {position.legal_moves()[0]: 0.5}

    with pytest.raises(gamelab.AgentError, match="sum to 0.5; they must sum to 1"):
        gamelab.match(Bad(), "ai2", exact=True)


def test_an_exception_in_a_python_agent_stops_the_match_and_says_where():
    calls = []

    def fragile(position):
        calls.append(1)
        if len(calls) == 40:
            raise ZeroDivisionError("my bug")
        return position.legal_moves()[0]

    with pytest.raises(gamelab.AgentError) as e:
        gamelab.match(fragile, "ai2", games=1000)
    err = e.value
    assert isinstance(err.__cause__, ZeroDivisionError)
    assert "fragile failed in game" in str(err) and "my bug" in str(err)
    assert 5 <= err.game <= 40 and "Turn" in err.position
    assert len(calls) == 40, "the match stopped at the failure"


def test_an_illegal_move_from_a_python_agent_is_an_agent_error():
    with pytest.raises(gamelab.AgentError, match="returned `9,9`, which cannot be played"):
        gamelab.match(lambda p: "9,9", "ai2", games=10)
    with pytest.raises(TypeError, match="an agent is an AI spec"):
        gamelab.match(42, "ai2", games=10)


def test_python_agents_play_othello_and_connect_four():
    def greedy_first(position):
        return position.legal_moves()[0]

    for game in ("othello", "connect4"):
        result = gamelab.match(greedy_first, "random", game=game, games=20, seed=3)
        assert result.played == 40 and result.game == game


def test_a_clock_times_every_move_and_a_slow_side_loses_on_time():
    import time

    def slow(position):
        time.sleep(0.03)
        return position.legal_moves()[0]

    # 30 ms a move against 50 ms a game: out of time by its second move.
    result = gamelab.match(slow, "ai2", games=2, clock="0.05")
    assert result.clock == "0.05" and result.played == 4
    assert result.forfeits["a"] == 4 and result.total.lose == 4
    assert result.forfeits["first"]["reason"].startswith("ran out of time: its move took ")
    quick = gamelab.match("ai14s", "ai2", games=20, clock="60+0.5")
    expected = cli_json("match", "ai14s", "ai2", "-n", "20", "--clock", "60+0.5")
    assert quick.clock == expected["clock"] == "60+0.5" and quick.forfeits is None
    assert gamelab.match("ai14s", "ai2", games=5).clock is None
    with pytest.raises(ValueError, match="clock `soon`: expected MAIN"):
        gamelab.match("ai14s", "ai2", clock="soon")
    with pytest.raises(ValueError, match="it takes no clock"):
        gamelab.match("ai14s", "ai2", exact=True, clock="60")


def test_openings_records_and_othello_matches_are_the_command_lines():
    result = gamelab.match("engine:level=1", "alphabeta:time=0,depth=1", game="othello", games=10, openings=6, records=True)
    expected = cli_json(
        "match", "engine:level=1", "alphabeta:time=0,depth=1", "--game", "othello", "-n", "10", "--openings", "6"
    )
    got = result.to_dict()
    got.pop("elapsed_ms"), expected.pop("elapsed_ms")
    assert got == expected
    assert len(result.records) == 20 and all(len(r["moves"]) >= 6 for r in result.records)
    firsts = {tuple(r["moves"][:6]) for r in result.records}
    assert len(firsts) == 10
    given = gamelab.match("ai14s", "ai2", openings=[["1,1"], ["0,0", "1,1"]], records=True)
    assert given.games_per_side == 2 and [r["moves"][0] for r in given.records] == ["1,1", "0,0"] * 2
    with pytest.raises(ValueError, match="opening 1: move 1"):
        gamelab.match("ai14s", "ai2", openings=[["5,5"]])


def test_tournaments_are_the_command_lines():
    result = gamelab.tournament(["ai2", "ai14s", "ai6"], games=500, seed=2)
    expected = cli_json("tournament", "ai2", "ai14s", "ai6", "-n", "500", "--seed", "2")
    assert result.to_dict() == expected
    assert [p.ai for p in result.players] == ["ai14s", "ai6", "ai2"]
    assert 0.5 < result.score("ai14s", "ai2") <= 1
    assert "rank  AI" in str(result)
    with pytest.raises(ValueError, match="each AI may enter once"):
        gamelab.tournament(["ai2", "ai2"])


def test_a_tournament_is_set_up_as_a_match_clock_included():
    import time

    timed = gamelab.tournament(["ai2", "ai14s"], games=20, clock="60+0.5", openings=2)
    expected = cli_json("tournament", "ai2", "ai14s", "-n", "20", "--clock", "60+0.5", "--openings", "2")
    assert timed.to_dict() == expected and expected["clock"] == "60+0.5"

    def slow(position):
        time.sleep(0.03)
        return position.legal_moves()[0]

    # 30 ms a move against 50 ms a game: out of time by its second move, every game.
    result = gamelab.tournament([slow, "ai2"], games=2, clock="0.05")
    slow_results = next(p for p in result.players if p.ai != "ai2").results[0]
    assert slow_results["lose"] == slow_results["forfeited"] == 4
    with pytest.raises(ValueError, match="clock `soon`: expected MAIN"):
        gamelab.tournament(["ai2", "ai14s"], clock="soon")


def test_the_divergence_search_finds_the_seeds_case():
    found = gamelab.diverge("ai12s", "ai12s:score_victory=200", "ai2")
    out = cli("diverge", "ai12s", "ai12s:score_victory=200", "ai2").stdout
    assert found.seed == 1 and f"seed {found.seed}: the games part at move {found.parted + 1}" in out
    assert str(found).splitlines()[2] == out.splitlines()[2]
    assert gamelab.diverge("ai1", "ai1s", "ai2", limit=50) is None
    with pytest.raises(ValueError, match="`z` is not a side: expected o or x"):
        gamelab.diverge("ai1", "ai1s", "ai2", side="z")


def test_proofs_and_solved_values():
    assert gamelab.verify("ai14s").never_loses
    weak = gamelab.verify("ai2")
    assert not weak.never_loses and weak["o"]["losing_line"]
    out = cli("verify", "ai14s").stdout
    assert f"never loses ({gamelab.verify('ai14s')['o']['positions']} positions checked)" in out
    start = gamelab.solve(gamelab.TicTacToe())
    assert start.value == 0 and len(start.best_moves) == 9
    win = gamelab.solve(gamelab.TicTacToe("0,0 1,1 0,1 2,2"))
    assert win.value == 1 and "0,2" in win.best_moves
    block = gamelab.solve(gamelab.TicTacToe("0,0 1,1 2,2 1,0"))
    assert block.value == 0 and block.best_moves == ["1,2"] and block.moves["0,1"] == -1
    with pytest.raises(ValueError, match="gamelab.othello.solve"):
        gamelab.solve(gamelab.Othello())


def test_bad_numbers_are_refused():
    for kwargs, message in [
        ({"games": 0}, "games: expected a number of games from 1 to 1000000000000"),
        ({"games": 10**12 + 1}, "games: expected a number of games"),
        ({"threads": 0}, "threads: expected a number of threads from 1 to 256"),
        ({"openings": 31}, "openings: expected a number of plies from 0 to 30"),
        ({"openings": 2, "balanced": float("nan"), "judge": "ai2"}, "balanced: expected a window"),
        ({"balanced": 1.0}, "balanced and judge go together"),
    ]:
        with pytest.raises(ValueError, match=message):
            gamelab.match("ai2", "ai2", **kwargs)
    # The command line says the same.
    assert "expected a number of games from 1 to 1000000000000" in cli("match", "ai2", "ai2", "-n", "0", ok=False).stderr
    with pytest.raises(OverflowError):
        gamelab.match("ai2", "ai2", seed=-1)


def test_records_are_saved_and_loaded_in_the_command_lines_formats(tmp_path):
    result = gamelab.match("engine:level=1", "greedy", game="othello", games=3, openings=4, seed=5, records=True)
    for name in ("games.jsonl", "games.ggf"):
        path = tmp_path / name
        assert gamelab.save_records(result, path) == 6
        cli("match", "--game", "othello", "engine:level=1", "greedy", "-n", "3", "--openings", "4", "--seed", "5",
            "--records", str(tmp_path / f"cli-{name}"))
        assert path.read_text() == (tmp_path / f"cli-{name}").read_text(), name
        assert gamelab.load_records(path) == result.records
    ttt = gamelab.match("ai14s", "ai2", games=20, records=True)
    gamelab.save_records(ttt.records, tmp_path / "t.csv")
    loaded = gamelab.load_records(tmp_path / "t.csv", game="ttt")
    assert [r["moves"] for r in loaded] == [r["moves"] for r in ttt.records]
    bad = dict(ttt.records[0], result="x" if ttt.records[0]["result"] != "x" else "o")
    with pytest.raises(ValueError, match="record 0: the moves end in"):
        gamelab.save_records([bad], tmp_path / "bad.jsonl")
    assert not (tmp_path / "bad.jsonl").exists()
    (tmp_path / "junk.ggf").write_text("(;GM[Othello]B[Z9];)")
    with pytest.raises(ValueError, match="junk.ggf"):
        gamelab.load_records(tmp_path / "junk.ggf")
