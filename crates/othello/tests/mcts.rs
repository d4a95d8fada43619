//! Monte Carlo tree search (gamelab-core's `mcts`) on Othello: proven results agree with
//! the exact solver, and it beats the greedy player.

use gamelab_core::mcts::Proven;
use gamelab_core::{Agent, Game, Outcome, Side, game_rng};
use gamelab_othello::endgame::Solver;
use gamelab_othello::{Move, Othello};

fn agent(spec: &str) -> Box<dyn Agent<Othello>> {
    gamelab_othello::ai::registry()
        .build(spec)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// A position with `empties` empty squares from a random game of seed `seed`, or `None`
/// when that game ended first.
fn random_position(seed: u64, empties: u32) -> Option<Othello> {
    let mut pos = Othello::new();
    let mut rng = game_rng(seed, 0, Side::First);
    while !pos.is_over() {
        if 64 - (pos.black() | pos.white()).count_ones() == empties {
            return Some(pos);
        }
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    None
}

/// The exact score of `mv` in `pos` for the side that plays it.
fn score_of(pos: &Othello, mv: Move) -> i32 {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    -Solver::default().solve(&after).0
}

#[test]
fn proven_moves_agree_with_the_solver_and_forced_wins_are_taken() {
    let mut mcts = agent("mcts:iterations=200000");
    let mut checked = 0;
    for seed in 0..60 {
        let Some(pos) = random_position(seed, 7) else {
            continue;
        };
        if pos.legal_moves().len() < 2 {
            continue;
        }
        let best = Solver::default().solve(&pos).0;
        let stats = mcts.analyst().unwrap().move_stats(&pos).unwrap();
        // The search ends once the root is proven: by a win, or by every move.
        let root_proven = stats.iter().any(|s| s.proven == Some(Proven::Win))
            || stats.iter().all(|s| s.proven.is_some());
        assert!(
            root_proven,
            "seed {seed}: 7 empties not proven within the budget"
        );
        for s in &stats {
            let exact = score_of(&pos, s.mv);
            let Some(proven) = s.proven else {
                continue;
            };
            let expected = match exact.signum() {
                1 => Proven::Win,
                0 => Proven::Draw,
                _ => Proven::Loss,
            };
            assert_eq!(proven, expected, "seed {seed}: {} scores {exact}", s.mv);
        }
        let mv = mcts.choose(&pos, &mut game_rng(0, 0, Side::First));
        assert_eq!(
            score_of(&pos, mv).signum(),
            best.signum(),
            "seed {seed}: plays {mv}, the position scores {best}"
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} positions");
}

#[test]
fn beats_the_greedy_player() {
    // Othello's defaults: roulette playouts steering the tree.
    beats_greedy("mcts:iterations=1000");
    beats_greedy("mcts:iterations=1000,playout=uniform,prior=no,c=0.7");
}

fn beats_greedy(spec: &str) {
    let mut mcts = agent(spec);
    let mut greedy = agent("greedy");
    let (mut wins, mut games) = (0, 0);
    for seed in 0..8 {
        let opening = random_position(seed, 54).expect("an opening of 6 plies");
        for mcts_side in Side::BOTH {
            let mut pos = opening.clone();
            let mut rng = game_rng(seed, 0, Side::First);
            while !pos.is_over() {
                let mover: &mut dyn Agent<Othello> = if pos.to_move() == mcts_side {
                    &mut *mcts
                } else {
                    &mut *greedy
                };
                let mv = mover.choose(&pos, &mut rng);
                pos.play(mv).unwrap();
            }
            games += 1;
            wins += usize::from(pos.outcome() == Some(Outcome::Win(mcts_side)));
        }
    }
    assert!(wins >= 13, "{spec} won {wins} of {games} against greedy");
}

#[test]
fn roulette_draws_by_its_policy_and_favours_corners() {
    let mut roulette = agent("roulette");
    let mut checked = 0;
    for seed in 0..200 {
        let Some(pos) = random_position(seed, 20) else {
            continue;
        };
        let policy = roulette.analyst().unwrap().policy(&pos).unwrap();
        let legal = pos.legal_moves();
        assert_eq!(policy.entries().len(), legal.len());
        let is_corner = |mv: &Move| matches!(mv, Move::Place(sq) if ["a1", "h1", "a8", "h8"].contains(&sq.to_string().as_str()));
        let corners: Vec<f64> = policy
            .entries()
            .iter()
            .filter(|(mv, _)| is_corner(mv))
            .map(|&(_, p)| p)
            .collect();
        if !corners.is_empty() && legal.len() > corners.len() {
            let p: f64 = corners.iter().sum();
            assert!(p > 0.9, "seed {seed}: the corners at {p}");
        }
        // What `choose` draws follows the policy: 4,000 draws, 5 standard deviations.
        let mut counts = vec![0u32; legal.len()];
        let mut rng = game_rng(seed, 0, Side::First);
        for _ in 0..4_000 {
            let mv = roulette.choose(&pos, &mut rng);
            counts[legal.iter().position(|&m| m == mv).unwrap()] += 1;
        }
        for ((mv, p), &n) in policy.entries().iter().zip(&counts) {
            let expected = 4_000.0 * p;
            let sd = (4_000.0 * p * (1.0 - p)).sqrt();
            assert!(
                (f64::from(n) - expected).abs() <= 5.0 * sd + 1.0,
                "seed {seed}: {mv} drawn {n} times, expected {expected:.0}"
            );
        }
        checked += 1;
    }
    assert!(checked > 150);
    // As mcts's playouts.
    let mut mcts = agent("mcts:iterations=500,playout=roulette");
    let pos = Othello::new();
    let mv = mcts.choose(&pos, &mut game_rng(0, 0, Side::First));
    assert!(pos.legal_moves().contains(&mv));
}

#[test]
fn a_clock_share_for_the_move_ends_the_search() {
    // A hundred million iterations would take minutes; a game clock's 20 ms share ends it.
    let mut mcts = agent("mcts:iterations=100000000");
    assert!(mcts.set_move_time(Some(std::time::Duration::from_millis(20))));
    let pos = Othello::new();
    // Timed, its move is not a fixed function of the position.
    assert!(mcts.analyst().unwrap().policy(&pos).is_none());
    let explained = mcts.analyst().unwrap().explain(&pos).unwrap();
    let iterations: u64 = explained
        .split_once(" iterations")
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{explained}"));
    assert!(iterations < 100_000_000, "{explained}");
}
