//! `gamelab ais`, `gamelab move` and `gamelab play` against AIs, through the binary.

mod common;

use common::gamelab;
use predicates::prelude::*;

#[test]
fn ais_lists_the_catalogue_with_parameters() {
    gamelab()
        .arg("ais")
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"(?m)^  ai14s +rule 14").unwrap())
        .stdout(
            predicate::str::is_match(r"(?m)^  ai_gt +perfect play.*\(also: ai_gt1, ai_gt2")
                .unwrap(),
        )
        .stdout(predicate::str::contains("score_sure_victory=200"))
        .stdout(predicate::str::contains("ver=3"));
}

#[test]
fn ais_lists_every_ai_of_the_articles_with_defaults() {
    let out = gamelab().arg("ais").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for name in [
        "ai1", "ai1s", "ai2", "ai2s", "ai3", "ai3s", "ai4", "ai4s", "ai5", "ai5s", "ai6", "ai6s",
        "ai7", "ai7s", "ai8s", "ai9s", "ai10s", "ai11s", "ai12s", "ai13s", "ai14s",
    ] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("{name} "))),
            "{name} missing:\n{text}"
        );
    }
    assert!(text.contains("score_victory=300"), "{text}");
    assert!(text.contains("score_102=0.5"), "{text}");
    assert!(text.contains("ver=2"), "{text}");
}

#[test]
fn move_prints_the_best_move_set() {
    gamelab()
        .args(["move", "ai12s", "o........"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("best moves [(1, 1)]\n"));
    gamelab()
        .args(["move", "ai12s", "o...x...o"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "best moves [(1, 0), (0, 1), (2, 1), (1, 2)]\n",
        ));
    gamelab()
        .args(["move", "ai12s:ver=1", "........."])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "scores (0, 0) 1.5, (1, 0) 1, (2, 0) 1.5",
        ))
        .stdout(predicate::str::contains("(1, 1) 400"));
}

#[test]
fn move_debug_prints_the_trace() {
    gamelab()
        .args(["move", "ai12s", ".........", "--debug"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Start ai_by_score\nTurn o\n"))
        .stdout(predicate::str::contains(
            "UPDATE\n  best score 2.0\n  best moves [(1, 1)]",
        ))
        .stdout(predicate::str::ends_with(
            "Finished\nbest score 2.0\nbest moves [(1, 1)]\n",
        ));
    gamelab()
        .args(["move", "ai6", "oo..x....", "--debug"])
        .assert()
        .success()
        .stdout("(2, 0) blocks the opponent's win\nbest moves [(2, 0)]\n");
}

#[test]
fn move_errors() {
    gamelab()
        .args(["move", "ai99", "........."])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "unknown AI `ai99` for ttt; its AIs:",
        ));
    gamelab()
        .args(["move", "ai12s:score_victory=big", "........."])
        .assert()
        .failure()
        .stderr(predicate::str::contains("expected a number"));
    gamelab()
        .args(["move", "ai12s", "ooo......"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot read the Tic-tac-toe position `ooo......`",
        ));
    gamelab()
        .args(["move", "ai12s", "oooxx...."])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the game is already over (o wins)",
        ));
}

#[test]
fn a_human_against_ai14s() {
    // o opens in a corner; ai14s takes the centre; o threatens the top row and ai14s blocks.
    gamelab()
        .args(["play", "--o", "human", "--x", "ai14s", "--seed", "1"])
        .write_stdin("0,0\n1,0\nexit\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("seed 1\n"))
        .stdout(predicate::str::contains("x (ai14s) plays 1,1"))
        .stdout(predicate::str::contains("x (ai14s) plays 2,0"));
}

#[test]
fn two_ais_play_a_whole_game() {
    // ai1 against ai1 fills the board row by row: o wins on the diagonal from (2,0).
    gamelab()
        .args(["play", "--o", "ai1", "--x", "ai1s"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "winner o\noxo\nxox\nO..\nO wins.\n",
        ));
    // the perfect-play openings of ai14s against itself end in a draw, whatever the seed
    for seed in ["0", "1", "2"] {
        gamelab()
            .args(["play", "--o", "ai14s", "--x", "ai14s", "--seed", seed])
            .assert()
            .success()
            .stdout(predicate::str::ends_with("Draw.\n"));
    }
}

#[test]
fn the_same_seed_replays_the_same_game() {
    let run = |seed: &str| {
        gamelab()
            .args(["play", "--o", "ai2", "--x", "ai2", "--seed", seed])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("42"), run("42"));
    let games: std::collections::HashSet<_> = (0..8).map(|s| run(&s.to_string())).collect();
    assert!(
        games.len() > 1,
        "different seeds should give different random games"
    );
}
