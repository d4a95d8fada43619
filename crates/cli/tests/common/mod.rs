//! Helpers shared by the CLI's integration tests (each test file is its own crate and uses
//! what it needs).
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;

/// The `gamelab` binary built for these tests.
pub fn gamelab() -> Command {
    Command::cargo_bin("gamelab").unwrap()
}

/// Runs `gamelab ARGS`, which must succeed, and reads its standard output as JSON.
pub fn json(args: &[&str]) -> Value {
    let out = gamelab().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `gamelab ARGS`, which must succeed, and returns its standard output.
pub fn stdout(args: &[&str]) -> String {
    typed(args, "")
}

/// A match of the misbehaving outside engine of `protocol` (`nboard` or `gtp`: the fixture
/// `misbehaving-PROTOCOL.sh`) in `mode` — it fails at its first move, then plays — against
/// greedy, its spec ending in `extra`: the output, and the folder of its records
/// (`games.jsonl`).
pub fn misbehaving(
    protocol: &str,
    mode: &str,
    extra: &str,
) -> (std::process::Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "{}/tests/fixtures/misbehaving-{protocol}.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    // The timeout is what a stall costs the test; the engine started afresh answers in
    // milliseconds, so 10 s is no bet on the machine's speed.
    let spec = format!(
        "{protocol}:cmd=({script} {mode} {} {}),timeout=10{extra}",
        dir.path().join("failed").display(),
        env!("CARGO_BIN_EXE_gamelab")
    );
    let records = dir.path().join("games.jsonl");
    let out = gamelab()
        // One thread: the engine's first process alone fails.
        .args([
            "match",
            "--game",
            "othello",
            &spec,
            "greedy",
            "-n",
            "3",
            "--threads",
            "1",
            "--json",
            "--records",
        ])
        .arg(&records)
        .output()
        .unwrap();
    (out, dir)
}

/// Checks that the misbehaving engine of `protocol` in `mode` forfeits its first game
/// (as black) for a reason that contains `reason`, is started afresh and plays the others;
/// the forfeited game is in the records with its reason, and replays.
pub fn forfeits_once(protocol: &str, mode: &str, reason: &str) {
    let (out, dir) = misbehaving(protocol, mode, "");
    assert!(
        out.status.success(),
        "{mode}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["played"], 6, "{mode}: every game played");
    assert_eq!(report["forfeits"]["a"], 1, "{mode}: {report}");
    assert_eq!(report["forfeits"]["b"], 0);
    let first = &report["forfeits"]["first"];
    assert_eq!(first["game"], 0);
    let why = first["reason"].as_str().unwrap();
    assert!(why.contains(reason), "{mode}: {why}");
    let records = dir.path().join("games.jsonl");
    let text = std::fs::read_to_string(&records).unwrap();
    let game: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        game["result"], "white",
        "{mode}: the engine was black in game 0"
    );
    assert!(game["forfeit"].as_str().unwrap().contains(reason));
    let replay = gamelab()
        .args(["replay", "--game", "othello"])
        .arg(&records)
        .arg("0")
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}

/// An engine subcommand of gamelab (`nboard`, `gtp`) running `ai`, its standard input and
/// output piped for a scripted session.
pub struct Session {
    pub child: std::process::Child,
    pub input: std::process::ChildStdin,
    pub output: std::io::BufReader<std::process::ChildStdout>,
}

impl Session {
    pub fn start(subcommand: &str, ai: &str) -> Session {
        use std::process::Stdio;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
            .args([subcommand, "--ai", ai])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            input,
            output,
        }
    }
}

/// Runs `gamelab ARGS` with `input` on standard input, as a person at a terminal types it;
/// it must succeed: its standard output.
pub fn typed(args: &[&str], input: &str) -> String {
    let out = gamelab().args(args).write_stdin(input).output().unwrap();
    assert!(
        out.status.success(),
        "gamelab {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Waits until the relay engine that gamelab process `pid` started has created `event`
/// (`playing` or `stalled`) in `events`, however long that takes; `false` when
/// `running` says the process ended first.
pub fn relay_event(
    events: &std::path::Path,
    event: &str,
    pid: u32,
    mut running: impl FnMut() -> bool,
) -> bool {
    let marker = events.join(format!("{event}-{pid}"));
    while !marker.exists() {
        if !running() {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    true
}

/// The spec of the relay engine (`tests/fixtures/gtp-relay.py`): greedy's moves through
/// GTP, creating `playing-PID` in `events` at its first move and `stalled-PID` at its
/// `stall`-th, which it never answers (0: never).
pub fn relay_engine(events: &std::path::Path, stall: u32) -> String {
    format!(
        "gtp:cmd=({}/tests/fixtures/gtp-relay.py {} {stall} {})",
        env!("CARGO_MANIFEST_DIR"),
        events.display(),
        env!("CARGO_BIN_EXE_gamelab")
    )
}

/// Whether process `pid` is running: there, and not a zombie no one has reaped yet.
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command's name, which is in parentheses.
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
    })
}
