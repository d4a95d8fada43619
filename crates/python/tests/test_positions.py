"""Positions of every game of the catalogue: moves, history, results, notation, copies."""

from __future__ import annotations

import copy

import pytest

import gamelab


def test_the_catalogue_makes_a_class_per_game():
    names = gamelab.games()
    assert names[:3] == ["ttt", "othello", "connect4"]
    assert names == [g["name"] for g in gamelab.catalogue()]
    for info in gamelab.catalogue():
        cls = getattr(gamelab, info["class_name"])
        pos = cls()
        assert isinstance(pos, gamelab.Position)
        assert isinstance(pos, cls)
        assert pos.game == info["name"] == cls.game
        assert pos.sides == tuple(info["sides"])
        assert pos.ply == 0 and not pos.is_over and pos.outcome is None
        assert pos.legal_moves(), info["name"]
        assert gamelab.position(info["name"]) == pos
    assert not isinstance(gamelab.Othello(), gamelab.TicTacToe)
    assert gamelab.TicTacToe.game == "ttt" and gamelab.ConnectFour.sides == ("red", "yellow")


def test_every_game_plays_to_the_end_and_back():
    for info in gamelab.catalogue():
        pos = gamelab.position(info["name"])
        start = pos.copy()
        played = []
        while not pos.is_over:
            mv = pos.legal_moves()[-1]
            assert pos.play(mv) == mv
            played.append(mv)
        assert pos.history == played
        assert pos.legal_moves() == []
        assert pos.outcome in {f"{s} wins" for s in pos.sides} | {"draw"}
        assert (pos.winner is None) == (pos.outcome == "draw")
        with pytest.raises(gamelab.IllegalMoveError, match="the game is over"):
            pos.play(played[0])
        while pos.undo() is not None:
            pass
        assert pos == start and pos.history == []


def test_moves_take_the_notation_and_anything_that_prints_as_it():
    pos = gamelab.TicTacToe()
    assert pos.legal_moves()[0] == "0,0"
    assert pos.play("1,1") == "1,1"
    assert pos.play((0, 0)) == "0,0"
    assert pos.to_move == "o" and pos.ply == 2
    four = gamelab.ConnectFour()
    assert four.play(4) == four.history[0]
    othello = gamelab.Othello()
    assert othello.play("F5") == "f5"


def test_an_illegal_move_says_why_and_leaves_the_position():
    pos = gamelab.TicTacToe()
    pos.play("1,1")
    before = pos.copy()
    with pytest.raises(gamelab.IllegalMoveError) as e:
        pos.play("1,1")
    assert "moves are x,y" in str(e.value)
    assert isinstance(e.value, ValueError)
    assert pos == before and pos.history == ["1,1"]
    with pytest.raises(ValueError, match="off the board"):
        pos.play("7,7")


def test_positions_read_from_the_games_notations():
    assert str(gamelab.TicTacToe("xo.xo....")).startswith("Turn o")
    board = gamelab.TicTacToe("1,1 0,0")
    assert board.to_move == "o" and board.cells[1][1] == "o" and board.cells[0][0] == "x"
    transcript = gamelab.Othello("f5d6c3")
    assert transcript.to_move == "white" and transcript.score == (5, 2)
    with pytest.raises(gamelab.PositionError, match="a board string has 9 squares"):
        gamelab.TicTacToe("xxxx")
    with pytest.raises(gamelab.PositionError, match="unknown game `chess`; gamelab plays ttt, othello, connect4"):
        gamelab.position("chess")
    with pytest.raises(gamelab.PositionError, match="ttt has no board `3d`"):
        gamelab.TicTacToe(board="3d")


def test_every_board_structure_plays_the_same_game():
    for board in gamelab.catalogue()[0]["boards"]:
        pos = gamelab.TicTacToe(board=board)
        assert pos.board == board
        for mv in ["1,1", "0,0", "2,0", "0,2", "0,1", "2,1", "1,2", "1,0", "2,2"]:
            pos.play(mv)
        assert pos.outcome == "draw", board


def test_copies_equality_and_hashing():
    a = gamelab.TicTacToe()
    a.play("1,1")
    b = copy.copy(a)
    c = copy.deepcopy(a)
    assert a == b == c and hash(a) == hash(b)
    b.play("0,0")
    assert a != b and a.ply == 1
    # The same position reached in another order is the same position.
    x, y = gamelab.TicTacToe("1,1 0,0 2,2"), gamelab.TicTacToe("2,2 0,0 1,1")
    assert x == y and hash(x) == hash(y)
    assert len({x, y, a}) == 2
    assert gamelab.TicTacToe() != gamelab.ConnectFour()
    assert a.after("0,0") == b and a.ply == 1


def test_results_and_winning_lines():
    pos = gamelab.TicTacToe("0,0 1,0 0,1 1,1 0,2")
    assert pos.outcome == "o wins" and pos.winner == "o" and pos.is_over
    assert sorted(pos.highlight()) == [0, 3, 6]


def test_othello_passes_and_counts():
    # Random games until one side must pass: the pass is its only move, and it is said.
    for game in range(100):
        rng = gamelab.Stream(seed=3, game=game)
        pos = gamelab.Othello()
        while not pos.is_over and pos.legal_moves() != ["pass"]:
            pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over:
            break
    else:
        pytest.fail("no pass in 100 random games")
    assert pos.square_of("pass") is None
    assert "must pass" in pos._repr_svg_()
    black, white = pos.score
    assert black + white == sum(cell is not None for row in pos.cells for cell in row)
    pos.play("pass")
    assert pos.history[-1] == "pass"


def test_positions_draw_themselves():
    svg = gamelab.Othello()._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") >= 4 + 4
    assert "black to move" in svg
    ttt = gamelab.TicTacToe("0,0 1,0 0,1 1,1 0,2")._repr_svg_()
    assert ">o<" in ttt and "o wins" in ttt and 'fill="#facc15"' in ttt
    assert "<svg" in gamelab.ConnectFour()._repr_html_()
    assert "TicTacToe position, ply 0" in repr(gamelab.TicTacToe())


def test_moves_and_games_write_out_and_read_back():
    othello = gamelab.Othello()
    for mv in ["f5", "d6", "c3", "d3", "c4"]:
        othello.play(mv)
    assert othello.moves_text() == "f5d6c3d3c4"
    assert gamelab.Othello(othello.moves_text()) == othello
    ggf = othello.game_record(("me", "edax"))
    assert ggf.startswith("(;GM[Othello]PC[gamelab]PB[me]PW[edax]RE[?]") and "B[C4]" in ggf
    assert gamelab.Othello(ggf) == othello
    ttt = gamelab.TicTacToe("1,1 0,0")
    assert ttt.moves_text() == "1,1 0,0" and gamelab.TicTacToe(ttt.moves_text()) == ttt
    with pytest.raises(ValueError, match="ttt has no record format of its own"):
        ttt.game_record()
    with pytest.raises(ValueError, match="read from a board"):
        gamelab.Othello("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X").game_record()
