//! A game's moves as a fixed set of numbered actions, and the board's symmetries as
//! permutations of squares and actions: what reinforcement-learning libraries
//! (PettingZoo, Gymnasium, OpenSpiel) expect of a game — a policy is a vector over every
//! action the game can ever have, masked down to the legal ones, and a position's
//! symmetric images are extra training data for free.
//!
//! A move's action is its [`Game::move_code`](crate::Game::move_code): for a game whose
//! moves put a piece on a square, the square's index row by row from the top (Othello's
//! pass is 64, after the 64 squares); for a game whose moves pick a column
//! ([`Described::MOVES_BY_COLUMN`]), the column. Those are the numbers OpenSpiel gives the
//! same moves, so that no table translates between the two.
//!
//! ```
//! use gamelab_core::actions::{Symmetry, symmetry_maps};
//! // A 3×3 board turned a quarter clockwise: the top-left square comes from the bottom-left.
//! assert_eq!(Symmetry::Rotate90.source(0, 0, 3, 3), (2, 0));
//! assert_eq!(Symmetry::ALL.len(), 8);
//! ```

use crate::Described;

/// One of the eight ways to turn or mirror a rectangular board onto itself (the last
/// three turns need a square board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    /// Left and right swapped.
    MirrorColumns,
    /// Top and bottom swapped.
    MirrorRows,
    /// Turned half a turn.
    Rotate180,
    /// Mirrored in the diagonal from the top left: rows become columns.
    Transpose,
    /// Mirrored in the diagonal from the top right.
    AntiTranspose,
    /// Turned a quarter turn clockwise.
    Rotate90,
    /// Turned a quarter turn anticlockwise.
    Rotate270,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The name front ends show, e.g. `rotate90`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::MirrorColumns => "mirror_columns",
            Symmetry::MirrorRows => "mirror_rows",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti_transpose",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Rotate270 => "rotate270",
        }
    }

    /// Whether it maps a `rows` × `cols` board onto itself (turns by a quarter and the
    /// diagonal mirrors need a square board).
    pub fn fits(self, rows: usize, cols: usize) -> bool {
        rows == cols
            || matches!(
                self,
                Symmetry::Identity
                    | Symmetry::MirrorColumns
                    | Symmetry::MirrorRows
                    | Symmetry::Rotate180
            )
    }

    /// The square (row, column) of the original board whose piece the image shows at
    /// (`row`, `col`), on a `rows` × `cols` board it [fits](Symmetry::fits).
    pub fn source(self, row: usize, col: usize, rows: usize, cols: usize) -> (usize, usize) {
        let (last_row, last_col) = (rows - 1, cols - 1);
        match self {
            Symmetry::Identity => (row, col),
            Symmetry::MirrorColumns => (row, last_col - col),
            Symmetry::MirrorRows => (last_row - row, col),
            Symmetry::Rotate180 => (last_row - row, last_col - col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (last_col - col, last_row - row),
            // Turning clockwise moves the left column to the top row.
            Symmetry::Rotate90 => (last_row - col, row),
            Symmetry::Rotate270 => (col, last_col - row),
        }
    }
}

/// One symmetry of a game as permutations to gather with: the image of a board `b` (a
/// list of squares row by row) is `cells.map(|i| b[i])`, and the image of a vector over
/// the actions (a policy, a mask of legal moves) is `actions.map(|a| v[a])`; so action
/// `a` in the image is action `actions[a]` in the original.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SymmetryMap {
    pub name: &'static str,
    pub cells: Vec<usize>,
    pub actions: Vec<usize>,
}

/// The original action that action `action` of the image stands for, under `symmetry` of
/// game `G`: squares map as squares, columns as columns, and an action on no square (a
/// pass) to itself.
pub fn source_action<G: Described>(symmetry: Symmetry, action: usize) -> usize {
    let (rows, cols) = G::GRID;
    if G::MOVES_BY_COLUMN {
        if action < cols {
            return symmetry.source(0, action, 1, cols).1;
        }
    } else if action < rows * cols {
        let (row, col) = symmetry.source(action / cols, action % cols, rows, cols);
        return row * cols + col;
    }
    action
}

/// Every symmetry of game `G` ([`Described::SYMMETRIES`]) as gathering permutations of
/// its squares and its [`Described::ACTIONS`] actions, the identity first.
pub fn symmetry_maps<G: Described>() -> Vec<SymmetryMap> {
    let (rows, cols) = G::GRID;
    G::SYMMETRIES
        .iter()
        .map(|&symmetry| SymmetryMap {
            name: symmetry.name(),
            cells: (0..rows * cols)
                .map(|i| {
                    let (row, col) = symmetry.source(i / cols, i % cols, rows, cols);
                    row * cols + col
                })
                .collect(),
            actions: (0..G::ACTIONS)
                .map(|a| source_action::<G>(symmetry, a))
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_is_a_permutation_and_turns_compose() {
        for symmetry in Symmetry::ALL {
            let mut seen = [false; 16];
            for i in 0..16 {
                let (r, c) = symmetry.source(i / 4, i % 4, 4, 4);
                seen[r * 4 + c] = true;
            }
            assert!(seen.iter().all(|&s| s), "{symmetry:?}");
        }
        // Four quarter turns are the identity; two are half a turn.
        let turn = |(r, c)| Symmetry::Rotate90.source(r, c, 5, 5);
        for (r, c) in [(0, 0), (1, 3), (4, 2)] {
            assert_eq!(turn(turn(turn(turn((r, c))))), (r, c));
            assert_eq!(turn(turn((r, c))), Symmetry::Rotate180.source(r, c, 5, 5));
            assert_eq!(
                Symmetry::Rotate270.source(r, c, 5, 5),
                turn(turn(turn((r, c))))
            );
        }
        assert!(!Symmetry::Rotate90.fits(6, 7));
        assert!(Symmetry::MirrorColumns.fits(6, 7));
    }
}
