//! Othello for gamelab (article 003): a bitboard position that implements
//! [`gamelab_core::Game`], perft, the article's AIs and better ones, an exact endgame solver,
//! and a reader for the WTHOR game database.
//!
//! The crate stands on floors, each using only the floors below it: [`rules`] (bitboards,
//! kernels, the position) → [`formats`] (transcripts, GGF, WTHOR, FFO, the notation) →
//! [`engine`] (evaluation, search, endgame, ProbCut, book, perft, the SIMD builds) →
//! [`protocols`] (outside engines over NBoard and GTP) → the registry of AIs ([`ai`]), the
//! catalogue entry and the sessions that serve gamelab's AIs over NBoard and GTP. Every
//! module is also reached at the top, as `gamelab_othello::search` and so on.
//!
//! ```
//! use gamelab_core::{Game, Notation};
//! use gamelab_othello::Othello;
//! let mut game = Othello::new();
//! let moves: Vec<String> = game.legal_moves().iter().map(ToString::to_string).collect();
//! assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
//! game.play(game.parse_move("f5").unwrap()).unwrap();
//! assert_eq!(game.ply(), 1);
//! // The number of positions 3 plies from the start (the perft table's).
//! assert_eq!(gamelab_othello::perft::perft(&Othello::new(), 3), 56);
//! ```

pub mod engine;
pub mod formats;
pub mod protocols;
pub mod rules;

pub mod ai;
mod describe;
pub mod gtp_session;
pub mod nboard_session;
pub mod selfplay;

pub use engine::{
    accuracy, book, endgame, eval, learned, midgame, patterns, perft, probcut, search, training,
};
pub use formats::{ffo, ggf, openings, transcript, wthor, wthor_database};
pub use protocols::{gtp_engine, nboard_engine, outside_engine};
pub use rules::{bits, kernel};

pub use describe::Catalogue;
pub use rules::position::{Move, Moves, Othello, OthelloError, Square, squares_of};
