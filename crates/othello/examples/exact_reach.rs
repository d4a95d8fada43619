//! What the engine's exact reach costs against its midgame search (see
//! `gamelab_othello::ai::exact_reach`): `cargo run --release -p gamelab-othello --example
//! exact_reach -- EMPTIES [GAMES]` (default 10 games) plays games of the engine at level 4
//! (after eight random moves) down to EMPTIES empty squares, then times on one thread
//! the midgame search of the level that solves from there (EMPTIES − 6 plies, Multi-ProbCut
//! as the engine plays) and the exact solve. The games are the same on every run.

use gamelab_core::{Game, Side, game_rng};
use gamelab_othello::Othello;
use gamelab_othello::ai::PROBCUT_DEFAULT;
use gamelab_othello::endgame::Solver;
use gamelab_othello::learned::shipped;
use gamelab_othello::search::{Limits, Searcher};

fn main() {
    let mut args = std::env::args().skip(1);
    let empties: u32 = args
        .next()
        .and_then(|a| a.parse().ok())
        .filter(|e| (7..=40).contains(e))
        .expect("the empties: a number from 7 to 40");
    let games: u64 = args
        .next()
        .map_or(10, |a| a.parse().expect("a number of games"));
    let depth = empties - 6;
    let model = shipped();
    let (mut midgame, mut exact, mut positions) = (Vec::new(), Vec::new(), 0);
    println!("game  depth {depth} (s)  score  exact (s)  score");
    for game in 0..games {
        let mut rng = game_rng(game, 7, Side::First);
        let mut pos = Othello::new();
        let mut player = Searcher::new(model.clone());
        player.set_probcut(PROBCUT_DEFAULT);
        while pos.empties() > empties && !pos.is_over() {
            let mv = if pos.empties() > 52 {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len())]
            } else {
                player.search(&pos, Limits::to_depth(4)).best
            };
            pos.play_unchecked(mv);
        }
        if pos.is_over() || pos.legal_mask() == 0 {
            continue;
        }
        let mut searcher = Searcher::new(model.clone());
        searcher.set_probcut(PROBCUT_DEFAULT);
        searcher.set_threads(1);
        let searched = searcher.search(&pos, Limits::to_depth(depth));
        let started = std::time::Instant::now();
        let (score, _) = Solver::default().solve(&pos);
        let solved = started.elapsed().as_secs_f64();
        let searched_s = searched.elapsed.as_secs_f64();
        println!(
            "{game:>4} {searched_s:>13.3} {:>+6.1} {solved:>10.3} {score:>+6}",
            searched.score
        );
        midgame.push(searched_s);
        exact.push(solved);
        positions += 1;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let most = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    println!(
        "{empties} empties, {positions} positions: depth {depth} mean {:.3} s (slowest {:.3}), exact mean {:.3} s (slowest {:.3})",
        mean(&midgame),
        most(&midgame),
        mean(&exact),
        most(&exact)
    );
}
