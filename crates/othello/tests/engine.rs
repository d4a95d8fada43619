//! The Othello engine: perft against the reference table, notation, rules.

use gamelab_core::Analyst;
use gamelab_core::EngineHooks;
use gamelab_core::Notation;
use gamelab_core::{Game, Outcome, Side};
use gamelab_othello::perft::{perft, perft_parallel};
use gamelab_othello::{Move, Othello, OthelloError, Square};

mod common;

fn data(name: &str) -> String {
    let path = format!(
        "{}/../../../shared/data/othello/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// (depth, standard perft) from ../shared/data/othello/perft.txt.
fn reference() -> Vec<(u32, u64)> {
    data("perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            (
                f.next().unwrap().parse().unwrap(),
                f.next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_matches_the_reference_to_depth_9() {
    let start = Othello::new();
    let table = reference();
    assert_eq!(table[11], (12, 1_939_886_636));
    for &(depth, expected) in table.iter().filter(|(d, _)| *d <= 9) {
        assert_eq!(perft(&start, depth), expected, "depth {depth}");
    }
    assert_eq!(perft_parallel(&start, 9), 3_005_288);
}

/// Perft through the `Game` trait (legal_moves/play/undo), against the fast bitboard one.
fn perft_by_game(pos: &mut Othello, depth: u32) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let mut n = 0;
    for mv in Game::legal_moves(pos) {
        let before = pos.board_string();
        pos.play_unchecked(mv);
        n += perft_by_game(pos, depth - 1);
        assert_eq!(pos.undo(), Some(mv));
        assert_eq!(pos.board_string(), before, "undo restores the position");
    }
    n
}

#[test]
fn play_and_undo_agree_with_perft() {
    let mut pos = Othello::new();
    for depth in 1..=6 {
        assert_eq!(
            perft_by_game(&mut pos, depth),
            perft(&pos, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn board_strings_round_trip() {
    let start = Othello::new();
    assert_eq!(
        start.board_string(),
        "---------------------------OX------XO--------------------------- X"
    );
    let back = Othello::from_board_string(&start.board_string()).unwrap();
    assert_eq!(back.key(), start.key());
    // The side may come right after the squares, as some programs write it.
    let attached = start.board_string().replace(' ', "");
    assert_eq!(
        Othello::from_board_string(&attached).unwrap().key(),
        start.key()
    );
    assert!(Othello::from_board_string(&format!("{}Z", "-".repeat(64))).is_err());
    for line in data("ffo1-39.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(5)
    {
        let mut f = line.split_whitespace();
        let _id = f.next();
        let text = format!("{} {}", f.next().unwrap(), f.next().unwrap());
        let pos = Othello::from_board_string(&text).unwrap();
        assert_eq!(pos.board_string(), text);
    }
    for bad in [
        "",
        "XO",
        &format!("{} Z", "-".repeat(64)),
        &"-".repeat(64),
        &format!("{}Q{} X", "-".repeat(10), "-".repeat(53)),
    ] {
        assert!(
            matches!(
                Othello::from_board_string(bad),
                Err(OthelloError::BoardString(_))
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn moves_are_read_and_checked() {
    let pos = Othello::new();
    assert_eq!(
        pos.parse_move("d3"),
        Ok(Move::Place(Square::parse("d3").unwrap()))
    );
    assert_eq!(
        pos.parse_move("F5"),
        Ok(Move::Place(Square::parse("f5").unwrap()))
    );
    let e = pos.parse_move("a1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a1 is not a legal move here; legal: d3 c4 f5 e6"
    );
    assert!(matches!(
        pos.parse_move("pass"),
        Err(OthelloError::CannotPass(_))
    ));
    assert!(matches!(pos.parse_move("z9"), Err(OthelloError::Syntax(_))));
    assert_eq!(Square::parse("h8").unwrap().to_string(), "h8");
    assert_eq!(Square::parse("a1").unwrap().index(), 0);
}

/// A position from its 64 squares (`X`, `O`, `-`), whatever they are.
fn from_chars(board: &[char; 64], black_to_move: bool) -> Othello {
    let bits = |c: char| {
        (0..64)
            .filter(|&i| board[i] == c)
            .fold(0u64, |b, i| b | 1 << i)
    };
    Othello::from_discs(bits('X'), bits('O'), black_to_move)
}

#[test]
fn a_pass_and_the_end_of_a_game() {
    // White to move with no legal square (every disc black but one white in a corner
    // region where it cannot move), black still has moves: white must pass.
    let mut board = ['-'; 64];
    board[0] = 'O'; // a1 white
    board[1] = 'X'; // b1 black
    board[2] = 'X'; // c1 black
    // Not a position a game reaches (no centre discs), which board strings refuse; built
    // from its discs to test the rules alone.
    let mut pos = from_chars(&board, false);
    // white: a1 with black b1 c1 to the east and nothing beyond: d1 is legal for white
    assert_eq!(
        Game::legal_moves(&pos).to_vec(),
        vec![Move::Place(Square::parse("d1").unwrap())]
    );
    pos.play_unchecked(Move::Place(Square::parse("d1").unwrap()));
    // all white now: black has no disc, the game is over
    assert!(pos.is_over());
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::Second)));
    assert!(Game::legal_moves(&pos).is_empty());
    pos.undo();

    let mut only_pass = ['-'; 64];
    only_pass[0] = 'X';
    only_pass[1] = 'O';
    let pos = from_chars(&only_pass, false);
    // white b1 next to black a1 at the edge: white has no move, black has c1
    assert_eq!(Game::legal_moves(&pos).to_vec(), vec![Move::Pass]);
    assert!(matches!(
        pos.parse_move("c1"),
        Err(OthelloError::Illegal { .. })
    ));
    assert_eq!(pos.parse_move("pass"), Ok(Move::Pass));
    let mut after = pos.clone();
    after.play_unchecked(Move::Pass);
    assert!(after.black_to_move());
    assert!(!after.is_over());
}

#[test]
fn symmetric_positions_share_a_canonical_key() {
    let mut a = Othello::new();
    a.play_unchecked(Move::Place(Square::parse("d3").unwrap()));
    let mut b = Othello::new();
    b.play_unchecked(Move::Place(Square::parse("f5").unwrap()));
    assert_ne!(a.key(), b.key());
    assert_eq!(a.canonical_key(), b.canonical_key());
    // the canonical key is the class's; moves map there and back
    assert_eq!(a.canonical().0, b.canonical().0);
    assert_eq!(a.canonical().0, a.canonical_key());
    let c3 = Move::Place(Square::parse("c3").unwrap());
    for sym in 0..8 {
        let there = Othello::map_move(c3, sym, false);
        assert_eq!(Othello::map_move(there, sym, true), c3, "symmetry {sym}");
    }
    // the canonical symmetry carries a's legal moves onto the canonical image's
    let (_, sym) = a.canonical();
    let mapped: Vec<Move> = Game::legal_moves(&a)
        .iter()
        .map(|&m| Othello::map_move(m, sym, false))
        .collect();
    let mut image_moves: Vec<Move> = Game::legal_moves(&b)
        .iter()
        .map(|&m| Othello::map_move(m, b.canonical().1, false))
        .collect();
    let mut mapped_sorted = mapped.clone();
    mapped_sorted.sort();
    image_moves.sort();
    assert_eq!(mapped_sorted, image_moves);
}

/// (id, position, expected score) of the FFO positions in a file.
fn ffo(name: &str) -> Vec<(u32, Othello, i32, String)> {
    gamelab_othello::ffo::parse(&data(name), name)
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.position, p.expected, p.best))
        .collect()
}

#[test]
fn ffo_1_to_20_are_solved_exactly() {
    use gamelab_othello::endgame::Solver;
    for (id, pos, expected, best) in ffo("ffo1-39.txt").into_iter().filter(|(id, ..)| *id <= 20) {
        let mut solver = Solver::default();
        let (score, mv) = solver.solve(&pos);
        assert_eq!(
            score,
            expected,
            "FFO #{id} ({} empties), expected best move {best}",
            pos.empties()
        );
        let mv = mv.expect("a move");
        // the move found scores the optimum too
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let (reply, _) = Solver::default().solve(&after);
        assert_eq!(-reply, expected, "FFO #{id}: {mv} is not a best move");
    }
}

#[test]
fn every_ai_plays_legal_moves_to_the_end() {
    let registry = gamelab_othello::ai::registry();
    for spec in [
        "random",
        "greedy",
        "minimax:depth=2,eval=discs",
        "minimax:depth=1,eval=gain",
        "alphabeta:time=0,depth=2,endgame=8",
    ] {
        let mut agent = registry.build(spec).unwrap();
        let mut pos = Othello::new();
        let mut rng = gamelab_core::game_rng(0, 0, Side::First);
        while !pos.is_over() {
            let mv = agent.choose(&pos, &mut rng);
            pos.check_move(mv).unwrap_or_else(|e| panic!("{spec}: {e}"));
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn greedy_takes_the_most_flips() {
    use gamelab_core::Agent;
    let registry = gamelab_othello::ai::registry();
    // After d3 c3 (black, white) black's moves flip 1 disc except those flipping 2.
    let mut pos = Othello::new();
    pos.play_unchecked(Move::Place(Square::parse("d3").unwrap()));
    pos.play_unchecked(Move::Place(Square::parse("c3").unwrap()));
    let best: Vec<Move> = registry
        .build("greedy")
        .unwrap()
        .analyst()
        .unwrap()
        .policy(&pos)
        .unwrap()
        .moves()
        .collect();
    let most = Game::legal_moves(&pos)
        .iter()
        .map(|m| match m {
            Move::Place(s) => pos.flip_count(*s),
            Move::Pass => 0,
        })
        .max()
        .unwrap();
    assert!(
        best.iter()
            .all(|m| matches!(m, Move::Place(s) if pos.flip_count(*s) == most))
    );
    let err = registry
        .build("alphabeta:time=-1")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("expected a number from 0 to 3600"), "{err}");
}

#[test]
fn wthor_1977_replays() {
    let path = format!(
        "{}/../../../shared/data/othello/wthor/WTH_1977.wtb",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = gamelab_othello::wthor::read(std::path::Path::new(&path)).unwrap();
    assert!(!games.is_empty());
    for g in &games {
        g.replay().unwrap();
    }
    let bytes = std::fs::read(&path).unwrap();
    let mut bad = bytes.clone();
    bad[16 + 8] = 99; // first game's first move byte
    let err = gamelab_othello::wthor::parse(&bad, "x.wtb")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("x.wtb, game 0: move byte 99 is not a square"),
        "{err}"
    );
}

#[test]
fn edax_obf_lines_are_read() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let obf = format!("{ffo1}; G8:+18; H1:+12;");
    let a = Othello::from_board_string(&obf).unwrap();
    assert_eq!(a.board_string(), ffo1);
    assert_eq!(a.empties(), 14);
}

#[test]
fn random_picks_what_uniform_over_the_legal_moves_picks() {
    // The fast random AI reads the legal-move mask directly; it must draw exactly the moves
    // (and the random words) of the plain uniform choice over `legal_moves`.
    struct Plain;
    impl gamelab_core::BestMoves<Othello> for Plain {
        fn best_moves(&mut self, pos: &Othello) -> gamelab_othello::Moves {
            pos.legal_moves()
        }
    }
    use gamelab_core::Agent;
    let mut fast = gamelab_othello::ai::Random;
    let mut plain = gamelab_core::Uniform(Plain);
    for game in 0..300 {
        let mut a = gamelab_core::game_rng(9, game, Side::First);
        let mut b = gamelab_core::game_rng(9, game, Side::First);
        let mut pos = Othello::start();
        while !pos.is_over() {
            let mv = fast.choose(&pos, &mut a);
            assert_eq!(mv, plain.choose(&pos, &mut b), "game {game}\n{pos}");
            pos.play_unchecked(mv);
        }
    }
    let start = Othello::start();
    assert_eq!(fast.policy(&start), plain.policy(&start));
}

#[test]
fn the_playout_loop_plays_the_plain_loops_games() {
    use gamelab_core::arena::check_uniform_playout;
    // Positions along one random game, from the start to the end (passes included).
    let mut pos = Othello::new();
    let mut rng = gamelab_core::game_rng(3, 0, Side::First);
    let mut ply = 0;
    while !pos.is_over() {
        if ply % 6 == 0 {
            check_uniform_playout(&pos, ply, 300).unwrap();
        }
        let moves = Game::legal_moves(&pos);
        pos.play_unchecked(moves[rng.below(moves.len())]);
        ply += 1;
    }
    check_uniform_playout(&pos, 0, 1).unwrap();
    check_uniform_playout(&Othello::new(), 1, 3_000).unwrap();
}

#[test]
fn only_random_is_uniformly_random() {
    let registry = gamelab_othello::ai::registry();
    for entry in registry.entries() {
        // An AI with a required parameter (the outside engine's program) has no default
        // to build.
        if entry.params.iter().any(|p| p.default.is_none()) {
            continue;
        }
        let agent = registry.build(entry.name).unwrap();
        assert_eq!(
            agent.is_uniform_random(),
            entry.name == "random",
            "{}",
            entry.name
        );
    }
}

#[test]
fn the_learned_ordering_changes_no_endgame_score() {
    // FFO #22–#26 (17–20 empties) go through the shallow searches with the learned
    // evaluation and the midgame search's first guess. With the shipped model and with
    // one whose weights are noise, the scores are the file's: the model only changes how
    // fast they are found.
    use gamelab_othello::endgame::Solver;
    let noise = std::sync::Arc::new(common::noise_model(11, 20, 3.0, true));
    let suite = gamelab_othello::ffo::parse(&data("ffo1-39.txt"), "ffo1-39.txt").unwrap();
    for case in suite.iter().filter(|c| (22..=26).contains(&c.id)) {
        assert!(case.position.empties() >= 17);
        let (shipped, _) = Solver::default().solve(&case.position);
        let (noisy, _) = Solver::with_model(noise.clone()).solve(&case.position);
        assert_eq!(
            (shipped, noisy),
            (case.expected, case.expected),
            "FFO #{}",
            case.id
        );
    }
}

#[test]
fn positions_are_read_from_boards_transcripts_and_ggf() {
    use gamelab_core::Notation;
    let mut after = Othello::new();
    for sq in ["f5", "d6", "c3"] {
        after.play_unchecked(Move::Place(Square::parse(sq).unwrap()));
    }
    let want = after.board_string();
    let ggf = "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3];)";
    for text in [want.as_str(), "f5d6c3", "F5 D6 C3", ggf] {
        let mut pos = Othello::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.board_string(), want, "{text}");
        assert_eq!(
            pos.undo(),
            None,
            "{text}: a position read has no moves to undo"
        );
    }
    // A whole game's moves, longer than a board string, and the position after them.
    let long =
        "d3c5c6c7f6e3f3f2f1d6d7e8b5b6a7f4b7a6f5g3d8c4b8g2a4g6g5a5h2h3b3h1c3g4h6c8h4g1f8e2d2e7b4g7";
    let mut played = Othello::new();
    for i in (0..long.len()).step_by(2) {
        played.play_unchecked(Move::Place(Square::parse(&long[i..i + 2]).unwrap()));
    }
    let read = Othello::parse_position(long).unwrap();
    assert_eq!(read.board_string(), played.board_string());
    assert_eq!(read.empties(), 16);
    for (text, error) in [
        ("f5a1", "move transcript"),
        ("(;GM[Othello];)", "GGF game"),
        ("XO", "board string"),
    ] {
        let e = Othello::parse_position(text).unwrap_err().to_string();
        assert!(e.contains(error), "{text}: {e}");
    }
}

#[test]
fn openings_files_take_transcripts() {
    let read =
        gamelab_core::arena::read_openings::<Othello>("f5d6c3\nf5 f6 e6\nF5D6 c3\n", "o.txt")
            .unwrap();
    let text: Vec<String> = read
        .iter()
        .map(|moves| gamelab_othello::transcript::write(moves))
        .collect();
    assert_eq!(text, ["f5d6c3", "f5f6e6", "f5d6c3"]);
    let e = gamelab_core::arena::read_openings::<Othello>("f5a1\n", "o.txt").unwrap_err();
    assert!(e.to_string().contains("move 2 (a1)"), "{e}");
}

#[test]
fn the_engines_move_scores_are_exact_within_its_endgame_reach() {
    use gamelab_core::Agent;
    use gamelab_othello::endgame::Solver;
    // level 4 solves exactly from 10 empties: every move from 11 empties is scored exactly.
    let mut engine = gamelab_othello::ai::registry()
        .build("engine:level=4")
        .unwrap();
    let mut checked = 0;
    for seed in 0..40 {
        let mut pos = Othello::new();
        let mut rng = gamelab_core::game_rng(seed, 0, Side::First);
        while !pos.is_over() && pos.empties() > 11 {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if pos.is_over() {
            continue;
        }
        let scores = engine.analyst().unwrap().move_scores(&pos).unwrap();
        assert_eq!(scores.len(), pos.legal_moves().len());
        for (mv, score) in scores {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let exact = -f64::from(Solver::default().solve(&child).0);
            assert_eq!(score, exact, "seed {seed}: {mv}");
        }
        checked += 1;
    }
    assert!(checked > 30);
}

#[test]
fn a_timed_engine_values_the_position_it_has_just_chosen_in_without_searching_again() {
    use gamelab_core::Agent;
    // FFO #1 (14 empties) is within level 8's exact reach: solved, whatever the clock.
    let (id, pos, expected, _) = ffo("ffo1-39.txt").into_iter().next().unwrap();
    assert!(pos.empties() <= 14, "FFO #{id}");
    let mut engine = gamelab_othello::ai::registry()
        .build("engine:level=8,time=10,threads=1")
        .unwrap();
    let mut rng = gamelab_core::game_rng(0, 0, Side::First);
    engine.choose(&pos, &mut rng);
    let chosen = engine.analyst().unwrap().last_search().unwrap().nodes;
    // What an NBoard `go` asks: the move, then the position's value.
    assert_eq!(
        engine.analyst().unwrap().value(&pos),
        Some(f64::from(expected))
    );
    assert_eq!(
        engine.analyst().unwrap().last_search().unwrap().nodes,
        chosen,
        "searched again"
    );
    // Asked again, a timed engine searches again (its answer may improve); a second solve,
    // its table warm, counts other nodes.
    assert_eq!(
        engine.analyst().unwrap().value(&pos),
        Some(f64::from(expected))
    );
    assert_ne!(
        engine.analyst().unwrap().last_search().unwrap().nodes,
        chosen
    );
}

#[test]
fn the_engines_exact_reach_grows_with_its_level() {
    use gamelab_core::Agent;
    use gamelab_othello::ai::exact_reach;
    let reach: Vec<u32> = [1, 8, 12, 16, 17, 18, 20, 24, 28, 30]
        .into_iter()
        .map(|level| exact_reach(level, None))
        .collect();
    assert_eq!(reach, [7, 14, 18, 22, 22, 23, 24, 26, 28, 30]);
    // With a clock, a solve is tried where one most often ends in a move's time.
    let seconds = std::time::Duration::from_secs_f64;
    assert_eq!(exact_reach(8, Some(seconds(100.0))), 14);
    let timed: Vec<u32> = [
        0.0, 0.024, 0.025, 0.079, 0.08, 0.29, 0.3, 0.99, 1.0, 5.9, 6.0, 29.0, 30.0, 3600.0,
    ]
    .into_iter()
    .map(|t| exact_reach(30, Some(seconds(t))))
    .collect();
    assert_eq!(
        timed,
        [14, 14, 16, 16, 18, 18, 20, 20, 22, 22, 24, 24, 26, 26]
    );
    // FFO #40: 20 empties, +38 by a2. Level 14 solves it, and so it does with 30 s a
    // move (a solve of a second at most, long before the time is up); with 0.2 s it
    // does not try (0.2 s reaches 18 empties), whatever the machine.
    let ffo40 = ffo("ffo40-59.txt").into_iter().next().unwrap();
    let (40, pos, 38, _) = ffo40 else {
        panic!("FFO #40 is not the first of its file")
    };
    let mut rng = gamelab_core::game_rng(0, 0, Side::First);
    for (spec, exact) in [
        ("engine:level=14,threads=1", true),
        ("engine:level=14,time=0.2,threads=1", false),
        ("engine:level=14,time=30,threads=1", true),
    ] {
        let mut engine = gamelab_othello::ai::registry().build(spec).unwrap();
        let mv = engine.choose(&pos, &mut rng);
        let search = engine.analyst().unwrap().last_search().unwrap();
        assert_eq!(search.exact, exact, "{spec}");
        if exact {
            assert_eq!(mv.to_string(), "a2");
            assert_eq!(engine.analyst().unwrap().value(&pos), Some(38.0));
        }
    }
    // A game clock's share for the move works as a spec's time, never lengthens it, and
    // lifted, gives the level its reach back.
    for (spec, share, exact) in [
        ("engine:level=14,threads=1", Some(0.2), false),
        ("engine:level=14,threads=1", None, true),
        ("engine:level=14,time=0.2,threads=1", Some(5.0), false),
        ("engine:level=14,time=30,threads=1", None, true),
    ] {
        let mut engine = gamelab_othello::ai::registry().build(spec).unwrap();
        assert!(engine.set_move_time(Some(seconds(0.5))));
        assert!(engine.set_move_time(share.map(seconds)));
        engine.choose(&pos, &mut rng);
        assert_eq!(
            engine.analyst().unwrap().last_search().unwrap().exact,
            exact,
            "{spec} {share:?}"
        );
    }
}

#[test]
fn on_a_game_clock_an_unsettled_move_may_take_up_to_three_shares() {
    use gamelab_core::Agent;
    use gamelab_core::clock::TimeControl;
    use gamelab_othello::ai::Engine;
    use gamelab_othello::learned::shipped;
    use std::time::Duration;
    let s = Duration::from_secs_f64;
    let clock = |left: f64, stones: u32| {
        let control = TimeControl::Canadian {
            main: s(left),
            period: s(10.0),
            stones,
        };
        let mut clock = control.start().unwrap();
        if stones > 0 {
            // In the byo-yomi period: 10 s for the next `stones` moves.
            clock.set(s(10.0), stones);
        }
        clock
    };
    let mut engine = Engine::new(shipped(), 30, None);
    // 60 s left, a share of 1 s: three shares, within a fifth of what is left.
    engine.set_move_time(Some(s(1.0)));
    engine.tell_clock(&clock(60.0, 0));
    assert_eq!(engine.limits.time, Some(s(1.0)));
    assert_eq!(engine.limits.unsettled, Some(s(3.0)));
    // 10 s left: a fifth of it less the reserve, (10 - 0.5) / 5.
    engine.set_move_time(Some(s(1.0)));
    engine.tell_clock(&clock(10.0, 0));
    assert_eq!(engine.limits.unsettled, Some(s(1.9)));
    // In a byo-yomi period every move must fit in it: the share.
    engine.set_move_time(Some(s(1.0)));
    engine.tell_clock(&clock(0.0, 5));
    assert_eq!(engine.limits.unsettled, Some(s(1.0)));
    // Off the clock, no allowance.
    engine.set_move_time(None);
    assert_eq!(engine.limits.unsettled, None);
    // A spec's own time is never exceeded.
    let mut engine = Engine::new(shipped(), 30, Some(s(0.5)));
    engine.set_move_time(Some(s(1.0)));
    engine.tell_clock(&clock(60.0, 0));
    assert_eq!(engine.limits.time, Some(s(0.5)));
    assert_eq!(engine.limits.unsettled, Some(s(0.5)));
}

#[test]
fn a_timed_solve_that_cannot_end_in_time_gives_way_to_a_midgame_move() {
    use gamelab_othello::learned::shipped;
    use gamelab_othello::search::{Limits, Searcher};
    use std::time::Duration;
    let mut searcher = Searcher::new(shipped());
    searcher.set_threads(1);
    // FFO #1, 14 empties: solved long before its time is up, and the answer comes then.
    let (_, pos, expected, _) = ffo("ffo1-39.txt").into_iter().next().unwrap();
    let limits = Limits {
        depth: 30,
        exact: 30,
        time: Some(Duration::from_secs(600)),
        unsettled: None,
    };
    let r = searcher.search(&pos, limits);
    assert!(r.exact);
    assert_eq!(r.score, f64::from(expected));
    // Not a speed check: a search that waited for its time would take ten minutes.
    assert!(r.elapsed < Duration::from_secs(300), "{:?}", r.elapsed);
    // Beyond this search's exact reach (10 empties), its midgame search reaches the end of
    // FFO #1 long before a minute is up, and goes on to solve it.
    let beyond = Limits {
        exact: 10,
        ..limits
    };
    let r = searcher.search(&pos, beyond);
    assert!(r.exact);
    assert_eq!(r.score, f64::from(expected));
    // At depth 8 it does not reach the end, and stops there.
    let r = searcher.search(&pos, Limits { depth: 8, ..beyond });
    assert!(!r.exact);
    assert_eq!(r.depth, 8);
    // 28 empties: a solve of minutes, stopped after a tenth of a second; the move is the
    // midgame search's, as deep as level 22 would search before solving.
    let mut pos = Othello::new();
    while pos.empties() > 28 {
        let mv = searcher.search(&pos, Limits::to_depth(2)).best;
        pos.play_unchecked(mv);
    }
    assert!(!pos.must_pass());
    assert_eq!(pos.empties(), 28);
    let limits = Limits {
        time: Some(Duration::from_millis(100)),
        ..limits
    };
    let r = searcher.search(&pos, limits);
    assert!(!r.exact);
    assert!(r.depth >= 1 && r.depth <= 22, "{}", r.depth);
    assert!(pos.legal_moves().contains(&r.best));
    // Not a speed check: unstopped, this solve runs for many minutes on any machine.
    assert!(r.elapsed < Duration::from_secs(60), "{:?}", r.elapsed);
}

#[test]
fn alphabeta_plays_in_the_endgame_what_a_new_solver_finds() {
    use gamelab_core::Agent;
    use gamelab_othello::endgame::Solver;
    // Its solver, kept from move to move, returns the first best move in its order,
    // whatever its table holds from the positions before.
    let mut agent = gamelab_othello::ai::registry()
        .build("alphabeta:time=0,depth=2")
        .unwrap();
    let mut rng = gamelab_core::game_rng(0, 0, Side::First);
    let mut checked = 0;
    for seed in 0..60 {
        let mut pos = Othello::new();
        let mut draw = gamelab_core::game_rng(seed, 1, Side::First);
        while !pos.is_over() && pos.empties() > 4 + (seed % 11) as u32 {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[draw.below(moves.len())]);
        }
        if pos.is_over() || pos.legal_moves().len() < 2 {
            continue;
        }
        let fresh = Solver::default().solve(&pos).1.unwrap();
        assert_eq!(agent.choose(&pos, &mut rng), fresh, "seed {seed}\n{pos}");
        // Again, its table full of this very position's bounds.
        assert_eq!(
            agent.choose(&pos, &mut rng),
            fresh,
            "seed {seed} again\n{pos}"
        );
        checked += 1;
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn the_engine_plays_from_its_book_while_the_position_is_in_it() {
    use gamelab_core::Agent;
    let registry = gamelab_othello::ai::registry();
    let mut with = registry.build("engine:level=2,book=shipped").unwrap();
    let mut without = registry.build("engine:level=2").unwrap();
    let mut rng = gamelab_core::game_rng(0, 0, Side::First);
    let mut pos = Othello::new();
    let line = gamelab_othello::book::shipped()
        .probe(&pos)
        .expect("the start is in the book")
        .line;
    let book = gamelab_othello::book::shipped();
    for &mv in &line {
        // Asked for a value, it searches (its neighbours' values are searched too); right
        // after a book move, the book's value.
        assert_eq!(
            with.analyst().unwrap().value(&pos),
            without.analyst().unwrap().value(&pos)
        );
        assert_eq!(with.choose(&pos, &mut rng), mv);
        assert_eq!(with.analyst().unwrap().last_search().unwrap().nodes, 0);
        assert_eq!(
            with.analyst().unwrap().value(&pos),
            Some(book.probe(&pos).unwrap().value)
        );
        let said = with.analyst().unwrap().explain(&pos).unwrap();
        assert!(said.starts_with("book: "), "{said}");
        without.choose(&pos, &mut rng);
        assert!(without.analyst().unwrap().last_search().unwrap().nodes > 0);
        pos.play_unchecked(mv);
    }
    // The line's last move leaves the book: from there the engine searches.
    with.choose(&pos, &mut rng);
    assert!(with.analyst().unwrap().last_search().unwrap().nodes > 0);
    // A level as deep as the book's searches (14 for the shipped one) searches from the
    // first move; one below plays from the book.
    let start = Othello::new();
    for (level, from_book) in [(13, true), (14, false), (16, false)] {
        let mut engine = registry
            .build(&format!("engine:level={level},threads=1,book=shipped"))
            .unwrap();
        let first = engine.choose(&start, &mut rng);
        assert!(!from_book || first == line[0], "level {level}: {first}");
        let nodes = engine.analyst().unwrap().last_search().unwrap().nodes;
        assert_eq!(nodes == 0, from_book, "level {level}: {nodes} nodes");
    }
    let refused = |spec: &str, message: &str| {
        let e = registry.build(spec).err().expect("refused").to_string();
        assert!(e.contains(message), "{spec}: {e}");
    };
    refused("engine:book=/no/such/book", "/no/such/book");
    let dir = tempfile::tempdir().unwrap();
    let not_a_book = dir.path().join("model.glopat");
    std::fs::write(&not_a_book, b"GLOPAT1\n and the rest").unwrap();
    refused(
        &format!("engine:book={}", not_a_book.display()),
        "not an opening book",
    );
}

#[test]
fn a_deepening_analysis_goes_level_by_level_to_the_exact_values() {
    use gamelab_core::{Agent, DeepeningEnd};
    use gamelab_othello::endgame::Solver;
    use std::ops::ControlFlow;
    let mut engine = gamelab_othello::ai::registry()
        .build("engine:level=4,threads=1")
        .unwrap();
    for seed in 0..6 {
        let mut pos = Othello::new();
        let mut rng = gamelab_core::game_rng(seed, 0, Side::First);
        while !pos.is_over() && pos.empties() > 14 {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        let mut levels = Vec::new();
        let mut last = None;
        let end = engine
            .analyst()
            .unwrap()
            .deepen_move_scores(&pos, &mut |step| {
                levels.push(step.level.unwrap());
                last = Some(step.clone());
                ControlFlow::Continue(())
            });
        // The children's 13 empties are within level 7's exact reach (level + 6).
        assert_eq!(end, Some(DeepeningEnd::Exact), "seed {seed}");
        assert_eq!(levels, (1..=7).collect::<Vec<_>>(), "seed {seed}");
        let last = last.unwrap();
        assert_eq!(last.scores.len(), pos.legal_moves().len());
        assert!(last.nodes.unwrap() > 0);
        for s in &last.scores {
            let mut child = pos.clone();
            child.play_unchecked(s.mv);
            assert!(s.exact, "seed {seed}: {}", s.mv);
            assert_eq!(s.score, -f64::from(Solver::default().solve(&child).0));
            assert_eq!(s.line[0], s.mv);
            // The line is legal from the position, as far as it goes.
            let mut line = pos.clone();
            for &mv in &s.line {
                line.play(mv).unwrap();
            }
        }
    }
}

#[test]
fn a_deepening_analysis_ends_when_asked_when_stopped_and_at_its_time() {
    use gamelab_core::{Agent, DeepeningEnd, StopFlag};
    use std::ops::ControlFlow;
    use std::sync::atomic::Ordering;
    let registry = gamelab_othello::ai::registry();
    let start = Othello::new();
    // A report that wants three levels.
    let mut engine = registry.build("engine:threads=1").unwrap();
    let mut levels = Vec::new();
    let end = engine
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            assert_eq!(step.scores.len(), 4);
            assert!(step.scores.iter().all(|s| !s.exact));
            levels.push(step.level.unwrap());
            if levels.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    assert_eq!(end, Some(DeepeningEnd::Declined));
    assert_eq!(levels, [1, 2, 3]);
    // However short its time, its first level values every move.
    let mut hurried = registry.build("engine:time=0.000001,threads=1").unwrap();
    let mut first = None;
    let end = hurried
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            first.get_or_insert_with(|| step.clone());
            ControlFlow::Continue(())
        });
    assert_eq!(end, Some(DeepeningEnd::Stopped));
    let first = first.expect("a first level");
    assert_eq!(first.level, Some(1));
    assert!(first.scores.iter().all(|s| s.level == Some(1)));
    assert_eq!(first.scores.len(), 4);
    // Its own time (the start is far from exact at any level it can reach in 0.3 s).
    let mut timed = registry.build("engine:time=0.3,threads=1").unwrap();
    let began = std::time::Instant::now();
    let mut steps = Vec::new();
    let end = timed
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            steps.push(step.clone());
            ControlFlow::Continue(())
        });
    assert_eq!(end, Some(DeepeningEnd::Stopped));
    // The first level is always valued whole, however short the time.
    assert!(!steps.is_empty());
    // Not a speed check: unstopped, it would deepen for hours.
    assert!(began.elapsed() < std::time::Duration::from_secs(60));
    // Each level values every move at it; a last step cut short by the time repeats the
    // level before with the moves the next had valued, the best of the level before.
    let (last, done) = steps.split_last().unwrap();
    for step in done {
        assert!(step.scores.iter().all(|s| s.level == step.level));
    }
    let deeper: Vec<Move> = last
        .scores
        .iter()
        .filter(|s| s.level > last.level)
        .map(|s| s.mv)
        .collect();
    if deeper.is_empty() {
        assert!(last.scores.iter().all(|s| s.level == last.level));
    } else {
        let before = done.last().expect("a level done before");
        assert_eq!(before.level, last.level);
        let next = last.level.map(|l| l + 1);
        assert!(
            last.scores
                .iter()
                .all(|s| s.level == last.level || s.level == next)
        );
        let mut ranked = before.scores.clone();
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
        let best: Vec<Move> = ranked[..deeper.len()].iter().map(|s| s.mv).collect();
        let mut deeper = deeper;
        deeper.sort_by_key(|m| ranked.iter().position(|s| s.mv == *m));
        assert_eq!(deeper, best, "the best of the level before first");
    }
    // A stop flag raised from outside, as a page that went away raises it; the level under
    // way is dropped, and the flag is the engine's again afterwards.
    let stop = StopFlag::default();
    let mut engine = registry.build("engine:threads=1").unwrap();
    engine.set_stop(&stop);
    let raise = stop.clone();
    let end = engine
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            if step.level == Some(4) {
                raise.store(true, Ordering::Relaxed);
            }
            ControlFlow::Continue(())
        });
    assert_eq!(end, Some(DeepeningEnd::Stopped));
    stop.store(false, Ordering::Relaxed);
    assert!(engine.analyst().unwrap().move_scores(&start).is_some());
    // An AI that values moves once: one step, without a level.
    let mut minimax = registry.build("minimax:depth=2").unwrap();
    let mut steps = Vec::new();
    let end = minimax
        .analyst()
        .unwrap()
        .deepen_move_scores(&start, &mut |step| {
            steps.push(step.clone());
            ControlFlow::Continue(())
        });
    assert_eq!(end, Some(DeepeningEnd::Deepest));
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].level, None);
    assert_eq!(steps[0].scores.len(), 4);
    assert!(
        registry
            .build("random")
            .unwrap()
            .analyst()
            .unwrap()
            .deepen_move_scores(&start, &mut |_| ControlFlow::Continue(()))
            .is_none()
    );
}

/// Issue 65, item 3: a time limit alone lifts the depth limit (`engine:time=0.5` used to
/// stop at level 8 with most of its time unspent); a level given with it still caps it;
/// `gamelab ais` and the page, which show the parameters' help, say so.
#[test]
fn a_time_limit_alone_lifts_the_level() {
    use gamelab_othello::ai::{DEFAULT_LEVEL, MAX_LEVEL, engine_level};
    let half_second = Some(std::time::Duration::from_millis(500));
    assert_eq!(engine_level(None, half_second), MAX_LEVEL);
    assert_eq!(engine_level(None, None), DEFAULT_LEVEL);
    assert_eq!(engine_level(Some(5), half_second), 5);
    assert_eq!(engine_level(Some(12), None), 12);
    let registry = gamelab_othello::ai::registry();
    let engine = registry.find("engine").unwrap();
    let help = |name: &str| engine.params.iter().find(|p| p.name == name).unwrap().help;
    assert!(help("time").contains("as deep as the time allows when no level is given"));
    assert!(help("level").contains("with `time` and no level: up to 30"));
    // A book given to an engine with a time alone is played from, as at the default
    // level; a level as deep as the book's searches still searches.
    let (_, after_f5) = gamelab_othello::transcript::parse("f5").unwrap();
    let mut rng = gamelab_core::game_rng(0, 0, Side::Second);
    for (spec, from_book) in [
        ("engine:time=0.05,threads=1,book=shipped", true),
        ("engine:level=16,time=0.05,threads=1,book=shipped", false),
    ] {
        let mut engine = registry.build(spec).unwrap();
        engine.choose(&after_f5, &mut rng);
        let search = engine.analyst().unwrap().last_search().unwrap();
        assert_eq!(search.book_games.is_some(), from_book, "{spec}");
    }
}

/// Each level's best (move, value) and its steps' moves and lines, of the engine's
/// deepening of `pos` to `deepest`: every move's values, or with `lines` the best lines.
type Levels = Vec<(Vec<(Move, f64, bool)>, Vec<Vec<Move>>, u64)>;

fn deepening(pos: &Othello, lines: Option<usize>, deepest: u32) -> Levels {
    use gamelab_core::Agent;
    use std::ops::ControlFlow;
    let mut engine = gamelab_othello::ai::registry()
        .build("engine:threads=1")
        .unwrap();
    let analyst = engine.analyst().unwrap();
    let mut levels = Levels::new();
    let mut report = |step: &gamelab_core::Deepening<Move>| {
        let best = step.best(step.scores.len());
        levels.push((
            best.scores
                .iter()
                .map(|s| (s.mv, s.score, s.exact))
                .collect(),
            best.scores.iter().map(|s| s.line.clone()).collect(),
            step.nodes.unwrap(),
        ));
        if step.level.unwrap() >= deepest {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    match lines {
        Some(count) => analyst.deepen_lines(pos, count, &mut report),
        None => analyst.deepen_move_scores(pos, &mut report),
    };
    levels
}

#[test]
fn the_best_lines_agree_with_the_analysis_of_every_move_for_fewer_positions() {
    for seed in 0..3 {
        let mut pos = Othello::new();
        let mut rng = gamelab_core::game_rng(seed, 0, Side::First);
        while pos.empties() > 40 {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        let every = deepening(&pos, None, 8);
        for count in [1, 3] {
            let lines = deepening(&pos, Some(count), 8);
            assert_eq!(lines.len(), every.len(), "seed {seed}");
            for (level, (got, want)) in lines.iter().zip(&every).enumerate() {
                let moves = &got.0;
                assert_eq!(moves.len(), count.min(want.0.len()), "seed {seed}");
                // The best line is the best move at every level, or one tied with it (two
                // orders of the same moves reach one position). Its value is the same
                // search's, bounded differently on a table that holds other entries,
                // which can move an estimate a little (never an exact value: below).
                let (best, wanted) = (moves[0], want.0[0]);
                let tied = want.0.iter().any(|m| m.0 == best.0 && m.1 == wanted.1);
                assert!(
                    best.0 == wanted.0 || tied,
                    "seed {seed}, level {}: {got:?} against {want:?}",
                    level + 1
                );
                assert!(
                    (best.1 - wanted.1).abs() <= 1.0,
                    "seed {seed}, level {}: {best:?} against {wanted:?}",
                    level + 1
                );
                // Best first, each line legal from the position.
                assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));
                for (line, &(mv, ..)) in got.1.iter().zip(moves) {
                    assert_eq!(line[0], mv);
                    let mut after = pos.clone();
                    for &m in line {
                        after.play(m).unwrap();
                    }
                }
            }
            let (searched_lines, searched_every) =
                (lines.last().unwrap().2, every.last().unwrap().2);
            assert!(
                searched_lines < searched_every,
                "seed {seed}, {count} lines: {searched_lines} positions against {searched_every}"
            );
        }
    }
}

#[test]
fn the_best_lines_near_the_end_are_the_exact_best_moves() {
    let mut pos = Othello::new();
    let mut rng = gamelab_core::game_rng(7, 0, Side::First);
    while !pos.is_over() && pos.empties() > 14 {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    let every = deepening(&pos, None, 30);
    let lines = deepening(&pos, Some(2), 30);
    let solved = &every.last().unwrap().0;
    assert!(solved.iter().all(|&(.., exact)| exact));
    // The best two values exactly, of moves that have them (equals in either order).
    let best = &lines.last().unwrap().0;
    let values = |v: &[(Move, f64, bool)]| v.iter().map(|&(_, s, e)| (s, e)).collect::<Vec<_>>();
    assert_eq!(values(best), values(&solved[..2]));
    assert!(best.iter().all(|line| solved.contains(line)));
}

#[test]
fn the_evaluation_error_is_measured_against_exact_scores_stage_by_stage() {
    use gamelab_othello::accuracy::{evaluation_error, sample_positions, solve_all, write_suite};
    let games = gamelab_othello::wthor::read(std::path::Path::new(&format!(
        "{}/../../../shared/data/othello/wthor/WTH_2021.wtb",
        env!("CARGO_MANIFEST_DIR")
    )))
    .unwrap();
    // The same seed, the same positions; each of them at 7 or 8 empty squares.
    let boards = |seed| -> Vec<String> {
        sample_positions(&games, 7..=8, 30, 1, seed)
            .iter()
            .map(Othello::board_string)
            .collect()
    };
    let positions = sample_positions(&games, 7..=8, 30, 1, 5);
    assert_eq!(boards(5), boards(5));
    assert_ne!(boards(5), boards(6));
    assert_eq!(positions.len(), 30);
    assert!(positions.iter().all(|p| (7..=8).contains(&p.empties())));
    let solved = solve_all(&positions, &|| {});
    // Written as an FFO suite, read back the same.
    let text = write_suite(&solved, "a test");
    let read = gamelab_othello::ffo::parse(&text, "suite").unwrap();
    assert_eq!(read.len(), 30);
    for (a, b) in read.iter().zip(&solved) {
        assert_eq!(
            (a.position.board_string(), a.expected, &a.best),
            (b.position.board_string(), b.expected, &b.best)
        );
    }
    let model = gamelab_othello::learned::shipped();
    let table = evaluation_error(&model, &solved, &[0, 2, 8], &|| {});
    // Stages 13 (7-8 empties) only, then every position together.
    let all = table.last().unwrap();
    assert_eq!((all.stage, all.positions), (usize::MAX, 30));
    assert_eq!(
        table[..table.len() - 1]
            .iter()
            .map(|r| r.positions)
            .sum::<usize>(),
        30
    );
    // The static evaluation errs by discs; a search that sees (nearly) to the end, much
    // less (not nothing: a pass lengthens a game past its empty squares, and ProbCut cuts).
    assert!(all.mae[0] > 2.0, "{all:?}");
    assert!(all.mae[2] < all.mae[0] / 2.0, "{all:?}");
    assert!(all.mae.iter().zip(&all.bias).all(|(m, b)| b.abs() <= *m));
}
