//! Othello for gamelab (article 003): a bitboard position that implements
//! [`gamelab_core::Game`], perft, the article's AIs and better ones, an exact endgame solver,
//! and a reader for the WTHOR game database.

pub mod ai;
pub mod bits;
pub mod book;
mod builds;
mod describe;
pub mod endgame;
pub mod eval;
pub mod ffo;
pub mod ggf;
pub mod gtp_engine;
pub mod gtp_session;
mod in_order;
#[allow(unsafe_code)] // SIMD intrinsics behind a run-time CPU check; see the module.
pub mod kernel;
pub mod learned;
pub mod nboard_engine;
pub mod nboard_session;
pub mod openings;
pub mod outside_engine;
pub mod patterns;
pub mod perft;
mod position;
pub mod probcut;
pub mod search;
pub mod selfplay;
mod slots;
pub mod training;
pub mod transcript;
pub mod wthor;
pub mod wthor_database;

pub use describe::Catalogue;
pub use position::{Move, Moves, Othello, OthelloError, Square, squares_of};
