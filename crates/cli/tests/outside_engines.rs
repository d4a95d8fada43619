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
        ("gtp", "refuse", "it refused `genmove black`: out of ideas"),
        (
            "gtp",
            "mixup",
            "answered command 10 while the answer to `genmove black` (command 3)",
        ),
    ];
    for (protocol, mode, reason) in cases {
        common::forfeits_once(protocol, mode, reason);
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
