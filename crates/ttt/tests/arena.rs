//! The arena on tic-tac-toe: reproducibility, exact mode against sampling, the spec's
//! reference table, records.

use gamelab_core::Analyst;
use gamelab_core::Notation;
use gamelab_core::arena::{self, ExactResult, MatchConfig, MatchResult};
use gamelab_core::record::{GameRecord, read_records, replay, write_records};
use gamelab_core::{Agent, BestMoves, Game, GameRng, Policy, Side, Uniform};
use gamelab_ttt::Ttt;
use gamelab_ttt::board::Moves;
use std::sync::Arc;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::atomic::{AtomicBool, AtomicU64};

fn build(spec: &str) -> Box<dyn Agent<Ttt>> {
    gamelab_ttt::ai::registry().build(spec).unwrap()
}

fn sampled(a: &str, b: &str, games: u64, seed: u64, threads: usize) -> MatchResult {
    let cfg = MatchConfig {
        games_per_side: games,
        seed,
        threads,
        opening_plies: 0,
        ..Default::default()
    };
    arena::run_match::<Ttt, _>(&|| build(a), &|| build(b), &cfg, &|_| {}, false).0
}

fn exact(a: &str, b: &str) -> ExactResult {
    arena::exact_match::<Ttt>(&mut *build(a), &mut *build(b), [a, b]).unwrap()
}

#[test]
fn thread_count_does_not_change_the_games() {
    let one = sampled("ai14s", "ai2", 10_000, 7, 1);
    let two = sampled("ai14s", "ai2", 10_000, 7, 2);
    let four = sampled("ai14s", "ai2", 10_000, 7, 4);
    assert_eq!(one, two);
    assert_eq!(one, four);
    assert_eq!(one.first.games() + one.second.games(), 20_000);
}

#[test]
fn golden_digests() {
    // Pinned: a change here means recorded seeds no longer replay the same games.
    let r = sampled("ai2", "ai2", 5_000, 0, 2);
    assert_eq!(format!("{:016x}", r.digest), GOLDEN_AI2, "{r:?}");
    let r = sampled("ai14s", "ai2", 5_000, 0, 2);
    assert_eq!(format!("{:016x}", r.digest), GOLDEN_AI14S, "{r:?}");
}

const GOLDEN_AI2: &str = "0ddfeb44e76dd213";
const GOLDEN_AI14S: &str = "5f62e5f7140151df";

#[test]
fn seeds_change_the_games() {
    assert_ne!(
        sampled("ai2", "ai2", 1_000, 0, 1).digest,
        sampled("ai2", "ai2", 1_000, 1, 1).digest
    );
}

/// Plays the first legal square, noting the first random word it is handed in each game.
struct Spy(std::sync::Arc<std::sync::Mutex<Vec<u32>>>);

impl Agent<Ttt> for Spy {
    fn choose(&mut self, game: &Ttt, rng: &mut GameRng) -> gamelab_ttt::Square {
        use rand::Rng;
        let word = rng.next_u32();
        if game.move_count() < 2 {
            self.0.lock().unwrap().push(word);
        }
        game.legal_moves()[0]
    }
}

#[test]
fn changing_a_never_changes_bs_randomness() {
    let first_words_of_b = |a: &str| {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let spy = seen.clone();
        let cfg = MatchConfig {
            games_per_side: 50,
            seed: 3,
            threads: 1,
            opening_plies: 0,
            ..Default::default()
        };
        arena::run_match::<Ttt, _>(
            &|| build(a),
            &move || Box::new(Spy(spy.clone())) as Box<dyn Agent<Ttt>>,
            &cfg,
            &|_| {},
            false,
        );
        seen.lock().unwrap().clone()
    };
    // In game g, B (the other side from A) starts on its own stream (3, g, side).
    let key = gamelab_core::StreamKey::new(3);
    let expected: Vec<u32> = (0..100u64)
        .map(|g| {
            use rand::Rng;
            key.game_rng(g, arena::a_side(g, 50).opponent()).next_u32()
        })
        .collect();
    assert_eq!(first_words_of_b("ai2"), expected);
    assert_eq!(first_words_of_b("ai14s"), expected);
}

