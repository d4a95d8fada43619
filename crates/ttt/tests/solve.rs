//! Solving tic-tac-toe: the tree, the solved table and its file, the perfect players,
//! alpha-beta against plain minimax, proofs.

use std::time::Duration;

use gamelab_core::proof::never_loses;
use gamelab_core::search::{AlphaBeta, SearchOptions, analyze, minimax};
use gamelab_core::{Agent, Game, Outcome, Side};
use gamelab_ttt::ai::abs_dls::FromO;
use gamelab_ttt::ai::ranked_evaluation;
use gamelab_ttt::solve::{GameTree, Marks, SolvedTable, solve_start};
use gamelab_ttt::solve_file::{self, SolvedFileError};
use gamelab_ttt::{Square, Ttt};

fn sq(x: usize, y: usize) -> Square {
    Square::from_xy(x, y).unwrap()
}

fn build(spec: &str) -> Box<dyn Agent<Ttt>> {
    gamelab_ttt::ai::registry().build(spec).unwrap()
}

fn best(spec: &str, board: &str) -> Vec<Square> {
    build(spec)
        .analyst()
        .unwrap()
        .policy(&board.parse().unwrap())
        .unwrap()
        .moves()
        .collect()
}

#[test]
fn the_tree_has_the_spec_s_shape_and_values() {
    let tree = GameTree::build();
    assert_eq!(
        tree.nodes_per_depth(),
        [
            1, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872
        ]
    );
    assert_eq!(tree.nodes.len(), 549_946);
    assert_eq!(tree.leaves(), (131_184, 77_904, 46_080));
    assert_eq!(tree.distinct_positions(), 5_478);
    assert_eq!(tree.nodes[0].value, 0, "the start is a draw");
    assert_eq!(tree.nodes[0].sv, 0);
    // every node agrees with the solved table of its position
    let table = SolvedTable::shared();
    for node in &tree.nodes {
        let s = table.positions[&node.marks];
        assert_eq!((node.value, node.sv), (s.value, s.sv), "{:?}", node.marks);
    }
}

#[test]
fn solving_from_the_start_gives_a_draw() {
    assert_eq!(solve_start(), 0);
    let table = SolvedTable::build();
    assert_eq!(table.positions.len(), 5_478);
    assert_eq!(table, *SolvedTable::shared());
    // the shortest-victory values of the spec
    let sv = |board: &str| table.get(&board.parse::<Ttt>().unwrap()).unwrap().sv;
    assert_eq!(sv("ooo.xx..."), 3, "o wins at depth 5");
    assert_eq!(sv("xxx.oo.o."), -2, "x wins at depth 6");
    assert_eq!(sv("oooxox.x."), 2, "o wins at depth 7");
    assert_eq!(sv("xoxoxooxo"), 0, "a draw");
}

#[test]
fn solved_file_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ttt.solved");
    solve_file::save(SolvedTable::shared(), &path).unwrap();
    let loaded = solve_file::load(&path).unwrap();
    assert_eq!(loaded, *SolvedTable::shared());
    assert!(std::fs::metadata(&path).unwrap().len() < 100_000);
}

#[test]
fn damaged_solved_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ttt.solved");
    solve_file::save(SolvedTable::shared(), &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let write = |bytes: &[u8]| {
        let p = dir.path().join("damaged");
        std::fs::write(&p, bytes).unwrap();
        solve_file::load(&p)
    };
    // cut short
    assert!(matches!(
        write(&good[..good.len() - 7]),
        Err(SolvedFileError::Truncated { .. })
    ));
    assert!(matches!(
        write(&good[..10]),
        Err(SolvedFileError::Truncated { .. })
    ));
    // one byte changed anywhere in the positions
    for at in [20, good.len() / 2, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        assert!(
            matches!(write(&bad), Err(SolvedFileError::Checksum { .. })),
            "byte {at}"
        );
    }
    // not a table, another version, no file
    assert!(matches!(
        write(b"hello world, not a table"),
        Err(SolvedFileError::NotATable { .. })
    ));
    let mut other = good.clone();
    other[8] = 9;
    let err = write(&other).unwrap_err();
    assert!(err.to_string().contains("format version 9"), "{err}");
    assert!(matches!(
        solve_file::load(&dir.path().join("missing")),
        Err(SolvedFileError::Io { .. })
    ));
}

