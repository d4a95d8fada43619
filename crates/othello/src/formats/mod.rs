//! How Othello is written down: transcripts, GGF, the WTHOR database, FFO endgame
//! files, the named openings and the `Notation` the generic code reads and writes with.
//! Stands on the rules alone.

pub mod ffo;
pub mod ggf;
mod notation;
pub mod openings;
pub mod transcript;
pub mod wthor;
pub mod wthor_database;
