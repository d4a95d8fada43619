//! Facts about the whole tic-tac-toe game tree (../shared/SPEC.md §1).

use std::collections::HashSet;

use gamelab_core::{Game, Outcome, Side};
use gamelab_ttt::Ttt;

#[derive(Default)]
struct Tally {
    nodes_per_depth: [u64; 10],
    games: u64,
    o_wins: u64,
    x_wins: u64,
    draws: u64,
    positions: HashSet<u64>,
    canonical: HashSet<u64>,
}

fn walk(pos: &mut Ttt, tally: &mut Tally) {
    tally.nodes_per_depth[pos.ply()] += 1;
    tally.positions.insert(pos.key());
    tally.canonical.insert(pos.canonical_key());
    match pos.outcome() {
        Some(outcome) => {
            tally.games += 1;
            match outcome {
                Outcome::Win(Side::First) => tally.o_wins += 1,
                Outcome::Win(Side::Second) => tally.x_wins += 1,
                Outcome::Draw => tally.draws += 1,
            }
            assert!(pos.legal_moves().is_empty(), "moves after the end:\n{pos}");
        }
        None => {
            let moves = pos.legal_moves();
            assert!(!moves.is_empty());
            for &mv in moves.iter() {
                pos.play_unchecked(mv);
                walk(pos, tally);
                assert_eq!(pos.undo(), Some(mv));
            }
        }
    }
}

#[test]
fn full_tree_counts_match_the_spec() {
    let mut pos = Ttt::start();
    let mut tally = Tally::default();
    walk(&mut pos, &mut tally);

    assert_eq!(
        tally.nodes_per_depth,
        [
            1, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872
        ]
    );
    assert_eq!(tally.nodes_per_depth.iter().sum::<u64>(), 549_946);
    assert_eq!(tally.games, 255_168);
    assert_eq!(
        (tally.o_wins, tally.x_wins, tally.draws),
        (131_184, 77_904, 46_080)
    );
    assert_eq!(tally.positions.len(), 5_478);
    assert_eq!(tally.canonical.len(), 765);
    // The walk undid every move it made.
    assert_eq!(pos.ply(), 0);
    assert_eq!(pos.key(), Ttt::start().key());
}
