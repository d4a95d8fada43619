//! `gamelab match`, `replay`, `diverge` and `tournament` through the binary.

mod common;

use common::{gamelab, json};
use predicates::prelude::*;

#[test]
fn match_prints_the_seeds_tables() {
    gamelab()
        .args(["match", "ai14s", "ai2", "-n", "2000", "--seed", "0"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "ai14s VS ai2\ncount     win    lose    draw\no    ",
        ))
        .stdout(predicate::str::contains(
            "\nratio     win    lose    draw\n",
        ))
        .stdout(predicate::str::contains("4000 games in"))
        .stdout(predicate::str::contains("seed 0, digest "));
}

#[test]
fn match_json_has_every_field_and_adds_up() {
    let v = json(&["match", "ai2", "ai5", "-n", "1500", "--seed", "9", "--json"]);
    for key in [
        "game",
        "a",
        "b",
        "games_per_side",
        "seed",
        "played",
        "exact",
        "exact_note",
        "first",
        "second",
        "total",
        "digest",
        "elapsed_ms",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    // The one match report type of gamelab-core, as the web app's runs send it too.
    let report: gamelab_core::arena::MatchReport = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(report.played, 3000);
    assert_eq!(v["game"], "ttt");
    assert_eq!(v["games_per_side"], 1500);
    assert_eq!(v["exact"], serde_json::Value::Null);
    let sum = |h: &str| {
        ["win", "lose", "draw"]
            .iter()
            .map(|k| v[h][k].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(sum("first"), 1500);
    assert_eq!(sum("second"), 1500);
    assert_eq!(sum("total"), 3000);
    assert_eq!(v["digest"].as_str().unwrap().len(), 16);
}

#[test]
fn match_is_reproducible_across_threads_and_board_structures() {
    let digest = |extra: &[&str]| {
        let mut args = vec![
            "match", "ai14s", "ai2", "-n", "3000", "--seed", "4", "--json",
        ];
        args.extend_from_slice(extra);
        json(&args)["digest"].clone()
    };
    let reference = digest(&["--threads", "1"]);
    assert_eq!(digest(&["--threads", "2"]), reference);
    assert_eq!(digest(&["--threads", "2", "--board", "2d"]), reference);
    assert_eq!(
        digest(&["--threads", "1", "--board", "1d+counts"]),
        reference
    );
}

#[test]
fn exact_match() {
    gamelab()
        .args(["match", "ai14s", "ai2", "--exact"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ai14s VS ai2 (exact)\nratio     win    lose    draw\no      98.96%   0.00%   1.04%\nx      88.25%   0.00%  11.75%"));
    let v = json(&["match", "ai2", "ai2", "--exact", "--json"]);
    assert_eq!(v["played"], 0);
    let total: f64 = ["win", "lose", "draw"]
        .iter()
        .map(|k| v["exact"]["first"][k].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn match_errors() {
    gamelab()
        .args(["match", "ai14s", "ai99"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown AI `ai99`"));
    gamelab()
        .args([
            "match",
            "ai14s",
            "ai2",
            "--records",
            "/no/such/dir/x.jsonl",
            "-n",
            "10",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot write the records to /no/such/dir/x.jsonl",
        ));
    for (clock, error) in [
        (
            "sixty",
            "clock `sixty`: expected MAIN, MAIN+INCREMENT or MAIN/PERIOD/STONES",
        ),
        ("0", "clock `0` leaves no time for a move"),
        (
            "60+NaN",
            "increment NaN: expected seconds from 0 to 31536000",
        ),
    ] {
        gamelab()
            .args(["match", "ai14s", "ai2", "--clock", clock])
            .assert()
            .failure()
            .stderr(predicate::str::contains(error));
    }
    gamelab()
        .args(["match", "ai14s", "ai2", "--exact", "--clock", "60"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("it takes no clock"));
}

#[test]
fn a_match_on_the_clock_says_so_and_times_out_slow_sides() {
    gamelab()
        .args(["match", "ai14s", "ai2", "-n", "20", "--clock", "60+0.5"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "note: a clock of 60 s a side and 0.5 s more a move in every game",
        ));
    let v = json(&[
        "match", "ai14s", "ai2", "-n", "20", "--clock", "300/30/5", "--json",
    ]);
    assert_eq!(v["clock"], "300/30/5");
    assert_eq!(v["played"], 40);
    // Without a clock the report has no such field.
    assert_eq!(
        json(&["match", "ai2", "ai2", "-n", "5", "--json"]).get("clock"),
        None
    );
    // An Othello search six plies deep against a clock of a thousandth of a second a
    // game: out of time at its first move of every game, while the random player has
    // made at most one move of a few microseconds.
    let v = json(&[
        "match",
        "--game",
        "othello",
        "minimax:depth=6",
        "random",
        "-n",
        "2",
        "--clock",
        "0.001",
        "--json",
    ]);
    assert_eq!(v["forfeits"]["a"], 4, "{v}");
    assert_eq!(v["forfeits"]["b"], 0, "{v}");
    let tournament = json(&[
        "tournament",
        "ai2",
        "ai5",
        "-n",
        "5",
        "--clock",
        "60",
        "--json",
    ]);
    assert_eq!(tournament["clock"], "60");
}

#[test]
fn output_paths_are_checked_before_the_work() {
    // A match of two billion games would take minutes: the bad path must stop it first.
    for args in [
        &[
            "match",
            "ai14s",
            "ai2",
            "-n",
            "1000000000",
            "--records",
            "/no/such/dir/x.jsonl",
        ][..],
        &[
            "records",
            "ai14s",
            "ai2",
            "-n",
            "1000000000",
            "--out",
            "/no/such/dir/x.csv",
        ][..],
    ] {
        gamelab()
            .args(args)
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .failure()
            .stderr(predicate::str::contains(
                "/no/such/dir: No such file or directory",
            ));
    }
}

#[test]
fn errors_say_each_thing_once() {
    let out = gamelab()
        .args(["replay", "/no/such/file.jsonl", "0"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    let out = gamelab()
        .args(["play", "--from", "1,1 1,1"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.matches("is already taken by o").count(), 1, "{err}");
}

#[test]
fn records_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let file_s = file.to_str().unwrap();
    gamelab()
        .args(["match", "ai14s", "ai2", "-n", "5", "--records", file_s])
        .assert()
        .success()
        .stderr(format!("10 games written to {file_s}\n"));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 10);
    gamelab()
        .args(["replay", file_s, "7"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "game 7 of seed 0: ai2 (o) VS ai14s (x)\nTurn o\n...\n...\n...\n\n1. o plays ",
        ));
    gamelab()
        .args(["replay", file_s, "10"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no game 10 in"))
        .stderr(predicate::str::contains("it holds games 0 to 9"));
    // a damaged line is reported with its number
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"game\":\"ttt\",";
    std::fs::write(&file, lines.join("\n")).unwrap();
    gamelab()
        .args(["replay", file_s, "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("line 4: not a game record"));
    // a CSV does not say its game: a line that is not one of `--game`'s says how to pick it
    let csv = dir.path().join("othello.csv");
    std::fs::write(&csv, "1,37,43\n").unwrap();
    gamelab()
        .args(["replay", csv.to_str().unwrap(), "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("line 1: "))
        .stderr(predicate::str::contains(
            "(is it a ttt records file?); pick the game with --game",
        ));
}

#[test]
fn diverge_finds_the_seeds_case() {
    gamelab()
        .args(["diverge", "ai12s", "ai12s:score_victory=200", "ai2"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "seed 1: the games part at move 7\n",
        ))
        .stdout(predicate::str::contains("*  7  o 2,2 "))
        .stdout(predicate::str::contains("o wins"))
        .stdout(predicate::str::contains("draw"));
}

#[test]
fn diverge_gives_up_cleanly() {
    gamelab()
        .args(["diverge", "ai1", "ai1s", "ai2", "--limit", "50"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "end every game alike against ai2 for seeds 0 to 49",
        ));
    gamelab()
        .args(["diverge", "ai1", "ai1s", "ai2", "--side", "z"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "`z` is not a side: expected o or x",
        ));
}

#[test]
fn tournament_ranks_and_rates() {
    gamelab()
        .args(["tournament", "ai2", "ai14s", "ai6", "-n", "1000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("#1 ai14s"))
        .stdout(predicate::str::contains("rank  AI"));
    let v = json(&["tournament", "ai2", "ai14s", "ai6", "-n", "1000", "--json"]);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(players[0]["ai"], "ai14s");
    assert_eq!(players[2]["ai"], "ai2");
    let elos: Vec<f64> = players.iter().map(|p| p["elo"].as_f64().unwrap()).collect();
    assert!(
        elos.iter().sum::<f64>().abs() < 1e-6,
        "centred on 0: {elos:?}"
    );
    assert!(
        players
            .iter()
            .all(|p| p["interval95"].as_f64().unwrap() > 0.0)
    );
    gamelab()
        .args(["tournament", "ai2", "ai2"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("each AI may enter once"));
}

/// `records` takes a match's set-up (seed, threads, openings, clock) from the same
/// options as `match`, and writes the games `match --records` writes; from an openings
/// file, both play each opening once each way round by default.
#[test]
fn records_and_match_take_the_same_set_up() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "# two openings\nf5 d6 c3\nd3 c5\n").unwrap();
    let openings = openings.to_str().unwrap();
    let [from_match, from_records] = ["match.jsonl", "records.jsonl"]
        .map(|name| dir.path().join(name).to_str().unwrap().to_string());
    for set_up in [
        &["--openings", "4", "-n", "3", "--seed", "7"][..],
        &["--openings-file", openings][..],
    ] {
        let common = [
            &["--game", "othello", "greedy", "random", "--threads", "2"][..],
            set_up,
        ]
        .concat();
        gamelab()
            .args(["match"])
            .args(&common)
            .args(["--records", &from_match])
            .assert()
            .success();
        gamelab()
            .args(["records"])
            .args(&common)
            .args(["--out", &from_records])
            .assert()
            .success();
        let [a, b] = [&from_match, &from_records].map(|f| std::fs::read_to_string(f).unwrap());
        let expected = if set_up.contains(&"-n") { 6 } else { 4 };
        assert_eq!(a.lines().count(), expected, "{set_up:?}");
        assert_eq!(a, b, "{set_up:?}");
    }
}
