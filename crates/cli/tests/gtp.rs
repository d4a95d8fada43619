//! `gamelab gtp`: a scripted GTP session, as Quarry would drive it; and gamelab's own
//! engine behind the protocol as an outside engine (`gtp:cmd=…`).

mod common;

use std::io::{BufRead, Write};

struct Engine {
    session: common::Session,
}

impl Engine {
    fn start(ai: &str) -> Engine {
        Engine {
            session: common::Session::start("gtp", ai),
        }
    }

    /// Sends `line`: its answer, every line up to the empty one that ends it.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.session.input, "{line}").unwrap();
        self.session.input.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut reply = String::new();
            assert!(
                self.session.output.read_line(&mut reply).unwrap() > 0,
                "the engine ended"
            );
            if reply.trim_end().is_empty() {
                return answer;
            }
            answer.push_str(&reply);
        }
    }
}

#[test]
fn a_session_answers_every_command_with_its_number() {
    let mut engine = Engine::start("engine:level=2");
    assert_eq!(engine.send("1 protocol_version"), "=1 2\n");
    assert_eq!(engine.send("name"), "= gamelab\n");
    assert_eq!(engine.send("2 known_command genmove"), "=2 true\n");
    assert_eq!(engine.send("3 known_command time_settings"), "=3 true\n");
    assert_eq!(
        engine.send("3 known_command kgs-time_settings"),
        "=3 false\n"
    );
    let commands = engine.send("list_commands");
    assert!(commands.contains("\nreg_genmove\n"), "{commands}");
    assert_eq!(engine.send("list_games"), "= Othello\n");
    assert_eq!(engine.send("set_game Othello"), "=\n");
    assert!(engine.send("set_game Go").starts_with("? unsupported game"));
    assert_eq!(engine.send("4 boardsize 8"), "=4\n");
    assert!(
        engine
            .send("5 boardsize 19")
            .starts_with("?5 unacceptable size")
    );
    assert!(
        engine
            .send("5 boardsize eight")
            .starts_with("?5 syntax error")
    );
    assert_eq!(engine.send("6 clear_board"), "=6\n");
    assert_eq!(engine.send("7 komi 0.5"), "=7\n");
    assert_eq!(engine.send("8 play black F5"), "=8\n");
    let illegal = engine.send("9 play white A1");
    assert!(
        illegal.starts_with("?9 illegal move: a1 is not a legal move"),
        "{illegal}"
    );
    let turn = engine.send("10 play black D6");
    assert_eq!(turn, "?10 illegal move: it is white's turn\n");
    // The engine's move, then the same asked again without playing it.
    let reply = engine.send("11 genmove white");
    assert!(reply.starts_with("=11 "), "{reply}");
    assert_eq!(engine.send("12 undo"), "=12\n");
    assert_eq!(
        engine.send("13 reg_genmove white"),
        reply.replace("=11", "=13")
    );
    assert_eq!(
        engine.send("14 reg_genmove white"),
        reply.replace("=11", "=14")
    );
    assert_eq!(engine.send("15 final_score"), "=15 B+3\n");
    let board = engine.send("16 showboard");
    assert!(board.contains("\n5 - - - X X x - -\n"), "{board}");
    assert!(board.contains("; last move f5 (lower case)"), "{board}");
    // Comments, blank lines and stray control characters are nothing to answer.
    writeln!(engine.session.input, "# a comment\n\n").unwrap();
    assert_eq!(engine.send("17 \u{7}undo"), "=17\n");
    assert_eq!(
        engine.send("18 undo"),
        "?18 cannot undo: no move has been played\n"
    );
    assert!(
        engine
            .send("19 play purple F5")
            .starts_with("?19 syntax error")
    );
    assert!(
        engine
            .send("20 play black Z9")
            .starts_with("?20 syntax error")
    );
    assert_eq!(engine.send("21 dance"), "?21 unknown command `dance`\n");
    assert_eq!(engine.send("22 quit"), "=22\n");
    assert!(engine.session.child.wait().unwrap().success());
}

/// A random game in which black, to move after its 52nd ply, must pass.
const WITH_A_PASS: &str = "d3e3f5e6f4g3d7g5h5d6d2e2f3c4b4g4e1e7c3d1c1b3e8a5h3d8c5c2a4b1c6c7b7h4b5f7b2g6f1a8h7a2a3f6g8b8h6c8b6a1a6f8f2g1a7g7h1h2h8g2";

