//! The arena: A against B, N games with A moving first and N with A moving second, sampled
//! with seeded streams or computed exactly from the agents' distributions.
//!
//! Game `i` of a match (0 ≤ i < 2N) has A first when `i < N`. Its two sides draw from the
//! streams `(seed, i, side)`, so the games — and the digest over them — are the same for
//! any number of threads.
//!
//! By concern, in files of their own: `play` (the game loop, chunks, threads, clocks),
//! `openings` (where the games start), `report` (tallies, results, the report) and
//! `exact` (exact probabilities); everything is reached as `arena::…`. A match as a
//! request that runs itself is [`crate::match_request`].

mod exact;
mod openings;
mod play;
mod report;

pub use crate::record::PlayedGame;
pub use exact::*;
pub use openings::*;
pub use play::*;
pub use report::*;
