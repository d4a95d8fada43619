//! Perft: the number of move paths of a given length from a position, in the standard
//! convention (a pass is a ply; a game that ends before the depth is one leaf).

use rayon::prelude::*;

use crate::bits::{flips, legal_moves};
use crate::{Othello, squares_of};

/// Perft from the side to move's discs `p` and the opponent's `o`.
pub fn perft_discs(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(p, o);
    if moves == 0 {
        // No move: the game is over (one leaf) or the side passes, which uses a ply.
        if legal_moves(o, p) == 0 {
            return 1;
        }
        return perft_discs(o, p, depth - 1);
    }
    if depth == 1 {
        // Bulk counting: every legal move is a leaf.
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, sq);
        total += perft_discs(o & !f, p | f | 1 << sq, depth - 1);
    }
    total
}

/// Perft of a position.
pub fn perft(pos: &Othello, depth: u32) -> u64 {
    let (p, o) = pos.discs();
    perft_discs(p, o, depth)
}

/// Perft with the positions a few plies down shared among rayon's threads (the count does
/// not depend on how many).
pub fn perft_parallel(pos: &Othello, depth: u32) -> u64 {
    // Expand the top plies into independent subtrees: a few hundred is plenty to balance.
    let split = depth.saturating_sub(1).min(4);
    let mut frontier: Vec<(u64, u64, u32)> = vec![(pos.discs().0, pos.discs().1, depth)];
    let mut leaves_above = 0u64;
    for _ in 0..split {
        let mut next = Vec::new();
        for (p, o, d) in frontier {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    leaves_above += 1;
                } else {
                    next.push((o, p, d - 1));
                }
                continue;
            }
            for sq in squares_of(moves) {
                let f = flips(p, o, sq.index() as u32);
                next.push((o & !f, p | f | sq.bit(), d - 1));
            }
        }
        frontier = next;
    }
    leaves_above
        + frontier
            .par_iter()
            .map(|&(p, o, d)| perft_discs(p, o, d))
            .sum::<u64>()
}
