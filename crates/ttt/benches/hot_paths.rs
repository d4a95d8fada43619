//! The hot paths of tic-tac-toe, per board data structure where it matters:
//! `cargo bench --bench hot_paths` (add a filter such as `-- markpats` for one group).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamelab_core::arena::{exact_match, play_game};
use gamelab_core::{Agent, BestMoves, ByScore, Game, Side, StreamKey, Uniform};
use gamelab_ttt::ai::abs_dls::AbsDls;
use gamelab_ttt::ai::ranked_evaluation;
use gamelab_ttt::ai::rules::Ai2;
use gamelab_ttt::board::{Array1d, Array2d, Bitboard, Board, LineCounts};
use gamelab_ttt::solve::{GameTree, SolvedTable, solve_start};
use gamelab_ttt::{Position, Square, Ttt};

/// A few positions along a game, for per-position operations.
fn positions<B: Board>() -> Vec<Position<B>> {
    ["", "4", "40", "408", "4082", "40826"]
        .iter()
        .map(|m| Position::from_moves(m).unwrap())
        .collect()
}

fn per_structure<B: Board>(c: &mut Criterion) {
    let name = B::NAME;
    let line: Vec<Square> = [4, 0, 8, 2, 6, 3, 5, 7, 1]
        .iter()
        .map(|&i| Square::ALL[i])
        .collect();
    c.bench_function(&format!("move_undo/{name}"), |b| {
        let mut pos = Position::<B>::new();
        b.iter(|| {
            for &sq in &line {
                pos.play_unchecked(black_box(sq));
            }
            for _ in 0..line.len() {
                pos.undo();
            }
        })
    });
    let ps = positions::<B>();
    c.bench_function(&format!("legal_moves/{name}"), |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    c.bench_function(&format!("markpats/{name}"), |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| black_box(p).count_markpats().lines(2, 0))
                .sum::<u8>()
        })
    });
    let mut ai14s = ByScore::new(ranked_evaluation("ai14s").unwrap());
    c.bench_function(&format!("ai14s_move/{name}"), |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| ai14s.best_moves(black_box(p)).len())
                .sum::<usize>()
        })
    });
}

fn games(c: &mut Criterion) {
    let key = StreamKey::new(0);
    let start = Ttt::start();
    let mut game = 0u64;
    let (mut a, mut b) = (Uniform(Ai2), Uniform(Ai2));
    c.bench_function("random_game/bitboard", |bench| {
        bench.iter(|| {
            game += 1;
            let mut rngs = Side::BOTH.map(|s| key.game_rng(game, s));
            let agents: [&mut dyn Agent<Ttt>; 2] = [&mut a, &mut b];
            play_game(&start, agents, &mut rngs, None)
        })
    });
    let registry = gamelab_ttt::ai::registry::<Bitboard>();
    c.bench_function("exact_match/ai14s_vs_ai2", |bench| {
        bench.iter(|| {
            let (mut x, mut y) = (
                registry.build("ai14s").unwrap(),
                registry.build("ai2").unwrap(),
            );
            exact_match::<Ttt>(&mut *x, &mut *y, ["ai14s", "ai2"]).unwrap()
        })
    });
}

fn solving(c: &mut Criterion) {
    let mut group = c.benchmark_group("solving");
    group.sample_size(20);
    group.bench_function("full_tree_with_values", |b| b.iter(GameTree::build));
    group.bench_function("solve_from_start", |b| b.iter(solve_start));
    group.bench_function("solved_table_all_positions", |b| b.iter(SolvedTable::build));
    group.finish();
    let ai = AbsDls {
        eval: ranked_evaluation("ai14s").unwrap(),
        max_depth: 8,
        use_tt: true,
        time_limit: None,
    };
    c.bench_function("ai_abs_dls/start_depth8_tt", |b| {
        b.iter(|| ai.move_values(black_box(&Ttt::start())))
    });
}

fn structures(c: &mut Criterion) {
    per_structure::<Array2d>(c);
    per_structure::<Array1d>(c);
    per_structure::<Bitboard>(c);
    per_structure::<LineCounts<Array2d>>(c);
    per_structure::<LineCounts<Array1d>>(c);
    per_structure::<LineCounts<Bitboard>>(c);
}

criterion_group!(benches, structures, games, solving);
criterion_main!(benches);
