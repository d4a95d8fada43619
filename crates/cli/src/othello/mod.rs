//! Othello's own subcommands: `perft`, `ffo` (the endgame suite), `wthor` (the game
//! database) and `train-patterns` (the learned evaluation).

mod commands;
pub mod train;

pub use commands::{FfoArgs, PerftArgs, WthorArgs, ffo_cmd, perft_cmd, wthor_cmd};
