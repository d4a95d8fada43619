//! `gamelab play` driven through stdin, as a person at a terminal would.

mod common;

use common::gamelab;
use predicates::prelude::*;

#[test]
fn a_whole_game_to_a_win() {
    // o: centre, top-left, bottom-right diagonal; x answers on the top row.
    gamelab()
        .arg("play")
        .write_stdin("1,1\n1,0\n0,0\n2,0\n2,2\n")
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "winner o\noxx\n.o.\n..O\nO wins.\n",
        ));
}

#[test]
fn every_board_structure_plays_the_same_game() {
    for board in ["2d", "1d", "bitboard"] {
        for counts in ["", "+counts"] {
            let mut cmd = gamelab();
            cmd.args(["play", "--board", &format!("{board}{counts}")]);
            cmd.write_stdin("0,0\n1,1\n2,2\n1,0\n1,2\n0,2\n2,0\n2,1\n0,1\n")
                .assert()
                .success()
                .stdout(predicate::str::ends_with(
                    "winner draw\noxo\nOxx\nxoo\nDraw.\n",
                ));
        }
    }
}

#[test]
fn bad_input_is_explained_and_the_game_goes_on() {
    gamelab()
        .arg("play")
        .write_stdin("hello\n1,5\n1,1\n1,1\nexit\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("`hello` is not a square"))
        .stdout(predicate::str::contains("(1, 5) is off the board"))
        .stdout(predicate::str::contains("(1, 1) is already taken by o"))
        .stdout(predicate::str::contains("Turn x\n...\n.O.\n..."));
}

#[test]
fn undo_and_exit() {
    let out = gamelab()
        .arg("play")
        .write_stdin("1,1\nundo\nundo\n0,0\nexit\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("Nothing to undo: there is no earlier turn to go back to."),
        "{out}"
    );
    assert!(
        out.ends_with("Turn x\nO..\n...\n...\nx to move [x,y | undo | exit]: "),
        "{out}"
    );
}

#[test]
fn end_of_input_exits_cleanly() {
    gamelab()
        .arg("play")
        .write_stdin("1,1\n")
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "End of input; leaving the game.\n",
        ));
}

#[test]
fn start_from_a_position() {
    gamelab()
        .args(["play", "--from", "xo.xo...."])
        .write_stdin("1,2\n")
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "winner o\nxo.\nxo.\n.O.\nO wins.\n",
        ));
    gamelab()
        .args(["play", "--from", "1,1 0,0"])
        .write_stdin("exit\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Turn o\nX..\n.o.\n..."));
}

#[test]
fn bad_options_are_errors_not_panics() {
    gamelab()
        .args(["play", "--from", "ooo......"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot start from `ooo......`"))
        .stderr(predicate::str::contains(
            "o must have as many marks as x or one more",
        ));
    gamelab()
        .args(["play", "--x", "nobody"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "`nobody` is neither `human` nor a usable AI",
        ))
        .stderr(predicate::str::contains(
            "unknown AI `nobody` for ttt; its AIs: ai1, ai1s",
        ));
    gamelab()
        .args(["play", "--board", "3d"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "ttt has no board `3d`; its boards: bitboard, 2d, 1d, bitboard+counts",
        ));
    // Each game's sides go by its own names.
    gamelab()
        .args(["play", "--black", "ai2"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--black is not a side of ttt: its sides are --o (moves first) and --x",
        ));
}

#[test]
fn the_same_seed_plays_the_same_moves_as_the_web_app() {
    // The web app's test `the_play_view_plays_what_gamelab_play_plays` drives the same
    // game; both use gamelab-core's play session, whose AI draws from (seed, ply, side).
    let out = common::typed(
        &["play", "--seed", "3", "--x", "ai2"],
        "1,1\nundo\n1,1\n0,0\nexit\n",
    );
    let replies: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once("x (ai2) plays ").map(|(_, mv)| mv))
        .collect();
    assert_eq!(replies, ["0,1", "0,1", "1,0"], "{out}");
}

#[test]
fn an_ai_that_moved_first_is_not_undone_and_prints_its_move_as_typed() {
    let out = common::typed(&["play", "--o", "ai14s", "--seed", "1"], "undo\nexit\n");
    // Its move in the notation a person types (`1,1`), not `(1, 1)`.
    assert!(out.contains("o (ai14s) plays 1,1\n"), "{out}");
    // Undo has no move of x's to take back: the AI's opening would only come again.
    assert!(
        out.contains("Nothing to undo: there is no earlier turn to go back to."),
        "{out}"
    );
    assert_eq!(out.matches("plays").count(), 1, "{out}");
}

#[test]
fn connect_four_shows_its_column_letters_under_the_board() {
    gamelab()
        .args(["play", "--game", "connect4"])
        .write_stdin("d\nexit\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            ".......\n...R...\nabcdefg\nyellow to move [a-g | undo | exit]",
        ));
}

#[test]
fn connect_four_values_wins_and_losses_on_one_scale() {
    // The solver's proven values and a search's agree: a win is 1000 and the empty
    // squares left at its end. b, c and g win with 7 left (once all read +1000).
    common::gamelab()
        .args(["analyse", "--game", "connect4", "alphabeta"])
        .arg("geaedgebeebfebgcfaaaccfafadgcdcg")
        .assert()
        .success()
        .stdout(predicates::str::contains("     b +1007.00 exact"))
        .stdout(predicates::str::contains("     d +1009.00 exact"));
    // Lost whatever it plays: it holds out longest (f loses on the last square; d,
    // once chosen, at once).
    common::gamelab()
        .args(["move", "--game", "connect4", "alphabeta"])
        .arg("efdcaedadebcgdggaefccafagcdbfce")
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "scores a -1009, b -1009, d -1009, e -1009, f -1001, g -1009\nbest moves [f]",
        ));
}
