//! Othello through the binary: play, match, perft, ffo, wthor.

mod common;

use common::{gamelab, json, stdout};
use predicates::prelude::*;
use std::path::Path;

fn shared(path: &str) -> String {
    format!(
        "{}/../../../shared/data/othello/{path}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn play_othello_in_the_terminal() {
    gamelab()
        .args(["play", "--game", "othello"])
        .write_stdin("a1\npass\nz9\nd3\nundo\nexit\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("  a b c d e f g h\n1 - - - - - - - -\n2 - - - - - - - -\n3 - - - * - - - -"))
        .stdout(predicate::str::contains("black to move [d3 c4 f5 e6 | undo | exit]: a1 is not a legal move here; legal: d3 c4 f5 e6"))
        .stdout(predicate::str::contains("you cannot pass while you have moves: d3 c4 f5 e6"))
        .stdout(predicate::str::contains("`z9` is not a move"))
        .stdout(predicate::str::contains("white (O) to move; black 4, white 1; last move d3 (lower case)"))
        // The last move's disc in lower case; the prompt offers the legal moves only.
        .stdout(predicate::str::contains("3 - - * x * - - -"))
        .stdout(predicate::str::contains("white to move [c3 e3 c5 | undo | exit]"));
}

#[test]
fn the_prompt_offers_the_moves_there_are_and_ai_moves_print_as_typed() {
    // White (greedy) answers d3; black's prompt then lists its own moves.
    let out = common::typed(
        &[
            "play", "--game", "othello", "--white", "greedy", "--seed", "0",
        ],
        "d3\nexit\n",
    );
    let played = out
        .lines()
        .find_map(|l| l.strip_prefix("white (greedy) plays "))
        .unwrap_or_else(|| panic!("{out}"));
    let prompts: Vec<&str> = out.matches("black to move [").collect();
    assert_eq!(prompts.len(), 2, "{out}");
    let last_prompt = out.rsplit("black to move [").next().unwrap();
    let offered = last_prompt.split(" | ").next().unwrap();
    let after: gamelab_othello::Othello =
        gamelab_core::Notation::parse_position(&format!("d3{played}")).unwrap();
    let legal: Vec<String> = gamelab_core::Game::legal_moves(&after)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(offered, legal.join(" "), "{out}");
}

#[test]
fn othello_against_an_ai_and_matches() {
    gamelab()
        .args([
            "play",
            "--game",
            "othello",
            "--black",
            "greedy",
            "--white",
            "minimax:depth=2",
            "--seed",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("game over: black (X)"));
    gamelab()
        .args([
            "match", "--game", "othello", "greedy", "random", "-n", "30", "--json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"game\":\"othello\""));
    gamelab()
        .args(["match", "--game", "othello", "greedy", "random", "--exact"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the exact mode visits every reachable position, and othello has too many",
        ));
    gamelab()
        .args(["match", "--game", "othello", "ai14s", "random"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "unknown AI `ai14s` for othello; its AIs: engine, random, roulette, greedy, minimax, alphabeta, nboard, gtp, mcts\n`ai14s` is an AI of ttt: add `--game ttt`",
        ));
    // An AI of another game: the hint says which.
    gamelab()
        .args(["move", "engine"])
        .assert()
        .failure()
        .stderr(predicate::str::ends_with(
            "\n`engine` is an AI of othello: add `--game othello`\n",
        ));
    gamelab()
        .args(["ais", "--game", "othello"])
        .assert()
        .success()
        .stdout(predicate::str::contains("alphabeta"))
        .stdout(predicate::str::contains("eval=weighted+mobility"))
        // The levels on one Elo scale, each preset of the page with its rating.
        .stdout(
            predicate::str::is_match(r#"\n  random +0 ± \d+ +the page's "Beginner"\n"#).unwrap(),
        )
        .stdout(
            predicate::str::is_match(
                r#"\n  engine:level=16 +\d{4} ± \d+ +the page's "Strongest"\n"#,
            )
            .unwrap(),
        );
}

#[test]
fn match_records_replay_othello() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("o.jsonl");
    gamelab()
        .args([
            "match",
            "--game",
            "othello",
            "greedy",
            "random",
            "-n",
            "2",
            "--records",
            file.to_str().unwrap(),
        ])
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 4);
    assert!(text.contains("\"game\":\"othello\""));
    gamelab()
        .args(["replay", file.to_str().unwrap(), "3"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "game 3 of seed 0: random (black) VS greedy (white)\n  a b c d e f g h",
        ))
        .stdout(predicate::str::contains("game over: black (X)"));
}

/// `gamelab ffo … | head -1`: once the reader has gone, the run ends at once, killed by
/// SIGPIPE as other tools are, not with a panic about printing.
#[cfg(unix)]
#[test]
fn a_reader_that_leaves_early_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "ffo",
            &shared("ffo1-39.txt"),
            "--ids",
            "1-19",
            "--threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe closes while positions are still being solved.
    let out = child.wait_with_output().unwrap();
    assert_eq!(first, "1 thread(s)\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.signal(),
        Some(13),
        "SIGPIPE, not {:?}: {stderr}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn perft_ffo_and_wthor_commands() {
    gamelab()
        .args(["perft", "8", "--threads", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("perft(8) = 390216 in"));
    gamelab()
        .args(["ffo", &shared("ffo1-39.txt"), "--ids", "1-2,20"])
        .assert()
        .success()
        .stdout(predicate::str::contains("  1      14    +18 g8     +18 g8"))
        .stdout(predicate::str::contains("3 positions"));
    // `--tests`: the first guess and each null-window test under the position's row
    let out = stdout(&[
        "ffo",
        &shared("ffo1-39.txt"),
        "--ids",
        "13",
        "--tests",
        "--threads",
        "1",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    let row = lines
        .iter()
        .position(|l| l.starts_with(" 13 "))
        .expect(&out);
    assert!(lines[row + 1].starts_with("      guess "), "{out}");
    assert!(lines[row + 1].contains("-ply midgame search"), "{out}");
    let tests: Vec<&&str> = lines[row + 2..]
        .iter()
        .take_while(|l| l.starts_with("      above "))
        .collect();
    // FFO #13 (16 empties) scores +14: some test asks "above +13?" and one "above +15?".
    assert!(
        tests.iter().any(|l| l.starts_with("      above +13? yes")),
        "{out}"
    );
    assert!(
        tests.iter().any(|l| l.starts_with("      above +15? no")),
        "{out}"
    );
    // `--line`: the line of best play under the row, the best move first, a move for
    // each of FFO #1's 14 empties at most, and a pass for each side at most between.
    let out = stdout(&["ffo", &shared("ffo1-39.txt"), "--ids", "1", "--line"]);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("      line "))
        .expect(&out);
    let moves: Vec<&str> = line.split(' ').collect();
    assert_eq!(moves[0], "g8", "{out}");
    assert!((2..=28).contains(&moves.len()), "{out}");
    gamelab()
        .args(["ffo", &shared("ffo1-39.txt"), "--tests", "--cluster"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be used with"));
    // a wrong expected score makes it fail
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.txt");
    let line = std::fs::read_to_string(shared("ffo1-39.txt"))
        .unwrap()
        .lines()
        .find(|l| l.starts_with("20 "))
        .unwrap()
        .replace(" +6 ", " +8 ");
    std::fs::write(&wrong, line).unwrap();
    gamelab()
        .args(["ffo", wrong.to_str().unwrap()])
        .assert()
        .failure()
        .stdout(predicate::str::contains("WRONG"))
        .stderr(predicate::str::contains("1 score(s) differ"));
    gamelab()
        .args(["wthor", &shared("wthor/WTH_1977.wtb")])
        .assert()
        .success()
        .stdout(predicate::str::contains(", 0 wrong"));
    let cut = dir.path().join("cut.wtb");
    let bytes = std::fs::read(shared("wthor/WTH_1977.wtb")).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).unwrap();
    gamelab()
        .args(["wthor", cut.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("the header announces"));
    // The server refuses a WTHOR folder it cannot read before it listens.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    gamelab()
        .args(["serve", "--port", "0", "--wthor", empty.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no .wtb file in this folder"));
    gamelab()
        .args([
            "serve",
            "--port",
            "0",
            "--wthor",
            dir.path().to_str().unwrap(),
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("the header announces"));
}

#[test]
fn othello_tournament() {
    gamelab()
        .args([
            "tournament",
            "--game",
            "othello",
            "random",
            "greedy",
            "minimax:depth=1",
            "-n",
            "10",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("rank  AI"))
        .stdout(predicate::str::contains("20 games per pair"));
}

#[test]
fn move_prints_the_engines_search() {
    let out = stdout(&["move", "--game", "othello", "engine:level=4"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("search "))
        .unwrap_or_else(|| panic!("no search line in {out}"));
    // Depth, score, nodes and the line it expects, its move first.
    let rest = line.strip_prefix("search depth 4, score +").expect(line);
    let (_, rest) = rest.split_once(", ").expect(line);
    let (nodes, pv) = rest.split_once(" nodes, line ").expect(line);
    assert!(nodes.parse::<u64>().unwrap() > 0, "{line}");
    let best = out.lines().last().unwrap();
    let first = pv.split(' ').next().unwrap();
    assert_eq!(best, format!("best moves [{first}]"), "{out}");
    assert!(pv.split(' ').count() >= 3, "{line}");
    // Within the exact search's reach: solved, h8 the best move, 28 discs up, and the
    // line to the end (three empties: the only one left after h8 and h7 is g8).
    let near_end = "XXXXXXXXXOOOOOOXXOXXXXOXXOXOOXOXXOXOOXOXXOXXXXOXXOOOOOO-XXXXXX-- X";
    let out = stdout(&["move", "--game", "othello", "engine", near_end]);
    assert!(
        out.contains("search solved to the end, score +28, ")
            && out.contains(" nodes, line h8 h7 g8\n")
            && out.ends_with("best moves [h8]\n"),
        "{out}"
    );
}

#[test]
fn othello_positions_on_the_command_line() {
    let start = "---------------------------OX------XO--------------------------- X";
    gamelab()
        .args(["move", "--game", "othello", "greedy", start])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("best moves [d3, c4, f5, e6]\n"));
    gamelab()
        .args([
            "play", "--game", "othello", "--from", start, "--black", "greedy", "--white", "greedy",
            "--seed", "2",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("game over"));
    gamelab()
        .args([
            "diverge",
            "--game",
            "othello",
            "greedy",
            "minimax:depth=2",
            "random",
            "--limit",
            "20",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("the games part at move"));
}

#[test]
fn train_patterns_smoke_and_the_engine_uses_the_model() {
    // A quick fit on every 500th game: the held-out table prints, the model loads.
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.glopat");
    // --self-play-save makes its folder (and the folders above it).
    let games = dir.path().join("saved/games");
    let wthor = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/othello/wthor"
    );
    let judge = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../othello/model/exact-20-22.txt"
    );
    let train = |out: &Path, games_option: &str| {
        let out = gamelab()
            .args([
                "train-patterns",
                "--wthor",
                wthor,
                "--every",
                "500",
                "--iterations",
                "5",
                "--self-play-rounds",
                "1",
                "--self-play-games",
                "20",
                "--self-play-level",
                "1",
                "--self-play-exact",
                "8",
                "--self-play-search-depth",
                "1",
                "--self-play-search-from",
                "50",
                "--judge",
                judge,
                games_option,
                games.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let text = train(&model, "--self-play-save");
    assert!(text.contains("held-out MAE"), "{text}");
    assert!(text.contains("weighted+mobility refit"), "{text}");
    assert!(
        text.contains("round 1: 20 self-play games at level 1, perfect from 8 empties, saved to"),
        "{text}"
    );
    assert!(
        text.contains("positions from 50 empties labelled by a depth-1 search"),
        "{text}"
    );
    // Each fit, the WTHOR one and the round's, is judged against the exact scores.
    assert_eq!(
        text.matches("against the exact scores of").count(),
        2,
        "{text}"
    );
    assert!(text.contains("(956 positions), static error in discs (signed): stage 9 "));
    assert!(
        text.contains("the new model at level 1 against the last"),
        "{text}"
    );
    // The saved games make the same model again, without playing them.
    let again = dir.path().join("again.glopat");
    let text = train(&again, "--self-play-from");
    assert!(
        text.contains("round 1: 20 self-play games read from"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&model).unwrap()
    );
    // Saved games in the WTHOR folder would be read as tournament games; a round without
    // its file is refused before any work.
    let refused = |rounds: &str, option: &str, folder: &str, message: &str| {
        gamelab()
            .args([
                "train-patterns",
                "--wthor",
                wthor,
                "--self-play-rounds",
                rounds,
            ])
            .args([option, folder, "--out", again.to_str().unwrap()])
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
    };
    refused("1", "--self-play-save", wthor, "is the WTHOR folder");
    refused("1", "--judge", "/no/such/suite.txt", "/no/such/suite.txt");
    refused(
        "2",
        "--self-play-from",
        games.to_str().unwrap(),
        "self-play-2.wtb",
    );
    // A model of one's own with the shipped book.
    let spec = format!("engine:level=2,model={}", model.display());
    gamelab()
        .args(["move", "--game", "othello", &spec, "--debug"])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth 2, score"));
    gamelab()
        .args(["move", "--game", "othello", &format!("{spec},book=shipped")])
        .assert()
        .success()
        .stdout(predicate::str::contains("book: 127475 games"));
    gamelab()
        .args(["move", "--game", "othello", "engine:model=/no/such/model"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("/no/such/model"));
}

#[test]
fn openings_vary_deterministic_games() {
    let alike = gamelab()
        .args([
            "match",
            "--game",
            "othello",
            "engine:level=1",
            "alphabeta:time=0,depth=1",
            "-n",
            "3",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&alike.stdout);
    assert!(
        text.contains("note: every game each way round was the same game"),
        "{text}"
    );
    let v = json(&[
        "match",
        "--game",
        "othello",
        "engine:level=1",
        "alphabeta:time=0,depth=1",
        "-n",
        "3",
        "--openings",
        "6",
        "--json",
    ]);
    assert_eq!(v["opening_plies"], 6);
    assert_eq!(v["repeated_one_game"], false);
    // Openings are a function of the seed alone: the same on one thread.
    let again = json(&[
        "match",
        "--game",
        "othello",
        "engine:level=1",
        "alphabeta:time=0,depth=1",
        "-n",
        "3",
        "--openings",
        "6",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(v["digest"], again["digest"]);
    gamelab()
        .args(["match", "ai2", "ai2", "-n", "1000", "--openings", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "has only 9 distinct positions 1 random plies",
        ));
}

#[test]
fn openings_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openings.txt");
    std::fs::write(
        &file,
        // The third is a transcript that leaves out white's forced pass after c1.
        "# three openings\nf5 d6 c3 d3 c4\n\nf5 f6 e6 f4  # a comment\nd3c3f5d2d1e1b2c1a3\n",
    )
    .unwrap();
    let records = dir.path().join("games.jsonl");
    let f = file.to_str().unwrap();
    // -n defaults to the number of openings: each played once with each AI first.
    let v = json(&[
        "match",
        "--game",
        "othello",
        "engine:level=1",
        "alphabeta:time=0,depth=1",
        "--openings-file",
        f,
        "--records",
        records.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["games_per_side"], 3);
    assert_eq!(v["openings_file"], f);
    let openings: Vec<Vec<&str>> = vec![
        vec!["f5", "d6", "c3", "d3", "c4"],
        vec!["f5", "f6", "e6", "f4"],
        vec!["d3", "c3", "f5", "d2", "d1", "e1", "b2", "c1", "pass", "a3"],
    ];
    let text = std::fs::read_to_string(&records).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let opening = &openings[i % 3];
        assert_eq!(&moves[..opening.len()], &opening[..], "game {i}");
    }
    // The tables name the file.
    gamelab()
        .args([
            "match",
            "--game",
            "othello",
            "greedy",
            "random",
            "--openings-file",
            f,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("6 games in"))
        .stdout(predicate::str::contains(", 3 openings from "));
    gamelab()
        .args(["match", "--game", "othello", "greedy", "random", "-n", "2"])
        .args(["--openings-file", f])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            ", the first 2 of 3 openings from ",
        ));
    gamelab()
        .args([
            "tournament",
            "--game",
            "othello",
            "greedy",
            "random",
            "minimax:depth=1",
            "--openings-file",
            f,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "6 games per pair, seed 0, 3 openings from",
        ));
    // Bad files say where and what.
    let bad = dir.path().join("bad.txt");
    for (text, needle) in [
        ("f5 d6\nf5 a1\n", "bad.txt, line 2: move 2 (a1):"),
        ("f5 zz\n", "line 1: move 2 (zz):"),
        ("# nothing\n\n", "no openings in it"),
    ] {
        std::fs::write(&bad, text).unwrap();
        gamelab()
            .args(["match", "--game", "othello", "greedy", "random"])
            .args(["--openings-file", bad.to_str().unwrap()])
            .assert()
            .failure()
            .stderr(predicate::str::contains(needle));
    }
    // Balanced random openings: only those the judge calls close to even.
    gamelab()
        .args(["match", "--game", "othello", "greedy", "random", "-n", "5"])
        .args([
            "--openings",
            "4",
            "--balanced",
            "1.5",
            "--judge",
            "engine:level=2",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "openings of 4 plies within ±1.5 by engine:level=2",
        ));
    let v = json(&[
        "match",
        "--game",
        "othello",
        "greedy",
        "random",
        "-n",
        "5",
        "--openings",
        "4",
        "--balanced",
        "1.5",
        "--judge",
        "engine:level=2",
        "--json",
    ]);
    assert_eq!(
        (v["balanced"].as_f64(), v["judge"].as_str()),
        (Some(1.5), Some("engine:level=2"))
    );
    // Refused, each with its reason: `greedy random` plus these options.
    let folder = dir.path().to_str().unwrap();
    for (options, reason) in [
        (
            &[
                "-n",
                "5",
                "--openings",
                "4",
                "--balanced",
                "1.5",
                "--judge",
                "greedy",
            ][..],
            "greedy gives no value for a position",
        ),
        (
            &["--balanced", "2", "--judge", "engine"],
            "balanced openings are kept from random openings: give their number of plies",
        ),
        (
            &["--openings", "4", "--balanced", "NaN", "--judge", "engine"],
            "expected a window from 0 to 1000000",
        ),
        (
            &["--openings", "4", "--openings-file", f],
            "cannot be used with",
        ),
        (&["--openings-file", folder], "not a regular file"),
    ] {
        gamelab()
            .args(["match", "--game", "othello", "greedy", "random"])
            .args(options)
            .assert()
            .failure()
            .stderr(predicate::str::contains(reason));
    }
}

#[test]
fn ffo_on_two_threads_and_against_a_time_limit() {
    gamelab()
        .args([
            "ffo",
            &shared("ffo1-39.txt"),
            "--ids",
            "1-3",
            "--threads",
            "2",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("2 thread(s)\n"))
        .stdout(predicate::str::contains("  3      14     +2 d1      +2 d1"));
    // FFO #20 (6 empties) is solved in microseconds, #78 (34 empties, after it) would
    // take hours on any machine: the time limit stops the one and not the other.
    let dir = tempfile::tempdir().unwrap();
    let suite = quick_then_endless(dir.path());
    gamelab()
        .arg("ffo")
        .arg(&suite)
        .args(["--threads", "1", "--time-limit", "2"])
        .assert()
        .failure()
        .stdout(predicate::str::contains(" 78      34      - -"))
        .stdout(predicate::str::contains("not solved in time"))
        .stdout(predicate::str::contains(" 20       6     +6 h5      +6 h5"))
        .stdout(predicate::str::contains("1 positions,"))
        .stderr(predicate::str::contains(
            "1 position(s) not solved within 2 s",
        ));
    gamelab()
        .args(["ffo", &shared("ffo1-39.txt"), "--threads", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "expected a number of threads from 1 to 256",
        ));
}

/// An FFO suite of two positions: #20 (6 empties, solved at once) then #78 (34 empties,
/// a close game: a solve of hours on any machine), written in `dir`.
fn quick_then_endless(dir: &Path) -> std::path::PathBuf {
    let line = |file: &str, id: &str| {
        std::fs::read_to_string(shared(file))
            .unwrap()
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("FFO #{id} in {file}"))
            .to_string()
    };
    let path = dir.join("two.txt");
    let text = format!(
        "{}\n{}\n",
        line("ffo1-39.txt", "20"),
        line("ffo60-79.txt", "78")
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn ctrl_c_ends_an_ffo_run_with_what_was_solved() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .arg("ffo")
        .arg(quick_then_endless(dir.path()))
        .args(["--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-C once #20's row is out: #78 is then being solved, for hours.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.lines().any(|l| l.starts_with(" 20 ")) {
        assert!(stdout.read_line(&mut seen).unwrap() > 0, "{seen}");
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    std::io::Read::read_to_string(&mut stdout, &mut seen).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(seen.contains("interrupted during position 78"), "{seen}");
    assert!(seen.contains("1 positions,"), "{seen}");
    assert!(
        stderr.contains("interrupted: 1 of 2 positions solved"),
        "{stderr}"
    );
}

#[test]
fn wthor_games_become_ggf_read_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("1977.ggf");
    // `gamelab wthor` on the 1977 games, writing `flag`'s format to `path`.
    let convert = |flag: &str, path: &std::path::Path, says: &str| {
        gamelab()
            .args(["wthor", &shared("wthor/WTH_1977.wtb"), flag])
            .arg(path)
            .assert()
            .success()
            .stdout(predicate::str::contains(says));
    };
    convert("--ggf", &out, "games written to");
    let text = std::fs::read_to_string(&out).unwrap();
    let games = gamelab_othello::ggf::parse(&text).unwrap();
    assert_eq!(games.len(), text.lines().count());
    let wthor =
        gamelab_othello::wthor::read(std::path::Path::new(&shared("wthor/WTH_1977.wtb"))).unwrap();
    assert_eq!(games.len(), wthor.len());
    for (ggf, w) in games.iter().zip(&wthor) {
        let placed: Vec<gamelab_othello::Move> = ggf
            .plain_moves()
            .into_iter()
            .filter(|m| *m != gamelab_othello::Move::Pass)
            .collect();
        let recorded: Vec<gamelab_othello::Move> = w
            .moves
            .iter()
            .map(|&sq| gamelab_othello::Move::Place(sq))
            .collect();
        assert_eq!(placed, recorded);
        assert_eq!(
            ggf.result(),
            Some(f64::from(2 * i32::from(w.black_discs) - 64))
        );
        assert!(ggf.property("PB").is_some_and(|name| !name.is_empty()));
    }
    // As game records: the finished games, each replayable by `replay`.
    let jsonl = dir.path().join("1977.jsonl");
    convert("--jsonl", &jsonl, "written to");
    let records = gamelab_core::record::read_records(&jsonl).unwrap();
    let finished = wthor
        .iter()
        .filter(|g| g.replay().unwrap().finished)
        .count();
    assert_eq!(records.len(), finished);
    for r in &records {
        gamelab_core::record::replay::<gamelab_othello::Othello>(r).unwrap();
    }
    gamelab()
        .args(["replay", jsonl.to_str().unwrap(), "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("game over"));
    // A folder in the way: refused before any work, nothing written.
    gamelab()
        .args(["wthor", &shared("wthor/WTH_1977.wtb"), "--ggf"])
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot write"));
}

#[test]
fn records_in_ggf_read_back_as_the_json_records() {
    let dir = tempfile::tempdir().unwrap();
    let (ggf, jsonl) = (dir.path().join("games.ggf"), dir.path().join("games.jsonl"));
    for path in [&ggf, &jsonl] {
        gamelab()
            .args([
                "match",
                "--game",
                "othello",
                "engine:level=1",
                "greedy",
                "-n",
                "3",
            ])
            .args(["--openings", "4", "--seed", "5", "--records"])
            .arg(path)
            .assert()
            .success();
    }
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(text.lines().count(), 6);
    assert!(
        text.lines()
            .all(|l| l.starts_with("(;GM[Othello]PC[gamelab, seed 5, game "))
    );
    let records = gamelab_othello::ggf::read_records(&text, "games.ggf").unwrap();
    let json: Vec<gamelab_core::record::GameRecord> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records, json);
    // replay reads GGF, knowing its game from the extension.
    let shown = gamelab()
        .args(["replay"])
        .arg(&ggf)
        .arg("4")
        .output()
        .unwrap();
    assert!(shown.status.success());
    assert!(
        String::from_utf8_lossy(&shown.stdout)
            .starts_with("game 4 of seed 5: greedy (black) VS engine:level=1 (white)")
    );
    let missing = gamelab()
        .args(["replay"])
        .arg(&ggf)
        .arg("9")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no game 9 in"));
}

#[test]
fn build_book_smoke_and_the_engine_plays_from_it() {
    // The 1980–1983 games' openings (620 games), valued by shallow searches: a book the
    // engine plays from at levels below 3.
    let dir = tempfile::tempdir().unwrap();
    let wthor = dir.path().join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/othello/wthor"
    );
    for year in 1980..=1983 {
        let name = format!("WTH_{year}.wtb");
        std::fs::copy(Path::new(shared).join(&name), wthor.join(&name)).unwrap();
    }
    let book = dir.path().join("b.glbook");
    let build = |threads: &str| {
        gamelab()
            .args(["build-book", "--wthor", wthor.to_str().unwrap()])
            .args(["--plies", "6", "--min-games", "5", "--level", "3"])
            .args(["--threads", threads, "--out", book.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("wrote"))
            .stdout(predicate::str::contains("from the start:"));
        std::fs::read(&book).unwrap()
    };
    let bytes = build("1");
    assert_eq!(build("2"), bytes, "the same book on one thread and two");
    let spec = format!("engine:level=2,book={}", book.display());
    gamelab()
        .args(["move", "--game", "othello", &spec, "--debug"])
        .assert()
        .success()
        .stdout(predicate::str::contains("book: "));
    // At the book's own depth the engine searches.
    let deep = format!("engine:level=3,book={}", book.display());
    gamelab()
        .args(["move", "--game", "othello", &deep, "--debug"])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth 3, score"));
    gamelab()
        .args([
            "move",
            "--game",
            "othello",
            "engine:level=2,book=none",
            "--debug",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth 2, score"));
    gamelab()
        .args(["build-book", "--wthor", wthor.to_str().unwrap()])
        .args(["--min-games", "1000000", "--out", book.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("lower --min-games"));
    let spec = format!("engine:book={}", wthor.join("WTH_1980.wtb").display());
    gamelab()
        .args(["move", "--game", "othello", &spec])
        .assert()
        .failure()
        .stderr(predicate::str::contains("not an opening book"));
}

#[test]
fn analyse_values_every_move_level_by_level() {
    // 16 empties after these moves: the moves' 15 are exact from level 9.
    let moves =
        "d3c5c6c7f6e3f3f2f1d6d7e8b5b6a7f4b7a6f5g3d8c4b8g2a4g6g5a5h2h3b3h1c3g4h6c8h4g1f8e2d2e7b4g7";
    let out = stdout(&["analyse", "--game", "othello", "engine:threads=1", moves]);
    let levels: Vec<&str> = out.lines().filter(|l| l.starts_with("level ")).collect();
    assert_eq!(levels.len(), 9, "{out}");
    for (i, line) in levels.iter().enumerate() {
        assert!(
            line.starts_with(&format!("level {:>2}  exact ", i + 1)),
            "{line}"
        );
    }
    assert!(levels[8].contains("  exact 5/5 "), "{out}");
    assert!(
        out.ends_with(" s)\n") && out.contains("\nended: every move's value is exact ("),
        "{out}"
    );
    // Every move once, best first, each exact with its line; the best as the web app's
    // analysis at a level that solves them values it.
    let values: Vec<&str> = out.lines().filter(|l| l.starts_with("    ")).collect();
    assert_eq!(values.len(), 5, "{out}");
    let best: f64 = values[0]
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(levels[8].contains(&format!(" {best:+.2}  line ")), "{out}");
    // The same as JSON Lines: a level an object, then how it ended.
    let out = stdout(&[
        "analyse",
        "--game",
        "othello",
        "engine:threads=1",
        moves,
        "--json",
    ]);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 10, "{out}");
    for (i, level) in objects[..9].iter().enumerate() {
        assert_eq!(level["level"], i as u64 + 1);
        assert_eq!(level["scores"].as_array().unwrap().len(), 5);
    }
    let scores = objects[8]["scores"].as_array().unwrap();
    assert!(
        scores
            .iter()
            .all(|s| s["exact"] == true && s["line"][0] == s["move"])
    );
    assert_eq!(objects[9]["done"], true);
    assert_eq!(objects[9]["end"], "exact");
    // A time limit ends it where it is, with every move's value at the last level done.
    let out = stdout(&[
        "analyse",
        "--game",
        "othello",
        "engine:threads=1",
        "--time",
        "0.3",
    ]);
    assert!(out.contains("\nlevel  1  exact 0/4 "), "{out}");
    assert!(out.contains("\nended: --time 0.3 s ran out ("), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("    ")).count(),
        4,
        "{out}"
    );
}

#[test]
fn analyse_lists_the_best_lines_of_the_analysis_of_every_move() {
    // 16 empties: exact from level 9, where the best lines are the best moves exactly.
    let moves =
        "d3c5c6c7f6e3f3f2f1d6d7e8b5b6a7f4b7a6f5g3d8c4b8g2a4g6g5a5h2h3b3h1c3g4h6c8h4g1f8e2d2e7b4g7";
    let rows = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("    "))
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    let every = stdout(&["analyse", "--game", "othello", "engine:threads=1", moves]);
    let out = stdout(&[
        "analyse",
        "--game",
        "othello",
        "engine:threads=1",
        "--lines",
        "2",
        moves,
    ]);
    assert!(out.contains("\nlevel  9  exact 2/2 "), "{out}");
    assert!(
        out.contains("\nended: every move's value is exact ("),
        "{out}"
    );
    assert_eq!(rows(&out), rows(&every)[..2], "{out}\n{every}");
    // As JSON Lines, two lines a level, each legal from the position.
    let out = stdout(&[
        "analyse",
        "--game",
        "othello",
        "engine:threads=1",
        "--lines=2",
        "--json",
        moves,
    ]);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 10, "{out}");
    for level in &objects[..9] {
        assert_eq!(level["scores"].as_array().unwrap().len(), 2, "{level}");
    }
    // Connect Four's alpha-beta and tic-tac-toe's solved values, the same way.
    let out = stdout(&[
        "analyse",
        "--game",
        "connect4",
        "alphabeta",
        "--lines",
        "1",
        "geaedgebeebfebgcfaaaccfafadgcdcg",
    ]);
    assert!(out.contains("\n     d +1009.00 exact"), "{out}");
    assert_eq!(rows(&out).len(), 1, "{out}");
    let out = stdout(&["analyse", "solved", "--lines", "3", "o........"]);
    // The moves as people type them (`1,1`), right-aligned under the board.
    let values = out
        .lines()
        .filter(|l| l.starts_with("   "))
        .collect::<Vec<_>>();
    assert_eq!(values.len(), 3, "{out}");
    assert!(values.iter().all(|l| l.contains(" exact ")), "{out}");
    gamelab()
        .args(["analyse", "solved", "--lines", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "expected a number of lines from 1 to 64",
        ));
}

#[test]
fn analyse_refuses_what_it_cannot_do() {
    // An AI that values moves once: one line of values, no levels.
    let out = stdout(&["analyse", "ai14s", "oo..x...."]);
    assert!(out.contains("\nvalues  exact 0/6 "), "{out}");
    assert!(
        out.contains("\nended: the AI searches no further ("),
        "{out}"
    );
    // MCTS deepens by doubling its iterations, until its tree proves every move.
    let out = stdout(&["analyse", "mcts:iterations=500", "o........"]);
    assert!(out.contains("\nlevel  1  exact "), "{out}");
    assert!(out.contains("\nlevel  2  exact "), "{out}");
    assert!(out.contains("  1000 positions "), "{out}");
    assert!(
        out.contains("\nended: every move's value is exact (")
            || out.contains("\nended: the AI searches no further ("),
        "{out}"
    );
    for (args, needle) in [
        (
            &["analyse", "ai2"][..],
            "ai2 gives no value for each move; choose an AI that scores moves",
        ),
        (
            &["analyse", "--game", "othello", "engine", "--time", "0"],
            "--time",
        ),
        (
            &["analyse", "--game", "othello", "engine", "--time", "nan"],
            "--time",
        ),
        (
            &["analyse", "--game", "othello", "engine:level=31"],
            "level",
        ),
        (
            &["analyse", "mcts", "oooxx...."],
            "the game is already over",
        ),
    ] {
        gamelab()
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(needle));
    }
}

#[test]
fn wthor_refuses_to_write_over_the_database_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("WTH_1977.wtb");
    std::fs::copy(shared("wthor/WTH_1977.wtb"), &db).unwrap();
    let before = std::fs::read(&db).unwrap();
    // Also through another name for the same file.
    let other_name = dir.path().join(".").join("WTH_1977.wtb");
    for flag in ["--ggf", "--jsonl"] {
        gamelab()
            .arg("wthor")
            .arg(&db)
            .arg(flag)
            .arg(&other_name)
            .assert()
            .failure()
            .stderr(predicate::str::contains(
                "writing it would replace the database; expected another file",
            ));
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn a_forced_pass_is_played_without_a_search_to_show() {
    use gamelab_core::Game;
    // The first position of games of first and last moves in turn where the side to move
    // must pass.
    let mut pos = gamelab_othello::Othello::new();
    let forced = loop {
        let moves = pos.legal_moves();
        if moves.len() == 1 && moves[0] == gamelab_othello::Move::Pass {
            break pos.board_string();
        }
        assert!(!pos.is_over(), "no pass in this game");
        let mv = if pos.ply().is_multiple_of(2) {
            moves[0]
        } else {
            moves[moves.len() - 1]
        };
        pos.play_unchecked(mv);
    };
    gamelab()
        .args(["move", "--game", "othello", "engine", &forced])
        .assert()
        .success()
        .stdout(predicate::str::contains("no search: it is the only move\n"))
        .stdout(predicate::str::contains("search depth").not());
}

#[test]
fn exact_set_solves_positions_of_real_games_and_eval_error_measures_against_them() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("exact.txt");
    let suite_arg = suite.to_str().unwrap();
    let games = shared("wthor/WTH_2021.wtb");
    let out = stdout(&[
        "exact-set",
        "--games",
        &games,
        "--empties",
        "12-14",
        "--count",
        "6",
        "--seed",
        "3",
        "--out",
        suite_arg,
    ]);
    assert!(
        out.starts_with("6 positions of 320 games solved in "),
        "{out}"
    );
    // An FFO suite: the solver agrees with every score it holds.
    let text = std::fs::read_to_string(&suite).unwrap();
    assert!(text.contains("# Made by: gamelab exact-set "), "{text}");
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 6);
    gamelab().args(["ffo", suite_arg]).assert().success();
    let out = stdout(&["eval-error", suite_arg, "--depths", "0,3"]);
    assert!(out.contains("static          depth 3"), "{out}");
    assert!(out.contains("(6 positions)"), "{out}");
    let rows: Vec<serde_json::Value> = stdout(&["eval-error", suite_arg, "--json"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let positions: u64 = rows
        .iter()
        .filter(|r| !r["stage"].is_null())
        .map(|r| r["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(positions, 6);
    assert!(rows.iter().all(|r| r["mae"].as_array().unwrap().len() == 4));
    for (args, needle) in [
        (
            vec!["exact-set", "--empties", "22-20", "--out", suite_arg],
            "expected empty squares as `N` or `A-B`, from 1 to 30",
        ),
        (
            vec!["eval-error", "/nonexistent/suite.txt"],
            "cannot read /nonexistent/suite.txt",
        ),
        (
            vec!["eval-error", suite_arg, "--depths", "0,21"],
            "--depths",
        ),
    ] {
        gamelab()
            .args(&args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(needle));
    }
}
