//! The exact solver on several threads: the same scores and moves as on one, and a stop
//! that ends it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use gamelab_core::{Game, Side, StopFlag};
use gamelab_othello::endgame::Solver;
use gamelab_othello::{Move, Othello};

fn data(name: &str) -> String {
    let path = format!(
        "{}/../../../shared/data/othello/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn solve(pos: &Othello, threads: usize) -> (i32, Option<Move>) {
    let mut solver = Solver::default();
    solver.set_threads(threads);
    solver.solve(pos)
}

/// Every move of `pos` that reaches its exact score, found by solving each on one thread.
fn best_moves(pos: &Othello, score: i32) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            -solve(&after, 1).0 == score
        })
        .collect()
}

/// Solves `pos` on 1, 2 and 4 threads: the same score and the same move each time, one
/// of the best.
fn agree_on_threads(pos: &Othello, what: &str) -> i32 {
    let (score, first) = solve(pos, 1);
    let best = best_moves(pos, score);
    for threads in [1, 2, 4] {
        let (s, mv) = solve(pos, threads);
        assert_eq!(s, score, "{what} on {threads} threads");
        assert_eq!(mv, first, "{what} on {threads} threads");
        let mv = mv.expect("a position still in play has a move");
        assert!(
            best.contains(&mv),
            "{what} on {threads} threads: {mv} is not among the best {best:?}"
        );
    }
    score
}

#[test]
fn ffo_1_to_20_on_one_two_and_four_threads() {
    for p in gamelab_othello::ffo::parse(&data("ffo1-39.txt"), "ffo1-39.txt").unwrap() {
        if p.id <= 20 {
            let score = agree_on_threads(&p.position, &format!("FFO #{}", p.id));
            assert_eq!(score, p.expected, "FFO #{}", p.id);
        }
    }
}

/// `games` random positions from `seed`, with `empties.start`, `+ 1`, … empties in turn
/// (a game that ends sooner is skipped), each solved on 1, 2 and 4 threads.
fn agree_on_random_positions(seed: u64, games: u64, empties: std::ops::Range<u32>) {
    let span = u64::from(empties.end - empties.start);
    for game in 0..games {
        let mut rng = gamelab_core::game_rng(seed, game, Side::First);
        let target = empties.start + (game % span) as u32;
        let mut pos = Othello::new();
        while pos.empties() > target && !pos.is_over() {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if !pos.is_over() {
            agree_on_threads(&pos, &format!("random position {game}\n{pos}"));
        }
    }
}

#[test]
fn random_positions_with_12_to_16_empties_on_one_two_and_four_threads() {
    agree_on_random_positions(17, 200, 12..17);
}

#[test]
fn random_positions_with_17_to_19_empties_split_inside_the_tree() {
    // Nodes split from 16 empties down (the root at any number): only positions above
    // that put splits, and cut-offs reaching into them, below the root.
    agree_on_random_positions(23, 9, 17..20);
}

/// FFO #45 (24 empties): seconds of work on any number of threads.
fn long_solve() -> Othello {
    gamelab_othello::ffo::parse(&data("ffo40-59.txt"), "ffo40-59.txt")
        .unwrap()
        .into_iter()
        .find(|p| p.id == 45)
        .expect("FFO #45")
        .position
}

/// A midgame position of 32 empties: a solve of hours on any machine, so that when the
/// stop comes does not matter.
fn endless_solve() -> Othello {
    let mut pos = Othello::new();
    while pos.empties() > 32 {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[moves.len() / 2]);
    }
    pos
}

#[test]
fn a_raised_stop_ends_the_solve_without_a_result() {
    let pos = endless_solve();
    for threads in [1, 2] {
        let mut solver = Solver::default();
        solver.set_threads(threads);
        let stop = StopFlag::new(AtomicBool::new(false));
        let raise = stop.clone();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            raise.store(true, Ordering::Relaxed);
        });
        // A result would mean the stop was missed.
        assert_eq!(
            solver.solve_until(&pos, Some(&stop)),
            None,
            "{threads} threads"
        );
        raiser.join().unwrap();
    }
    let raised = StopFlag::new(AtomicBool::new(true));
    assert_eq!(Solver::default().solve_until(&pos, Some(&raised)), None);
}

