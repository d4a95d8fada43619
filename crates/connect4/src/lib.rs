//! Connect Four for gamelab: 7 columns of 6, a disc dropped in a column falls to its
//! lowest empty square, four in a row (across, up or diagonally) wins.
//!
//! The position is two bitboards in the classic 7-bits-a-column layout (bit `7·col + row`,
//! row 0 at the bottom, the 7th bit of each column always empty), so a four-in-a-row test
//! is four shifts and ands. [`ConnectFour`] implements [`gamelab_core::Game`]; [`ai`] has
//! its AIs and [`solve`] an exact solver.
//!
//! ```
//! use gamelab_core::{Game, Notation};
//! use gamelab_connect4::ConnectFour;
//!
//! let mut game = ConnectFour::parse_position("dcdcdc").unwrap();
//! let win = game.parse_move("d").unwrap();
//! game.play(win).unwrap();
//! assert_eq!(ConnectFour::describe_outcome(game.outcome().unwrap()), "red wins");
//! ```

pub mod ai;
mod describe;
mod position;
pub mod solve;

pub use describe::Catalogue;
pub use position::{ConnectFour, HEIGHT, Move, MoveError, Moves, WIDTH};
