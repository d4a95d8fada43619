//! `gamelab nboard`: a scripted NBoard session, as the GUI would drive it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    pings: u32,
}

impl Engine {
    fn start(ai: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamelab"))
            .args(["nboard", "--ai", ai])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            input,
            output,
            pings: 0,
        }
    }

    /// Sends `line`, then a ping: every reply before the pong.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.pings += 1;
        writeln!(self.input, "{line}\nping {}", self.pings).unwrap();
        self.input.flush().unwrap();
        let mut replies = Vec::new();
        loop {
            let mut reply = String::new();
            assert!(
                self.output.read_line(&mut reply).unwrap() > 0,
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
        // Hints: at most two, best first, at the depth set.
        if mv != "PA" {
            assert!(!searched.is_empty() && searched.len() <= 2, "{hint:?}");
            let values: Vec<f64> = searched
                .iter()
                .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
                .collect();
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "{hint:?}");
            assert!(
                searched.iter().all(|l| l.ends_with(" 0 3")),
                "depth 3: {hint:?}"
            );
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
    writeln!(engine.input, "quit").unwrap();
    assert!(engine.child.wait().unwrap().success());
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
    drop(random.input);
    assert!(
        random.child.wait().unwrap().success(),
        "the end of input ends it"
    );
}

// --- outside engines as agents (`nboard:cmd=…`) -----------------------------------------

fn gamelab_cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamelab"))
}

/// `gamelab ARGS --json`, which must succeed: the report.
fn json(args: &[&str]) -> serde_json::Value {
    let out = gamelab_cmd().args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

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
        json(&[
            "match",
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
        let mut t = json(&[
            "tournament",
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

/// A match of the misbehaving engine in `mode` (it fails at its first move, then plays)
/// against greedy: the report.
fn misbehaving(mode: &str, extra: &str) -> (std::process::Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/misbehaving-nboard.sh"
    );
    let spec = format!(
        "nboard:cmd=({script} {mode} {} {}),timeout=2{extra}",
        dir.path().join("failed").display(),
        env!("CARGO_BIN_EXE_gamelab")
    );
    let records = dir.path().join("games.jsonl");
    let out = gamelab_cmd()
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

#[test]
fn a_failing_outside_engine_forfeits_the_game_and_is_started_afresh() {
    for (mode, reason) in [
        ("crash", "ended (exit status: 3)"),
        ("stall", "no its move (`=== MOVE`) within 2 s"),
        (
            "garbage",
            "printed `thinking very hard`, which the NBoard protocol does not have",
        ),
        ("illegal", "answered A1, which is not legal here"),
        ("binary", "not text"),
    ] {
        let (out, dir) = misbehaving(mode, "");
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["played"], 6, "{mode}: every game played");
        assert_eq!(report["forfeits"]["a"], 1, "{mode}: {report}");
        assert_eq!(report["forfeits"]["b"], 0);
        let first = &report["forfeits"]["first"];
        assert_eq!(first["game"], 0);
        let why = first["reason"].as_str().unwrap();
        assert!(why.contains(reason), "{mode}: {why}");
        // The forfeited game is in the records with its reason, and replays.
        let records = dir.path().join("games.jsonl");
        let text = std::fs::read_to_string(&records).unwrap();
        let game: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(
            game["result"], "white",
            "{mode}: the engine was black in game 0"
        );
        assert!(game["forfeit"].as_str().unwrap().contains(reason));
        let replay = gamelab_cmd()
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
}

#[test]
fn an_outside_engine_told_to_stop_the_match_stops_it() {
    let (out, _dir) = misbehaving("illegal", ",on_failure=stop");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the match stopped: nboard:cmd=("), "{err}");
    assert!(
        err.contains("gave up game 0:") && err.contains("which is not legal here"),
        "{err}"
    );
    assert!(err.contains("the 0 games before it are in"), "{err}");
}

#[test]
fn outside_engines_are_checked_before_any_game() {
    let out = gamelab_cmd()
        .args([
            "match",
            "--game",
            "othello",
            "nboard:cmd=(no-such-engine-here -q)",
            "greedy",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no program `no-such-engine-here` in PATH"),
        "{err}"
    );
    let out = gamelab_cmd()
        .args(["match", "--game", "othello", "nboard", "greedy"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("nboard needs the parameter cmd"));
}
