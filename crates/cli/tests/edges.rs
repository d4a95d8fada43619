//! Numbers at their edges, input that is not text, and interruptions: each of these once
//! ran forever, aborted, allocated without bound or claimed success.

mod common;

use std::io::Write;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use common::gamelab;
use predicates::prelude::*;

/// Runs `gamelab ARGS`, which must fail with a message containing `needle`.
fn refused(args: &[&str], needle: &str) {
    gamelab()
        .args(args)
        .timeout(Duration::from_secs(60))
        .assert()
        .failure()
        .stderr(predicate::str::contains(needle));
}

#[test]
fn counts_out_of_range_are_refused() {
    for n in [
        "0",
        "9223372036854775808",
        "18446744073709551615",
        "-1",
        "1e3",
    ] {
        let n = format!("--games={n}");
        refused(
            &["match", "ai1", "ai2", &n],
            "expected a number of games from 1 to",
        );
        refused(
            &["records", "ai2", "ai2", &n, "--out", "/dev/null"],
            "expected a number of games from 1 to",
        );
        refused(
            &["tournament", "ai1", "ai2", &n],
            "expected a number of games",
        );
    }
    refused(
        &["match", "ai1", "ai2", "--threads", "100000"],
        "expected a number of threads from 1 to 256",
    );
    refused(
        &["match", "ai1", "ai2", "--threads", "0"],
        "expected a number of threads",
    );
    refused(
        &["diverge", "ai12s", "ai12s", "ai2", "--limit", "0"],
        "expected a number of seeds",
    );
    refused(&["bench", "--repeat", "0"], "--repeat");
    refused(
        &["learn-curve", "--sizes", "10,1000000000000"],
        "expected a number of games from 2",
    );
}

#[test]
fn seconds_and_penalties_are_finite_and_in_range() {
    for t in ["1e30", "NaN", "inf", "0", "-1"] {
        let t = format!("--time-limit={t}");
        refused(&["search", ".........", &t], "expected a number of seconds");
    }
    for r in ["NaN", "-1", "1e308"] {
        let r = format!("--ridge={r}");
        refused(
            &["train", "x.csv", "--out", "m.json", &r],
            "expected a ridge penalty",
        );
    }
}

#[test]
fn ffo_ids_and_positions_have_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let ffo = dir.path().join("start.obf");
    let start = "---------------------------OX------XO--------------------------- X";
    std::fs::write(&ffo, format!("1 {start} 0 d3\n")).unwrap();
    let ffo = ffo.to_str().unwrap();
    refused(&["ffo", "--ids=0-4294967295", ffo], "ids from 0 to 99999");
    refused(
        &["ffo", "--ids=1", ffo],
        "position 1 has 60 empty squares; the solver takes at most 36",
    );
}

#[test]
fn othello_boards_need_their_centre_discs() {
    let empty = format!("{} X", "-".repeat(64));
    let corner = format!("X{} O", "-".repeat(63));
    for board in [empty, corner] {
        refused(
            &["move", "--game", "othello", "random", &board],
            "centre squares",
        );
    }
}

#[test]
fn a_line_that_is_not_text_is_a_bad_move_not_the_end() {
    let mut child = Process::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["play", "--o", "human", "--x", "ai1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\xff\xfe\n1,1\nexit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("not UTF-8 text"), "{text}");
    assert!(text.contains("x (ai1) plays"), "the game went on: {text}");
}

/// Starts a long Othello match writing its records to `path`, of the relay engine
/// (`tests/fixtures/gtp-relay.py`, greedy's moves) against greedy, and sends `signal` to
/// gamelab when the relay has created `event` (`playing` at its first move, `stalled` at
/// its hundredth, a few games in, which it never answers): the moment is the match's,
/// not the machine's.
fn interrupted_match(path: &std::path::Path, signal: &str, event: &str) -> std::process::Output {
    let events = tempfile::tempdir().unwrap();
    let relay = common::relay_engine(events.path(), 100);
    let mut child = Process::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["match", "--game", "othello", &relay, "greedy"])
        .args(["-n", "1000000", "--threads", "1", "--records"])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    if !common::relay_event(events.path(), event, pid, || {
        child.try_wait().unwrap().is_none()
    }) {
        let out = child.wait_with_output().unwrap();
        panic!(
            "the match ended first: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let status = Process::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_keeps_every_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.jsonl");
    let out = interrupted_match(&path, "-INT", "stalled");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let played: u64 = stderr
        .split("interrupted: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {stderr}"));
    assert!(stderr.contains("every one written to"), "{stderr}");
    // A hundred of the relay's moves are more than three games' worth.
    assert!(played >= 3, "{stderr}");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() as u64, played);
    for (i, line) in lines.iter().enumerate() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["index"], i as u64, "games in order, none missing");
    }
    // The tables count the same games.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("{played} games in")), "{stdout}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file"
    );
}

