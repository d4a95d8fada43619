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
    let out = gamelab().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "gamelab {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
