//! The learned evaluation and its search: `cargo bench -p gamelab-othello --bench learned`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamelab_core::{Game, Side, game_rng};
use gamelab_othello::Othello;
use gamelab_othello::bits::{flips, legal_moves};
use gamelab_othello::kernel::Portable;
use gamelab_othello::learned::shipped;
use gamelab_othello::patterns::Features;
use gamelab_othello::search::{Limits, Searcher};

/// Midgame positions from random games, 20 to 40 plies in.
fn positions() -> Vec<Othello> {
    (0..64)
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
            (!pos.is_over()).then_some(pos)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let model = shipped();
    // Outside the solver's builds: the portable kernel, as `evaluate` uses.
    let k = Portable;
    let discs: Vec<(u64, u64)> = positions().iter().map(Othello::discs).collect();
    c.bench_function("pattern evaluation (one position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % discs.len();
            let (p, o) = discs[i];
            black_box(model.evaluate(black_box(p), black_box(o)))
        })
    });
    c.bench_function("pattern features from the bitboards (one position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % discs.len();
            let (p, o) = discs[i];
            black_box(Features::new(black_box(p), black_box(o)))
        })
    });
    // What the search does at a leaf: its features from its parent's by one move, then
    // the evaluation from them and its discs.
    let children: Vec<(Features, u32, u64, (u64, u64))> = discs
        .iter()
        .filter_map(|&(p, o)| {
            let sq = legal_moves(p, o).trailing_zeros();
            (sq < 64).then(|| (Features::new(p, o), sq, flips(p, o, sq), (p, o)))
        })
        .collect();
    c.bench_function(
        "pattern evaluation after a move (incremental features)",
        |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % children.len();
                let (features, sq, f, (p, o)) = &children[i];
                let child = black_box(features).play(*sq, *f);
                black_box(model.evaluate_features(k, &child, o ^ f, p | f | (1 << sq)))
            })
        },
    );
    c.bench_function("pattern evaluation from features", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % children.len();
            let (features, _, _, (p, o)) = &children[i];
            black_box(model.evaluate_features(k, black_box(features), *p, *o))
        })
    });
    let midgame = positions()[5].clone();
    c.bench_function("engine search to depth 8 (one midgame position)", |b| {
        b.iter(|| {
            let mut searcher = Searcher::new(model.clone());
            black_box(searcher.search(&midgame, Limits::to_depth(8)))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