#[test]
fn ctrl_c_ends_a_tournament_with_the_standings_so_far() {
    let events = tempfile::tempdir().unwrap();
    let relay = common::relay_engine(events.path(), 100);
    let child = Process::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "tournament",
            "--game",
            "othello",
            &relay,
            "greedy",
            "random",
        ])
        .args(["-n", "1000000", "--threads", "1", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // The relay's hundredth move, a few games in, never comes: Ctrl-C then.
    assert!(
        common::relay_event(events.path(), "stalled", pid, || common::alive(pid)),
        "the tournament ended before the relay stalled"
    );
    assert!(
        Process::new("kill")
            .args(["-INT", &pid.to_string()])
            .status()
            .unwrap()
            .success()
    );
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: "), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["interrupted"], true);
    let players = report["players"].as_array().unwrap();
    assert_eq!(players.len(), 3, "every entrant has a row");
    let relay_row = players
        .iter()
        .find(|p| p["ai"].as_str().unwrap().starts_with("gtp:"))
        .unwrap();
    let greedy = relay_row["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["opponent"] == "greedy")
        .unwrap();
    let played = ["win", "lose", "draw"]
        .iter()
        .map(|k| greedy[k].as_u64().unwrap())
        .sum::<u64>();
    // A hundred of the relay's moves are more than three games' worth.
    assert!(played >= 3, "{report}");
}

#[test]
fn a_kill_while_writing_leaves_the_old_file_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.jsonl");
    std::fs::write(&path, "the old records\n").unwrap();
    for event in ["playing", "stalled"] {
        let out = interrupted_match(&path, "-KILL", event);
        assert!(!out.status.success());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old records\n");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["games.jsonl"], "no temporary file left");
    }
}

#[test]
fn outputs_follow_links_and_write_to_devices() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("t.csv");
    let link = dir.path().join("l.csv");
    std::fs::write(&target, "old\n").unwrap();
    std::os::unix::fs::symlink("t.csv", &link).unwrap();
    gamelab()
        .args(["records", "ai2", "ai2", "-n", "4", "--out"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap().lines().count(),
        8,
        "its target was written"
    );
    // A device is written, never replaced.
    gamelab()
        .args(["records", "ai2", "ai2", "-n", "2", "--out", "/dev/stdout"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"game\":\"ttt\"").count(4));
}

#[test]
fn a_fifo_reader_gets_every_record() {
    // The writability check used to open the FIFO and close it at once: a reader that read
    // in that gap saw the end, and the real write then waited for ever for a reader.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        Process::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for _ in 0..5 {
        let mut child = Process::new(env!("CARGO_BIN_EXE_gamelab"))
            .args(["records", "ai2", "ai2", "-n", "50", "--out"])
            .arg(&fifo)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let text = std::fs::read_to_string(&fifo).unwrap();
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(child.wait().unwrap()));
        // A hang bound only: the write is done once the reader has read the end.
        let status = finished
            .recv_timeout(Duration::from_secs(120))
            .expect("gamelab still waits on the FIFO");
        assert!(status.success());
        assert_eq!(text.lines().count(), 100, "every record reached the reader");
    }
}

#[test]
fn model_files_must_be_regular_files() {
    for spec in ["regression:model=/dev/zero", "regression:model=/"] {
        gamelab()
            .args(["move", spec, "........."])
            .timeout(Duration::from_secs(30))
            .assert()
            .failure()
            .stderr(predicate::str::contains("not a regular file"));
    }
    gamelab()
        .args(["move", "--game", "othello", "engine:model=/dev/zero"])
        .arg("---------------------------OX------XO--------------------------- X")
        .timeout(Duration::from_secs(30))
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a regular file"));
}

#[test]
fn a_spec_nested_without_end_is_refused_not_a_stack_overflow() {
    let deep = format!(
        "{}greedy{}",
        "mcts:playout=(".repeat(2000),
        ")".repeat(2000)
    );
    gamelab()
        .args(["move", "--game", "othello", &deep])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "parentheses nested more than 8 deep; expected at most 8 levels of AIs inside AIs",
        ))
        .stderr(predicate::str::contains("… (30006 characters)"));
}

#[test]
fn endless_inputs_are_read_to_a_bound_not_without_end() {
    // /dev/zero never ends: each reader stops at its format's bound with an error that
    // says it (records and datasets, whose files can be large, stop at 1 GiB: the same
    // reader, tested in gamelab-core).
    for args in [
        &["ffo", "/dev/zero"][..],
        &["wthor", "/dev/zero"],
        &["solve", "--in", "/dev/zero"],
    ] {
        refused(args, "it holds more than 16 MiB; expected at most 16 MiB");
    }
}
