//! `gamelab nboard`: a scripted NBoard session, as the GUI would drive it.

mod common;

use std::io::{BufRead, Write};

struct Engine {
    session: common::Session,
    pings: u32,
}

impl Engine {
    fn start(ai: &str) -> Engine {
        Engine {
            session: common::Session::start("nboard", ai),
            pings: 0,
        }
    }

    /// Sends `line`, then a ping: every reply before the pong.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.pings += 1;
        writeln!(self.session.input, "{line}\nping {}", self.pings).unwrap();
        self.session.input.flush().unwrap();
        let mut replies = Vec::new();
        loop {
            let mut reply = String::new();
            assert!(
                self.session.output.read_line(&mut reply).unwrap() > 0,
                "the engine ended"
            );
            let reply = reply.trim_end().to_string();
            if reply == format!("pong {}", self.pings) {
                return replies;
            }
            replies.push(reply);
        }
    }
}

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

#[test]
fn a_whole_game_with_hints_through_the_protocol() {
    let mut engine = Engine::start("engine:level=2");
    assert_eq!(engine.send("nboard 2"), ["set myname gamelab-engine"]);
    assert!(engine.send("set depth 3").is_empty());
    assert!(engine.send("set contempt 0").is_empty());
    let mut game = format!("(;GM[Othello]PC[test]PB[a]PW[b]TY[8]{START};)");
    assert!(engine.send(&format!("set game {game}")).is_empty());
    let mut plies = 0;
    loop {
        let hint = engine.send("hint 2");
        let searched: Vec<&String> = hint.iter().filter(|l| l.starts_with("search ")).collect();
        let go = engine.send("go");
        if go[0].starts_with("status error: `go`: the game is over") {
            assert_eq!(go.len(), 1, "{go:?}");
            assert!(hint[0].contains("the game is over"), "{hint:?}");
            break;
        }
        // The move, then what the search did: `nodestats NODES SECONDS`.
        assert!(go[0].starts_with("=== "), "{go:?}");
        assert_eq!(go.len(), 2, "{go:?}");
        let stats: Vec<&str> = go[1].split(' ').collect();
        assert_eq!(stats[0], "nodestats", "{go:?}");
        assert!(
            stats[1].parse::<u64>().is_ok() && stats[2].parse::<f64>().is_ok(),
            "{go:?}"
        );
        let mv = go[0][4..].split('/').next().unwrap().to_string();
        // Hints: level by level up to the depth set (fewer when every value is exact
        // sooner), at most two a level, best first.
        if mv != "PA" {
            assert_eq!(hint.first().map(String::as_str), Some("status analysing"));
            assert_eq!(hint.last().map(String::as_str), Some("status"));
            let depths: Vec<&str> = searched
                .iter()
                .map(|l| l.rsplit(' ').next().unwrap())
                .collect();
            assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{hint:?}");
            assert_eq!(depths.first(), Some(&"1"), "{hint:?}");
            for level in ["1", "2", "3"] {
                let at: Vec<f64> = searched
                    .iter()
                    .filter(|l| l.ends_with(&format!(" 0 {level}")))
                    .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
                    .collect();
                assert!(at.len() <= 2, "{hint:?}");
                assert!(at.windows(2).all(|w| w[0] >= w[1]), "{hint:?}");
            }
            assert!(searched.len() <= 6, "{hint:?}");
        }
        assert!(engine.send(&format!("move {mv}")).is_empty());
        let side = if plies % 2 == 0 { "B" } else { "W" };
        game = game.replace(";)", &format!("{side}[{mv}];)"));
        plies += 1;
        assert!(plies <= 70, "a game has at most 60 moves and a few passes");
    }
    assert!(plies >= 10);
    // The same game sent whole reads back as the same position: the engine is done.
    assert!(engine.send(&format!("set game {game}")).is_empty());
    assert!(engine.send("go")[0].contains("the game is over"));
    let analysis = engine.send("analyze");
    assert_eq!(
        analysis.first().map(String::as_str),
        Some("status analysing")
    );
    assert!(
        analysis
            .iter()
            .filter(|l| l.starts_with("analysis "))
            .count()
            >= 10
    );
    assert_eq!(engine.send("learn"), ["learned"]);
    writeln!(engine.session.input, "quit").unwrap();
    assert!(engine.session.child.wait().unwrap().success());
}