#[test]
fn a_stop_never_raised_changes_nothing() {
    let pos = long_solve();
    let mut near = pos.clone();
    // 16 empties: quick, with the midgame guess and the table in play.
    while near.empties() > 16 {
        let moves = near.legal_moves();
        near.play_unchecked(moves[0]);
    }
    let stop = StopFlag::new(AtomicBool::new(false));
    let mut solver = Solver::default();
    solver.set_threads(2);
    let (score, _) = solver.solve_until(&near, Some(&stop)).expect("not stopped");
    assert_eq!(score, solve(&near, 1).0);
}

#[test]
fn the_engine_plays_the_same_endgame_on_any_number_of_threads() {
    use gamelab_core::Agent;
    let registry = gamelab_othello::ai::registry();
    // Level 6 is exact from 12 empties: whole games, their endgames on 1 and 2 threads.
    for game in 0..6 {
        let mut one = registry.build("engine:level=6").unwrap();
        let mut two = registry.build("engine:level=6,threads=2").unwrap();
        let mut rng = gamelab_core::game_rng(5, game, Side::First);
        let mut pos = Othello::new();
        for _ in 0..8 {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        while !pos.is_over() {
            let mv = one.choose(&pos, &mut rng);
            assert_eq!(two.choose(&pos, &mut rng), mv, "game {game}\n{pos}");
            assert_eq!(
                two.analyst().unwrap().value(&pos),
                one.analyst().unwrap().value(&pos),
                "game {game}\n{pos}"
            );
            pos.play_unchecked(mv);
        }
    }
    assert!(registry.build("engine:threads=0").is_ok(), "every core");
    assert!(registry.build("engine:threads=257").is_err());
}

/// Notes whether it was ever asked for a move outside a match's games.
struct Probe(std::sync::Arc<AtomicBool>);

impl gamelab_core::Agent<Othello> for Probe {
    fn choose(&mut self, pos: &Othello, _rng: &mut gamelab_core::GameRng) -> Move {
        if !gamelab_core::arena::inside_match() {
            self.0.store(true, Ordering::Relaxed);
        }
        pos.legal_moves()[0]
    }
}

#[test]
fn agents_know_when_they_play_inside_a_match() {
    // An engine left to choose its threads (threads=0) takes one there.
    assert!(!gamelab_core::arena::inside_match());
    for threads in [1, 2] {
        let outside = std::sync::Arc::new(AtomicBool::new(false));
        let make = || Probe(outside.clone());
        let cfg = gamelab_core::arena::MatchConfig {
            games_per_side: 3,
            seed: 0,
            threads,
            opening_plies: 0,
            ..Default::default()
        };
        let (result, _) =
            gamelab_core::arena::run_match::<Othello, Probe>(&make, &make, &cfg, &|_| {}, false);
        assert_eq!(result.total().games(), 6);
        assert!(!outside.load(Ordering::Relaxed), "{threads} threads");
    }
    assert!(
        !gamelab_core::arena::inside_match(),
        "not after the match either"
    );
}

#[test]
fn a_forced_pass_at_the_root_is_solved_on_any_number_of_threads() {
    let mut found = 0;
    for game in 0..3000 {
        let mut rng = gamelab_core::game_rng(29, game, Side::First);
        let mut pos = Othello::new();
        while !pos.is_over() && found < 5 {
            let moves = pos.legal_moves();
            if moves[..] == [Move::Pass] && (8..=20).contains(&pos.empties()) {
                found += 1;
                let (score, mv) = solve(&pos, 1);
                assert_eq!(mv, Some(Move::Pass));
                assert_eq!(solve(&pos, 2), (score, Some(Move::Pass)), "{pos}");
                let mut after = pos.clone();
                after.play_unchecked(Move::Pass);
                assert_eq!(-solve(&after, 2).0, score, "{pos}");
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(found >= 5, "only {found} forced passes found");
}