/// Every cell of the sampled table lies within 4 standard errors of the exact one.
fn assert_agrees(a: &str, b: &str, games: u64) {
    let e = exact(a, b);
    let s = sampled(a, b, games, 11, 0);
    for (half, probs, tally) in [("first", e.first, s.first), ("second", e.second, s.second)] {
        let observed = tally.ratios();
        for (k, (p, q)) in probs.as_array().into_iter().zip(observed).enumerate() {
            let se = (p * (1.0 - p) / games as f64).sqrt();
            assert!(
                (p - q).abs() <= 4.0 * se + 1e-12,
                "{a} vs {b}, {half}, cell {k}: exact {p:.5}, sampled {q:.5}, se {se:.5}"
            );
        }
    }
}

#[test]
fn sampled_matches_agree_with_the_exact_mode() {
    for (a, b) in [
        ("ai2", "ai2"),
        ("ai14s", "ai2"),
        ("ai6", "ai2"),
        ("ai12s:ver=3", "ai7s"),
        ("ai1", "ai5s"),
    ] {
        assert_agrees(a, b, 20_000);
    }
}

#[test]
fn exact_mode_is_a_distribution() {
    let e = exact("ai2", "ai2");
    for p in [e.first, e.second, e.total()] {
        assert!((p.win + p.lose + p.draw - 1.0).abs() < 1e-12);
    }
    // ai2 against itself: A's first-player win rate is the second half's loss rate.
    assert!((e.first.win - e.second.lose).abs() < 1e-12);
    // a deterministic pair plays one game each way: ai1 first fills row by row and wins.
    let d = exact("ai1", "ai1s");
    assert_eq!((d.first.win, d.second.lose), (1.0, 1.0));
}

#[test]
fn exact_mode_needs_distributions() {
    struct NoPolicy;
    impl Agent<Ttt> for NoPolicy {
        fn choose(&mut self, game: &Ttt, _: &mut GameRng) -> gamelab_ttt::Square {
            game.legal_moves()[0]
        }
    }
    let err =
        arena::exact_match::<Ttt>(&mut NoPolicy, &mut *build("ai2"), ["mine", "ai2"]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("mine has no fixed move distribution"),
        "{err}"
    );
    // Uniform agents always have one
    struct Centre;
    impl BestMoves<Ttt> for Centre {
        fn best_moves(&mut self, g: &Ttt) -> Moves {
            g.legal_moves()
        }
    }
    assert_eq!(
        Uniform(Centre).policy(&Ttt::default()).unwrap(),
        Policy::uniform(&Ttt::default().legal_moves())
    );
}

/// The spec's reference results against ai2 (article 001; %, 10,000–50,000 sampled games each),
/// as (o win, o lose, o draw, x win, x lose, x draw).
const REFERENCE: [(&str, [f64; 6]); 20] = [
    ("ai1", [78.1, 17.5, 4.4, 44.7, 51.6, 3.8]),
    ("ai2", [58.7, 28.8, 12.6, 29.1, 58.6, 12.3]),
    ("ai3", [69.3, 19.2, 11.5, 38.9, 47.6, 13.5]),
    ("ai4", [83.0, 9.5, 7.4, 57.2, 33.0, 9.7]),
    ("ai5", [81.2, 12.3, 6.5, 51.8, 39.8, 8.4]),
    ("ai6", [88.9, 2.2, 8.9, 70.3, 6.2, 23.5]),
    ("ai6s", [88.6, 1.9, 9.5, 69.4, 9.1, 21.5]),
    ("ai7", [95.8, 0.2, 4.0, 82.3, 2.4, 15.3]),
    ("ai8s", [98.2, 0.1, 1.6, 89.4, 2.5, 8.1]),
    ("ai9s", [98.7, 0.1, 1.2, 89.6, 2.4, 8.0]),
    ("ai10s", [97.4, 0.0, 2.6, 85.6, 2.6, 11.7]),
    ("ai11s:ver=1", [98.1, 0.0, 1.9, 82.5, 1.9, 15.6]),
    ("ai11s:ver=2", [98.8, 0.0, 1.2, 87.7, 2.4, 10.0]),
    ("ai11s:ver=3", [99.1, 0.0, 0.9, 87.7, 0.8, 11.5]),
    ("ai12s:ver=2", [98.9, 0.0, 1.1, 88.2, 0.0, 11.8]),
    ("ai12s:ver=3", [95.8, 0.0, 4.2, 86.9, 0.0, 13.1]),
    ("ai13s", [98.9, 0.0, 1.1, 88.5, 0.0, 11.5]),
    ("ai14s", [99.0, 0.0, 1.0, 88.8, 0.0, 11.2]),
    ("ai_gt", [96.9, 0.0, 3.1, 78.0, 0.0, 22.1]),
    ("ai_gtsvrd", [97.1, 0.0, 2.9, 81.1, 0.0, 18.9]),
];