#[test]
fn malformed_commands_get_an_error_line_and_the_engine_goes_on() {
    let mut engine = Engine::start("engine:level=1");
    for (line, error) in [
        ("bogus", "unknown command `bogus`"),
        ("move z9", "`z9` is not a square"),
        ("move a1", "`move a1`: a1 is not a legal move"),
        ("set depth 0", "expected a depth from 1 to 60"),
        ("set depth many", "expected a depth from 1 to 60"),
        ("set game (;GM[Othello]", "`set game`: line 1"),
        ("set game (;GM[Chess]BO[8 x];)", "only Othello games"),
        ("set colour red", "unknown setting `colour`"),
        ("set contempt x", "expected a whole number"),
        ("hint 0", "expected a number of moves"),
        ("hint lots", "expected a number of moves"),
    ] {
        let replies = engine.send(line);
        assert_eq!(replies.len(), 1, "{line}: {replies:?}");
        assert!(
            replies[0].starts_with("status error: ") && replies[0].contains(error),
            "{line}: {replies:?}"
        );
    }
    assert!(engine.send("").is_empty());
    // Still playing: from the start, black's move.
    let go = engine.send("go");
    assert!(go[0].starts_with("=== "), "{go:?}");
    // An AI with no depth says so; one that gives no values says so to a hint.
    let mut random = Engine::start("random");
    assert_eq!(
        random.send("set depth 5"),
        ["status random has no depth to set"]
    );
    assert!(random.send("hint 1")[0].contains("gives no values"));
    drop(random.session.input);
    assert!(
        random.session.child.wait().unwrap().success(),
        "the end of input ends it"
    );
}

// --- outside engines as agents (`nboard:cmd=…`) -----------------------------------------

/// The spec of gamelab's own `engine:level=LEVEL` behind the NBoard protocol.
fn outside(level: u32) -> String {
    format!(
        "nboard:cmd=({} nboard --ai engine:level={level})",
        env!("CARGO_BIN_EXE_gamelab")
    )
}

#[test]
fn an_outside_engine_plays_the_games_of_the_same_ai_in_process() {
    let versus = "alphabeta:time=0,depth=2";
    let args = |a: &str| {
        common::json(&[
            "match",
            "--json",
            "--game",
            "othello",
            a,
            versus,
            "-n",
            "8",
            "--openings",
            "6",
        ])
    };
    let (through, inside) = (args(&outside(2)), args("engine:level=2"));
    assert_eq!(through["digest"], inside["digest"]);
    assert_eq!(through["total"], inside["total"]);
    assert!(through.get("forfeits").is_none());
    // A tournament with one of them behind the protocol: the same table.
    let table = |first: &str| {
        let mut t = common::json(&[
            "tournament",
            "--json",
            "--game",
            "othello",
            first,
            versus,
            "greedy",
            "-n",
            "4",
            "--openings",
            "5",
        ]);
        let text = t.to_string().replace(first, "X");
        t = serde_json::from_str(&text).unwrap();
        t
    };
    assert_eq!(table(&outside(1)), table("engine:level=1"));
}

#[test]
fn a_deep_hint_sends_each_level_as_it_is_done_and_gives_way_to_the_next_command() {
    // Level 30 from the start takes far longer than this test: its first levels must
    // reach the GUI while the deeper ones are searched, and a new command must end it.
    let mut engine = Engine::start("engine:threads=1");
    assert_eq!(engine.send("nboard 2"), ["set myname gamelab-engine"]);
    assert!(engine.send("set depth 30").is_empty());
    let common::Session {
        mut child,
        mut input,
        mut output,
    } = engine.session;
    writeln!(input, "hint 2").unwrap();
    input.flush().unwrap();
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let mut line = String::new();
            if output.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if lines.send(line.trim_end().to_string()).is_err() {
                return;
            }
        }
    });
    let wait = std::time::Duration::from_secs(60);
    assert_eq!(received.recv_timeout(wait).unwrap(), "status analysing");
    for level in 1..=3 {
        for _ in 0..2 {
            let line = received.recv_timeout(wait).unwrap();
            assert!(
                line.starts_with("search ") && line.ends_with(&format!(" 0 {level}")),
                "{line}"
            );
        }
    }
    // The next command ends the hint after the levels sent (a ping alone would not).
    writeln!(input, "set depth 2\nping 9").unwrap();
    input.flush().unwrap();
    let mut rest = Vec::new();
    loop {
        let line = received.recv_timeout(wait).unwrap();
        let last = line == "pong 9";
        rest.push(line);
        if last {
            break;
        }
    }
    assert!(rest.contains(&"status".to_string()), "{rest:?}");
    // Ended, not finished: level 30 never came.
    assert!(!rest.iter().any(|l| l.ends_with(" 0 30")), "{rest:?}");
    assert!(
        rest.iter()
            .all(|l| l.starts_with("search ") || l == "status" || l == "pong 9"),
        "{rest:?}"
    );
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn bytes_that_are_not_text_get_an_error_line_and_the_end_of_input_ends_a_hint() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // A line that is not UTF-8 is an unknown command, answered; the engine goes on.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["nboard", "--ai", "engine"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"ping 1\n\xff\xfe\nping 2\n").unwrap();
    // A hint that would search for minutes, then the end of input: nobody is left to
    // read it, so the engine ends.
    input
        .write_all(b"nboard 2\nset depth 30\nhint 3\n")
        .unwrap();
    drop(input);
    // A bound on a hang, not on speed: the hint at depth 30 would search for minutes;
    // ended, the engine is gone in milliseconds.
    let began = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > std::time::Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("the engine went on searching after its input ended");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "pong 1");
    assert!(
        lines[1].starts_with("status error: unknown command"),
        "{text}"
    );
    assert_eq!(lines[2], "pong 2");
}