#[test]
fn perfect_players_choose_as_the_seed_says() {
    // o to move wins at once at (2,0), or later after the fork at (0,2): ai_gt keeps every
    // winning move, ai_gtsv only the fastest.
    let p = "oo..x...x";
    let gt = best("ai_gt", p);
    let sv = best("ai_gtsv", p);
    assert!(gt.contains(&sq(2, 0)) && gt.contains(&sq(0, 2)), "{gt:?}");
    assert_eq!(sv, [sq(2, 0)]);
    // aliases
    for alias in ["ai_gt1", "ai_gt4", "ai_gt7"] {
        assert_eq!(best(alias, p), gt);
    }
    // at the start every move draws; ai_gtsvrd prefers those leaving x a way to go wrong
    assert_eq!(best("ai_gt", ".........").len(), 9);
    let rd = best("ai_gtsvrd", ".........");
    assert!(!rd.is_empty() && rd.len() <= 9);
}

#[test]
fn proofs_of_never_losing() {
    for ai in [
        "ai_gt",
        "ai_gtsv",
        "ai_gtsvrd",
        "ai12s",
        "ai12s:ver=2",
        "ai13s",
        "ai14s",
        "ai_abs_dls",
        "ai12s:ver=3",
    ] {
        let mut agent = build(ai);
        for side in Side::BOTH {
            let proof = never_loses::<Ttt>(&mut *agent, ai, side).unwrap();
            assert_eq!(proof.losing_line, None, "{ai} as {side:?}");
            assert!(proof.positions > 100);
        }
    }
}

#[test]
fn losing_lines_are_real() {
    for (ai, side) in [
        ("ai11s:ver=3", Side::Second),
        ("ai2", Side::First),
        ("ai7", Side::Second),
    ] {
        let mut agent = build(ai);
        let line = never_loses::<Ttt>(&mut *agent, ai, side)
            .unwrap()
            .losing_line
            .unwrap_or_else(|| panic!("{ai} should be able to lose as {side:?}"));
        let mut game = Ttt::start();
        for mv in line {
            if game.to_move() == side {
                let allowed: Vec<_> = agent
                    .analyst()
                    .unwrap()
                    .policy(&game)
                    .unwrap()
                    .moves()
                    .collect();
                assert!(allowed.contains(&mv), "{ai} would not play {mv}");
            }
            game.play_unchecked(mv);
        }
        assert_eq!(game.outcome(), Some(Outcome::Win(side.opponent())));
    }
    // ai11s ver 3 loses as x to the diagonal trap that rule 12 was added for
    let line = never_loses::<Ttt>(&mut *build("ai11s:ver=3"), "ai11s", Side::Second)
        .unwrap()
        .losing_line
        .unwrap();
    assert_eq!(&line[..3], &[sq(0, 0), sq(1, 1), sq(2, 2)]);
}

/// Every non-terminal reachable position.
fn positions() -> Vec<Ttt> {
    let mut out: Vec<Ttt> = SolvedTable::shared()
        .positions
        .keys()
        .filter(|m| m.result().is_none())
        .map(|m| board_of(*m).parse().unwrap())
        .collect();
    out.sort_by_key(|p| p.key());
    out
}

fn board_of(m: Marks) -> String {
    (0..9)
        .map(|i| {
            if m.0 & 1 << i != 0 {
                'o'
            } else if m.1 & 1 << i != 0 {
                'x'
            } else {
                '.'
            }
        })
        .collect()
}