#[test]
fn the_catalogue_reproduces_the_seeds_table() {
    // The seed sampled at least 10,000 games a side and printed one decimal: allow 4
    // standard errors of 10,000 games plus the rounding.
    for (ai, reference) in REFERENCE {
        let e = exact(ai, "ai2");
        let ours = [e.first.as_array(), e.second.as_array()].concat();
        for (k, (p, r)) in ours.iter().zip(reference).enumerate() {
            if ai == "ai6" && (k == 1 || k == 2) {
                continue; // the spec's known exception, checked below
            }
            let r = r / 100.0;
            let se = (r * (1.0 - r) / 10_000.0).sqrt();
            assert!(
                (p - r).abs() <= 4.0 * se + 0.0005,
                "{ai} cell {k}: exact {:.2}%, seed {:.1}%",
                p * 100.0,
                r * 100.0
            );
        }
    }
    // The article's ai6 row came from an older implementation; the documented rule loses
    // about 1.3% as o.
    let ai6 = exact("ai6", "ai2");
    assert!(
        (0.012..0.014).contains(&ai6.first.lose),
        "{}",
        ai6.first.lose
    );
}

#[test]
fn records_round_trip_and_replay() {
    let cfg = MatchConfig {
        games_per_side: 20,
        seed: 5,
        threads: 2,
        opening_plies: 0,
        ..Default::default()
    };
    let (result, games) =
        arena::run_match::<Ttt, _>(&|| build("ai14s"), &|| build("ai2"), &cfg, &|_| {}, true);
    assert_eq!(games.len(), 40);
    assert!(games.iter().enumerate().all(|(i, g)| g.index == i as u64));
    let records: Vec<GameRecord> = games
        .iter()
        .map(|g| GameRecord {
            game: "ttt".into(),
            index: g.index,
            seed: 5,
            first: if g.a_side == Side::First {
                "ai14s"
            } else {
                "ai2"
            }
            .into(),
            second: if g.a_side == Side::First {
                "ai2"
            } else {
                "ai14s"
            }
            .into(),
            moves: g.moves.iter().map(|m| m.to_string()).collect(),
            result: g
                .outcome
                .winner()
                .map_or("draw", |s| if s == Side::First { "o" } else { "x" })
                .into(),
            forfeit: None,
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.jsonl");
    write_records(&path, &records).unwrap();
    let back = read_records(&path).unwrap();
    assert_eq!(back, records);
    for r in &back {
        let positions = replay::<Ttt>(r).unwrap();
        assert_eq!(positions.len(), r.moves.len() + 1);
    }
    // the records add up to the match result
    let a_losses = games
        .iter()
        .filter(|g| g.outcome.winner().is_some_and(|w| w != g.a_side))
        .count() as u64;
    assert_eq!(a_losses, result.total().lose);
}

#[test]
fn malformed_records_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    let good = r#"{"game":"ttt","index":0,"seed":0,"first":"a","second":"b","moves":["(1, 1)"],"result":"o"}"#;
    std::fs::write(&path, format!("{good}\n\n{{\"game\": 3}}\n")).unwrap();
    let err = read_records(&path).unwrap_err().to_string();
    assert!(
        err.contains("bad.jsonl, line 3: not a game record"),
        "{err}"
    );

    // a record whose moves do not replay
    let mut r: GameRecord = serde_json::from_str(good).unwrap();
    assert_eq!(
        replay::<Ttt>(&r).unwrap_err(),
        gamelab_core::record::ReplayError::EndsEarly
    );
    assert_eq!(
        replay::<Ttt>(&r).unwrap_err().to_string(),
        "the moves end before the game does"
    );
    r.moves = vec!["(1, 1)".into(), "(1, 1)".into()];
    assert!(
        replay::<Ttt>(&r)
            .unwrap_err()
            .to_string()
            .contains("move 2 `(1, 1)`: (1, 1) is already taken")
    );
    r.moves = "0,0 1,0 0,1 1,1 0,2".split(' ').map(String::from).collect();
    r.result = "x".into();
    assert_eq!(
        replay::<Ttt>(&r).unwrap_err().to_string(),
        "the moves end in `o` but the record says `x`"
    );
    // A forfeit is the side to move's: after one move x is to move, so o won.
    r.moves = vec!["(1, 1)".into()];
    r.forfeit = Some("x gave up".into());
    r.result = "o".into();
    assert!(replay::<Ttt>(&r).is_ok());
    r.result = "x".into();
    assert_eq!(
        replay::<Ttt>(&r).unwrap_err().to_string(),
        "the record says `x` won by a forfeit, but after the moves x is to move, and a forfeit is the side to move's"
    );
}

#[test]
fn a_failed_write_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("keep.jsonl");
    std::fs::write(&path, "precious\n").unwrap();
    // the target's directory vanishes: the write fails and nothing is half-written
    let missing = dir.path().join("no/such/dir/keep.jsonl");
    assert!(write_records(&missing, &[]).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious\n");
}

#[test]
fn live_reports_add_up_to_the_match_whatever_the_chunk_size() {
    let cfg = MatchConfig {
        games_per_side: 500,
        seed: 11,
        threads: 2,
        opening_plies: 0,
        ..Default::default()
    };
    let whole = sampled("ai14s", "ai2", 500, 11, 2);
    let reported = std::sync::Mutex::new((arena::Tally::default(), 0u64, 0usize));
    let live = arena::LiveOptions {
        chunk: 7,
        stop: None,
        keep_games: true,
        chunk_seconds: None,
        in_pairs: false,
    };
    let mut games = Vec::new();
    let (result, stopped) = arena::run_match_live::<Ttt, _>(
        &|| build("ai14s"),
        &|| build("ai2"),
        &cfg,
        &live,
        &|chunk| {
            let mut r = reported.lock().unwrap();
            r.0.add(&chunk.first);
            r.0.add(&chunk.second);
            r.1 = r.1.wrapping_add(chunk.digest);
            r.2 += chunk.games.len();
        },
        &mut |window| {
            // Handed on a window at a time: never the whole match at once.
            assert!(window.len() <= 2 * 7 * 4);
            games.extend(window);
            true
        },
    );
    assert!(!stopped);
    assert_eq!(result, whole);
    let (tally, digest, kept) = *reported.lock().unwrap();
    assert_eq!(tally, whole.total());
    assert_eq!(digest, whole.digest);
    assert_eq!(kept, 1000);
    assert!(games.iter().enumerate().all(|(i, g)| g.index == i as u64));
}

/// An AI that asks its match to stop when the `at`-th game (counted across copies)
/// begins, then plays on as `inner`.
struct StopsAt {
    inner: Box<dyn Agent<Ttt>>,
    begun: Arc<AtomicU64>,
    at: u64,
    stop: Arc<AtomicBool>,
}

impl Agent<Ttt> for StopsAt {
    fn choose(&mut self, game: &Ttt, rng: &mut GameRng) -> gamelab_ttt::Square {
        if game.ply() == 0 && self.begun.fetch_add(1, SeqCst) + 1 == self.at {
            self.stop.store(true, SeqCst);
        }
        self.inner.choose(game, rng)
    }
}

#[test]
fn a_stop_ends_the_match_after_the_game_under_way() {
    // One chunk of 1000 games on one thread: the stop is seen between games.
    let cfg = MatchConfig {
        games_per_side: 500,
        seed: 5,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let begun = Arc::new(AtomicU64::new(0));
    let live = arena::LiveOptions {
        chunk: 1000,
        stop: Some(&stop),
        keep_games: true,
        chunk_seconds: None,
        in_pairs: false,
    };
    let a = || -> Box<dyn Agent<Ttt>> {
        Box::new(StopsAt {
            inner: build("ai14s"),
            begun: begun.clone(),
            at: 37,
            stop: stop.clone(),
        })
    };
    let mut games = Vec::new();
    let (result, stopped) = arena::run_match_live::<Ttt, _>(
        &a,
        &|| build("ai2"),
        &cfg,
        &live,
        &|_| {},
        &mut |window| {
            games.extend(window);
            true
        },
    );
    assert!(stopped);
    // The stop came during game 37, which does not count: 36 games, the same as the
    // first 36 of the match played to the end.
    assert_eq!(result.total().games(), 36);
    assert_eq!(games.len(), 36);
    let (_, all) =
        arena::run_match::<Ttt, _>(&|| build("ai14s"), &|| build("ai2"), &cfg, &|_| {}, true);
    assert_eq!(games[..], all[..36]);
}

#[test]
fn a_stopped_live_match_plays_no_new_chunk() {
    let cfg = MatchConfig {
        games_per_side: 1000,
        seed: 0,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let live = arena::LiveOptions {
        chunk: 100,
        stop: Some(&stop),
        keep_games: false,
        chunk_seconds: None,
        in_pairs: false,
    };
    let chunks = std::sync::atomic::AtomicU64::new(0);
    let (result, stopped) = arena::run_match_live::<Ttt, _>(
        &|| build("ai2"),
        &|| build("ai2"),
        &cfg,
        &live,
        &|_| {
            // Ask to stop after the third chunk.
            if chunks.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 2 {
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        },
        &mut |_| true,
    );
    assert!(stopped);
    assert_eq!(result.total().games(), 300);
}

/// Issue 63: a match played in pairs (A first, then A second) is the same match as one
/// played in index order, game for game, whatever the chunks and threads; stopped part
/// way it has played both colours alike; the uniform-playout path (two `ai2`s, no games
/// kept) agrees too.
#[test]
fn a_match_played_in_pairs_is_the_same_match_and_stops_balanced() {
    let cfg = MatchConfig {
        games_per_side: 300,
        seed: 21,
        threads: 2,
        opening_plies: 0,
        ..Default::default()
    };
    for (a, b, keep_games) in [("ai14s", "ai2", true), ("ai2", "ai2", false)] {
        let (whole, mut by_index) =
            arena::run_match::<Ttt, _>(&|| build(a), &|| build(b), &cfg, &|_| {}, keep_games);
        for chunk in [1, 7, 64] {
            let live = arena::LiveOptions {
                chunk,
                stop: None,
                keep_games,
                chunk_seconds: None,
                in_pairs: true,
            };
            let mut games = Vec::new();
            let (result, stopped) = arena::run_match_live::<Ttt, _>(
                &|| build(a),
                &|| build(b),
                &cfg,
                &live,
                // Whole pairs in every chunk, whatever size was asked for.
                &|c| {
                    assert!(c.range.start.is_multiple_of(2), "{:?}", c.range);
                    assert!(c.range.end.is_multiple_of(2), "{:?}", c.range);
                },
                &mut |window| {
                    games.extend(window);
                    true
                },
            );
            assert!(!stopped);
            assert_eq!(result, whole, "{a} {b} chunk {chunk}");
            let order: Vec<u64> = games.iter().map(|g| g.index).collect();
            let expected: Vec<u64> = (0..order.len() as u64)
                .map(|p| arena::game_at(p, 300))
                .collect();
            assert_eq!(order, expected);
            games.sort_by_key(|g| g.index);
            by_index.sort_by_key(|g| g.index);
            assert_eq!(games, by_index);
        }
    }
    // Stopped as the game at position 40 begins (one thread, one chunk): the 40 before
    // it, 20 of each colour.
    let cfg = MatchConfig { threads: 1, ..cfg };
    let stop = Arc::new(AtomicBool::new(false));
    let begun = Arc::new(AtomicU64::new(0));
    let live = arena::LiveOptions {
        chunk: 600,
        stop: Some(&stop),
        keep_games: true,
        chunk_seconds: None,
        in_pairs: true,
    };
    // A opens every other game (positions 0, 2, 4, …): its 21st opening is position 40.
    let a = || -> Box<dyn Agent<Ttt>> {
        Box::new(StopsAt {
            inner: build("ai14s"),
            begun: begun.clone(),
            at: 21,
            stop: stop.clone(),
        })
    };
    let (result, stopped) =
        arena::run_match_live::<Ttt, _>(&a, &|| build("ai2"), &cfg, &live, &|_| {}, &mut |_| true);
    assert!(stopped);
    assert_eq!(result.first.games(), 20);
    assert_eq!(result.second.games(), 20);
}

#[test]
fn the_bitboards_own_playout_plays_the_plain_loops_games() {
    // The start, a few positions on, one a move from the end, and finished ones.
    for board in [
        ".........",
        "....o....",
        "o...x....",
        "ox.xo....",
        "oxoxxoo.x",
        "ooo.xx...",
        "oxoxxooox",
    ] {
        let start = Ttt::parse_position(board).unwrap();
        arena::check_uniform_playout(&start, 11, 20_000).unwrap();
    }
}

#[test]
fn ai2_is_the_only_uniformly_random_ai() {
    let registry = gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>();
    // AIs with a required parameter (regression's model file) cannot be built bare.
    let buildable = registry
        .entries()
        .iter()
        .filter(|e| e.params.iter().all(|p| p.default.is_some()));
    for entry in buildable {
        let agent = registry.build(entry.name).unwrap();
        assert_eq!(
            agent.is_uniform_random(),
            entry.name == "ai2",
            "{}",
            entry.name
        );
    }
}

#[test]
fn csv_lines_that_stop_early_or_lie_about_the_winner_are_refused() {
    use gamelab_core::record::record_from_csv;
    // Found by fuzzing: o at 4, 8, 6 and x at 0, 2 is no finished game.
    let early = record_from_csv::<Ttt>("1,4,0,8,2,6", 0)
        .unwrap_err()
        .to_string();
    assert!(early.contains("end before the game does"), "{early}");
    // o wins on the diagonal 0, 4, 8; the line says x won.
    let lie = record_from_csv::<Ttt>("2,0,1,4,2,8", 0)
        .unwrap_err()
        .to_string();
    assert!(lie.contains("line says `x`"), "{lie}");
    let record = record_from_csv::<Ttt>("1,0,1,4,2,8", 0).unwrap();
    assert_eq!(record.result, "o");
    replay::<Ttt>(&record).unwrap();
}

#[test]
fn openings_read_from_text_are_checked_move_by_move() {
    let ok = arena::read_openings::<Ttt>("# corners\n0,0 1,1\n\n2,2   # alone\n", "o.txt").unwrap();
    assert_eq!(ok.len(), 2);
    assert_eq!((ok[0].len(), ok[1].len()), (2, 1));
    let err = |text: &str| {
        arena::read_openings::<Ttt>(text, "o.txt")
            .unwrap_err()
            .to_string()
    };
    assert!(err("1,1\n1,1 1,1\n").starts_with("o.txt, line 2: move 2 (1,1):"));
    // x takes the top row: the game is over, so it opens nothing.
    assert!(err("0,0 0,1 1,0 1,1 2,0\n").contains("the game is over after these moves"));
    assert!(err("0,0 0,1 1,0 1,1 2,0 2,2\n").contains("the game is over before move 6"));
    assert!(err("").contains("no openings in it"));
    // A match from given openings starts every game with them, each once each way round.
    let cfg = MatchConfig {
        games_per_side: 2,
        seed: 3,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    let make = || build("ai2");
    let live = arena::LiveOptions::for_match(&cfg, true);
    let mut games = Vec::new();
    let (result, cut) =
        arena::run_match_from::<Ttt, _>(&make, &make, &cfg, &ok, &live, &|_| {}, &mut |g| {
            games.extend(g);
            true
        });
    assert!(!cut);
    assert_eq!(result.total().games(), 4);
    for (i, g) in games.iter().enumerate() {
        let opening = &ok[i % 2];
        assert_eq!(&g.moves[..opening.len()], &opening[..], "game {i}");
    }
}

#[test]
fn openings_can_be_kept_by_a_judge() {
    // Keep the openings that leave the centre empty: every one does, and asking for more
    // than exist says what they had to be.
    let centre_empty = |g: &Ttt| g.parse_move("1,1").is_ok();
    let kept =
        arena::openings_where::<Ttt>(20, 2, 5, " with the centre empty", &mut |g| centre_empty(g))
            .unwrap();
    assert_eq!(kept.len(), 20);
    let mut all = arena::openings::<Ttt>(20, 2, 5).unwrap();
    all.retain(|moves| {
        let mut g = Ttt::start();
        moves.iter().for_each(|&m| g.play_unchecked(m));
        centre_empty(&g)
    });
    // The same candidates in the same order: the unfiltered ones that pass come first.
    assert_eq!(&kept[..all.len()], &all[..]);
    let err = arena::openings_where::<Ttt>(100, 2, 5, " with the centre empty", &mut |g| {
        centre_empty(g)
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("2 random plies from the start with the centre empty"),
        "{err}"
    );
}

/// An AI that takes `pause` over every move whatever it is told, and notes the move times
/// a clock gives it.
struct Slow {
    pause: std::time::Duration,
    told: Arc<std::sync::Mutex<Vec<std::time::Duration>>>,
}

impl Agent<Ttt> for Slow {
    fn choose(&mut self, game: &Ttt, _rng: &mut GameRng) -> <Ttt as Game>::Move {
        std::thread::sleep(self.pause);
        game.legal_moves()[0]
    }

    fn set_move_time(&mut self, limit: Option<std::time::Duration>) -> bool {
        self.told
            .lock()
            .unwrap()
            .push(limit.expect("a clock's share"));
        true
    }
}

#[test]
fn a_side_whose_clock_runs_out_loses_and_the_clock_shares_its_time() {
    use std::time::Duration;
    let told = Arc::new(std::sync::Mutex::new(Vec::new()));
    let slow = |pause_ms: u64| {
        let told = told.clone();
        move || -> Box<dyn Agent<Ttt>> {
            Box::new(Slow {
                pause: Duration::from_millis(pause_ms),
                told: told.clone(),
            })
        }
    };
    let play = |clock: &str, pause_ms: u64| {
        let cfg = MatchConfig {
            games_per_side: 2,
            threads: 1,
            clock: clock.parse().unwrap(),
            ..Default::default()
        };
        arena::run_match::<Ttt, _>(&slow(pause_ms), &|| build("ai2"), &cfg, &|_| {}, false).0
    };
    // 30 ms a move against 50 ms a game: out of time by its second move at the latest.
    let result = play("0.05", 30);
    assert_eq!(result.forfeits, [4, 0]);
    assert_eq!(result.total().lose, 4);
    let reason = &result.first_forfeit.as_ref().unwrap().reason;
    assert!(
        reason.starts_with("ran out of time: its move took ")
            && reason.ends_with("ms on its clock"),
        "{reason}"
    );
    // With ten seconds it never runs out; moving first, its first share is the clock
    // less its twentieth's reserve (capped at a second: 0.5 s), over its five moves.
    told.lock().unwrap().clear();
    let result = play("10", 1);
    assert_eq!(result.forfeits, [0, 0]);
    let told = told.lock().unwrap();
    assert_eq!(told[0], Duration::from_millis(1900));
    assert!(
        told.iter()
            .all(|t| *t > Duration::ZERO && *t <= Duration::from_secs(10))
    );
}

/// An AI that stops the match at its first move (a failure it was told not to play on
/// from).
struct StopsTheMatch;

impl Agent<Ttt> for StopsTheMatch {
    fn choose(&mut self, game: &Ttt, _rng: &mut GameRng) -> <Ttt as Game>::Move {
        game.legal_moves()[0]
    }

    fn try_choose(
        &mut self,
        _game: &Ttt,
        _rng: &mut GameRng,
    ) -> Result<<Ttt as Game>::Move, Box<gamelab_core::Forfeit>> {
        Err(Box::new(gamelab_core::Forfeit {
            reason: "told to stop".into(),
            stops_match: true,
        }))
    }
}

#[test]
fn matches_played_as_one_stream_are_each_what_it_is_alone() {
    let pairs = [("ai14s", "ai2"), ("ai6", "ai12s"), ("ai2", "ai2")];
    for threads in [1, 2, 4] {
        let cfg = MatchConfig {
            games_per_side: 150,
            seed: 3,
            threads,
            opening_plies: 0,
            ..Default::default()
        };
        type Maker = Box<dyn Fn() -> Box<dyn Agent<Ttt>> + Sync>;
        let makers: Vec<[Maker; 2]> = pairs
            .iter()
            .map(|&(a, b)| -> [Maker; 2] {
                [Box::new(move || build(a)), Box::new(move || build(b))]
            })
            .collect();
        let matches: Vec<(&arena::AgentFactory<_>, &arena::AgentFactory<_>)> =
            makers.iter().map(|[a, b]| (&**a, &**b)).collect();
        let live = arena::LiveOptions {
            chunk: 7,
            stop: None,
            keep_games: true,
            chunk_seconds: None,
            in_pairs: false,
        };
        let mut games = Vec::new();
        let played = arena::run_matches_from::<Ttt, _>(
            &matches,
            &cfg,
            &[],
            &live,
            // No chunk spans two matches.
            &|k, c| assert!(c.range.end <= 300, "match {k}: {:?}", c.range),
            &mut |window| {
                games.extend(window);
                true
            },
        );
        let mut expected = Vec::new();
        for (k, &(a, b)) in pairs.iter().enumerate() {
            let (alone, kept) =
                arena::run_match::<Ttt, _>(&|| build(a), &|| build(b), &cfg, &|_| {}, true);
            assert_eq!(played[k], (alone, false), "{a} {b} on {threads}");
            expected.extend(kept.into_iter().map(|g| g.index));
        }
        // Match after match, each in its own order.
        let order: Vec<u64> = games.iter().map(|g| g.index).collect();
        assert_eq!(order, expected, "on {threads}");
    }
    // A match stopped by an agent ends alone: the others play on.
    let cfg = MatchConfig {
        games_per_side: 50,
        threads: 2,
        ..Default::default()
    };
    let stops = || -> Box<dyn Agent<Ttt>> { Box::new(StopsTheMatch) };
    let ai2 = || build("ai2");
    let matches: [(&arena::AgentFactory<_>, &arena::AgentFactory<_>); 3] =
        [(&ai2, &ai2), (&stops, &ai2), (&ai2, &ai2)];
    let live = arena::LiveOptions {
        chunk: 4,
        stop: None,
        keep_games: false,
        chunk_seconds: None,
        in_pairs: false,
    };
    let played =
        arena::run_matches_from::<Ttt, _>(&matches, &cfg, &[], &live, &|_, _| {}, &mut |_| true);
    assert_eq!(played.len(), 3);
    let stopped = played[1].0.stopped_by.as_ref().expect("stopped");
    assert_eq!((stopped.game, stopped.agent), (0, 0));
    assert!(played[1].1);
    assert_eq!(played[1].0.total().games(), 0, "no game before the stop");
    for k in [0, 2] {
        assert_eq!(played[k].0.total().games(), 100);
        assert!(!played[k].1 && played[k].0.stopped_by.is_none());
    }
}
