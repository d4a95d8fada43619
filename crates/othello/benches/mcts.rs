//! Monte Carlo tree search on Othello: `cargo bench -p gamelab-othello --bench mcts`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamelab_core::mcts::{Mcts, MctsOptions};
use gamelab_othello::Othello;

/// Iterations of one search; iterations per second = ITERATIONS / the time reported.
const ITERATIONS: u64 = 10_000;

fn bench(c: &mut Criterion) {
    let start = Othello::new();
    let mut mcts = Mcts::<Othello>::new(MctsOptions {
        iterations: ITERATIONS,
        ..MctsOptions::default()
    });
    let mut seed = 0;
    c.bench_function(
        "mcts: 10,000 iterations from the start (uniform playouts)",
        |b| {
            b.iter(|| {
                // A new seed each time: the agent keeps the last search of a position.
                seed += 1;
                mcts = Mcts::new(MctsOptions {
                    iterations: ITERATIONS,
                    seed,
                    ..MctsOptions::default()
                });
                black_box(mcts.search(black_box(&start)))
            })
        },
    );
    let (nodes, bytes) = mcts.last_tree().expect("a search ran");
    println!(
        "tree after {ITERATIONS} iterations: {nodes} nodes, {bytes} bytes ({} bytes a node)",
        bytes / nodes
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