#[test]
fn alpha_beta_agrees_with_minimax_everywhere() {
    let evaluation = ranked_evaluation("ai14s").unwrap();
    let all = positions();
    assert_eq!(all.len(), 4_520);
    let configs = [(false, false), (true, false), (true, true)];
    let mut searches = 0;
    for pos in &all {
        let remaining = 9 - pos.move_count() as u32;
        for depth in 1..=remaining {
            let mut eval = FromO(evaluation);
            let expected = minimax(&mut pos.clone(), &mut eval, depth);
            for (use_tt, symmetric) in configs {
                let options = SearchOptions {
                    max_depth: depth,
                    use_tt,
                    symmetric,
                    time_limit: None,
                };
                let mut ab = AlphaBeta::new(&mut eval, options, depth, None, Default::default());
                let got = ab
                    .search(&mut pos.clone(), f64::NEG_INFINITY, f64::INFINITY)
                    .unwrap();
                assert_eq!(
                    got, expected,
                    "depth {depth}, tt {use_tt}, sym {symmetric}:\n{pos}"
                );
                searches += 1;
            }
        }
    }
    assert!(searches > 40_000, "{searches}");
}

#[test]
fn exact_values_from_a_win_loss_evaluation() {
    // With only results at the leaves, a full-depth search is the game's value.
    let table = SolvedTable::shared();
    let mut eval = |g: &Ttt| match g.outcome() {
        Some(Outcome::Win(Side::First)) => 1.0,
        Some(Outcome::Win(Side::Second)) => -1.0,
        _ => 0.0,
    };
    for pos in positions().iter().step_by(7) {
        let options = SearchOptions {
            max_depth: 9,
            use_tt: true,
            symmetric: true,
            time_limit: None,
        };
        let analysis = analyze(pos, &mut eval, options);
        let value = analysis.last().unwrap().score;
        assert_eq!(value, f64::from(table.get(pos).unwrap().value), "\n{pos}");
    }
}

#[test]
fn seed_004_table_size_from_the_start() {
    let ai = gamelab_ttt::ai::abs_dls::AbsDls {
        eval: ranked_evaluation("ai14s").unwrap(),
        max_depth: 8,
        use_tt: true,
        time_limit: None,
    };
    let result = ai.move_values(&Ttt::start());
    assert_eq!(
        result.table_size, 3_219,
        "the article's table had 3,219 entries"
    );
    assert_eq!(result.nodes, 1_175);
    assert!(result.values.iter().all(|&(_, v)| v == 0.0));
}

#[test]
fn iterative_deepening_stops_at_the_time_limit() {
    let mut eval = FromO(ranked_evaluation("ai14s").unwrap());
    let full = analyze(
        &Ttt::start(),
        &mut eval,
        SearchOptions {
            max_depth: 9,
            use_tt: true,
            symmetric: true,
            time_limit: Some(Duration::from_secs(60)),
        },
    );
    assert_eq!(
        full.depths.iter().map(|d| d.depth).collect::<Vec<_>>(),
        (1..=9).collect::<Vec<_>>()
    );
    assert!(!full.timed_out);
    let last = full.last().unwrap();
    assert_eq!(last.score, 0.0);
    // the principal variation is a legal game to the end, a draw
    let mut game = Ttt::start();
    for &mv in &last.pv {
        game.play(mv).unwrap();
    }
    assert_eq!(game.outcome(), Some(Outcome::Draw));

    let cut = analyze(
        &Ttt::start(),
        &mut eval,
        SearchOptions {
            max_depth: 9,
            use_tt: false,
            symmetric: false,
            time_limit: Some(Duration::from_nanos(1)),
        },
    );
    assert!(cut.timed_out);
    assert!(cut.depths.len() < 9);
}

#[test]
fn ai_abs_dls_with_a_time_limit_still_moves() {
    let mut ai = build("ai_abs_dls:timelimit=0.05");
    assert!(
        ai.analyst().unwrap().policy(&Ttt::start()).is_none(),
        "a timed search has no fixed distribution"
    );
    let mut rng = gamelab_core::game_rng(0, 0, Side::First);
    let p: Ttt = "oo..x....".parse().unwrap();
    assert_eq!(ai.choose(&p, &mut rng), sq(2, 0), "it blocks");
    let err = gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>()
        .build("ai_abs_dls:eval_func=ai99")
        .err()
        .unwrap();
    assert!(
        err.to_string().contains("eval_func: unknown AI `ai99`"),
        "{err}"
    );
}
