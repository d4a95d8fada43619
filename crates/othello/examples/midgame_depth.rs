//! How long the engine's search takes to a fixed depth from midgame positions:
//! `cargo run --release -p gamelab-othello --example midgame_depth -- [DEPTH] [POSITIONS]
//! [PROBCUT] [THREADS] [MODEL]` (defaults 12, 20, 0: no Multi-ProbCut, 1 thread, and the
//! shipped model; a model file to compare another evaluation's speed). The positions
//! are those of random games 20 to 40 plies in, the same on every run; the scores and
//! moves are the same on any number of threads (the nodes grow with the threads: the
//! nested tests that a cut-off stops half-way count too).

use gamelab_core::{Game, Side, game_rng};
use gamelab_othello::Othello;
use gamelab_othello::learned::{PatternModel, shipped};
use gamelab_othello::search::{Limits, Searcher};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(12, |a| a.parse().expect("a depth"));
    let count: usize = args.next().map_or(20, |a| a.parse().expect("a count"));
    let probcut: f64 = args.next().map_or(0.0, |a| a.parse().expect("a threshold"));
    let threads: usize = args
        .next()
        .map_or(1, |a| a.parse().expect("a thread count"));
    let positions: Vec<Othello> = (0u64..)
        .filter_map(|seed| {
            let mut rng = game_rng(seed, 0, Side::First);
            let mut pos = Othello::new();
            for _ in 0..20 + seed % 21 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    return None;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            (!pos.is_over() && pos.legal_mask() != 0).then_some(pos)
        })
        .take(count)
        .collect();
    let model = args.next().map_or_else(shipped, |path| {
        std::sync::Arc::new(PatternModel::load(std::path::Path::new(&path)).expect("a model file"))
    });
    let (mut total, mut nodes, mut slowest) = (0.0, 0u64, 0.0f64);
    println!("position  empties      nodes    seconds  score");
    for (i, pos) in positions.iter().enumerate() {
        let mut searcher = Searcher::new(model.clone());
        searcher.set_probcut(probcut);
        searcher.set_threads(threads);
        let r = searcher.search(pos, Limits::to_depth(depth));
        let s = r.elapsed.as_secs_f64();
        println!(
            "{i:>8} {:>8} {:>10} {s:>10.3}  {:+.2} {}",
            pos.empties(),
            r.nodes,
            r.score,
            r.best
        );
        total += s;
        nodes += r.nodes;
        slowest = slowest.max(s);
    }
    println!(
        "depth {depth}, {threads} thread(s): {} positions, {nodes} nodes, mean {:.3} s, slowest {slowest:.3} s, {:.1} M nodes/s",
        positions.len(),
        total / positions.len() as f64,
        nodes as f64 / total / 1e6
    );
}
