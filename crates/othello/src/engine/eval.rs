//! Static evaluations of Othello positions, from the side to move's point of view.

use crate::Othello;
use crate::rules::bits::legal_moves;

/// Article 003's weighted-square table (../shared/SPEC.md §7), a1 first, row by row.
pub const WEIGHTS: [i32; 64] = [
    30, -12, 0, -1, -1, 0, -12, 30, //
    -12, -15, -3, -3, -3, -3, -15, -12, //
    0, -3, 0, -1, -1, 0, -3, 0, //
    -1, -3, -1, -1, -1, -1, -3, -1, //
    -1, -3, -1, -1, -1, -1, -3, -1, //
    0, -3, 0, -1, -1, 0, -3, 0, //
    -12, -15, -3, -3, -3, -3, -15, -12, //
    30, -12, 0, -1, -1, 0, -12, 30, //
];

/// Σ of the table over a set of discs.
#[inline]
pub fn weight_of(mut discs: u64) -> i32 {
    let mut total = 0;
    while discs != 0 {
        total += WEIGHTS[discs.trailing_zeros() as usize];
        discs &= discs - 1;
    }
    total
}

/// The evaluations an Othello AI can use at its leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Disc difference.
    Discs,
    /// Σ of the table over one's own discs: what article 003's "gain" adds up move by move.
    Gain,
    /// Σ of the table over one's own discs minus the opponent's.
    Weighted,
    /// `Weighted` plus 4 × (one's legal moves − the opponent's): the default of `alphabeta`.
    WeightedMobility,
}

impl Eval {
    pub const NAMES: &'static [&'static str] = &["discs", "gain", "weighted", "weighted+mobility"];

    pub fn from_name(name: &str) -> Option<Eval> {
        match name {
            "discs" => Some(Eval::Discs),
            "gain" => Some(Eval::Gain),
            "weighted" => Some(Eval::Weighted),
            "weighted+mobility" => Some(Eval::WeightedMobility),
            _ => None,
        }
    }

    /// The value of `pos` for the side to move. A finished game scores its disc difference
    /// times 1,000, beyond any heuristic value.
    #[inline]
    pub fn evaluate(self, pos: &Othello) -> i32 {
        let (p, o) = pos.discs();
        if pos.is_over() {
            return 1000 * (p.count_ones() as i32 - o.count_ones() as i32);
        }
        match self {
            Eval::Discs => p.count_ones() as i32 - o.count_ones() as i32,
            Eval::Gain => weight_of(p),
            Eval::Weighted => weight_of(p) - weight_of(o),
            Eval::WeightedMobility => {
                weight_of(p) - weight_of(o)
                    + 4 * (legal_moves(p, o).count_ones() as i32
                        - legal_moves(o, p).count_ones() as i32)
            }
        }
    }
}
