//! How far a deepening analysis's values are from a fresh engine's at each level:
//! `cargo run --release -p gamelab-othello --example deepening_agrees -- [POSITIONS]
//! [LEVELS]` (default 12 positions, levels 1 to 10). Each position is reached by 20 random
//! plies (openings of seed 0); the engine's `deepen_move_scores` values every move at
//! levels 1, 2, … on one table kept from level to level, and a new `engine:level=N` for
//! each level values them once (`move_values`). It prints how many values differ, inexact
//! and exact, and by how much (each differing value on a line of its own: the board, row
//! by row from a1, `X` black). No clock is involved: the figures are the same on any
//! machine.

use std::ops::ControlFlow;

use gamelab_core::Analyst;
use gamelab_othello::Othello;
use gamelab_othello::ai::Engine;
use gamelab_othello::learned::shipped;

fn main() {
    let mut args = std::env::args().skip(1);
    let positions: u64 = args
        .next()
        .map_or(12, |a| a.parse().expect("a number of positions"));
    let levels: u32 = args
        .next()
        .map_or(10, |a| a.parse().expect("a number of levels"));
    let openings = gamelab_core::arena::openings::<Othello>(positions, 20, 0).expect("openings");
    let engine = |level| {
        let mut e = Engine::new(shipped(), level, None);
        e.searcher.set_threads(1);
        e
    };
    let (mut values, mut inexact_differ, mut exact_differ) = (0, 0, 0);
    let mut largest = 0.0f64;
    for opening in &openings {
        let mut pos = Othello::new();
        for &mv in opening {
            pos.play_unchecked(mv);
        }
        let mut steps = Vec::new();
        engine(levels).deepen_move_scores(&pos, &mut |step| {
            steps.push(step.clone());
            if step.level.is_some_and(|l| l >= levels) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        for step in &steps {
            let level = step.level.expect("the engine's steps have levels");
            let fresh = engine(level)
                .move_values(&pos)
                .expect("the engine values moves");
            for deep in &step.scores {
                let alone = fresh
                    .iter()
                    .find(|s| s.mv == deep.mv)
                    .expect("the same moves");
                values += 1;
                if deep.score != alone.score {
                    println!(
                        "{} level {level}, {}: {:+.2} deepening, {:+.2} fresh",
                        pos.board_string(),
                        deep.mv,
                        deep.score,
                        alone.score
                    );
                    largest = largest.max((deep.score - alone.score).abs());
                    if deep.exact || alone.exact {
                        exact_differ += 1;
                    } else {
                        inexact_differ += 1;
                    }
                }
            }
        }
    }
    println!(
        "{values} values of {positions} positions at levels 1 to {levels}: {inexact_differ} inexact and {exact_differ} exact ones differ from a fresh engine's (largest difference {largest:.2} discs)"
    );
}
