//! What the engine gains by keeping its table from move to move:
//! `cargo run --release -p gamelab-othello --example kept_table -- [GAMES] [SECONDS |
//! depth=D]` (default 20 games, 0.1 s a move) plays games of the engine by time
//! (`engine:time=S`, one thread, each side its own engine, after eight random moves of
//! opening `i`), and at each midgame position (more than 24 empty squares) of a side's move
//! searches it twice in the same time: with that side's engine, whose table holds its
//! earlier moves' searches, and with a second engine that forgets every position before
//! each search. It prints the mean depth each reached. Times: the figures depend on the
//! machine and its load. With `depth=D` both search to depth D instead (`engine:level=D`),
//! and the nodes each needed say the same without a clock, on any machine.

use std::time::Duration;

use gamelab_core::Game;
use gamelab_othello::Othello;
use gamelab_othello::ai::{Engine, MAX_LEVEL};
use gamelab_othello::learned::shipped;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .map_or(20, |a| a.parse().expect("a number of games"));
    let limit = args.next().unwrap_or_else(|| "0.1".into());
    let (level, time) = match limit.strip_prefix("depth=") {
        Some(depth) => (depth.parse().expect("a depth"), None),
        None => {
            let seconds: f64 = limit.parse().expect("seconds a move");
            (MAX_LEVEL, Some(Duration::from_secs_f64(seconds)))
        }
    };
    let openings = gamelab_core::arena::openings::<Othello>(games, 8, 0).expect("openings");
    let engine = || {
        let mut e = Engine::new(shipped(), level, time);
        e.searcher.set_threads(1);
        e
    };
    let (mut kept_depths, mut fresh_depths) = (Vec::new(), Vec::new());
    let (mut kept_nodes, mut fresh_nodes) = (0u64, 0u64);
    for opening in &openings {
        let mut pos = Othello::new();
        for &mv in opening {
            pos.play_unchecked(mv);
        }
        let mut sides = [engine(), engine()];
        let mut fresh = engine();
        while !pos.is_over() {
            let side = usize::from(!pos.black_to_move());
            let moves = pos.legal_moves();
            if moves.len() > 1 && pos.empties() > 24 {
                fresh.searcher.forget(false);
                let alone = fresh.analyse(&pos);
                fresh_depths.push(alone.depth);
                fresh_nodes += alone.nodes;
            }
            let played = sides[side].analyse(&pos);
            if moves.len() > 1 && pos.empties() > 24 {
                kept_depths.push(played.depth);
                kept_nodes += played.nodes;
            }
            pos.play_unchecked(played.best);
        }
        eprint!(".");
    }
    eprintln!();
    let mean = |d: &[u32]| d.iter().map(|&x| f64::from(x)).sum::<f64>() / d.len().max(1) as f64;
    let deeper = kept_depths
        .iter()
        .zip(&fresh_depths)
        .filter(|(k, f)| k > f)
        .count();
    let shallower = kept_depths
        .iter()
        .zip(&fresh_depths)
        .filter(|(k, f)| k < f)
        .count();
    println!(
        "{games} games at {limit}, {} midgame positions: kept table depth {:.2} ({} nodes a search), fresh table {:.2} ({} nodes); the kept table deeper at {deeper}, shallower at {shallower}",
        kept_depths.len(),
        mean(&kept_depths),
        kept_nodes / kept_depths.len().max(1) as u64,
        mean(&fresh_depths),
        fresh_nodes / fresh_depths.len().max(1) as u64,
    );
}
