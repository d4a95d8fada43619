//! Board data structures (article 004): one trait, three storages, and incremental line
//! counts that any of them can be wrapped in.
//!
//! The seed gives each structure its own move type (a tuple, an integer, …) and converts
//! with `xy_to_move` / `move_to_xy`. Here the move type is always [`Square`]; each structure
//! maps it to its own storage index internally, so every structure plugs into the same
//! position and the same AIs.

mod array1d;
mod array2d;
mod bitboard;
mod line_counts;

pub use array1d::Array1d;
pub use array2d::Array2d;
pub use bitboard::Bitboard;
pub(crate) use bitboard::has_line;
pub use line_counts::LineCounts;

use arrayvec::ArrayVec;

use gamelab_core::{GameRng, Outcome};

use crate::{Mark, MarkpatCounts, Player, Square, Status};

/// Up to 9 moves, without allocation.
pub type Moves = ArrayVec<Square, 9>;

/// The article's abstract board: storage of the 9 squares and the questions the rules and the
/// AIs ask of it. Implementations must agree exactly (a test walks the whole game tree).
pub trait Board: Clone + Default + std::fmt::Debug + Send + Sync + 'static {
    /// Name used on the command line (`--board`) and in benchmark tables.
    const NAME: &'static str;

    /// The mark on `sq` (the article's `getmark_by_move`).
    fn get(&self, sq: Square) -> Mark;

    /// Puts `mark` on `sq`; `Mark::Empty` clears it (the article's `setmark_by_move`).
    fn set(&mut self, sq: Square, mark: Mark);

    /// Whether `player` owns a whole line through `last`, the square just marked.
    fn is_winner(&self, player: Player, last: Square) -> bool;

    /// For each of the 8 lines, its (last_turn marks, turn marks, empty) pattern, counted.
    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts;

    /// Empty squares in y-major order (the article's `calc_legal_moves`, before the game-over
    /// check, which the position does).
    fn empty_squares(&self) -> Moves {
        Square::ALL
            .into_iter()
            .filter(|&sq| self.get(sq) == Mark::Empty)
            .collect()
    }

    /// The o squares and the x squares as 9-bit masks over square numbers.
    fn masks(&self) -> [u16; 2] {
        let mut masks = [0u16; 2];
        for sq in Square::ALL {
            if let Some(p) = self.get(sq).player() {
                masks[p.index()] |= sq.bit();
            }
        }
        masks
    }

    /// The article's `judge`: the status after `last_turn` marked `last_move`, the
    /// `move_count`-th move of the game.
    #[inline]
    fn judge(&self, last_turn: Player, last_move: Square, move_count: usize) -> Status {
        if self.is_winner(last_turn, last_move) {
            Status::Won(last_turn)
        } else if move_count == 9 {
            Status::Draw
        } else {
            Status::Playing
        }
    }

    /// A whole random game from here, `turn` to move, for structures with a faster loop
    /// than the position's (see `Game::uniform_playout`); `None`: use the position's.
    /// Only the bitboard has one, so that the article's benchmark of ai2 against ai2 still
    /// measures each structure.
    fn uniform_playout(&self, turn: Player, rngs: &mut [GameRng; 2]) -> Option<(Outcome, u64)> {
        let _ = (turn, rngs);
        None
    }

    /// The three rows as `.ox` text, row by row with no separator (the article's
    /// `board_to_str`).
    fn board_string(&self) -> String {
        Square::ALL
            .iter()
            .map(|&sq| self.get(sq).as_char())
            .collect()
    }
}

/// The board data structures, chosen at run time (`--board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    Array2d,
    Array1d,
    Bitboard,
}

impl BoardKind {
    pub const ALL: [BoardKind; 3] = [BoardKind::Array2d, BoardKind::Array1d, BoardKind::Bitboard];

    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::Array2d => Array2d::NAME,
            BoardKind::Array1d => Array1d::NAME,
            BoardKind::Bitboard => Bitboard::NAME,
        }
    }
}

impl std::fmt::Display for BoardKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BoardKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BoardKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = BoardKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown board structure `{s}`; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

/// Runs `$body` with the type alias `$B` bound to the board structure chosen at run time
/// by `$kind` (a [`BoardKind`]) and `$line_counts` (a `bool`), so that code stays generic
/// and monomorphised while the choice comes from the command line.
#[macro_export]
macro_rules! with_board {
    ($kind:expr, $line_counts:expr, $B:ident => $body:expr) => {{
        use $crate::board::{Array1d, Array2d, Bitboard, BoardKind, LineCounts};
        match ($kind, $line_counts) {
            (BoardKind::Array2d, false) => {
                type $B = Array2d;
                $body
            }
            (BoardKind::Array2d, true) => {
                type $B = LineCounts<Array2d>;
                $body
            }
            (BoardKind::Array1d, false) => {
                type $B = Array1d;
                $body
            }
            (BoardKind::Array1d, true) => {
                type $B = LineCounts<Array1d>;
                $body
            }
            (BoardKind::Bitboard, false) => {
                type $B = Bitboard;
                $body
            }
            (BoardKind::Bitboard, true) => {
                type $B = LineCounts<Bitboard>;
                $body
            }
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_kind_names_round_trip() {
        for kind in BoardKind::ALL {
            assert_eq!(kind.name().parse::<BoardKind>(), Ok(kind));
        }
        let err = "3d".parse::<BoardKind>().unwrap_err();
        assert!(err.contains("2d, 1d, bitboard"), "{err}");
    }

    #[test]
    fn dispatch_picks_the_structure() {
        let name = |kind, counts| with_board!(kind, counts, B => B::NAME);
        assert_eq!(name(BoardKind::Array1d, false), "1d");
        assert_eq!(name(BoardKind::Bitboard, true), "bitboard+counts");
    }
}
