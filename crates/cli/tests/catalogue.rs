//! Every generic subcommand on every game of the catalogue: a game added to the catalogue
//! is played, matched, recorded and replayed by these tests without a line changed here.

mod common;

use common::{json, stdout};
use gamelab_core::{Described, GameVisitor, Side};

/// What the tests need to know of a game: its name, its sides' names and two AIs.
struct Facts {
    name: &'static str,
    sides: [&'static str; 2],
    ais: [&'static str; 2],
}

struct GetFacts;

impl GameVisitor for GetFacts {
    type Output = Facts;
    fn visit<G: Described>(self) -> Facts {
        Facts {
            name: G::NAME,
            sides: Side::BOTH.map(G::side_name),
            ais: G::DEFAULT_MATCH,
        }
    }
}

fn games() -> Vec<Facts> {
    gamelab_games::GAMES
        .iter()
        .map(|e| gamelab_games::visit(e.name, None, GetFacts).unwrap())
        .collect()
}

#[test]
fn every_game_plays_to_the_end_between_ais() {
    for g in games() {
        let [a, b] = g.ais;
        let side_a = format!("--{}", g.sides[0]);
        let side_b = format!("--{}", g.sides[1]);
        let out = stdout(&[
            "play", "--game", g.name, &side_a, a, &side_b, b, "--seed", "5",
        ]);
        assert!(out.starts_with("seed 5\n"), "{}: {out}", g.name);
        let last = out.lines().last().unwrap();
        assert!(
            last == "Draw." || last.ends_with(" wins."),
            "{}: the game ends with its result, not `{last}`",
            g.name
        );
        // The same seed plays the same game.
        let again = stdout(&[
            "play", "--game", g.name, &side_a, a, &side_b, b, "--seed", "5",
        ]);
        assert_eq!(out, again, "{}", g.name);
    }
}

#[test]
fn every_game_has_matches_tournaments_and_ais() {
    for g in games() {
        let [a, b] = g.ais;
        let listing = stdout(&["ais", "--game", g.name]);
        assert!(listing.contains(a) && listing.contains(b), "{listing}");
        let v = json(&[
            "match", "--game", g.name, a, b, "-n", "6", "--seed", "2", "--json",
        ]);
        assert_eq!(v["game"], g.name);
        assert_eq!(v["played"], 12);
        let one_thread = json(&[
            "match",
            "--game",
            g.name,
            a,
            b,
            "-n",
            "6",
            "--seed",
            "2",
            "--json",
            "--threads",
            "1",
        ]);
        assert_eq!(v["digest"], one_thread["digest"], "{}", g.name);
        let text = stdout(&["match", "--game", g.name, a, b, "-n", "6"]);
        assert!(text.contains(&format!("\n{} ", g.sides[0])), "{text}");
        let t = json(&["tournament", "--game", g.name, a, b, "-n", "4", "--json"]);
        assert_eq!(t["players"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn every_game_records_and_replays_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    for g in games() {
        let [a, b] = g.ais;
        for ext in ["jsonl", "csv"] {
            let file = dir.path().join(format!("{}.{ext}", g.name));
            let file = file.to_str().unwrap();
            let out = stdout(&["records", "--game", g.name, a, b, "-n", "3", "--out", file]);
            assert!(out.starts_with("6 games written"), "{out}");
            let text = std::fs::read_to_string(file).unwrap();
            assert_eq!(text.lines().count(), 6);
            for index in ["0", "5"] {
                let shown = stdout(&["replay", "--game", g.name, file, index]);
                assert!(shown.starts_with(&format!("game {index} of ")), "{shown}");
                assert!(
                    shown.contains(&format!("1. {} plays ", g.sides[0])),
                    "{shown}"
                );
            }
        }
        // The CSV holds move codes; the matching JSON record the same game.
        let csv = std::fs::read_to_string(dir.path().join(format!("{}.csv", g.name))).unwrap();
        let jsonl = std::fs::read_to_string(dir.path().join(format!("{}.jsonl", g.name))).unwrap();
        let from_json = stdout(&[
            "replay",
            &dir.path()
                .join(format!("{}.jsonl", g.name))
                .to_string_lossy(),
            "4",
        ]);
        let from_csv = stdout(&[
            "replay",
            "--game",
            g.name,
            &dir.path().join(format!("{}.csv", g.name)).to_string_lossy(),
            "4",
        ]);
        let body = |text: &str| text.split_once('\n').unwrap().1.to_string();
        assert_eq!(body(&from_json), body(&from_csv), "{}", g.name);
        assert_eq!(csv.lines().count(), jsonl.lines().count());
    }
}

#[test]
fn move_works_for_every_game_and_every_kind_of_ai() {
    for g in games() {
        for ai in g.ais {
            // Without a position, the start.
            let out = stdout(&["move", "--game", g.name, ai]);
            assert!(
                out.contains("best moves [") || out.contains("plays "),
                "{out}"
            );
        }
    }
    // A time-limited search has no fixed set of best moves; `move` shows its choice.
    let out = stdout(&["move", "ai_abs_dls:timelimit=0.05", "o...x...."]);
    assert!(
        out.contains("plays (") && out.contains("depend on the machine"),
        "{out}"
    );
}

#[test]
fn mcts_works_for_every_game_and_says_what_it_learned() {
    for g in games() {
        let out = stdout(&["move", "--game", g.name, "mcts:iterations=300"]);
        assert!(
            out.contains("move    visits   mean  proven") && out.contains("best moves ["),
            "{}: {out}",
            g.name
        );
        // A time limit: the move it plays, and a match says its results depend on the
        // machine.
        let out = stdout(&["move", "--game", g.name, "mcts:time=0.02"]);
        assert!(
            out.contains("plays ") && out.contains("depend on the machine"),
            "{out}"
        );
        let out = stdout(&[
            "match",
            "--game",
            g.name,
            "mcts:time=0.002",
            "mcts:iterations=50",
            "-n",
            "1",
        ]);
        assert!(
            out.contains("note: mcts:time=0.002 has a time limit")
                && !out.contains("note: mcts:iterations=50 has"),
            "{out}"
        );
    }
    // An iteration limit: the same games on any number of threads.
    let digest = |threads: &str| {
        let out = stdout(&[
            "match",
            "--game",
            "othello",
            "mcts:iterations=200",
            "greedy",
            "-n",
            "4",
            "--openings",
            "4",
            "--threads",
            threads,
        ]);
        out.split("digest ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(digest("1"), digest("2"));
    let out = stdout(&["tournament", "ai2", "mcts:time=0.001", "-n", "1"]);
    assert!(
        out.contains("note: mcts:time=0.001 has a time limit"),
        "{out}"
    );
    // tic-tac-toe's alpha-beta calls its limit `timelimit`.
    let out = stdout(&["match", "ai_abs_dls:timelimit=0.01", "ai2", "-n", "1"]);
    assert!(
        out.contains("note: ai_abs_dls:timelimit=0.01 has a time limit"),
        "{out}"
    );
    // The position is proven: each move's proven result is shown.
    let out = stdout(&["move", "mcts:iterations=2000", "oo..x...."]);
    assert!(
        out.contains("(2, 0)") && out.contains("draw") && out.contains("loss"),
        "{out}"
    );
}
