//! Perft: the number of move paths of a given length from a position, in the standard
//! convention (a pass is a ply; a game that ends before the depth is one leaf).

use rayon::prelude::*;

use crate::engine::builds::{Build, InBuild, in_widest_build};
use crate::rules::bits::{flips, legal_moves};
use crate::rules::kernel::Kernel;
use crate::{Othello, squares_of};

/// Perft from the side to move's discs `p` and the opponent's `o`, in the widest build
/// of the kernels this CPU has.
pub fn perft_discs(p: u64, o: u64, depth: u32) -> u64 {
    struct Perft(u64, u64, u32);
    impl InBuild for Perft {
        type Output = u64;
        fn run<B: Build>(self, b: B) -> u64 {
            perft_in(b, self.0, self.1, self.2)
        }
    }
    in_widest_build(Perft(p, o, depth))
}

/// Perft in build `b`: its node entered in the build's code ([`Build::enter`]).
#[inline(always)]
fn perft_in(b: impl Build, p: u64, o: u64, depth: u32) -> u64 {
    struct Node(u64, u64, u32);
    impl InBuild for Node {
        type Output = u64;
        #[inline(always)]
        fn run<B: Build>(self, b: B) -> u64 {
            perft_node(b, self.0, self.1, self.2)
        }
    }
    b.enter(Node(p, o, depth))
}

/// One node of perft, compiled into each build's recursion.
#[inline(always)]
fn perft_node(b: impl Build, p: u64, o: u64, depth: u32) -> u64 {
    let k = b.kernel();
    if depth == 0 {
        return 1;
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        // No move: the game is over (one leaf) or the side passes, which uses a ply.
        if k.legal_moves(o, p) == 0 {
            return 1;
        }
        return perft_in(b, o, p, depth - 1);
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
        let f = k.flips(p, o, sq);
        let (mover, other) = (p | f | 1 << sq, o & !f);
        total += if depth == 2 {
            // The last ply in line, without a call: one leaf per reply, and one when there
            // is none (a pass that uses the ply, or the end of the game).
            u64::from(k.legal_moves(other, mover).count_ones().max(1))
        } else {
            perft_in(b, other, mover, depth - 1)
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_build_counts_the_same() {
        // The public functions take the widest build this CPU has; these are the others.
        let (p, o) = Othello::new().discs();
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (depth, &n) in expected.iter().enumerate() {
            let depth = depth as u32;
            assert_eq!(perft_discs(p, o, depth), n, "depth {depth}");
            assert_eq!(
                perft_in(crate::engine::builds::PortableBuild, p, o, depth),
                n,
                "depth {depth}"
            );
            #[cfg(target_arch = "x86_64")]
            if let Some(k) = crate::rules::kernel::avx2() {
                let avx2 = crate::engine::builds::Avx2Build(k);
                assert_eq!(
                    perft_in(avx2, p, o, depth),
                    n,
                    "depth {depth} in the AVX2 build"
                );
            }
        }
    }
}
