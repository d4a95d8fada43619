//! The engine: pattern features and the learned evaluation, the midgame search with
//! Multi-ProbCut (and its defaults), the exact endgame solver, the searcher that runs
//! both, perft, the opening book, training, and the builds that compile each hot function
//! once per SIMD level. Stands on the rules and the formats; its modules stand on floors
//! of their own (builds and evaluation → midgame → endgame → search → book, training;
//! `tests/floors.rs` keeps them so).

pub mod accuracy;
pub mod book;
pub(crate) mod builds;
pub mod endgame;
pub mod eval;
mod hooks;
pub(crate) mod in_order;
pub mod learned;
pub mod midgame;
pub mod patterns;
pub mod perft;
pub mod probcut;
pub mod search;
pub(crate) mod slots;
pub mod training;
