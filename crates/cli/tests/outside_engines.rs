//! Outside engines as agents (`nboard:cmd=…`, `gtp:cmd=…`): what a program that fails does
//! to a match, for each protocol, driven by the fixtures `misbehaving-PROTOCOL.sh`.

mod common;

#[test]
fn a_failing_outside_engine_forfeits_the_game_and_is_started_afresh() {
    let cases = [
        ("nboard", "crash", "ended (exit status: 3)"),
        (
            "nboard",
            "stall",
            "its move (`=== MOVE`) did not come within 10 s",
        ),
        (
            "nboard",
            "garbage",
            "printed `thinking very hard`, which the NBoard protocol does not have",
        ),
        ("nboard", "illegal", "answered A1, which is not legal here"),
        ("nboard", "binary", "not text"),
        (
            "gtp",
            "crash",
            "ended (exit status: 3) while the answer to `genmove black`",
        ),
        (
            "gtp",
            "stall",
            "the answer to `genmove black` did not come within 10 s",
        ),
        (
            "gtp",
            "garbage",
            "printed `thinking very hard`, which the GTP protocol does not have",
        ),
        ("gtp", "illegal", "answered A1, which is not legal here"),
        ("gtp", "binary", "not text"),
        ("gtp", "resign", "it resigned"),
        (
            "nboard",
            "chatty",
            "it printed more than 100000 lines or 64 MiB while its move",
        ),
        (
            "gtp",
            "chatty",
            "it printed more than 100000 lines or 64 MiB while the answer to `genmove black`",
        ),
        ("gtp", "refuse", "it refused `genmove black`: out of ideas"),
        (
            "gtp",
            "mixup",
            "answered command 10 while the answer to `genmove black` (command 3)",
        ),
    ];
    // At once: the two stalls spend their 10 s waiting, not computing.
    std::thread::scope(|scope| {
        for (protocol, mode, reason) in cases {
            scope.spawn(move || common::forfeits_once(protocol, mode, reason));
        }
    });
}

#[test]
fn what_an_outside_engine_started_ends_with_it() {
    for protocol in ["nboard", "gtp"] {
        let (out, dir) = common::misbehaving(protocol, "orphan", "");
        assert!(out.status.success());
        // Forfeited when it ended, not when the timeout ran out: its child keeps its
        // output open.
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let why = report["forfeits"]["first"]["reason"].as_str().unwrap();
        assert!(
            why.contains("it ended (exit status: 3)"),
            "{protocol}: {why}"
        );
        let pid = std::fs::read_to_string(dir.path().join("failed.child")).unwrap();
        let pid: u32 = pid.trim().parse().unwrap();
        // Killed with the engine's process group before the match went on; the bound
        // only catches a process that outlived it.
        let mut waited = 0;
        while common::alive(pid) {
            assert!(
                waited < 6000,
                "{protocol}: the engine's child {pid} outlived it"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
            waited += 1;
        }
    }
}

#[test]
fn an_outside_engine_told_to_stop_the_match_stops_it() {
    for (protocol, mode, reason) in [
        ("nboard", "illegal", "which is not legal here"),
        ("gtp", "resign", "it resigned"),
    ] {
        let (out, _dir) = common::misbehaving(protocol, mode, ",on_failure=stop");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("the match stopped: {protocol}:cmd=(")),
            "{err}"
        );
        assert!(
            err.contains("gave up game 0:") && err.contains(reason),
            "{err}"
        );
        assert!(err.contains("the 0 games before it are in"), "{err}");
    }
}

#[test]
fn outside_engines_are_checked_before_any_game() {
    for protocol in ["nboard", "gtp"] {
        let spec = format!("{protocol}:cmd=(no-such-engine-here -q)");
        let out = common::gamelab()
            .args(["match", "--game", "othello", &spec, "greedy"])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no program `no-such-engine-here` in PATH"),
            "{err}"
        );
        let out = common::gamelab()
            .args(["match", "--game", "othello", protocol, "greedy"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{protocol} needs the parameter cmd")),
            "{err}"
        );
    }
}
