//! Othello's own subcommands: `perft`, `ffo` (the endgame suite), `wthor` (the game
//! database), `train-patterns` (the learned evaluation), `build-book` (the opening book), `nboard` and `gtp` (the engine protocols).

pub mod accuracy;
pub mod book;
mod commands;
pub mod gtp;
pub mod nboard;
mod protocol_input;
pub mod train;

pub use commands::{FfoArgs, PerftArgs, WthorArgs, ffo_cmd, perft_cmd, wthor_cmd};
