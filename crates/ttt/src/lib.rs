//! Tic-tac-toe for gamelab (seeds 000 and 004).
//!
//! A [`Position`] over any [`board::Board`] data structure — 2-D array, 1-D array or
//! bitboard, each with or without incremental line counts — with the article's text form,
//! [`Markpat`] line patterns and the 8 board symmetries. `Position` implements
//! [`gamelab_core::Game`]; it knows nothing about AIs.
//!
//! ```
//! use gamelab_ttt::{Position, Square, Status, Player};
//!
//! let mut pos: Position = "xo.xo....".parse().unwrap();
//! assert_eq!(pos.turn(), Player::O);
//! pos.play_unchecked(Square::from_xy(1, 2).unwrap());
//! assert_eq!(pos.status(), Status::Won(Player::O));
//! assert_eq!(pos.to_string(), "winner o\nxo.\nxo.\n.O.");
//! ```

pub mod ai;
pub mod board;
mod describe;
pub mod learned;
mod markpat;
mod parse;
mod position;
pub mod solve;
pub mod solve_file;
mod square;
pub mod symmetry;

pub use describe::{COUNTS_SUFFIX, Catalogue};
pub use markpat::{Markpat, MarkpatCounts};
pub use parse::{ParsePositionError, parse_square};
pub use position::{MoveError, Position, Status};
pub use square::{LINE_MASKS, LINE_NAMES, LINES, Mark, Player, Square};
pub use symmetry::{Symmetry, canonical_key, move_images};

/// The default tic-tac-toe game: a position over the bitboard.
pub type Ttt = Position<board::Bitboard>;
