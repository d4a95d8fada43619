//! Fits Multi-ProbCut's lines (see `gamelab_othello::probcut`) and writes them as
//! `crates/othello/src/engine/probcut_table.rs`:
//! `cargo run --release -p gamelab-othello --example fit_probcut -- [POSITIONS]` (default
//! 600; all cores; about 4 minutes on 2). The positions come from the WTHOR games of
//! 2000–2020 (2021 stays held out), one per game at a ply drawn from a fixed seed; each is
//! searched with cuts off to every depth up to `MAX_DEPTH`, and each depth's value is
//! fitted against its shallow depth's by least squares, per stage. Beside the lines it
//! writes the digest of the search's values they fit (`search::values_digest`),
//! which a test compares with the search as it is.

use std::path::Path;

use gamelab_core::mix64;
use gamelab_othello::learned::shipped;
use gamelab_othello::probcut::{BUCKETS, MAX_DEPTH, MIN_DEPTH, bucket, shallow_depth};
use gamelab_othello::search::{Limits, Searcher};
use gamelab_othello::{Move, Othello, wthor};
use rayon::prelude::*;

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .map_or(600, |a| a.parse().expect("a number of positions"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/othello/wthor");
    let mut games = Vec::new();
    for year in 2000..=2020 {
        games.extend(wthor::read(&dir.join(format!("WTH_{year}.wtb"))).expect("a WTHOR file"));
    }
    let step = games.len() / count;
    let positions: Vec<Othello> = (0..count)
        .filter_map(|i| {
            let game = &games[i * step];
            // Between 12 and 47 plies in: 48 to 13 empties.
            let plies = 12 + (mix64(i as u64) % 36) as usize;
            let mut pos = Othello::new();
            for &sq in game.moves.iter().take(plies) {
                if pos.legal_mask() == 0 && !pos.is_over() {
                    pos.play_unchecked(Move::Pass);
                }
                pos.play_unchecked(Move::Place(sq));
            }
            (pos.legal_mask() != 0).then_some(pos)
        })
        .collect();
    eprintln!(
        "{} positions; searching each to depths 1..={MAX_DEPTH}",
        positions.len()
    );
    let model = shipped();
    // values[i][d]: position i's value at depth d, in discs.
    let values: Vec<(u32, Vec<f64>)> = positions
        .par_iter()
        .map(|pos| {
            let values = (0..=MAX_DEPTH)
                .map(|d| {
                    if d == 0 {
                        return 0.0;
                    }
                    let mut searcher = Searcher::new(model.clone());
                    let limits = Limits::to_depth(d);
                    searcher.search(pos, limits).score
                })
                .collect();
            (pos.empties(), values)
        })
        .collect();
    let mut out = String::from(
        "// Written by `cargo run --release -p gamelab-othello --example fit_probcut`.\n\
         /// The fitted lines: `CUTS[bucket][depth - MIN_DEPTH]`.\n\
         pub const CUTS: [[Cut; (MAX_DEPTH - MIN_DEPTH + 1) as usize]; BUCKETS] = [\n",
    );
    println!("bucket depth shallow  rows  intercept  slope  sigma (discs)");
    for b in 0..BUCKETS {
        out.push_str("    [\n");
        for d in MIN_DEPTH..=MAX_DEPTH {
            let s = shallow_depth(d) as usize;
            let rows: Vec<(f64, f64)> = values
                .iter()
                .filter(|(e, v)| bucket(*e) == b && *e > d && v[d as usize].abs() < 64.0)
                .map(|(_, v)| (v[s], v[d as usize]))
                .collect();
            let x: Vec<[f64; 1]> = rows.iter().map(|&(x, _)| [x]).collect();
            let xs: Vec<&[f64]> = x.iter().map(|r| &r[..]).collect();
            let y: Vec<f64> = rows.iter().map(|&(_, y)| y).collect();
            let (a, w) = gamelab_learn::fit_dense(&xs, &y, 1e-6).expect("enough rows");
            let slope = w[0];
            let sigma = (rows
                .iter()
                .map(|&(x, y)| (y - a - slope * x).powi(2))
                .sum::<f64>()
                / (rows.len() as f64 - 2.0))
                .sqrt();
            println!(
                "{b:>6} {d:>5} {s:>7} {:>5} {a:>10.3} {slope:>6.3} {sigma:>6.3}",
                rows.len()
            );
            out.push_str(&format!(
                "        Cut {{ intercept: {a:.4}, slope: {slope:.4}, sigma: {sigma:.4} }},\n"
            ));
        }
        out.push_str("    ],\n");
    }
    out.push_str("];\n");
    out.push_str(&format!(
        "/// The search's values the lines were fitted for (`search::values_digest`).\n\
         pub const FITTED_FOR: u64 = {:#018x};\n",
        gamelab_othello::search::values_digest(&model)
    ));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/probcut_table.rs");
    gamelab_core::files::write_atomically(&path, |w| w.write_all(out.as_bytes()))
        .expect("writing the table");
    eprintln!("wrote {}", path.display());
}