#[test]
fn a_side_that_must_pass_passes_when_the_other_colour_moves() {
    let moves: Vec<String> = (0..WITH_A_PASS.len() / 2)
        .map(|i| WITH_A_PASS[2 * i..2 * i + 2].to_uppercase())
        .collect();
    let mut engine = Engine::start("greedy");
    for (i, mv) in moves[..52].iter().enumerate() {
        let colour = if i % 2 == 0 { "black" } else { "white" };
        assert_eq!(engine.send(&format!("play {colour} {mv}")), "=\n", "{mv}");
    }
    assert_eq!(engine.send("reg_genmove black"), "= pass\n");
    assert_eq!(engine.send(&format!("play white {}", moves[52])), "=\n");
    // The undo takes back the pass played for white's move with it: black to move again.
    assert_eq!(engine.send("undo"), "=\n");
    assert_eq!(engine.send("genmove black"), "= pass\n");
    assert_eq!(engine.send("undo"), "=\n");
    assert_eq!(engine.send("play black pass"), "=\n");
    let cannot = engine.send("play white pass");
    assert!(
        cannot.starts_with("? illegal move: you cannot pass"),
        "{cannot}"
    );
    for (i, mv) in moves.iter().enumerate().skip(52) {
        let colour = if i % 2 == 0 { "white" } else { "black" };
        assert_eq!(engine.send(&format!("play {colour} {mv}")), "=\n", "{mv}");
    }
    let mut pos = gamelab_othello::Othello::new();
    for mv in &moves {
        let mv = gamelab_othello::ggf::read_move(mv).unwrap();
        pos.pass_if_forced(mv);
        pos.play_unchecked(mv);
    }
    assert!(pos.is_over());
    let (b, w) = pos.counts();
    assert!(b != w);
    let score = if b > w {
        format!("B+{}", b - w)
    } else {
        format!("W+{}", w - b)
    };
    assert_eq!(engine.send("final_score"), format!("= {score}\n"));
    assert_eq!(
        engine.send("genmove black"),
        "? illegal move: the game is over\n"
    );
}

// --- outside engines as agents (`gtp:cmd=…`) -----------------------------------------

#[test]
fn an_outside_gtp_engine_plays_the_games_of_the_same_ai_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    let records = records.to_str().unwrap();
    let outside = format!(
        "gtp:cmd=({} gtp --ai engine:level=1)",
        env!("CARGO_BIN_EXE_gamelab")
    );
    let args = |a: &str, records: &str| {
        common::json(&[
            "match",
            "--json",
            "--game",
            "othello",
            a,
            "greedy",
            "-n",
            "12",
            "--openings",
            "6",
            "--records",
            records,
        ])
    };
    let (through, inside) = (args(&outside, records), args("engine:level=1", "/dev/null"));
    assert_eq!(through["digest"], inside["digest"]);
    assert_eq!(through["total"], inside["total"]);
    assert!(through.get("forfeits").is_none());
    // Some game had a pass, which went unsent.
    let text = std::fs::read_to_string(records).unwrap();
    assert!(text.contains("\"pass\""), "no game with a pass");
}

#[test]
fn an_outside_gtp_engine_is_told_the_matchs_clock() {
    // Level 30 searches for minutes a move unless told to hurry: through the protocol it
    // learns its time left before each move, and keeps within a 10-s clock.
    let outside = format!(
        "gtp:cmd=({} gtp --ai engine:level=30)",
        env!("CARGO_BIN_EXE_gamelab")
    );
    let report = common::json(&[
        "match", "--json", "--game", "othello", &outside, "random", "-n", "1", "--clock", "10",
    ]);
    assert_eq!(report["clock"], "10");
    assert!(report.get("forfeits").is_none(), "{report}");
    assert_eq!(report["total"]["win"], 2, "{report}");
}

/// Runs `scripts/NAME ARGS` (a Python script driving `gamelab gtp`) and returns what it
/// printed.
fn script(name: &str, args: &[&str]) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts").join(name))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_gtp_timing_scripts_play_whole_games() {
    let binary = env!("CARGO_BIN_EXE_gamelab");
    // A self-play game on 2 s a side: a result after 50-odd moves, each side's time.
    let clock = script("gtp-clock.py", &["2", "0", "0", "engine:level=1", binary]);
    let lines: Vec<&str> = clock.lines().collect();
    assert_eq!(lines.len(), 3, "{clock}");
    assert!(lines[0].contains(" after "), "{clock}");
    assert!(
        lines[1].starts_with("black: ") && lines[2].starts_with("white: "),
        "{clock}"
    );
    // Two games from the first two WTHOR openings at 0.05 s a move.
    let times = script(
        "gtp-move-times.py",
        &["engine:level=30,time=0.05,threads=1", "0.05", "2", binary],
    );
    let moves: usize = times.split(' ').next().unwrap().parse().unwrap();
    assert!((60..=120).contains(&moves), "{times}");
    assert!(times.contains("longest"), "{times}");
}

#[test]
fn bytes_that_are_not_text_get_an_error_answer_and_the_engine_goes_on() {
    let out = common::gamelab()
        .args(["gtp", "--ai", "greedy"])
        .write_stdin(b"1 name\n\xff\xfe\n2 name\n".to_vec())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("=1 gamelab\n\n? unknown command"),
        "{text}"
    );
    assert!(text.ends_with("\n\n=2 gamelab\n\n"), "{text}");
}
