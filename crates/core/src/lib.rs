//! gamelab-core: the pieces every game and every AI share.
//!
//! A [`Game`] knows its rules and nothing about AIs; an [`Agent`] knows how to pick a move
//! and nothing about matches; an agent that can say more than its move (values, lines,
//! policy, statistics) hands out its [`Analyst`], whose results are [`analysis`]'s shapes. Randomness reaches agents only through [`GameRng`] streams
//! derived from `(seed, game index, side)` by [`game_rng`], so a game's result never depends
//! on threads or timing.
//!
//! How the pieces meet: a game crate implements [`Game`], [`Notation`], [`EngineHooks`] and
//! [`Described`], and lists its AIs in a [`Registry`] that builds agents from specs such as
//! `engine:level=8`. The catalogue (`gamelab-games`) hands a front end the game a user
//! named through a [`GameVisitor`]. A [`match_request::MatchRequest`] plays two specs
//! against each other through the [`arena`] and fills the [`arena::MatchReport`] every
//! front end shows; [`session`] is the game a person plays, move by move; [`valuation`]
//! says what an AI's values mean; [`actions`] numbers moves and symmetries for learning
//! libraries.

pub mod actions;
mod agent;
pub mod analysis;
mod analyst;
pub mod arena;
pub mod by_score;
pub mod child_program;
pub mod clock;
pub mod describe;
pub mod diverge;
pub mod elo;
pub mod files;
mod game;
mod game_record;
pub mod limits;
pub mod match_request;
pub mod mcts;
pub mod proof;
mod random;
pub mod record;
pub mod registry;
pub mod search;
pub mod session;
mod side;
pub mod tournament;
pub mod valuation;

pub use agent::{Agent, BestMoves, Cutoff, Forfeit, StopFlag, Uniform, Watchdog, deepen_within};
pub use analysis::{
    DeepScore, Deepening, DeepeningEnd, MoveStat, MoveValue, Policy, Proven, SearchStats, Tested,
    deepen_by_moves, deepen_lines_by_moves,
};
pub use analyst::Analyst;
pub use by_score::{ByScore, Evaluate};
pub use describe::{
    BoardError, CatalogueEntry, Described, GameVisitor, PieceStyle, Preset, Rating, Single,
};
pub use game::{
    EngineHooks, Game, GameHeaders, HeadersError, MoveList, Notation, RecordFormatError,
    SetUpError, without_move_number,
};
pub use random::{GameRng, SideStream, StreamKey, WORDS_PER_GAME, game_rng};
pub use registry::{
    AgentEntry, AgentSpec, FileAccess, FileValue, NamedProgram, ParamSpec, Params, PreparedSpec,
    Registry, SpecError,
};
pub use side::{Outcome, Side};

/// splitmix64's finaliser: a fixed, well-mixing 64-bit function for keys and digests
/// (unlike `DefaultHasher`, it never changes between Rust versions).
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
