//! Tic-tac-toe's own subcommands: the solved tree, alpha-beta analysis, the article's
//! benchmark of board structures, and article 002's learning pipeline.

pub mod bench;
pub mod dataset;
pub mod learn_curve;
#[cfg(test)]
mod play_tests;
pub mod search;
pub mod solve;
pub mod train;
pub mod tree;
